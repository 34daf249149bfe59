//! The experiments (src/experiments) run natively: each verdict the documents'
//! claims predict, with the measured numbers in the failure message. A claim
//! that does not hold here is asserted as the finding it is (and documented in
//! docs/experiments.md), so a change in behaviour shows up either way.
//!
//! Each verdict's key number is reproduced by an independent double-precision
//! reference (`tests/common/reference_f64.rs`, written from the equations and
//! sharing no code with the crate) within the tolerance docs/experiments.md
//! states, and the f64 number must fall on the same side of the verdict's
//! threshold. Every declared choice's perturbation must run (`choices.rs`).
//!
//! The default run of every experiment also writes its key numbers to
//! `target/experiment-numbers.json`, which the end-to-end test compares with
//! the numbers the page computes through wasm from the same definitions.

use std::sync::OnceLock;

use xpbd_cloth::experiments::{definition, definitions, Cell, Check, Report, Status};

mod bodies;
mod chains;
mod choices;
mod convergence;
mod cord;
mod energy;
mod shapes;
mod solvers;
mod stack;
mod stiffness;

#[path = "../common/reference_f64.rs"]
mod reference_f64;
#[path = "../common/soft_f64.rs"]
mod soft_f64;
#[path = "../common/stack_f64.rs"]
mod stack_f64;
use reference_f64::{Reference, Settings as F64};

/// The report of the default run of `id`, computed once per test binary
/// (each experiment on its own, so tests of different experiments compute
/// theirs side by side).
fn default_report(id: &str) -> Report {
    static REPORTS: [OnceLock<Report>; 32] = [const { OnceLock::new() }; 32];
    let index = definitions()
        .iter()
        .position(|d| d.id == id)
        .expect("an experiment");
    REPORTS[index]
        .get_or_init(|| {
            let d = definitions()[index];
            d.run(d.defaults()).expect("the defaults are valid")
        })
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

/// The defaults' report of experiment `id`, its verdict's status and text,
/// with the text and the table's rows printed (what a failing test shows).
fn printed_report(id: &str) -> (Report, Status, String) {
    let report = default_report(id);
    let (status, message) = verdict(&report);
    let rows: Vec<String> = report.table.rows.iter().map(|r| format!("{r:?}")).collect();
    println!("{message}\n{}", rows.join("\n"));
    (report, status, message)
}

fn number(cell: &Cell) -> f64 {
    match cell {
        Cell::Number(v) => *v,
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn a_run_in_slices_reports_exactly_what_a_run_at_once_does() {
    for d in definitions() {
        // a short run: the shortest duration the experiment takes, at least 0.5 s
        let mut settings: Vec<(&str, f64)> = d
            .settings
            .iter()
            .filter(|s| s.name == "duration")
            .map(|s| ("duration", s.min.max(0.5)))
            .collect();
        // a check time within the short run
        if d.settings.iter().any(|s| s.name == "checkTime") {
            settings.push(("checkTime", 0.5));
        }
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
            assert!(
                slices < 100_000,
                "{}: not finished after {slices} slices",
                d.id
            );
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
                    "{}: {}\n  {}\n  {:?}",
                    d.id, v.text, v.advice, report.numbers
                );
                for c in &report.checks {
                    println!(
                        "  check: {} → {} ({} = {})",
                        c.perturbation,
                        c.status.map_or("not run", |s| s.name()),
                        d.key,
                        c.key
                    );
                }
                println!();
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

// ---- Helpers of the double-precision checks -------------------------------
//
// The project's key numbers must agree with the f64 ones within what single
// precision explains: a position rounds by about `f32::EPSILON × extent` per
// solve, and independent roundings add like a random walk, so after `solves`
// solves touching a particle a stretch (length / rest) is off by about
// `EPSILON × extent / rest × √solves`.

/// What single precision explains in a relative stretch after `solves` solves
/// touching each particle, for a cloth `extent` metres across with links of
/// `rest` metres.
fn f32_stretch_tolerance(extent: f64, rest: f64, solves: f64) -> f64 {
    f32::EPSILON as f64 * extent / rest * solves.sqrt()
}

/// Runs `r` for `duration` seconds, sampled as the experiments sample (at the
/// start and about 400 times): `(time, probe)` pairs.
/// Asserts that the report's number `name` (computed in f32) is within
/// `tolerance` of the f64 reference's `value`.
fn assert_matches_f64(report: &Report, name: &str, value: f64, tolerance: f64, context: &str) {
    let got = report.number(name);
    assert!(
        (got - value).abs() <= tolerance,
        "{name}: f32 {got} against f64 {value}, tolerance {tolerance}\n{context}"
    );
}

fn run_f64(r: &mut Reference, duration: f64, probe: impl Fn(&Reference) -> f64) -> Vec<[f64; 2]> {
    let total = (duration / r.s.dt).round().max(1.0) as usize;
    let every = (total / 400).max(1);
    let mut samples = vec![[0.0, probe(r)]];
    for k in 1..=total {
        r.step();
        if k % every == 0 || k == total {
            samples.push([r.time, probe(r)]);
        }
    }
    samples
}

/// The mean of the samples from time `from` on.
fn mean_from(samples: &[[f64; 2]], from: f64) -> f64 {
    let values: Vec<f64> = samples
        .iter()
        .filter(|p| p[0] >= from)
        .map(|p| p[1])
        .collect();
    values.iter().sum::<f64>() / values.len() as f64
}

/// Runs `r` for `duration` seconds and returns its mean stretch (%) over the
/// second half, as the experiment measures it.
fn settled_stretch_f64(r: &mut Reference, duration: f64) -> f64 {
    100.0
        * mean_from(
            &run_f64(r, duration, Reference::mean_stretch),
            duration / 2.0,
        )
}

/// The rule the bending, hanging-cloth and equal-cost experiments state for a
/// ratio of two measures (with bending over without, substeps over
/// iterations), applied to the f64 reference's ratio: at most a half holds,
/// below one holds in part.
fn halving_rule(ratio: f64) -> Status {
    if ratio <= 0.5 {
        Status::Holds
    } else if ratio < 1.0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    }
}

/// The f64 reference's settings for a chain experiment's settings `d` (its
/// stiffness and velocity damping) at time step `dt`, with `substeps` substeps
/// of `iterations` iterations in the original sweep order.
fn chain_f64(
    d: &xpbd_cloth::experiments::Settings,
    dt: f64,
    substeps: usize,
    iterations: usize,
) -> F64 {
    F64 {
        dt,
        substeps,
        iterations,
        stiffness: d.get("stiffness"),
        velocity_damping: d.get("velocityDamping"),
        coloured: false,
        ..F64::default()
    }
}

/// The check of `report` whose perturbation changed the setting `setting`
/// (the first, if the choice has several perturbations).
fn check<'a>(report: &'a Report, setting: &str) -> &'a Check {
    report
        .checks
        .iter()
        .find(|c| c.settings[0] == setting)
        .unwrap_or_else(|| panic!("no check of {setting}: {:?}", report.checks))
}

/// The status a rule that asks each step up to lower a measure gives:
/// holds when every one does, does not hold when the first does not, in part
/// otherwise (the long runs', damping's and the substeps' three-way split).
fn ranking_status(stops: Option<usize>) -> Status {
    match stops {
        None => Status::Holds,
        Some(1) => Status::DoesNotHold,
        Some(_) => Status::Partly,
    }
}

/// The exact static equilibrium (the reference's own Newton solve) of the
/// reference's `width × height` hanging cloth of `mass` kg particles and
/// `stiffness` N/m, found once per set-up, and the cloth's energies: at rest
/// in its start shape, `E₀`, and at equilibrium, `E_eq`.
struct Hanging {
    exact: Vec<[f64; 2]>,
    start: f64,
    equilibrium: f64,
}

impl Hanging {
    /// `E₀ − E_eq`: the energy the cloth can release by coming to rest.
    fn releasable(&self) -> f64 {
        self.start - self.equilibrium
    }
}

fn hanging_f64(width: usize, height: usize, mass: f64, stiffness: f64) -> std::sync::Arc<Hanging> {
    type Key = (usize, usize, u64, u64);
    static FOUND: std::sync::Mutex<Vec<(Key, std::sync::Arc<Hanging>)>> =
        std::sync::Mutex::new(Vec::new());
    let key = (width, height, mass.to_bits(), stiffness.to_bits());
    if let Some((_, found)) = FOUND.lock().unwrap().iter().find(|(k, _)| *k == key) {
        return found.clone();
    }
    let s = F64 {
        stiffness,
        ..F64::default()
    };
    let mut r = Reference::grid(width, height, 2, mass, s);
    let start = r.total();
    let exact = reference_f64::static_equilibrium(&r, stiffness);
    for (p, x) in r.particles.iter_mut().zip(&exact) {
        p.x = *x;
    }
    let found = std::sync::Arc::new(Hanging {
        equilibrium: r.total(),
        exact,
        start,
    });
    FOUND.lock().unwrap().push((key, found.clone()));
    found
}
