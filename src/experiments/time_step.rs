//! Stiffness against the time step, PBD and XPBD.

use super::iterations::{settled_stretch, stretch_trial};
use super::{
    percent_change, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table,
    Trial, Verdict,
};
use crate::params::{ClothError, Params};

/// XPBD's stretch may change at most this much (%) from the largest time step
/// to the smallest for its stiffness to be "independent of the time step".
pub const XPBD_MAX_CHANGE: f64 = 10.0;
/// PBD's stretch must fall at least this much (%) over the same range for it to
/// "get stiffer" with smaller steps.
pub const PBD_MIN_CHANGE: f64 = 25.0;

/// The time steps swept, between `minTimeStep` and `maxTimeStep` (both included).
const STEPS: [f64; 7] = [0.04, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

pub(super) static DEFINITION: Definition = Definition {
    id: "time-step",
    title: "Stiffness against the time step",
    claim: "Plain PBD's constraints get stiffer as the time step shrinks, while XPBD's stiffness stays the one you set whatever the time step.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), sections 1 and 6",
    method: "A cloth hangs from its two top corners and runs, for each time step, the same simulated time as PBD (rigid constraints) and as XPBD (the stiffness below), with the same iteration count and a little velocity damping. Measured: the mean relative stretch of all constraints over the second half of the run.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 2.0, max: 60.0, whole: true, default: 20.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 2.0, max: 60.0, whole: true, default: 15.0 },
        Setting { name: "stiffness", label: "XPBD stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1000.0 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.1 },
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "maxTimeStep", label: "Largest time step", unit: "s", min: 0.001, max: 0.04, whole: false, default: 0.02 },
        Setting { name: "minTimeStep", label: "Smallest time step", unit: "s", min: 0.0005, max: 0.02, whole: false, default: 0.001 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 4.0 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 1.0 },
    ],
    build,
    report,
};

fn time_steps(settings: &Settings) -> Vec<f64> {
    let (min, max) = (settings.get("minTimeStep"), settings.get("maxTimeStep"));
    let mut steps: Vec<f64> = STEPS
        .iter()
        .copied()
        .filter(|&s| s > min && s < max)
        .collect();
    steps.extend([min, max]);
    steps.sort_by(|a, b| b.total_cmp(a));
    steps.dedup();
    steps
}

fn modes(settings: &Settings) -> [(&'static str, f64); 2] {
    [("PBD", 0.0), ("XPBD", settings.get("stiffness"))]
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (min, max) = (settings.get("minTimeStep"), settings.get("maxTimeStep"));
    if min >= max {
        return Err(ClothError::InvalidValue {
            field: "minTimeStep",
            value: min.to_string(),
            allowed: format!("a time step below maxTimeStep ({max} s)"),
        });
    }
    let mut trials = Vec::new();
    for (mode, stiffness) in modes(settings) {
        for dt in time_steps(settings) {
            let params = Params {
                stiffness,
                time_step: dt,
                iterations: settings.count("iterations"),
                mass: settings.get("mass"),
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            trials.push(stretch_trial(
                settings,
                format!("{mode}, Δt = {dt} s"),
                dt,
                params,
            )?);
        }
    }
    Ok(trials)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let steps = time_steps(settings);
    let mut chart = Chart::new(
        "Settled mean stretch against the time step",
        "time step (s)",
        "mean stretch (%)",
    );
    chart.log_x = true;
    chart.log_y = true;
    let per_mode: Vec<(&str, Vec<f64>)> = modes(settings)
        .iter()
        .enumerate()
        .map(|(m, (mode, _))| {
            let values = trials[m * steps.len()..(m + 1) * steps.len()]
                .iter()
                .map(|t| 100.0 * settled_stretch(settings, t))
                .collect();
            (*mode, values)
        })
        .collect();
    for (mode, values) in &per_mode {
        chart.series.push(Series {
            label: (*mode).into(),
            points: steps
                .iter()
                .zip(values)
                .filter(|(_, v)| v.is_finite())
                .map(|(&dt, &v)| [dt, v])
                .collect(),
        });
    }
    let table = Table {
        columns: vec![
            "time step (s)".into(),
            "PBD mean stretch (%)".into(),
            "XPBD mean stretch (%)".into(),
        ],
        rows: steps
            .iter()
            .enumerate()
            .map(|(i, &dt)| {
                vec![
                    Cell::Number(dt),
                    Cell::Number(per_mode[0].1[i]),
                    Cell::Number(per_mode[1].1[i]),
                ]
            })
            .collect(),
    };
    let last = steps.len() - 1;
    let (largest, smallest) = (steps[0], steps[last]);
    let pbd_change = percent_change(per_mode[0].1[0], per_mode[0].1[last]);
    let xpbd_change = percent_change(per_mode[1].1[0], per_mode[1].1[last]);
    let pbd_falls = per_mode[0].1[last] < per_mode[0].1[0];
    let pbd_stiffens = pbd_falls && pbd_change >= PBD_MIN_CHANGE;
    let xpbd_steady = xpbd_change <= XPBD_MAX_CHANGE;
    let status = match (xpbd_steady, pbd_stiffens) {
        (true, true) => Status::Holds,
        (false, false) => Status::DoesNotHold,
        _ => Status::Partly,
    };
    let text = format!(
        "{}: from Δt = {largest} s to {smallest} s XPBD's mean stretch changes {xpbd_change:.1} % ({} the {XPBD_MAX_CHANGE} % allowed for \"independent\"), PBD's {} {pbd_change:.1} % ({} the {PBD_MIN_CHANGE} % that shows it stiffening).",
        status.name(),
        if xpbd_steady { "within" } else { "beyond" },
        if pbd_falls { "falls" } else { "rises" },
        if pbd_stiffens { "beyond" } else { "short of" },
    );
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("pbdChange", pbd_change),
            ("xpbdChange", xpbd_change),
            ("pbdStretchLargest", per_mode[0].1[0]),
            ("pbdStretchSmallest", per_mode[0].1[last]),
            ("xpbdStretchLargest", per_mode[1].1[0]),
            ("xpbdStretchSmallest", per_mode[1].1[last]),
        ],
        verdict: Some(Verdict { status, text }),
    }
}
