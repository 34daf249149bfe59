//! Forces from multipliers: `constraintForces()` (−λ/h²) of a hanging chain
//! against its analytic tension, with iterations and with substeps.

use super::chain::Chain;
use super::setup::steps_for;
use super::{
    mean_after, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Params;

/// Every link's force may differ from its analytic tension by at most this
/// fraction for the forces to be "the constraint forces".
pub const MAX_ERROR: f64 = 0.01;

/// The substep counts tried (one iteration each), up to `maxSubsteps`.
const SUBSTEPS: [u32; 6] = [2, 5, 10, 20, 50, 100];

pub(super) static DEFINITION: Definition = Definition {
    id: "forces",
    title: "Forces from multipliers",
    claim: "The Lagrange multipliers give the constraint forces: f = ∇Cᵀλ/Δt², so a simulation reads its forces (for tearing, sound or sensors) from the λ it already has.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3 (the multiplier as force) and section 6; this project's constraintForces()",
    method: "A chain hangs straight down from a pin and settles (velocity damping). Each link's force from its multiplier, constraintForces() = −λ/h², is compared with the analytic tension: the weight of the particles below it. Once with n iterations per step, then with 1 iteration and more and more substeps (h = Δt/substeps). Measured: the largest relative error over the links, over the last quarter of the run, and beside it what one rounding of a position stands for as a force, ε·length·m/h².",
    rule: "Holds when, with iterations and with every substep count, every link's force is within 1 % of its analytic tension (1 %: a force meter's accuracy, and far above what a converged solve leaves). In part when some runs are and others are not; does not hold when none is. The f32 column shows where single precision limits it: one rounding of a position, ε·|x|, read as a force through 1/h² grows as the substep shrinks.",
    settings: &[
        Setting { name: "links", label: "Links", unit: "", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.05 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 0.0 },
        Setting { name: "timeStep", label: "Time step", unit: "s", min: 1e-3, max: 0.05, whole: false, default: 0.0167 },
        Setting { name: "work", label: "Iterations n", unit: "", min: 1.0, max: 100.0, whole: true, default: 20.0 },
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 100.0 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 5.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 5.0 },
    ],
    build,
    report,
};

/// The runs: (iterations, substeps).
fn runs(settings: &Settings) -> Vec<(u32, u32)> {
    let max = settings.count("maxSubsteps");
    let mut runs = vec![(settings.count("work"), 1)];
    runs.extend(SUBSTEPS.iter().filter(|&&s| s < max).map(|&s| (1, s)));
    runs.push((1, max));
    runs.dedup();
    runs
}

/// The largest relative error of the links' forces against the weight
/// below each, for a chain of `links` links of `mass` particles.
fn largest_error(cloth: &mut Cloth, links: usize, mass: f64) -> f64 {
    let g = -cloth.params().gravity;
    let ids = cloth.constraint_ids().to_vec();
    let forces = cloth.constraint_forces();
    forces
        .iter()
        .zip(ids.chunks_exact(2))
        .map(|(&f, pair)| {
            let top = pair[0].min(pair[1]) as usize;
            let tension = (links - top) as f64 * mass * g;
            (f as f64 - tension).abs() / tension
        })
        .fold(0.0, f64::max)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let chain = Chain {
        links: settings.count("links") as usize,
        link: 0.1,
        mass: settings.get("mass"),
        span: None,
    };
    let dt = settings.get("timeStep");
    runs(settings)
        .into_iter()
        .map(|(iterations, substeps)| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                mass: chain.mass,
                time_step: dt,
                iterations,
                substeps,
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let label = format!(
                "{iterations} iteration{} × {substeps} substep{}",
                plural(iterations),
                plural(substeps)
            );
            let (links, mass) = (chain.links, chain.mass);
            Ok(Trial::new(
                label,
                substeps as f64,
                chain.cloth(params)?,
                steps_for(settings.get("duration"), dt),
                Box::new(move |c| vec![c.time(), largest_error(c, links, mass)]),
            ))
        })
        .collect()
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The status and the verdict's words from each run's largest error.
fn verdict(trials: &[Trial], errors: &[f64]) -> (Status, String) {
    let within: Vec<bool> = errors.iter().map(|&e| e <= MAX_ERROR).collect();
    let status = if within.iter().all(|&w| w) {
        Status::Holds
    } else if within.iter().any(|&w| w) {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let failing: Vec<String> = trials
        .iter()
        .zip(&within)
        .filter(|(_, &w)| !w)
        .map(|(t, _)| t.label.clone())
        .collect();
    let text = format!(
        "{}: with {} the largest error is {:.3} %; with substeps it is {:.3} % to {:.3} %{}.",
        status.name(),
        trials[0].label,
        100.0 * errors[0],
        100.0 * errors[1..].iter().copied().fold(f64::INFINITY, f64::min),
        100.0 * errors[1..].iter().copied().fold(0.0, f64::max),
        if failing.is_empty() {
            String::new()
        } else {
            format!(" (beyond 1 % with {})", failing.join(", "))
        },
    );
    (status, text)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late = 0.75 * settings.get("duration");
    let length = 0.1 * settings.get("links");
    let mut chart = Chart::new(
        "Largest force error against the substep size",
        "substep h (s)",
        "largest relative error",
    );
    chart.log_x = true;
    chart.log_y = true;
    let mut table = Table {
        columns: vec![
            "run".into(),
            "substep h (s)".into(),
            "largest error (%)".into(),
            "f32: ε·length/(g h²) (%)".into(),
        ],
        rows: Vec::new(),
    };
    let (mut measured, mut predicted) = (Vec::new(), Vec::new());
    let mut errors = Vec::new();
    for trial in trials {
        let h = settings.get("timeStep") / trial.key;
        let error = mean_after(&trial.samples, 1, late);
        let f32_limit = f32::EPSILON as f64 * length / (9.81 * h * h);
        errors.push(error);
        if trial.key > 1.0 {
            measured.push([h, error]);
            predicted.push([h, f32_limit]);
        }
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(h),
            Cell::Number(100.0 * error),
            Cell::Number(100.0 * f32_limit),
        ]);
    }
    chart.series.push(Series {
        label: "substeps, measured".into(),
        points: measured,
    });
    chart.series.push(Series {
        label: "one f32 rounding, as a force".into(),
        points: predicted,
    });
    chart.series.push(Series {
        label: "iterations, measured".into(),
        points: vec![[settings.get("timeStep"), errors[0]]],
    });
    let (status, text) = verdict(trials, &errors);
    let advice = "Read forces from constraintForces() with iterations or moderate substeps; at very small substeps single precision makes them noisy (the f32 column).";
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("iterationsError", errors[0]),
            (
                "worstSubstepError",
                errors[1..].iter().copied().fold(0.0, f64::max),
            ),
            (
                "bestSubstepError",
                errors[1..].iter().copied().fold(f64::INFINITY, f64::min),
            ),
        ],
        verdict: Some(Verdict {
            status,
            text,
            advice: advice.into(),
        }),
    }
}
