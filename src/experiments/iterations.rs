//! Stiffness against the iteration count, PBD and XPBD.

use super::measure::{grid_cloth, mean_stretch};
use super::{
    mean_after, percent_change, Cell, Chart, Definition, Plan, Report, Series, Setting, Settings,
    Status, Table, Trial, Verdict,
};
use crate::params::{ClothError, FixedPreset, Params};

/// XPBD's stretch may change at most this much (%) from `fromIterations` to
/// `maxIterations` for its stiffness to "hardly depend" on the count.
pub const XPBD_MAX_CHANGE: f64 = 10.0;
/// PBD's stretch must fall at least this much (%) over the same range for it to
/// "get stiffer".
pub const PBD_MIN_CHANGE: f64 = 25.0;

/// The iteration counts swept (those up to `maxIterations`, and it).
const COUNTS: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 200];

pub(super) static DEFINITION: Definition = Definition {
    id: "iterations",
    title: "Stiffness against the iteration count",
    claim: "Plain PBD gets stiffer with every extra iteration, while XPBD keeps the stiffness you set: after about 10 iterations its stiffness hardly depends on the iteration count.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 6 and figure 2",
    method: "A cloth hangs from its two top corners; for each iteration count it runs as PBD (rigid constraints) and as XPBD (the stiffness below), with a little velocity damping so it settles. Measured: the mean relative stretch of all constraints over the second half of the run (lower = stiffer).",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 2.0, max: 60.0, whole: true, default: 20.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 2.0, max: 60.0, whole: true, default: 15.0 },
        Setting { name: "stiffness", label: "XPBD stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1000.0 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.1 },
        Setting { name: "timeStep", label: "Time step", unit: "s", min: 1e-4, max: 0.05, whole: false, default: 0.01 },
        Setting { name: "fromIterations", label: "Compare from", unit: "iterations", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "maxIterations", label: "Up to", unit: "iterations", min: 2.0, max: 200.0, whole: true, default: 100.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 4.0 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 1.0 },
    ],
    build,
    report,
};

/// The counts swept: `from`, `max` and the round counts below `max`.
fn counts(settings: &Settings) -> Vec<u32> {
    let (from, max) = (
        settings.count("fromIterations"),
        settings.count("maxIterations"),
    );
    let mut counts: Vec<u32> = COUNTS.iter().copied().filter(|&n| n < max).collect();
    counts.extend([from, max]);
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// The two modes: (label, stiffness).
fn modes(settings: &Settings) -> [(&'static str, f64); 2] {
    [("PBD", 0.0), ("XPBD", settings.get("stiffness"))]
}

/// A settled-stretch trial: a hanging cloth with `params`, stepped for
/// `duration`, measuring `[time, mean stretch, max stretch]`.
pub(super) fn stretch_trial(
    settings: &Settings,
    label: String,
    key: f64,
    params: Params,
) -> Result<Trial, ClothError> {
    let cloth = grid_cloth(
        settings.count("width"),
        settings.count("height"),
        FixedPreset::Two,
        params,
    )?;
    let total = (settings.get("duration") / params.time_step)
        .round()
        .max(1.0) as u32;
    let every = (total / 400).max(1);
    Ok(Trial::new(
        label,
        key,
        cloth,
        Plan::Steps { total, every },
        Box::new(|c| vec![c.time(), mean_stretch(c), c.max_stretch()]),
    ))
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (from, max) = (
        settings.count("fromIterations"),
        settings.count("maxIterations"),
    );
    if from >= max {
        return Err(ClothError::InvalidValue {
            field: "fromIterations",
            value: from.to_string(),
            allowed: format!("a count below maxIterations ({max})"),
        });
    }
    let mut trials = Vec::new();
    for (mode, stiffness) in modes(settings) {
        for n in counts(settings) {
            let params = Params {
                stiffness,
                iterations: n,
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            trials.push(stretch_trial(
                settings,
                format!("{mode}, {n} iterations"),
                n as f64,
                params,
            )?);
        }
    }
    Ok(trials)
}

/// The settled mean stretch of each trial (NaN until it has run half way).
pub(super) fn settled_stretch(settings: &Settings, trial: &Trial) -> f64 {
    let half = settings.get("duration") / 2.0;
    if trial
        .samples
        .last()
        .is_none_or(|row| row[0] < settings.get("duration") - 1e-9)
    {
        return f64::NAN;
    }
    mean_after(&trial.samples, 1, half)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let counts = counts(settings);
    let (from, max) = (
        settings.count("fromIterations") as f64,
        settings.count("maxIterations") as f64,
    );
    let mut chart = Chart::new(
        "Settled mean stretch against iterations",
        "iterations",
        "mean stretch (%)",
    );
    chart.log_x = true;
    chart.log_y = true;
    let mut table = Table {
        columns: vec![
            "iterations".into(),
            "PBD mean stretch (%)".into(),
            "XPBD mean stretch (%)".into(),
        ],
        rows: Vec::new(),
    };
    let per_mode: Vec<(&str, Vec<f64>)> = modes(settings)
        .iter()
        .enumerate()
        .map(|(m, (mode, _))| {
            let values = trials[m * counts.len()..(m + 1) * counts.len()]
                .iter()
                .map(|t| 100.0 * settled_stretch(settings, t))
                .collect();
            (*mode, values)
        })
        .collect();
    for (mode, values) in &per_mode {
        chart.series.push(Series {
            label: (*mode).into(),
            points: counts
                .iter()
                .zip(values)
                .filter(|(_, v)| v.is_finite())
                .map(|(&n, &v)| [n as f64, v])
                .collect(),
        });
    }
    for (i, &n) in counts.iter().enumerate() {
        table.rows.push(vec![
            Cell::Number(n as f64),
            Cell::Number(per_mode[0].1[i]),
            Cell::Number(per_mode[1].1[i]),
        ]);
    }
    let at = |m: usize, n: f64| {
        counts
            .iter()
            .position(|&c| c as f64 == n)
            .map_or(f64::NAN, |i| per_mode[m].1[i])
    };
    let pbd_change = percent_change(at(0, from), at(0, max));
    let xpbd_change = percent_change(at(1, from), at(1, max));
    let pbd_stiffens = at(0, max) < at(0, from) && pbd_change >= PBD_MIN_CHANGE;
    let xpbd_steady = xpbd_change <= XPBD_MAX_CHANGE;
    let status = match (xpbd_steady, pbd_stiffens) {
        (true, true) => Status::Holds,
        (false, false) => Status::DoesNotHold,
        _ => Status::Partly,
    };
    let text = format!(
        "{}: from {from} to {max} iterations XPBD's mean stretch changes {xpbd_change:.1} % ({} the {XPBD_MAX_CHANGE} % allowed for \"hardly depends\"), PBD's {} {pbd_change:.1} % ({} the {PBD_MIN_CHANGE} % that shows it stiffening).",
        status.name(),
        if xpbd_steady { "within" } else { "beyond" },
        if at(0, max) < at(0, from) { "falls" } else { "rises" },
        if pbd_stiffens { "beyond" } else { "short of" },
    );
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("pbdChange", pbd_change),
            ("xpbdChange", xpbd_change),
            ("pbdStretchFrom", at(0, from)),
            ("pbdStretchMax", at(0, max)),
            ("xpbdStretchFrom", at(1, from)),
            ("xpbdStretchMax", at(1, max)),
        ],
        verdict: Some(Verdict { status, text }),
    }
}
