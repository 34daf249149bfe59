//! Convergence: the constraint error after each iteration, original and coloured orders.

use super::measure::{grid_cloth, rms_residual};
use super::setup;
use super::words::quantity;
use super::{
    series, Cell, Chart, Definition, Plan, Report, Setting, Settings, Status, Table, Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::{FixedPreset, Params, SolverOrder};

/// The coloured order's error after the last iteration may differ from the
/// original's by at most this factor for the two to "converge alike".
pub const MAX_FACTOR: f64 = 2.0;
/// Within this factor the claim holds in part.
pub const PARTLY_FACTOR: f64 = 5.0;

/// What the result means for someone choosing settings.
const ADVICE: &str = "The coloured order (the fast SIMD sweep) is safe to use; keep the original order only to reproduce results bit for bit.";

pub(super) static DEFINITION: Definition = Definition {
    id: "convergence",
    title: "Convergence of the sweep orders",
    claim: "Solving independent constraints together (graph colouring, which makes the fast SIMD sweep possible) changes the order of the Gauss–Seidel sweep but not how fast it converges.",
    source: "this project's README (Solver order); colouring for parallel Gauss–Seidel as in Fratarcangeli, Tibaldo and Pellacini, \"Vivace\" (2016)",
    method: "A cloth falls for a while from its rest shape; from that same state one step runs in the original order and one in the coloured order. Measured: the root mean square of the constraints' residual C + α̃λ (C alone for rigid constraints) after the prediction and after every iteration.",
    rule: "Compare the residual after the last iteration: the orders converge alike when the coloured order's residual is within a factor 2 of the original's, in part within a factor 5.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 500.0, whole: true, default: 50.0 },
        Setting { name: "warmup", label: "Falling time before", unit: "s", min: 0.0, max: 5.0, whole: false, default: 0.5 },
    ],
    build,
    report,
};

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let params = Params {
        stiffness: settings.get("stiffness"),
        mass: settings.get("mass"),
        time_step: settings.get("timeStep"),
        iterations: 5,
        ..Params::default()
    };
    let cloth = grid_cloth(
        settings.count("width"),
        settings.count("height"),
        FixedPreset::Two,
        params,
    )?;
    if cloth.num_constraints() > crate::cloth::SWEEP_CHUNK {
        return Err(ClothError::InvalidValue {
            field: "width",
            value: settings.get("width").to_string(),
            allowed: format!(
                "a cloth of at most {} constraints",
                crate::cloth::SWEEP_CHUNK
            ),
        });
    }
    // both orders fall the same way (the same steps from the same cloth), then
    // each takes one step from that state
    let warmup = (settings.get("warmup") / params.time_step).round() as u32;
    [SolverOrder::Original, SolverOrder::Colored]
        .into_iter()
        .map(|order| {
            let name = match order {
                SolverOrder::Original => "original order",
                SolverOrder::Colored => "coloured order",
            };
            let then = Params {
                iterations: settings.count("iterations"),
                solver_order: order,
                ..params
            };
            Trial::new(
                name,
                0.0,
                cloth.clone(),
                Plan::Sweeps,
                Box::new(|c| vec![rms_residual(c)]),
            )
            .with_warmup(warmup, then)
        })
        .collect()
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let iterations = settings.count("iterations") as usize;
    let mut chart = Chart::new(
        "Constraint error after each iteration",
        "iteration",
        "RMS residual (m)",
    );
    chart.log_y = true;
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
    }
    let value = |t: usize, k: usize| trials[t].samples.get(k).map_or(f64::NAN, |row| row[1]);
    let mut shown: Vec<usize> = [0, 1, 2, 3, 4, 5, 10, 20, 50, 100, 200]
        .into_iter()
        .filter(|&k| k < iterations)
        .collect();
    shown.push(iterations);
    let rows = shown
        .iter()
        .map(|&k| {
            vec![
                Cell::Number(k as f64),
                Cell::Number(value(0, k)),
                Cell::Number(value(1, k)),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            "iteration".into(),
            "original order: RMS residual (m)".into(),
            "coloured order: RMS residual (m)".into(),
        ],
        rows,
    };
    let (original, colored) = (value(0, iterations), value(1, iterations));
    let (original_start, colored_start) = (value(0, 0), value(1, 0));
    let factor = (colored / original).max(original / colored);
    let status = if factor <= MAX_FACTOR {
        Status::Holds
    } else if factor <= PARTLY_FACTOR {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let text = format!(
        "{}: after {iterations} iterations the residual is {} in the original order (from {}) and {} in the coloured order (from {}), a factor of {factor:.2} apart ({} the {MAX_FACTOR} allowed).",
        status.name(),
        quantity(original, "m"),
        quantity(original_start, "m"),
        quantity(colored, "m"),
        quantity(colored_start, "m"),
        if factor <= MAX_FACTOR { "within" } else { "beyond" },
    );
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("originalFinal", original),
            ("coloredFinal", colored),
            ("originalStart", original_start),
            ("coloredStart", colored_start),
            ("factor", factor),
        ],
        verdict: Some(Verdict {
            status,
            text,
            advice: ADVICE.into(),
        }),
    }
}
