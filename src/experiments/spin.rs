//! The report's open question: why a resting soft body or balloon starts to
//! turn. Its rotation rate about its centre of mass, with each sweep order,
//! on the ground with and without friction, and floating with no contact.

use super::momentum_measure::spin_rate;
use super::setup::{steps_for, TWICE_THE_TIME};
use super::words::number;
use super::{
    mean_after, series, Cell, Change, Chart, Choice, Definition, Report, Series, Setting, Settings,
    Status, Table, Trial, Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::model::presets;
use crate::params::{SolverOrder, Value};

/// A window's mean rotation rate above this many degrees per second counts
/// as turning (a minute turns the body by 60°, plain to see).
pub const SPINS: f64 = 1.0;

/// How a body turned over the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turning {
    /// The same sign and above [`SPINS`] in every window of the second half.
    Spins,
    /// Above [`SPINS`] in some window, but not spinning.
    Rocks,
    Still,
}

impl Turning {
    pub fn name(self) -> &'static str {
        match self {
            Turning::Spins => "spins",
            Turning::Rocks => "rocks",
            Turning::Still => "keeps still",
        }
    }
}

/// The mean rotation rate (°/s) over each whole window of `window` seconds
/// from the start of `samples` (`[time, rate]` rows), with each window's start.
pub fn window_means(samples: &[Vec<f64>], window: f64) -> Vec<(f64, f64)> {
    let end = samples.last().map_or(0.0, |r| r[0]);
    let count = ((end + 1e-9) / window).floor() as usize;
    (0..count)
        .map(|k| {
            let (from, to) = (k as f64 * window, (k + 1) as f64 * window);
            let rates: Vec<f64> = samples
                .iter()
                .filter(|r| r[0] > from + 1e-9 && r[0] <= to + 1e-9)
                .map(|r| r[1])
                .collect();
            let mean = rates.iter().sum::<f64>() / rates.len().max(1) as f64;
            (from, if rates.is_empty() { f64::NAN } else { mean })
        })
        .collect()
}

/// How a body with these window means (from [`window_means`]) over a run of
/// `duration` seconds turned: it spins when every window starting in the
/// second half (the last window, if none does) turns faster than [`SPINS`]
/// with one sign; it rocks when some window does but it does not spin.
pub fn classify(means: &[(f64, f64)], duration: f64) -> Turning {
    let late: Vec<f64> = means
        .iter()
        .filter(|(from, _)| *from >= duration / 2.0 - 1e-9)
        .map(|&(_, m)| m)
        .collect();
    let late = if late.is_empty() {
        means.last().map(|&(_, m)| vec![m]).unwrap_or_default()
    } else {
        late
    };
    let turning = |m: &f64| m.abs() > SPINS;
    let one_sign = late.iter().all(|m| *m > 0.0) || late.iter().all(|m| *m < 0.0);
    if !late.is_empty() && late.iter().all(turning) && one_sign {
        Turning::Spins
    } else if means.iter().any(|(_, m)| turning(m)) {
        Turning::Rocks
    } else {
        Turning::Still
    }
}

pub(super) static DEFINITION: Definition = Definition {
    id: "spin",
    title: "Resting bodies that turn",
    claim: "A soft body and a balloon resting on the ground start to rotate by themselves, and shuffling the constraints does not stop it (the report's open question: its author could not find why).",
    source: "the course report on XPBD soft bodies (its open question); the PBD tutorial's remark that corrections along ∇C conserve angular momentum",
    method: "The \"soft-body\" and \"balloon\" presets run with each sweep order without air drag (velocityDamping 0, as in the report; the balloon preset's own air drag lets it come to rest) in three cases: resting on the ground with the preset's friction, on the ground without friction, and floating with the ground removed and gravity off (no contact: only the body's own constraints act; a falling body is no control, as single precision's rounding grows with the distance fallen). Measured: the rotation rate about the centre of mass, ω = L/I (angular momentum over moment of inertia of the free particles), over time, and its mean over each window of the length below from the start. A landed balloon's roll builds up and decays over seconds, so a single mean catches whatever its window happens to: the rule asks for a persistent rate.",
    rule: "A body spins when its mean rate exceeds 1°/s (a minute turns it by 60°, plain to see), with the same sign, in every window of the run's second half: a persistent rate, turning one way to the end. It rocks when some window exceeds 1°/s but it does not spin (a roll that builds and decays, or turns back); otherwise it keeps still. Holds when some body resting on the ground spins; in part when none spins but some rocks (it starts to turn by itself but does not keep turning); does not hold when every resting body keeps still. The table shows in which cases, which is where the turning comes from.",
    settings: &[
        Setting { name: "friction", label: "Friction on the ground", unit: "", min: 0.0, max: 10.0, whole: false, default: 0.3 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 1.0, max: 60.0, whole: false, default: 20.0 },
        Setting { name: "window", label: "Window", unit: "s", min: 0.1, max: 30.0, whole: false, default: 2.0 },
    ],
    key: "spinningResting",
    choices: &[
        Choice::measure(
            &["window"],
            "the window",
            Change::Times(2.0),
            "A verdict that changes with the window rests on what the windows happened to catch of a roll that comes and goes.",
            "Watch a resting body over more than one window before calling its turning a spin.",
        ),
        TWICE_THE_TIME,
    ],
    explain: None,
    prepare: None,
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

/// Preset `name` with `options`, a soft body moved down to rest on its
/// ground (its lowest particle one particle radius above it; the preset drops
/// it from the air), the balloon as built.
fn built(name: &str, options: &[(&str, Value)]) -> Result<Cloth, ClothError> {
    let mut preset = presets::preset(name, options)?;
    if name == "soft-body" {
        preset.rest_on_ground();
    }
    let mut cloth = Cloth::from_scene(&preset.scene)?;
    for (parameter, value) in preset.params {
        cloth.set_parameter(parameter, value)?;
    }
    Ok(cloth)
}

fn body(preset: &str, order: SolverOrder, friction: Option<f64>) -> Result<Cloth, ClothError> {
    let mut cloth = built(
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

/// What each run did: its class, window means and second-half mean.
struct Outcome {
    label: String,
    /// 0: ground with friction, 1: ground without, 2: floating.
    case: usize,
    turning: Turning,
    means: Vec<(f64, f64)>,
    half: f64,
}

impl Outcome {
    fn resting(&self) -> bool {
        self.case < 2
    }

    /// The largest window mean in size, with its sign.
    fn fastest(&self) -> f64 {
        self.means
            .iter()
            .map(|&(_, m)| m)
            .fold(0.0, |a: f64, m| if m.abs() > a.abs() { m } else { a })
    }
}

fn advice(outcomes: &[Outcome]) -> &'static str {
    let floating = outcomes
        .iter()
        .any(|o| !o.resting() && o.turning != Turning::Still);
    let spins = outcomes
        .iter()
        .any(|o| o.resting() && o.turning == Turning::Spins);
    let rocks = outcomes
        .iter()
        .any(|o| o.resting() && o.turning == Turning::Rocks);
    if floating {
        "The turning comes from the constraint solve itself (bodies turn with no contact at all): friction with the ground holds it, so keep some friction on resting bodies."
    } else if spins {
        "A resting body that keeps turning is the contacts' doing, not the constraints' (it keeps still floating), and friction does not stop a round body rolling: give it air drag (velocity damping, as the balloon preset's 1/s) so that it comes to rest."
    } else if rocks {
        "A resting round body rocks into a roll and back on its contacts, and settles only slowly without air drag: give it some (velocity damping, as the balloon preset's 1/s); the constraints and the sweep order do not turn it (it keeps still floating)."
    } else {
        "Resting bodies keep still here in either sweep order, with or without friction: no need to shuffle constraints."
    }
}

/// The table: each run, how it turned, its window means and its mean over
/// the second half.
fn table(outcomes: &[Outcome]) -> Table {
    Table {
        columns: vec![
            "run".into(),
            "turning".into(),
            "mean ω over each window (°/s)".into(),
            "mean ω over the second half (°/s)".into(),
        ],
        rows: outcomes
            .iter()
            .map(|o| {
                let means: Vec<String> = o.means.iter().map(|&(_, m)| number(m)).collect();
                vec![
                    Cell::Text(o.label.clone()),
                    Cell::Text(o.turning.name().into()),
                    Cell::Text(means.join(", ")),
                    Cell::Number(o.half),
                ]
            })
            .collect(),
    }
}

/// The verdict over the runs' `outcomes` (measured over `duration` seconds
/// in windows of `window`), and the counts it rests on: resting runs that
/// spin and rock, floating runs that turn.
fn verdict(outcomes: &[Outcome], duration: f64, window: f64) -> (Verdict, [usize; 3]) {
    let count = |resting: bool, turning: Turning| {
        outcomes
            .iter()
            .filter(|o| o.resting() == resting && o.turning == turning)
            .count()
    };
    let (spinning, rocking) = (count(true, Turning::Spins), count(true, Turning::Rocks));
    let status = if spinning > 0 {
        Status::Holds
    } else if rocking > 0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let floating = count(false, Turning::Spins) + count(false, Turning::Rocks);
    let mut text = format!(
        "{}: over {} in windows of {}, {spinning} of 8 resting runs spin (a persistent rate, one way in every window of the second half) and {rocking} rock (turning faster than {SPINS}°/s in some window, but not to the end); {floating} of 4 floating runs turn.",
        status.name(),
        super::words::quantity(duration, "s"),
        super::words::quantity(window, "s"),
    );
    for turning in [Turning::Spins, Turning::Rocks] {
        let runs: Vec<String> = outcomes
            .iter()
            .filter(|o| o.turning == turning)
            .map(|o| format!("{} (up to {}°/s)", o.label, number(o.fastest())))
            .collect();
        if !runs.is_empty() {
            text += &format!(" {}: {}.", capitalised(turning.name()), runs.join("; "));
        }
    }
    (
        Verdict::new(status, text, advice(outcomes)),
        [spinning, rocking, floating],
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let (duration, window) = (settings.get("duration"), settings.get("window"));
    let mut chart = Chart::new(
        "Rotation rate about the centre of mass",
        "time (s)",
        "ω (°/s)",
    );
    let mut windows = Chart::new(
        "Mean rotation rate over each window",
        "window start (s)",
        "mean ω (°/s)",
    );
    let mut outcomes = Vec::new();
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        let means = window_means(&trial.samples, window);
        windows.series.push(Series {
            label: trial.label.clone(),
            points: means.iter().map(|&(t, m)| [t, m]).collect(),
        });
        outcomes.push(Outcome {
            label: trial.label.clone(),
            case: trial.key as usize,
            turning: classify(&means, duration),
            half: mean_after(&trial.samples, 1, duration / 2.0),
            means,
        });
    }
    let (verdict, [spinning, rocking, floating]) = verdict(&outcomes, duration, window);
    let fastest = outcomes
        .iter()
        .filter(|o| o.resting())
        .map(|o| o.fastest().abs())
        .fold(0.0, f64::max);
    Report::new(
        vec![chart, windows],
        table(&outcomes),
        vec![
            ("spinningResting", spinning as f64),
            ("rockingResting", rocking as f64),
            ("turningFloating", floating as f64),
            ("fastestWindowRate", fastest),
        ],
        verdict,
    )
}

/// `word` with its first letter upper case.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}
