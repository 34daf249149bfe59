//! The three-particle cord: iterations against substeps against the hybrid, at equal work.

use super::setup::TWICE_THE_TIME;
use super::{
    mean_after, series, Cell, Change, Chart, Choice, Definition, Plan, Report, Series, Setting,
    Settings, Status, Table, Trial, Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Value;

/// Substeps must keep at least this many times the energy iterations keep
/// (over the last seconds of the run) for "far more".
pub const MIN_RATIO: f64 = 2.0;

pub(super) static DEFINITION: Definition = Definition {
    id: "cord",
    title: "The three-particle cord: iterations, substeps and the hybrid",
    claim: "At equal work, substeps keep far more energy than iterations: a three-particle cord released near vertical with 20 iterations per frame quickly comes to rest, with 20 substeps it swings chaotically much longer, and 4 substeps × 5 iterations sits between.",
    source: "Macklin et al., \"Small Steps in Physics Simulation\" (2019), section 4 and its double-pendulum figure; the course notes",
    method: "The \"double-pendulum\" preset (a pinned pivot and two 1 kg particles on rigid 0.5 m links, released 0.1 rad off upright) runs three times with the same constraint solves per frame: n iterations × 1 substep, n/s iterations × s substeps (the hybrid) and 1 iteration × n substeps. Measured: the energy above the hanging rest state, as a fraction of the start's, over time, and the path of the end particle.",
    rule: "Holds when, over the last 2 s (the window below), 1 iteration × n substeps keeps at least 2 × the share of its start energy that n iterations × 1 substep keep (\"far more\": at least double) and the hybrid keeps an amount between the two; in part when substeps keep more but not double, or the hybrid is out of order; does not hold when substeps keep no more. The cord is chaotic: its energy, not its path, is compared.",
    settings: &[
        Setting { name: "timeStep", label: "Frame time step", unit: "s", min: 1e-3, max: 0.05, whole: false, default: 0.0167 },
        Setting { name: "work", label: "Solves per frame n", unit: "", min: 2.0, max: 100.0, whole: true, default: 20.0 },
        Setting { name: "hybridSubsteps", label: "Hybrid substeps s", unit: "", min: 2.0, max: 50.0, whole: true, default: 4.0 },
        Setting { name: "duration", label: "Simulated time", unit: "s", min: 1.0, max: 60.0, whole: false, default: 10.0 },
        Setting { name: "window", label: "Late window (at most half the run)", unit: "s", min: 0.1, max: 30.0, whole: false, default: 2.0 },
    ],
    key: "keptRatio",
    choices: &[
        Choice::measure(
            &["window"],
            "the late window",
            Change::Times(2.0),
            "A verdict that changes with the window rests on what a chaotic cord happened to do in it.",
            "Read the energies over more than one window.",
        ),
        TWICE_THE_TIME,
    ],
    explain: None,
    prepare: None,
    build,
    report,
};

/// The three runs: (label, iterations, substeps).
fn runs(settings: &Settings) -> [(String, u32, u32); 3] {
    let (n, s) = (settings.count("work"), settings.count("hybridSubsteps"));
    [
        (format!("iterations: {n} × 1"), n, 1),
        (format!("hybrid: {} × {s}", n / s), n / s, s),
        (format!("substeps: 1 × {n}"), 1, n),
    ]
}

/// The energy of the cord above its hanging rest state, joules: kinetic plus
/// gravitational, less the gravitational energy of both particles hanging
/// straight down from the pivot (particle 0) on their links.
fn energy_above_rest(cloth: &Cloth, rest: f64) -> f64 {
    cloth.kinetic_energy() + cloth.potential_energy() - rest
}

/// The gravitational energy of the cord hanging at rest below its pivot.
fn rest_energy(cloth: &Cloth) -> f64 {
    let p = cloth.positions();
    let w = cloth.inverse_masses();
    let g = -cloth.params().gravity;
    let link = |a: usize, b: usize| {
        ((p[2 * a] - p[2 * b]) as f64).hypot((p[2 * a + 1] - p[2 * b + 1]) as f64)
    };
    let (l1, l2) = (link(0, 1), link(1, 2));
    let y0 = p[1] as f64;
    let mass = |k: usize| if w[k] > 0.0 { 1.0 / w[k] as f64 } else { 0.0 };
    mass(1) * g * (y0 - l1) + mass(2) * g * (y0 - l1 - l2)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (n, s) = (settings.count("work"), settings.count("hybridSubsteps"));
    if n % s != 0 || s >= n {
        return Err(ClothError::InvalidValue {
            field: "hybridSubsteps",
            value: s.to_string(),
            allowed: format!("a divisor of the solves per frame ({n}) below it"),
        });
    }
    let dt = settings.get("timeStep");
    runs(settings)
        .into_iter()
        .map(|(label, iterations, substeps)| {
            let cloth = Cloth::from_preset(
                "double-pendulum",
                &[
                    ("timeStepSize", Value::Number(dt)),
                    ("iterations", Value::Number(iterations as f64)),
                    ("substeps", Value::Number(substeps as f64)),
                    // the documents' cord has no air: only the solve may lose
                    // energy (the preset's own light air drag is for the page)
                    ("velocityDamping", Value::Number(0.0)),
                ],
            )?;
            let rest = rest_energy(&cloth);
            let start = energy_above_rest(&cloth, rest);
            let total = (settings.get("duration") / dt).round().max(1.0) as u32;
            Ok(Trial::new(
                label,
                substeps as f64,
                cloth,
                Plan::Steps { total, every: 1 },
                Box::new(move |c| {
                    let p = c.positions();
                    let kept = energy_above_rest(c, rest) / start;
                    vec![c.time(), kept, p[4] as f64, p[5] as f64]
                }),
            ))
        })
        .collect()
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late =
        settings.get("duration") - settings.get("window").min(settings.get("duration") / 2.0);
    let mut energy = Chart::new(
        "Energy kept over time",
        "time (s)",
        "energy above rest / at start",
    );
    let mut traces = Chart::new("Path of the end particle", "x (m)", "y (m)");
    traces.plane = true;
    let mut table = Table {
        columns: vec![
            "run (iterations × substeps)".into(),
            "energy kept over the last seconds (%)".into(),
            "energy kept at the end (%)".into(),
        ],
        rows: Vec::new(),
    };
    let mut kept = Vec::new();
    for trial in trials {
        energy
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        traces.series.push(Series {
            label: trial.label.clone(),
            points: trial.samples.iter().map(|row| [row[2], row[3]]).collect(),
        });
        let late_kept = mean_after(&trial.samples, 1, late);
        kept.push(late_kept);
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(100.0 * late_kept),
            Cell::Number(100.0 * trial.samples.last().map_or(f64::NAN, |row| row[1])),
        ]);
    }
    let (iterations, hybrid, substeps) = (kept[0], kept[1], kept[2]);
    let ordered = substeps > hybrid && hybrid > iterations;
    let far_more = substeps >= MIN_RATIO * iterations;
    let status = if ordered && far_more {
        Status::Holds
    } else if substeps > iterations {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let n = settings.count("work");
    let text = format!(
        "{}: over the last {:.0} s the cord keeps {:.1} % of its start energy with {n} iterations, {:.1} % with the hybrid and {:.1} % with {n} substeps: {:.1} times what the iterations keep ({} the {MIN_RATIO} times asked for \"far more\"), and the hybrid {} between.",
        status.name(),
        settings.get("duration") - late,
        100.0 * iterations,
        100.0 * hybrid,
        100.0 * substeps,
        substeps / iterations,
        if far_more { "at least" } else { "short of" },
        if hybrid > iterations && hybrid < substeps { "lies" } else { "does not lie" },
    );
    Report::new(
        vec![energy, traces],
        table,
        vec![
            ("keptIterations", iterations),
            ("keptHybrid", hybrid),
            ("keptSubsteps", substeps),
            ("keptRatio", substeps / iterations),
        ],
        Verdict::new(status, text, "For lively motion (ropes, chains, pendulums) spend the solves on substeps, not iterations; iterations damp the motion away."),
    )
}
