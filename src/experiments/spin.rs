//! The report's open question: why a resting soft body or balloon starts to
//! turn. Its rotation rate about its centre of mass, with each sweep order,
//! on the ground with and without friction, and floating with no contact.

use super::momentum_measure::spin_rate;
use super::setup::steps_for;
use super::words::number;
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::{SolverOrder, Value};

/// A body spins when its rotation rate over the second half of the run
/// exceeds this many degrees per second.
pub const SPINS: f64 = 1.0;

pub(super) static DEFINITION: Definition = Definition {
    id: "spin",
    title: "Resting bodies that turn",
    claim: "A soft body and a balloon resting on the ground start to rotate by themselves, and shuffling the constraints does not stop it (the report's open question: its author could not find why).",
    source: "the course report on XPBD soft bodies (its open question); the PBD tutorial's remark that corrections along ∇C conserve angular momentum",
    method: "The \"soft-body\" and \"balloon\" presets run with each sweep order without air drag (velocityDamping 0, as in the report; the balloon preset's own air drag lets it come to rest) in three cases: resting on the ground with the preset's friction, on the ground without friction, and floating with the ground removed and gravity off (no contact: only the body's own constraints act; a falling body is no control, as single precision's rounding grows with the distance fallen). Measured: the rotation rate about the centre of mass, ω = L/I (angular momentum over moment of inertia of the free particles), over time, and its mean over the second half. The runs last 10 s: a landed balloon's roll builds up over seconds, and a shorter window catches only its onset, whose timing single precision shifts.",
    rule: "A body spins when its rotation rate over the second half exceeds 1°/s (a minute turns it by 60°, plain to see). Holds when some body resting on the ground spins; the table shows in which cases, which is where the spin comes from. Does not hold when no resting body spins.",
    settings: &[
        Setting { name: "friction", label: "Friction on the ground", unit: "", min: 0.0, max: 10.0, whole: false, default: 0.3 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 30.0, whole: false, default: 10.0 },
    ],
    build,
    report,
};

/// The cases: (label, friction or `None` for no ground).
fn cases(settings: &Settings) -> [(&'static str, Option<f64>); 3] {
    [
        ("ground, friction", Some(settings.get("friction"))),
        ("ground, no friction", Some(0.0)),
        ("floating (no ground, no gravity)", None),
    ]
}

const PRESETS: [&str; 2] = ["soft-body", "balloon"];
const ORDERS: [SolverOrder; 2] = [SolverOrder::Original, SolverOrder::Colored];

fn body(preset: &str, order: SolverOrder, friction: Option<f64>) -> Result<Cloth, ClothError> {
    let mut cloth = Cloth::from_preset(
        preset,
        &[
            ("solverOrder", Value::Word(order.name())),
            ("friction", Value::Number(friction.unwrap_or(0.0))),
            // as in the report: no air drag (the balloon preset's own drag stops the rocking)
            ("velocityDamping", Value::Number(0.0)),
            (
                "gravity",
                Value::Number(if friction.is_some() { -9.81 } else { 0.0 }),
            ),
        ],
    )?;
    if friction.is_none() {
        let ids: Vec<u32> = cloth.colliders().iter().map(|c| c.id).collect();
        for id in ids {
            cloth.remove_collider(id)?;
        }
    }
    Ok(cloth)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let mut trials = Vec::new();
    for preset in PRESETS {
        for order in ORDERS {
            for (k, (case, friction)) in cases(settings).into_iter().enumerate() {
                let cloth = body(preset, order, friction)?;
                let dt = cloth.params().time_step;
                trials.push(Trial::new(
                    format!("{preset}, {} order, {case}", order.name()),
                    k as f64,
                    cloth,
                    steps_for(settings.get("duration"), dt),
                    Box::new(|c| vec![c.time(), spin_rate(c)]),
                ));
            }
        }
    }
    Ok(trials)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let half = settings.get("duration") / 2.0;
    let mut chart = Chart::new(
        "Rotation rate about the centre of mass",
        "time (s)",
        "ω (°/s)",
    );
    let mut table = Table {
        columns: vec![
            "run".into(),
            "mean ω over the second half (°/s)".into(),
            "spins".into(),
        ],
        rows: Vec::new(),
    };
    let mut spinning = Vec::new();
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        let rate = mean_after(&trial.samples, 1, half);
        let spins = rate.abs() > SPINS;
        if spins {
            spinning.push((trial.label.clone(), trial.key, rate));
        }
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(rate),
            Cell::Text(if spins { "yes" } else { "no" }.into()),
        ]);
    }
    let resting = spinning.iter().filter(|(_, k, _)| *k < 2.0).count();
    let without_friction = spinning.iter().filter(|(_, k, _)| *k == 1.0).count();
    let floating = spinning.iter().filter(|(_, k, _)| *k == 2.0).count();
    let status = if resting > 0 {
        Status::Holds
    } else {
        Status::DoesNotHold
    };
    let fastest = trials
        .iter()
        .map(|t| mean_after(&t.samples, 1, half).abs())
        .fold(0.0, f64::max);
    let text = format!(
        "{}: {resting} of 8 resting runs spin faster than {SPINS}°/s ({without_friction} of them without friction), and {floating} of 4 floating ones; the fastest turns at {fastest:.3}°/s.{}",
        status.name(),
        if spinning.is_empty() {
            String::new()
        } else {
            format!(
                " Spinning: {}.",
                spinning.iter().map(|(l, _, r)| format!("{l} ({}°/s)", number(*r))).collect::<Vec<_>>().join("; ")
            )
        },
    );
    let with_friction = spinning.iter().filter(|(_, k, _)| *k == 0.0).count();
    let advice = if floating > 0 {
        "The spin comes from the constraint solve itself (bodies turn with no contact at all); friction with the ground holds it, so keep some friction on resting bodies."
    } else if with_friction > 0 {
        "A resting body that turns is the contacts' doing, not the constraints' (it keeps still floating), and friction does not stop a round body rocking into a roll: give it air drag (velocityDamping, as the balloon preset's 1/s) so that it comes to rest."
    } else if resting > 0 {
        "A resting body that turns is the contacts' doing, not the constraints': keep friction on."
    } else {
        "Resting bodies keep still here in either sweep order, with or without friction: no need to shuffle constraints."
    };
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("spinningResting", resting as f64),
            ("spinningFloating", floating as f64),
            ("fastestRate", fastest),
        ],
        verdict: Some(Verdict {
            status,
            text,
            advice: advice.into(),
        }),
    }
}
