//! The experiments (src/experiments) run natively: each verdict the documents'
//! claims predict, with the measured numbers in the failure message. A claim
//! that does not hold here is asserted as the finding it is (and documented in
//! the README), so a change in behaviour shows up either way.
//!
//! The default run of every experiment also writes its key numbers to
//! `target/experiment-numbers.json`, which the end-to-end test compares with
//! the numbers the page computes through wasm from the same definitions.

use std::sync::OnceLock;

use xpbd_cloth::experiments::{definition, definitions, Report, Status};

/// The report of the default run of `id`, computed once per test binary.
fn default_report(id: &str) -> Report {
    static REPORTS: OnceLock<Vec<(&'static str, Report)>> = OnceLock::new();
    let reports = REPORTS.get_or_init(|| {
        definitions()
            .iter()
            .map(|d| (d.id, d.run(d.defaults()).expect("the defaults are valid")))
            .collect()
    });
    reports
        .iter()
        .find(|(i, _)| *i == id)
        .expect("an experiment")
        .1
        .clone()
}

/// The status of `report`'s verdict, and a message with every key number.
fn verdict(report: &Report) -> (Status, String) {
    let v = report
        .verdict
        .as_ref()
        .expect("a finished run has a verdict");
    (
        v.status,
        format!("{}\nnumbers: {:?}", v.text, report.numbers),
    )
}

#[test]
fn pbd_stiffens_with_iterations_and_xpbd_does_not() {
    let report = default_report("iterations");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(report.number("xpbdChange") <= 10.0, "{message}");
    assert!(report.number("xpbdEquilibriumGap") <= 10.0, "{message}");
    assert!(report.number("unsettled") <= 1.0, "{message}");
    assert!(
        report.number("pbdStretchMax") < 0.25 * report.number("pbdStretchFrom"),
        "{message}"
    );
    // PBD's stretch falls with every count in the table
    let pbd: Vec<f64> = report.table.rows.iter().map(|r| number(&r[1])).collect();
    assert!(
        pbd.windows(2).all(|w| w[1] < w[0]),
        "PBD stretch by count: {pbd:?}"
    );
}

#[test]
fn pbd_stiffens_as_the_time_step_shrinks_and_xpbd_does_not() {
    let report = default_report("time-step");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(report.number("xpbdChange") <= 10.0, "{message}");
    assert!(report.number("pbdChange") >= 25.0, "{message}");
}

#[test]
fn substeps_straighten_the_top_edge_of_a_hanging_cloth() {
    let report = default_report("hanging");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(
        report.number("sagSubsteps") < 0.5 * report.number("sagIterations"),
        "{message}"
    );
    assert!(
        report.number("sagSubsteps") < 0.02 * report.number("edgeLength"),
        "{message}"
    );
}

#[test]
fn constraint_damping_removes_energy_only_up_to_a_point() {
    // A finding: more β removes more energy up to γ = αβ/h of about 1;
    // beyond, the total energy rises above its start.
    let report = default_report("damping");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Partly, "{message}");
    let breaks = report.number("breaksAtBeta");
    assert!(breaks > 1.0 && breaks < 1e5, "{message}");
    // the report's β̃ is far below anything that matters here
    assert!(
        report.number("reportBetaEffect").abs() < 1e-5 * report.number("gravityScale"),
        "{message}"
    );
}

#[test]
fn the_coloured_order_needs_a_few_more_iterations() {
    let report = default_report("convergence");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    // it converges more slowly per iteration, and both reach the level
    assert!(report.number("ratioAt10") > 1.0, "{message}");
    assert!(
        report.number("coloredIterations") >= report.number("originalIterations"),
        "{message}"
    );
}

#[test]
fn bending_does_not_remove_the_wrinkles_here() {
    // The claim says bending removes small wrinkles; counted as curvature
    // sign changes per row, it leaves as many. A finding, documented.
    let report = default_report("bending");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::DoesNotHold, "{message}");
    // there are wrinkles to remove: more than a smooth drape's one or two
    assert!(report.number("wrinklesOff") > 2.0, "{message}");
}

#[test]
fn undamped_substeps_do_not_explode_here_but_gain_some_energy() {
    // The anecdote predicts an explosion; this solver stays bounded, yet its
    // total energy does rise above its start. A finding, documented.
    let report = default_report("substeps");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::DoesNotHold, "{message}");
    assert_eq!(report.number("exploded"), 0.0, "{message}");
    assert!(report.number("worstEnergyGain") > 0.0, "{message}");
}

fn number(cell: &xpbd_cloth::experiments::Cell) -> f64 {
    match cell {
        xpbd_cloth::experiments::Cell::Number(v) => *v,
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn a_run_in_slices_reports_exactly_what_a_run_at_once_does() {
    for d in definitions() {
        // a short run: the shortest duration the experiment takes, at least 0.5 s
        let settings: Vec<(&str, f64)> = d
            .settings
            .iter()
            .filter(|s| s.name == "duration")
            .map(|s| ("duration", s.min.max(0.5)))
            .collect();
        let at_once = d.run(d.settings(&settings).unwrap()).unwrap();
        let mut run = d.start(d.settings(&settings).unwrap()).unwrap();
        let mut progress = 0.0;
        let mut slices = 0;
        while !run.advance(200_000) {
            assert!(
                run.report().verdict.is_none(),
                "{}: a verdict before the end",
                d.id
            );
            assert!(
                run.progress() >= progress && run.progress() < 1.0,
                "{}: progress {}",
                d.id,
                run.progress()
            );
            progress = run.progress();
            slices += 1;
        }
        assert!(slices > 1, "{}: ran in {slices} slices", d.id);
        assert_eq!(run.progress(), 1.0);
        // as JSON: the reports hold NaN (gaps in plots), which never equals itself
        assert_eq!(run.report().to_json(), at_once.to_json(), "{}", d.id);
    }
}

#[test]
fn settings_are_checked_and_named() {
    let d = definition("iterations").unwrap();
    let message = |given: &[(&str, f64)]| d.settings(given).unwrap_err().to_string();
    assert!(
        message(&[("width", 1.0)])
            .starts_with("invalid width: got 1, expected a whole number from 2 to 60"),
        "{}",
        message(&[("width", 1.0)])
    );
    assert!(message(&[("width", 2.5)]).starts_with("invalid width:"));
    assert!(message(&[("mass", f64::NAN)]).starts_with("invalid mass: got NaN"));
    assert!(message(&[("nope", 1.0)]).starts_with("invalid settings: got \"nope\""));
    let settings = d.settings(&[("fromIterations", 100.0)]).unwrap();
    let error = d
        .start(settings)
        .err()
        .expect("from ≥ max is refused")
        .to_string();
    assert!(
        error.starts_with("invalid fromIterations: got 100"),
        "{error}"
    );
    let error = definition("bogus").err().unwrap().to_string();
    assert!(
        error.starts_with("invalid experiment: got \"bogus\""),
        "{error}"
    );
    // a run that would take too long is refused before anything is built
    let settings = d
        .settings(&[
            ("width", 60.0),
            ("height", 60.0),
            ("maxIterations", 200.0),
            ("duration", 20.0),
            ("timeStep", 1e-4),
        ])
        .unwrap();
    let error = d
        .start(settings)
        .err()
        .expect("a huge run is refused")
        .to_string();
    assert!(error.contains("work units"), "{error}");
}

#[test]
fn every_setting_default_is_accepted_and_json_is_well_formed() {
    for d in definitions() {
        for s in d.settings {
            assert_eq!(
                s.check(s.default).ok(),
                Some(s.default),
                "{}.{}",
                d.id,
                s.name
            );
        }
    }
    let report = default_report("convergence").to_json();
    assert!(
        report.starts_with("{\"charts\":[{")
            && report.contains("\"verdict\":{\"status\":\"holds\""),
        "{report}"
    );
}

#[test]
fn writes_the_native_numbers_for_the_page_test() {
    // each experiment's default report, as the page receives it from wasm
    let parts: Vec<String> = definitions()
        .iter()
        .map(|d| {
            let report = default_report(d.id);
            if let Some(v) = &report.verdict {
                println!(
                    "{}: {}\n  {}\n  {:?}\n",
                    d.id, v.text, v.advice, report.numbers
                );
            }
            format!("\"{}\":{}", d.id, report.to_json())
        })
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("experiment-numbers.json"),
        format!("{{{}}}\n", parts.join(",")),
    )
    .unwrap();
}

#[test]
fn substeps_keep_far_more_of_the_cords_energy_than_iterations() {
    let report = default_report("cord");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    let (iterations, hybrid, substeps) = (
        report.number("keptIterations"),
        report.number("keptHybrid"),
        report.number("keptSubsteps"),
    );
    assert!(iterations < hybrid && hybrid < substeps, "{message}");
    assert!(substeps >= 2.0 * iterations, "{message}");
}

// ---- The independent double-precision reference -------------------------
//
// Each check runs the experiment's set-up again in f64 (tests/common/
// reference_f64.rs, sharing no code with the crate), asks the experiment's
// rule the same question of the f64 numbers, and requires the same verdict;
// the project's key numbers must agree with the f64 ones within what single
// precision explains: a position rounds by about `f32::EPSILON × extent` per
// solve, and independent roundings add like a random walk, so after `solves`
// solves touching a particle a stretch (length / rest) is off by about
// `EPSILON × extent / rest × √solves`.

mod common {
    pub mod reference_f64;
}
use common::reference_f64::{Reference, Settings as F64};

/// What single precision explains in a relative stretch after `solves` solves
/// touching each particle, for a cloth `extent` metres across with links of
/// `rest` metres.
fn f32_stretch_tolerance(extent: f64, rest: f64, solves: f64) -> f64 {
    f32::EPSILON as f64 * extent / rest * solves.sqrt()
}

/// Runs `r` for `duration` seconds and returns its mean stretch over the
/// second half (sampled every step), as the experiment measures it.
fn settled_stretch_f64(r: &mut Reference, duration: f64) -> f64 {
    let steps = (duration / r.s.dt).round() as usize;
    let (mut sum, mut count) = (0.0, 0);
    for k in 1..=steps {
        r.step();
        if k as f64 * r.s.dt >= duration / 2.0 {
            sum += r.mean_stretch();
            count += 1;
        }
    }
    100.0 * sum / count as f64
}

#[test]
fn the_iterations_verdict_and_numbers_hold_in_f64() {
    let report = default_report("iterations");
    let d = definition("iterations").unwrap().defaults();
    let (from, max) = (d.count("fromIterations") as usize, d.count("maxIterations") as usize);
    let run = |n: usize, pbd: bool| {
        let s = F64 {
            dt: d.get("timeStep"),
            iterations: n,
            stiffness: d.get("stiffness"),
            velocity_damping: d.get("velocityDamping"),
            pbd_k: pbd.then(|| d.get("pbdCoefficient")),
            ..F64::default()
        };
        let mut r = Reference::grid(20, 15, 2, d.get("mass"), s);
        settled_stretch_f64(&mut r, d.get("duration"))
    };
    let (pbd_from, pbd_max, xpbd_from, xpbd_max) =
        (run(from, true), run(max, true), run(from, false), run(max, false));
    let pbd_change = 100.0 * (pbd_max - pbd_from).abs() / pbd_from;
    let xpbd_change = 100.0 * (xpbd_max - xpbd_from).abs() / xpbd_from;
    println!("f64: PBD {pbd_from:.4} → {pbd_max:.4} % ({pbd_change:.2} %), XPBD {xpbd_from:.4} → {xpbd_max:.4} % ({xpbd_change:.3} %)");
    let (_, message) = verdict(&report);
    // the rule's two parts, asked of the f64 numbers
    assert!(pbd_max < pbd_from && pbd_change >= 25.0, "{message}");
    assert!(xpbd_change <= 10.0, "{message}");
    let steps = d.get("duration") / d.get("timeStep");
    for (name, f64_value, n) in [
        ("pbdStretchFrom", pbd_from, from),
        ("pbdStretchMax", pbd_max, max),
        ("xpbdStretchFrom", xpbd_from, from),
        ("xpbdStretchMax", xpbd_max, max),
    ] {
        let tolerance = 100.0 * f32_stretch_tolerance(4.0, 0.2, steps * n as f64 * 8.0);
        let got = report.number(name);
        assert!(
            (got - f64_value).abs() <= tolerance,
            "{name}: f32 {got} against f64 {f64_value}, tolerance {tolerance}\n{message}"
        );
    }
}
