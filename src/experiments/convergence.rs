//! Convergence: the constraint error after each iteration, original and coloured orders.

use super::measure::rms_residual;
use super::setup;
use super::words::quantity;
use super::{
    series, Cell, Change, Chart, Choice, Definition, Plan, Report, Setting, Settings, Status,
    Table, Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::{Params, SolverOrder};

/// The coloured order may need at most this many times the original's
/// iterations to reach the `level` setting for the two to "converge alike".
pub const MAX_FACTOR: f64 = 1.25;
/// Within this factor the claim holds in part.
pub const PARTLY_FACTOR: f64 = 2.0;

pub(super) static DEFINITION: Definition = Definition {
    id: "convergence",
    title: "Convergence of the sweep orders",
    claim: "Solving independent constraints together (graph colouring, which makes the fast SIMD sweep possible) changes the order of the Gauss–Seidel sweep but not how fast it converges.",
    source: "this project's README (Solver order); colouring for parallel Gauss–Seidel as in Fratarcangeli, Tibaldo and Pellacini, \"Vivace\" (2016)",
    method: "A cloth falls for a while from its rest shape; from that same state one step runs in the original order and one in the coloured order. Measured: the root mean square of the constraints' residual C + α̃λ (C alone for rigid constraints) after the prediction and after every iteration, and how many iterations each order needs to bring it down to the level below (a fraction of its value after the prediction).",
    rule: "Holds when the coloured order needs at most 1.25 × the original order's iterations to bring the RMS residual down to the level (1/1000 of its value after the prediction); in part within 2 ×; does not hold beyond, or when it never gets there. 1/1000 is three orders of magnitude down, far above single precision's floor (the residual a sweep cannot lower, about 1e-8 m here), so the rule compares convergence, not round-off; 1.25 × is the difference between 8 and 10 iterations, less than the step a user changes the count by. The level is a choice: the verdict is checked at 1e-2, 1e-4 and 1e-5 too (1e-6 of the start is single precision's floor).",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 500.0, whole: true, default: 50.0 },
        Setting { name: "warmup", label: "Falling time before", unit: "s", min: 0.0, max: 5.0, whole: false, default: 0.5 },
        Setting { name: "level", label: "Residual level", unit: "× the residual after the prediction", min: 1e-7, max: 0.5, whole: false, default: 1e-3 },
    ],
    key: "factor",
    choices: &[
        Choice::measure(
            &["level"],
            "the residual level",
            Change::Values(&[1e-2, 1e-4, 1e-5]),
            "A verdict that changes with the level rests on where the two convergence curves are compared, not on how fast they converge overall.",
            "Compare the orders at the accuracy you need: the coloured order's extra iterations vary with it.",
        ),
        Choice::run(
            &["warmup"],
            "the falling time",
            Change::Times(2.0),
            "A verdict that changes with the falling time rests on the state the measured step starts from.",
            "",
        ),
    ],
    explain: None,
    prepare: None,
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
    let cloth = setup::settings_cloth(settings, params)?;
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

/// The first iteration after which `residuals` (after the prediction, then
/// after each iteration) are at most `level` × the first; NaN if never.
pub fn iterations_to_level(residuals: &[f64], level: f64) -> f64 {
    let Some(&start) = residuals.first() else {
        return f64::NAN;
    };
    residuals
        .iter()
        .position(|&r| r <= level * start)
        .map_or(f64::NAN, |k| k as f64)
}

/// The residuals of both orders at a few iterations, and their ratio.
fn table(trials: &[Trial], iterations: usize) -> Table {
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
                Cell::Number(value(1, k) / value(0, k)),
            ]
        })
        .collect();
    Table {
        columns: vec![
            "iteration".into(),
            "original order: RMS residual (m)".into(),
            "coloured order: RMS residual (m)".into(),
            "coloured / original".into(),
        ],
        rows,
    }
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
    let mut ratio = Chart::new(
        "Coloured over original: residual ratio after each iteration",
        "iteration",
        "coloured / original",
    );
    ratio.log_y = true;
    ratio.series.push(super::Series {
        label: "coloured / original".into(),
        points: (0..=iterations)
            .map(|k| [k as f64, value(1, k) / value(0, k)])
            .filter(|p| p[1].is_finite())
            .collect(),
    });
    let table = table(trials, iterations);
    let residuals = |t: usize| -> Vec<f64> { trials[t].samples.iter().map(|r| r[1]).collect() };
    let level = settings.get("level");
    let (original_n, colored_n) = (
        iterations_to_level(&residuals(0), level),
        iterations_to_level(&residuals(1), level),
    );
    let factor = colored_n / original_n;
    let (original, colored) = (value(0, iterations), value(1, iterations));
    let (original_start, colored_start) = (value(0, 0), value(1, 0));
    let status = if factor <= MAX_FACTOR {
        Status::Holds
    } else if factor <= PARTLY_FACTOR {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let text = format!(
        "{}: to bring the residual down to {} of its value after the prediction the original order needs {original_n} iterations and the coloured order {colored_n}, {factor:.2} times as many ({} the {MAX_FACTOR} allowed). After 10 iterations the coloured residual is {:.2} times the original's; after {iterations} both sit near single precision's floor ({} and {}), where comparing them says nothing.",
        status.name(),
        super::words::number(level),
        if factor <= MAX_FACTOR { "within" } else { "beyond" },
        value(1, 10.min(iterations)) / value(0, 10.min(iterations)),
        quantity(original, "m"),
        quantity(colored, "m"),
    );
    let advice = format!(
        "Keep the coloured order for its speed, and give it about {:.0} % more iterations than the original order would need for the same accuracy.",
        (100.0 * (factor - 1.0)).max(0.0)
    );
    Report::new(
        vec![chart, ratio],
        table,
        vec![
            ("originalIterations", original_n),
            ("coloredIterations", colored_n),
            ("factor", factor),
            (
                "ratioAt10",
                value(1, 10.min(iterations)) / value(0, 10.min(iterations)),
            ),
            ("originalFinal", original),
            ("coloredFinal", colored),
            ("originalStart", original_start),
            ("coloredStart", colored_start),
        ],
        Verdict::new(status, text, advice),
    )
}
