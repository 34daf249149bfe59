//! Equal cost, measured: iterations against substeps at equal work units (the
//! cost model's estimate of wasm time), not only equal constraint solves.

use super::measure::{grid_cloth, top_edge_sag};
use super::setup::{self, hanging_trial};
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::error::ClothError;
use crate::params::{FixedPreset, Params};

/// Substeps at equal work must leave at most this fraction of the
/// iterations' sag ("far straighter", as in the hanging experiment).
pub const MAX_SAG_RATIO: f64 = 0.5;

pub(super) static DEFINITION: Definition = Definition {
    id: "equal-cost",
    title: "Equal cost, measured: iterations against substeps",
    claim: "For the same computational budget, substeps give a stiffer, more accurate cloth than iterations.",
    source: "Macklin et al., \"Small Steps in Physics Simulation\" (2019), sections 4 and 5 (comparisons at equal cost)",
    method: "A cloth hangs from its two top corners with n iterations and 1 substep; a substep also predicts and updates every particle's velocity, so 1 iteration × n substeps costs more. The substep count s whose step costs no more work units (the cost model's estimate of wasm time, in ns) than n iterations is run beside it, and 1 × n for reference. Measured: each step's work units, and the sag of the top edge below its corners' line over the second half. Beside the work units, the run measures each run's wall-clock time per step (on the page in its worker with performance.now(), natively with the clock), shown in the table and its CSV with the machine noted; the verdict never reads a time.",
    rule: "Holds when s substeps of one iteration, costing no more work units than n iterations, leave at most half their sag (\"far straighter\", as the hanging experiment asks); in part when they leave less but not half; does not hold when they leave as much or more.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 3.0, max: 60.0, whole: true, default: 20.0 },
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 0.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "work", label: "Iterations n", unit: "", min: 2.0, max: 100.0, whole: true, default: 20.0 },
        setup::DURATION,
        setup::VELOCITY_DAMPING,
        setup::ORDER,
    ],
    key: "sagRatio",
    choices: &[setup::TWICE_THE_TIME, setup::THE_OTHER_ORDER],
    explain: None,
    prepare: None,
    build,
    report,
};

fn params(settings: &Settings, iterations: u32, substeps: u32) -> Params {
    Params {
        solver_order: setup::order(settings),
        stiffness: settings.get("stiffness"),
        iterations,
        substeps,
        mass: settings.get("mass"),
        time_step: settings.get("timeStep"),
        velocity_damping: settings.get("velocityDamping"),
        ..Params::default()
    }
}

/// The runs: (iterations, substeps): n × 1, s × 1 at equal work, 1 × n.
fn runs(settings: &Settings) -> Result<[(u32, u32); 3], ClothError> {
    let n = settings.count("work");
    let (w, h) = (settings.count("width"), settings.count("height"));
    let cost = |i, s| -> Result<u64, ClothError> {
        Ok(grid_cloth(w, h, FixedPreset::Two, params(settings, i, s))?.work_per_step())
    };
    let budget = cost(n, 1)?;
    let mut s = 1;
    while s < n && cost(1, s + 1)? <= budget {
        s += 1;
    }
    Ok([(n, 1), (1, s), (1, n)])
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let width = settings.count("width") as usize;
    runs(settings)?
        .into_iter()
        .map(|(iterations, substeps)| {
            hanging_trial(
                settings,
                format!("{iterations} × {substeps} (iterations × substeps)"),
                substeps as f64,
                params(settings, iterations, substeps),
                Box::new(move |c| vec![c.time(), top_edge_sag(c, width)]),
            )
        })
        .collect()
}

/// A trial's wall-clock milliseconds per step, as the run measured them
/// (`None` when the caller did not time it).
fn wall_ms_per_step(trial: &Trial) -> Option<f64> {
    (trial.wall_seconds > 0.0 && trial.steps_done() > 0)
        .then(|| 1e3 * trial.wall_seconds / trial.steps_done() as f64)
}

/// The table: each run's cost in work units (what the verdict uses) and,
/// beside it, its measured wall-clock time; both also as a ratio to n
/// iterations.
fn table(trials: &[Trial], sags: &[f64]) -> Table {
    let work = |t: &Trial| t.cloth.work_per_step() as f64;
    let timed = |value: Option<f64>| value.map_or(Cell::Text("not timed".into()), Cell::Number);
    let base_ms = wall_ms_per_step(&trials[0]);
    Table {
        columns: vec![
            "run".into(),
            "work units per step".into(),
            "work units / n iterations'".into(),
            "wall-clock per step (ms)".into(),
            "wall-clock / n iterations'".into(),
            "constraint solves per step".into(),
            "mean sag (m)".into(),
        ],
        rows: trials
            .iter()
            .zip(sags)
            .map(|(trial, &sag)| {
                let p = trial.cloth.params();
                let ms = wall_ms_per_step(trial);
                vec![
                    Cell::Text(trial.label.clone()),
                    Cell::Number(work(trial)),
                    Cell::Number(work(trial) / work(&trials[0])),
                    timed(ms),
                    timed(ms.zip(base_ms).map(|(ms, base)| ms / base)),
                    Cell::Number(
                        (p.iterations * p.substeps) as f64 * trial.cloth.num_constraints() as f64,
                    ),
                    Cell::Number(sag),
                ]
            })
            .collect(),
    }
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let half = settings.get("duration") / 2.0;
    let mut chart = Chart::new("Top-edge sag over time", "time (s)", "sag (m)");
    let mut sags = Vec::new();
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        sags.push(mean_after(&trial.samples, 1, half));
    }
    let table = table(trials, &sags);
    let ratio = sags[1] / sags[0];
    let status = if ratio <= MAX_SAG_RATIO {
        Status::Holds
    } else if ratio < 1.0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let (n, s) = (settings.count("work"), trials[1].key);
    let text = format!(
        "{}: for the work units of {n} iterations ({}) the cost model allows {s} substeps of one iteration ({}); they leave the top edge {:.4} m below its corners' line against {:.4} m with iterations ({:.0} % of it; {} the {:.0} % allowed). {n} substeps would cost {} work units and leave {:.4} m.",
        status.name(),
        trials[0].cloth.work_per_step(),
        trials[1].cloth.work_per_step(),
        sags[1],
        sags[0],
        100.0 * ratio,
        if ratio <= MAX_SAG_RATIO { "within" } else { "beyond" },
        100.0 * MAX_SAG_RATIO,
        trials[2].cloth.work_per_step(),
        sags[2],
    );
    let advice = if status == Status::Holds {
        "At equal cost, spend the budget on substeps."
    } else {
        "At equal cost substeps do not win here: keep the iterations, or compare with the settings you use."
    };
    Report::new(
        vec![chart],
        table,
        vec![
            ("sagIterations", sags[0]),
            ("sagEqualWork", sags[1]),
            ("sagEqualSolves", sags[2]),
            ("equalWorkSubsteps", s),
            ("sagRatio", ratio),
        ],
        Verdict::new(status, text, advice),
    )
}
