//! Converging to the static equilibrium: a chain hanging between two pins,
//! settled by XPBD at several time steps, against its exact equilibrium.

use super::chain::{rms_gap, Chain};
use super::equilibrium::{force_left, Equilibrium, Springs};
use super::measure::rms_residual;
use super::setup::{self, steps_for};
use super::words::quantity;
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table,
    Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// A force left by the Newton solve under this fraction of a particle's
/// weight counts as converged.
const NEWTON_LEFT: f64 = 1e-6;
/// The settled chain may lie at most this fraction of its sag from the exact
/// equilibrium (RMS over its particles).
pub const MAX_GAP: f64 = 0.01;

/// The time steps tried, up to `maxTimeStep`.
const STEPS: [f64; 6] = [0.04, 0.02, 0.01, 0.005, 0.002, 0.001];

pub(super) static DEFINITION: Definition = Definition {
    id: "equilibrium",
    title: "Converging to the static equilibrium",
    claim: "Dropping the residual term (∇g ≈ 0 in the Newton step) \"does not change the solution at convergence, only the rate\": XPBD settles to the true equilibrium of the elastic system, whatever its time step.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3, equations 11 to 13",
    method: "A chain hangs between two pins (its ends closer than its length), released from a U shape with velocity damping so it settles, once for each time step, with the same iterations. Measured: the RMS distance of its particles from the exact static equilibrium of springs of that stiffness (Newton's method in f64), over the last quarter of the run; the residual C + α̃λ its iterations leave; and the largest force left on a particle at its settled shape.",
    rule: "Holds when at every time step the settled chain lies within 1 % of its sag (RMS over its particles) of the exact equilibrium: 1 % of a 1 m sag is 1 cm, a few pixels on the page, the least a user could see. In part when it does at some time steps and not at others; does not hold when at none.",
    settings: &[
        Setting { name: "links", label: "Links", unit: "", min: 2.0, max: 200.0, whole: true, default: 20.0 },
        Setting { name: "span", label: "Distance between the pins", unit: "× length", min: 0.1, max: 0.95, whole: false, default: 0.6 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1e4 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.05 },
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 1000.0, whole: true, default: 10.0 },
        Setting { name: "maxTimeStep", label: "Largest time step", unit: "s", min: 0.001, max: 0.04, whole: false, default: 0.02 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 2.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 30.0, whole: false, default: 10.0 },
    ],
    key: "worstGap",
    choices: &[setup::TEN_TIMES_THE_ITERATIONS, setup::TWICE_THE_TIME],
    explain: None,
    prepare: None,
    build,
    report,
};

fn chain(settings: &Settings) -> Chain {
    Chain {
        links: settings.count("links") as usize,
        link: 0.1,
        mass: settings.get("mass"),
        span: Some(settings.get("span")),
    }
}

fn time_steps(settings: &Settings) -> Vec<f64> {
    let max = settings.get("maxTimeStep");
    let mut steps: Vec<f64> = STEPS.iter().copied().filter(|&s| s < max).collect();
    steps.insert(0, max);
    steps
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let chain = chain(settings);
    let (k, g) = (settings.get("stiffness"), Params::default().gravity);
    let exact = chain.equilibrium(k, g).positions;
    let (inverse, pairs) = (chain.inverse_masses(), chain.pairs());
    time_steps(settings)
        .into_iter()
        .map(|dt| {
            let params = Params {
                stiffness: k,
                mass: settings.get("mass"),
                time_step: dt,
                iterations: settings.count("iterations"),
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let (exact, inverse, pairs) = (exact.clone(), inverse.clone(), pairs.clone());
            let rest = vec![chain.link; chain.links];
            let probe = Box::new(move |c: &mut crate::cloth::Cloth| {
                let x: Vec<f64> = c.positions().iter().map(|&v| v as f64).collect();
                let force = force_left(&Springs {
                    positions: &x,
                    inverse_masses: &inverse,
                    pairs: &pairs,
                    rest_lengths: &rest,
                    stiffness: k,
                    gravity: g,
                });
                vec![
                    c.time(),
                    rms_gap(c.positions(), &exact),
                    rms_residual(c),
                    force,
                ]
            });
            let plan = steps_for(settings.get("duration"), dt);
            Ok(Trial::new(
                format!("Δt = {dt} s"),
                dt,
                chain.cloth(params)?,
                plan,
                probe,
            ))
        })
        .collect()
}

/// How deep the exact equilibrium hangs below the pins, metres.
fn sag(exact: &[f64]) -> f64 {
    exact
        .iter()
        .skip(1)
        .step_by(2)
        .fold(0.0, |m: f64, &y| m.max(-y))
}

/// The status, the verdict's words and the worst and best gap (relative to
/// the sag `depth`) from each run's `relative` gap; `exact` is the Newton
/// solve's result.
fn verdict(relative: &[f64], depth: f64, exact: &Equilibrium) -> (Status, String, f64, f64) {
    let within = relative.iter().filter(|&&r| r <= MAX_GAP).count();
    let status = if within == relative.len() {
        Status::Holds
    } else if within > 0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let worst = relative.iter().copied().fold(0.0, f64::max);
    let best = relative.iter().copied().fold(f64::INFINITY, f64::min);
    let text = format!(
        "{}: the settled chain lies {:.3} % to {:.3} % of its {depth:.3} m sag from the exact equilibrium (the limit is {:.0} %), within it at {within} of {} time steps. {}",
        status.name(),
        100.0 * best,
        100.0 * worst,
        100.0 * MAX_GAP,
        relative.len(),
        newton_words(exact),
    );
    (status, text, worst, best)
}

/// What the Newton solve left: a force under [`NEWTON_LEFT`] of a particle's
/// weight is round-off (its figure differs between platforms' `hypot`), so
/// only a force above it is written out.
fn newton_words(exact: &Equilibrium) -> String {
    if exact.largest_force <= NEWTON_LEFT * exact.weight {
        "The Newton solve converged: it left under a millionth of a particle's weight on any particle.".into()
    } else {
        format!(
            "The Newton solve left {} on a particle, over a millionth of its weight ({}): the exact equilibrium is uncertain by that much.",
            quantity(exact.largest_force, "N"),
            quantity(exact.weight, "N")
        )
    }
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late = 0.75 * settings.get("duration");
    let chain = chain(settings);
    let exact = chain.equilibrium(settings.get("stiffness"), Params::default().gravity);
    let depth = sag(&exact.positions);
    let mut gaps = Chart::new(
        "Distance from the exact equilibrium",
        "time (s)",
        "RMS gap (m)",
    );
    gaps.log_y = true;
    let mut shapes = Chart::new("The chain at the end", "x (m)", "y (m)");
    shapes.plane = true;
    shapes.series.push(Series {
        label: "exact equilibrium (f64)".into(),
        points: exact
            .positions
            .chunks_exact(2)
            .map(|p| [p[0], p[1]])
            .collect(),
    });
    let mut table = Table {
        columns: vec![
            "time step (s)".into(),
            "RMS gap (m)".into(),
            "gap / sag (%)".into(),
            "residual C + α̃λ (m)".into(),
            "largest force left (N)".into(),
        ],
        rows: Vec::new(),
    };
    let mut relative = Vec::new();
    for trial in trials {
        gaps.series
            .push(series(trial.label.clone(), &trial.samples, 1));
        shapes.series.push(Series {
            label: trial.label.clone(),
            points: trial
                .cloth
                .positions()
                .chunks_exact(2)
                .map(|p| [p[0] as f64, p[1] as f64])
                .collect(),
        });
        let gap = mean_after(&trial.samples, 1, late);
        relative.push(gap / depth);
        table.rows.push(vec![
            Cell::Number(trial.key),
            Cell::Number(gap),
            Cell::Number(100.0 * gap / depth),
            Cell::Number(mean_after(&trial.samples, 2, late)),
            Cell::Number(mean_after(&trial.samples, 3, late)),
        ]);
    }
    let (status, text, worst, best) = verdict(&relative, depth, &exact);
    let advice = if status == Status::Holds {
        "A settled XPBD scene is the true equilibrium of its stiffness: choose the time step for the motion, not for the resting shape."
    } else {
        "For a resting shape you can trust, use the time steps whose gap the table shows under 1 %, or more iterations."
    };
    Report::new(
        vec![gaps, shapes],
        table,
        vec![
            ("sag", depth),
            ("worstGap", worst),
            ("bestGap", best),
            ("newtonForceLeft", exact.largest_force),
        ],
        Verdict::new(status, text, advice),
    )
}
