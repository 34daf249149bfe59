//! Momentum through the solve: a stretched, spinning cloth with gravity off
//! and nothing pinned, and what pins, contacts and friction do to its linear
//! and angular momentum.

use super::measure::grid_cloth;
use super::momentum_measure::{angular, centre, linear};
use super::setup::{self, steps_for};
use super::words::number;
use super::{
    series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial, Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::model::Shape;
use crate::params::{FixedPreset, Params, SolverOrder};

/// The free runs may change their momentum by at most this fraction of its
/// start for the claim to hold.
pub const MAX_DRIFT: f64 = 1e-4;

pub(super) static DEFINITION: Definition = Definition {
    id: "momentum",
    title: "Momentum through the solve",
    claim: "\"If the corrections are along the gradient ∇C weighted by the inverse masses, linear and angular momentum are conserved\": the solve moves no body as a whole and spins none.",
    source: "Müller, Heidelberger, Hennix and Ratcliff, \"Position Based Dynamics\" (2007), section 3.3, as the PBD tutorial quotes it",
    method: "A 10 × 6 grid cloth (distance constraints only, 1000 N/m, the iterations below) with gravity off and nothing pinned is stretched to 1.2 times its size about its centre of mass and set spinning at the angular velocity below while drifting sideways, so every constraint pulls from the first step. It runs free in each sweep order, then with one particle pinned, with a ground line just below it (no friction), and with the ground and friction. Measured: the change of the linear momentum (relative to the start's size of momentum, M·(|v₀| + ωR)) and of the angular momentum about the centre of mass (relative to its start), over time.",
    rule: "Holds when both free runs keep their linear and angular momentum within 1e-4 of the start (1e-4: a thousand times single precision's rounding, which the run's few thousand solves per particle can add up to; a solve that did not conserve them would change them by the size of its corrections, 1e-2 or more). The pinned and contact runs show what breaks it; they are not judged.",
    settings: &[
        Setting { name: "stretch", label: "Stretched to", unit: "× size", min: 1.0, max: 2.0, whole: false, default: 1.2 },
        Setting { name: "spin", label: "Angular velocity", unit: "rad/s", min: 0.0, max: 20.0, whole: false, default: 2.0 },
        Setting { name: "drift", label: "Sideways speed", unit: "m/s", min: 0.0, max: 10.0, whole: false, default: 0.5 },
        Setting { name: "friction", label: "Friction on the ground", unit: "", min: 0.0, max: 10.0, whole: false, default: 0.5 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 3.0 },
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 1000.0, whole: true, default: 10.0 },
    ],
    key: "freeAngular",
    choices: &[setup::TEN_TIMES_THE_ITERATIONS, setup::TWICE_THE_TIME],
    explain: None,
    prepare: None,
    build,
    report,
};

/// The cases: (label, order, pinned, ground friction or `None` for no ground).
fn cases(settings: &Settings) -> [(&'static str, SolverOrder, bool, Option<f64>); 5] {
    let f = settings.get("friction");
    [
        ("free, colored order", SolverOrder::Colored, false, None),
        ("free, original order", SolverOrder::Original, false, None),
        ("one particle pinned", SolverOrder::Colored, true, None),
        (
            "ground, no friction",
            SolverOrder::Colored,
            false,
            Some(0.0),
        ),
        ("ground with friction", SolverOrder::Colored, false, Some(f)),
    ]
}

/// The soft body, gravity off, stretched and spinning, with `ground`.
fn body(
    settings: &Settings,
    order: SolverOrder,
    pinned: bool,
    ground: Option<f64>,
) -> Result<Cloth, ClothError> {
    let params = Params {
        gravity: 0.0,
        mass: 0.1,
        iterations: settings.count("iterations"),
        solver_order: order,
        friction: ground.unwrap_or(0.0),
        ..Params::default()
    };
    let mut cloth = grid_cloth(10, 6, FixedPreset::One, params)?;
    cloth.set_pinned(0, false)?;
    let c = centre(&cloth);
    let (s, w, drift) = (
        settings.get("stretch"),
        settings.get("spin"),
        settings.get("drift"),
    );
    let mut x = cloth.positions().to_vec();
    let mut v = vec![0.0f32; x.len()];
    for k in 0..x.len() / 2 {
        let (dx, dy) = (
            s * (x[2 * k] as f64 - c[0]),
            s * (x[2 * k + 1] as f64 - c[1]),
        );
        x[2 * k] = (c[0] + dx) as f32;
        x[2 * k + 1] = (c[1] + dy) as f32;
        v[2 * k] = (drift - w * dy) as f32;
        v[2 * k + 1] = (w * dx) as f32;
    }
    cloth.set_state(&x, &v, 0.0)?;
    if pinned {
        cloth.set_pinned(0, true)?;
    }
    if ground.is_some() {
        let lowest = x.iter().skip(1).step_by(2).fold(f32::MAX, |m, &y| m.min(y));
        cloth.add_collider(Shape::Ground { y: lowest - 0.05 })?;
    }
    Ok(cloth)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    cases(settings)
        .into_iter()
        .enumerate()
        .map(|(k, (label, order, pinned, ground))| {
            let cloth = body(settings, order, pinned, ground)?;
            let (p0, l0) = (linear(&cloth), angular(&cloth));
            let mass: f64 = cloth
                .inverse_masses()
                .iter()
                .filter(|&&w| w > 0.0)
                .map(|&w| 1.0 / w as f64)
                .sum();
            let radius = 1.0 * settings.get("stretch");
            let p_scale = mass * (settings.get("drift") + settings.get("spin") * radius);
            let dt = cloth.params().time_step;
            Ok(Trial::new(
                label,
                k as f64,
                cloth,
                steps_for(settings.get("duration"), dt),
                Box::new(move |c| {
                    let p = linear(c);
                    let dp = (p[0] - p0[0]).hypot(p[1] - p0[1]) / p_scale.max(1e-300);
                    let dl = (angular(c) - l0).abs() / l0.abs().max(1e-300);
                    vec![c.time(), dp, dl]
                }),
            ))
        })
        .collect()
}

fn report(_settings: &Settings, trials: &[Trial]) -> Report {
    let mut linear_chart = Chart::new(
        "Change of linear momentum",
        "time (s)",
        "|ΔP| / (M·(|v₀| + ωR))",
    );
    let mut angular_chart = Chart::new("Change of angular momentum", "time (s)", "|ΔL| / |L₀|");
    linear_chart.log_y = true;
    angular_chart.log_y = true;
    let mut table = Table {
        columns: vec![
            "run".into(),
            "largest |ΔP| (relative)".into(),
            "largest |ΔL| (relative)".into(),
        ],
        rows: Vec::new(),
    };
    let mut largest = Vec::new();
    for trial in trials {
        linear_chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        angular_chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 2));
        let worst = |col: usize| trial.samples.iter().map(|r| r[col]).fold(0.0, f64::max);
        largest.push((worst(1), worst(2)));
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(worst(1)),
            Cell::Number(worst(2)),
        ]);
    }
    let free = &largest[..2];
    let keeps = |(p, l): &(f64, f64)| *p <= MAX_DRIFT && *l <= MAX_DRIFT;
    let (linear_kept, angular_kept) = (
        free.iter().all(|(p, _)| *p <= MAX_DRIFT),
        free.iter().all(|(_, l)| *l <= MAX_DRIFT),
    );
    let status = match (linear_kept, angular_kept) {
        (true, true) => Status::Holds,
        (false, false) => Status::DoesNotHold,
        _ => Status::Partly,
    };
    let broken: Vec<String> = trials[2..]
        .iter()
        .zip(&largest[2..])
        .filter(|(_, d)| !keeps(d))
        .map(|(t, (p, l))| format!("{} (ΔP {}, ΔL {})", t.label, number(*p), number(*l)))
        .collect();
    let text = format!(
        "{}: free, the linear momentum changes by at most {} and the angular momentum by {} of their start (the limit is {}). What breaks them: {}.",
        status.name(),
        number(free.iter().map(|d| d.0).fold(0.0, f64::max)),
        number(free.iter().map(|d| d.1).fold(0.0, f64::max)),
        number(MAX_DRIFT),
        if broken.is_empty() { "nothing tried".into() } else { broken.join("; ") },
    );
    let advice = "Momentum only changes where something outside the constraints acts (a pin, a contact, friction): a body that drifts or spins by itself points at those, not at the solve.";
    Report::new(
        vec![linear_chart, angular_chart],
        table,
        vec![
            ("freeLinear", free.iter().map(|d| d.0).fold(0.0, f64::max)),
            ("freeAngular", free.iter().map(|d| d.1).fold(0.0, f64::max)),
            ("pinnedAngular", largest[2].1),
            ("groundAngular", largest[3].1),
            ("frictionAngular", largest[4].1),
        ],
        Verdict::new(status, text, advice),
    )
}
