//! Constraint damping β: energy decay against β.

use super::measure::total_energy;
use super::setup::{self, hanging_trial};
use super::words::quantity;
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// The β values swept: 0 and these, up to `maxDamping`.
const BETAS: [f64; 7] = [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0];

/// What the result means for someone choosing settings.
const ADVICE: &str = "Use β to calm stretching vibrations; the undamped cloth also loses energy, to the implicit step itself and to iterations that stop before convergence.";

pub(super) static DEFINITION: Definition = Definition {
    id: "damping",
    title: "Constraint damping β: energy decay",
    claim: "Constraint damping β removes the energy of stretching motions, and more of it the larger β is.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3.5 (damping)",
    method: "A cloth held by its two top corners is released in its rest shape and swings and bounces without velocity damping, once for each β. Measured: the kinetic energy over time, and its mean over the last quarter of the run.",
    rule: "Compare the mean kinetic energy over the last quarter of the run for each β: the claim holds when each larger β leaves less than the one before (two values below 1e-9 J count as equal, at rest) and the largest β leaves less than none; it holds in part when only the largest β leaves less than none.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        setup::ITERATIONS,
        Setting { name: "maxDamping", label: "Largest β", unit: "N·s/m", min: 0.01, max: 10000.0, whole: false, default: 10.0 },
        setup::DURATION,
    ],
    build,
    report,
};

fn betas(settings: &Settings) -> Vec<f64> {
    let max = settings.get("maxDamping");
    let mut betas = vec![0.0];
    betas.extend(BETAS.iter().copied().filter(|&b| b < max));
    betas.push(max);
    betas
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    betas(settings)
        .into_iter()
        .map(|beta| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                damping: beta,
                iterations: settings.count("iterations"),
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                ..Params::default()
            };
            hanging_trial(
                settings,
                format!("β = {beta} N·s/m"),
                beta,
                params,
                Box::new(|c| vec![c.time(), c.kinetic_energy(), total_energy(c)]),
            )
        })
        .collect()
}

/// Why the undamped cloth loses energy, if it loses more than a percent of
/// its peak kinetic energy over the run (`""` otherwise).
fn undamped_loss(trial: &Trial) -> String {
    let (Some(first), Some(end)) = (trial.samples.first(), trial.samples.last()) else {
        return String::new();
    };
    let peak = trial.samples.iter().map(|row| row[1]).fold(0.0, f64::max);
    let lost = first[2] - end[2];
    if !(peak > 0.0 && lost > 0.01 * peak) {
        return String::new();
    }
    format!(
        " Without β the cloth still loses {} of its total energy over the run ({:.0} % of its peak kinetic energy): velocity damping is off, but an XPBD step is an implicit (backward Euler) step, which damps motion more the larger the time step, and iterations that stop before the constraints are solved take energy too.",
        quantity(lost, "J"),
        100.0 * lost / peak
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late = 0.75 * settings.get("duration");
    let mut chart = Chart::new("Kinetic energy over time", "time (s)", "kinetic energy (J)");
    let mut table = Table {
        columns: vec![
            "β (N·s/m)".into(),
            "late kinetic energy (J)".into(),
            "relative to β = 0".into(),
            "total energy at the end (J)".into(),
        ],
        rows: Vec::new(),
    };
    let late_energy: Vec<f64> = trials
        .iter()
        .map(|t| mean_after(&t.samples, 1, late))
        .collect();
    for (trial, &energy) in trials.iter().zip(&late_energy) {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        table.rows.push(vec![
            Cell::Number(trial.key),
            Cell::Number(energy),
            Cell::Number(energy / late_energy[0]),
            Cell::Number(trial.samples.last().map_or(f64::NAN, |row| row[2])),
        ]);
    }
    // "More of it the larger β": each larger β leaves less late energy than the
    // one before; a value below 1e-9 J counts as at rest.
    let decreasing = late_energy
        .windows(2)
        .filter(|w| !(w[1] < w[0] || (w[0] < 1e-9 && w[1] < 1e-9)))
        .count();
    let last = late_energy.len() - 1;
    let (undamped, most) = (late_energy[0], late_energy[last]);
    let status = if decreasing == 0 && most < undamped {
        Status::Holds
    } else if most < undamped {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let text = format!(
        "{}: over the last quarter of the run the kinetic energy is {} without damping and {} with β = {} N·s/m ({:.1} % of it); {} of the {} steps up in β {} it.{}",
        status.name(),
        quantity(undamped, "J"),
        quantity(most, "J"),
        trials[last].key,
        100.0 * most / undamped,
        last - decreasing,
        last,
        if decreasing == 0 { "all lower" } else { "lower" },
        undamped_loss(&trials[0]),
    );
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("undampedEnergy", undamped),
            ("mostDampedEnergy", most),
            ("notDecreasing", decreasing as f64),
        ],
        verdict: Some(Verdict {
            status,
            text,
            advice: ADVICE.into(),
        }),
    }
}
