//! The run driver of the experiments (src/experiments/mod.rs): building a run
//! steps nothing, every step (warm-ups included) is taken in slices whose work
//! is bounded in work units, and a run of any accepted length completes, its
//! plots thinned for the page.

use xpbd_cloth::experiments::{definition, definitions, Definition, Run};

/// The page's budget per `advance` call, in work units.
const BUDGET: u64 = 2_000_000;

/// The most work one step of any trial of `run` is charged: a slice may
/// finish the piece of a step it began (a whole step, for a trial taken by
/// its own stepper), so it may pass its budget by at most this.
fn largest_step(run: &Run) -> u64 {
    run.trials()
        .iter()
        .map(|t| t.step_work())
        .max()
        .unwrap_or(0)
}

/// Starts `d` with `given` and checks that nothing has been stepped yet.
fn start_unstepped(d: &'static Definition, given: &[(&str, f64)]) -> Run {
    let settings = d.settings(given).expect("accepted settings");
    let run = d.start(settings).expect("an accepted run");
    assert_eq!(
        run.work_done(),
        0.0,
        "{}: work before the first slice",
        d.id
    );
    for trial in run.trials() {
        assert_eq!(
            trial.cloth.time(),
            0.0,
            "{} / {}: stepped while the run was built",
            d.id,
            trial.label
        );
        assert!(trial.samples.is_empty(), "{}: measured while built", d.id);
    }
    run
}

/// Runs `run` to the end in slices of [`BUDGET`], checking each slice's work;
/// fails (instead of looping on) if it takes far more slices than its estimate.
fn run_in_slices(mut run: Run, id: &str) -> Run {
    let step = largest_step(&run);
    let estimate = run
        .trials()
        .iter()
        .map(|t| t.cloth.work_per_step())
        .sum::<u64>();
    let mut slices = 0u64;
    let mut before = run.work_done();
    let limit = 10_000_000u64;
    while !run.advance(BUDGET) {
        let spent = run.work_done() - before;
        before = run.work_done();
        assert!(
            spent <= (BUDGET + step) as f64,
            "{id}: a slice of budget {BUDGET} spent {spent} work units (one step: {step})"
        );
        slices += 1;
        assert!(
            slices < limit,
            "{id}: not done after {slices} slices ({estimate})"
        );
    }
    run
}

#[test]
fn building_a_run_steps_nothing_and_slices_keep_their_budget() {
    // short runs (their shortest simulated time): a slice is bounded the same
    // whatever a run's length, and every check of a choice runs as well
    for d in definitions() {
        let mut given: Vec<(&str, f64)> = d
            .settings
            .iter()
            .filter(|s| s.name == "duration")
            .map(|s| ("duration", s.min.max(1.0)))
            .collect();
        if d.settings.iter().any(|s| s.name == "checkTime") {
            given.push(("checkTime", 0.5));
        }
        let run = start_unstepped(d, &given);
        assert!(
            run.trials().len() >= run.own_trials().len(),
            "{}: the checks' trials come after the run's own",
            d.id
        );
        let run = run_in_slices(run, d.id);
        assert!(run.is_done());
        assert!(
            run.trials().iter().all(|t| t.steps_done() > 0),
            "{}: every trial, the checks' too, was stepped",
            d.id
        );
        let report = run.report();
        assert!(report.verdict.is_some(), "{}: a verdict at the end", d.id);
        assert_eq!(
            report.checks.len(),
            run.planned_checks().len(),
            "{}: every planned check judged",
            d.id
        );
    }
}

#[test]
fn a_long_warm_up_is_stepped_in_slices_not_when_built() {
    // five seconds of falling at a small time step: 50 000 warm-up steps
    let d = definition("convergence").unwrap();
    let given = [("warmup", 5.0), ("timeStep", 1e-4), ("iterations", 20.0)];
    let run = start_unstepped(d, &given);
    let mut run = run;
    let step = largest_step(&run);
    assert!(
        !run.advance(BUDGET),
        "one slice does not warm up 50 000 steps"
    );
    assert!(
        run.work_done() <= (BUDGET + step) as f64,
        "{}",
        run.work_done()
    );
    let run = run_in_slices(run, "convergence (long warm-up)");
    // both orders start their measured step from the same fallen cloth
    let [original, coloured] = [&run.trials()[0], &run.trials()[1]];
    assert_eq!(original.samples[0], coloured.samples[0], "the same start");
    assert!(
        (original.cloth.time() - 5.0 - 1e-4).abs() < 1e-6,
        "{}",
        original.cloth.time()
    );
}

#[test]
fn the_longest_cord_completes_and_its_plots_are_thinned_for_the_page() {
    let d = definition("cord").unwrap();
    let run = start_unstepped(d, &[("timeStep", 1e-3), ("duration", 60.0)]);
    let run = run_in_slices(run, "cord, 60 s at 1 ms");
    let report = run.report();
    let longest = report.charts[0].series.iter().map(|s| s.points.len()).max();
    assert_eq!(longest, Some(60_001), "every step measured");
    let thinned = report.to_json_thinned(2000);
    let full = report.to_json();
    assert!(
        thinned.len() * 10 < full.len(),
        "thinned {} bytes, full {} bytes",
        thinned.len(),
        full.len()
    );
    // the table, the numbers and the verdict are the same in both: only the
    // plots' points differ
    let tail = |json: &str| json[json.find("\"table\":").expect("a table")..].to_string();
    assert_eq!(tail(&thinned), tail(&full));
}

#[test]
fn the_exact_equilibrium_is_found_in_slices_before_the_trials_with_the_same_numbers() {
    // the forces experiment compares with the Newton solve of its cloth's
    // exact equilibrium, of a stiff cloth: many times the page's budget
    let d = definition("forces").unwrap();
    let given = [("stiffness", 1e6), ("duration", 1.0)];
    let mut run = start_unstepped(d, &given);
    let step = largest_step(&run);
    let mut slices = 0u64;
    let mut before = 0.0;
    while run.is_preparing() {
        assert!(!run.advance(BUDGET));
        let spent = run.work_done() - before;
        before = run.work_done();
        assert!(
            spent > 0.0 && spent <= (BUDGET + step) as f64,
            "a slice of budget {BUDGET} spent {spent} work units while preparing"
        );
        slices += 1;
        if run.is_preparing() {
            assert!(
                run.trials().iter().all(|t| t.cloth.time() == 0.0),
                "no trial stepped before the equilibrium is found"
            );
            let report = run.report();
            assert!(report.verdict.is_none() && report.numbers.is_empty());
        }
    }
    assert!(slices > 20, "the solve took {slices} slices");
    assert!(run.progress() < 0.99, "{}", run.progress());
    let sliced = run_in_slices(run, "forces").report();
    // the same settings run in one call on a thread of its own (the
    // equilibria found are kept per thread): the same numbers, bit for bit
    let whole = std::thread::spawn(move || {
        let d = definition("forces").unwrap();
        d.run(d.settings(&given).unwrap()).unwrap()
    })
    .join()
    .unwrap();
    assert!(sliced.number("largestTension") > 0.0);
    let bits = |r: &xpbd_cloth::experiments::Report| {
        r.numbers
            .iter()
            .map(|(name, v)| (*name, v.to_bits()))
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&sliced), bits(&whole));
}
