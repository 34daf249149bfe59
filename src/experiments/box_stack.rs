//! A stack of boxes: substeps against iterations at equal solves. The
//! `box-stack` preset's five rigid boxes run at every split of a budget of
//! constraint solves per step into substeps × iterations; how far the boxes
//! move from their resting places says which split holds a stack.

use super::setup::{self, steps_for};
use super::{series, words, Cell, Change, Chart, Choice, Definition, Report, Setting, Settings};
use super::{trial_table, Status, Table, Trial, Verdict};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::model::body_presets::STACK_GAP;
use crate::params::Value;

/// The boxes of the preset, counted from the ground, and the particles of
/// each (a box's particles are consecutive, box after box).
const BOXES: usize = 5;
const BOX_PARTICLES: usize = 16;
/// From when the displacement counts, s: the boxes have fallen into place.
pub const SETTLED: f64 = 1.0;
/// A run stands when no box's centre is farther than this from its resting
/// place, m (the criterion for a stack that stands).
pub const STANDS: f64 = 0.01;
/// A run has fallen when a box's centre is farther than this, m: one
/// particle spacing, a box out of its grooves.
pub const FELL: f64 = 0.1;
/// Holds when the most substeps' displacement is at most this share of the
/// most iterations' (and they stand).
pub const HOLDS_RATIO: f64 = 0.5;

pub(super) static DEFINITION: Definition = Definition {
    id: "box-stack",
    title: "A stack of boxes: substeps against iterations",
    claim: "At equal work, substeps hold a stack of boxes better than iterations.",
    source: "Macklin et al., \"Small Steps in Physics Simulation\" (2019), section 5 (stacking); the box-stack preset, which needs 10 substeps of 2 iterations to stand",
    method: "The box-stack preset (five rigid boxes of 4 × 4 particles, 0.5 kg each, each starting 1 cm above its resting place; friction 0.5, velocity damping 0.3/s) runs at every split of n constraint solves per step into s substeps × n/s iterations, from all iterations (1 × n) to all substeps (n × 1). Measured from 1 s on (the boxes have fallen into place): each box's resting place is its start less the gaps it falls by design; a run's displacement is the largest distance of any box's centre from its resting place. Beside it: the top box's horizontal drift and height lost at the end, the deepest overlap (into the ground, or two particles of different boxes closer than 2r), and each run's work units per step (shown, not judged).",
    rule: "Written before the data. Key number: the displacement with the most substeps (n × 1) over that with the most iterations (1 × n). Holds when it is at most 0.5 and the most substeps stand (within 1 cm: the issue's criterion for a stack that stands); in part when it is below 1 otherwise; does not hold at 1 or above. A run has fallen when a box's centre is more than 0.1 m (a particle spacing) from its resting place.",
    settings: &[
        Setting { name: "solves", label: "Solves per step n (substeps × iterations)", unit: "", min: 2.0, max: 60.0, whole: true, default: 20.0 },
        setup::TIME_STEP,
        Setting { name: "duration", label: "Simulated time", unit: "s", min: 1.0, max: 120.0, whole: false, default: 10.0 },
    ],
    key: "displacementRatio",
    choices: &[
        setup::TWICE_THE_TIME,
        Choice::run(
            &["solves"],
            "the solves per step",
            Change::Times(2.0),
            "A verdict that changes with twice the solves per step is the budget's, not the split's: at one budget every split holds the stack, or none does.",
            "Compare the splits at the budget you will run.",
        ),
    ],
    explain: None,
    prepare: None,
    build,
    report,
};

/// The splits of `n` solves: (substeps, iterations) for every divisor s of
/// n, the most iterations first.
pub fn splits(n: u32) -> Vec<(u32, u32)> {
    (1..=n).filter(|s| n % s == 0).map(|s| (s, n / s)).collect()
}

/// Each box's centre of mass, from its particles.
fn centres(c: &Cloth) -> [[f64; 2]; BOXES] {
    let (x, w) = (c.positions(), c.inverse_masses());
    std::array::from_fn(|b| {
        let (mut m, mut sx, mut sy) = (0.0, 0.0, 0.0);
        for k in b * BOX_PARTICLES..(b + 1) * BOX_PARTICLES {
            let mk = 1.0 / w[k] as f64;
            m += mk;
            sx += mk * x[2 * k] as f64;
            sy += mk * x[2 * k + 1] as f64;
        }
        [sx / m, sy / m]
    })
}

/// The deepest overlap, m: a particle below the ground line (y = 0) by more
/// than its radius, or two particles of different boxes closer than twice it.
fn deepest_overlap(c: &Cloth) -> f64 {
    let (x, r) = (c.positions(), c.params().particle_radius);
    let n = BOXES * BOX_PARTICLES;
    let at = |k: usize| [x[2 * k] as f64, x[2 * k + 1] as f64];
    let mut deepest = 0.0f64;
    for a in 0..n {
        let pa = at(a);
        deepest = deepest.max(r - pa[1]);
        for b in (a / BOX_PARTICLES + 1) * BOX_PARTICLES..n {
            let pb = at(b);
            deepest = deepest.max(2.0 * r - (pa[0] - pb[0]).hypot(pa[1] - pb[1]));
        }
    }
    deepest
}

/// The `box-stack` preset with `substeps` × `iterations` at the time step
/// setting.
pub fn stack(settings: &Settings, substeps: u32, iterations: u32) -> Result<Cloth, ClothError> {
    Cloth::from_preset(
        "box-stack",
        &[
            ("substeps", Value::Number(substeps as f64)),
            ("iterations", Value::Number(iterations as f64)),
            ("timeStepSize", Value::Number(settings.get("timeStep"))),
        ],
    )
}

/// Box `b`'s resting place, from its centre at the start: `b + 1` gaps lower.
pub fn resting_place(start: [f64; 2], b: usize) -> [f64; 2] {
    [start[0], start[1] - (b + 1) as f64 * STACK_GAP as f64]
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    splits(settings.count("solves"))
        .into_iter()
        .map(|(substeps, iterations)| {
            let cloth = stack(settings, substeps, iterations)?;
            let start = centres(&cloth);
            let rest: [[f64; 2]; BOXES] = std::array::from_fn(|b| resting_place(start[b], b));
            let probe: super::Probe = Box::new(move |c| {
                let now = centres(c);
                let displacement = (0..BOXES)
                    .map(|b| (now[b][0] - rest[b][0]).hypot(now[b][1] - rest[b][1]))
                    .fold(0.0, f64::max);
                let top = BOXES - 1;
                vec![
                    c.time(),
                    displacement,
                    now[top][0] - rest[top][0],
                    rest[top][1] - now[top][1],
                    deepest_overlap(c),
                ]
            });
            let plan = steps_for(settings.get("duration"), settings.get("timeStep"));
            Ok(Trial::new(
                format!("{substeps} × {iterations} (substeps × iterations)"),
                substeps as f64,
                cloth,
                plan,
                probe,
            ))
        })
        .collect()
}

/// A run's figures: (displacement from [`SETTLED`] on, the top box's drift
/// and height lost at the end, the deepest overlap from [`SETTLED`] on), m;
/// a diverged run's displacement is infinite.
pub fn figures(trial: &Trial) -> [f64; 4] {
    let after = |column: usize| {
        trial
            .samples
            .iter()
            .filter(|r| r[0] >= SETTLED - 1e-9)
            .map(|r| r[column])
            .fold(f64::NAN, f64::max)
    };
    let last = trial.samples.last();
    let displacement = if trial.diverged {
        f64::INFINITY
    } else {
        after(1)
    };
    [
        displacement,
        last.map_or(f64::NAN, |r| r[2]),
        last.map_or(f64::NAN, |r| r[3]),
        after(4),
    ]
}

/// How a run with `displacement` ended: `"stands"`, `"moved"` or `"fell"`.
pub fn state(displacement: f64) -> &'static str {
    if displacement <= STANDS {
        "stands"
    } else if displacement <= FELL {
        "moved"
    } else {
        "fell"
    }
}

/// The rule's status for the end runs' displacements.
pub fn status(most_substeps: f64, most_iterations: f64) -> Status {
    let ratio = most_substeps / most_iterations;
    if ratio <= HOLDS_RATIO && most_substeps <= STANDS {
        Status::Holds
    } else if ratio < 1.0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    }
}

/// The displacement of every run over time.
fn chart(trials: &[Trial]) -> Chart {
    let mut chart = Chart::new(
        "Largest distance of a box's centre from its resting place",
        "time (s)",
        "displacement (m)",
    );
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
    }
    chart
}

/// A row per run: its work, its figures (see `figures`) and whether it stands.
fn table(trials: &[Trial], all: &[[f64; 4]]) -> Table {
    let columns = [
        "run",
        "work units per step",
        "largest displacement from 1 s (m)",
        "top box's drift at the end (m)",
        "top box's height lost at the end (m)",
        "deepest overlap from 1 s (m)",
        "the stack",
    ];
    trial_table(
        &columns,
        trials,
        all,
        |_| vec![],
        |f| vec![Cell::Text(state(f[0]).into())],
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let chart = chart(trials);
    let all: Vec<[f64; 4]> = trials.iter().map(figures).collect();
    let table = table(trials, &all);
    let n = settings.count("solves");
    let (iterations, substeps) = (all[0][0], all[all.len() - 1][0]);
    let ratio = substeps / iterations;
    let status = status(substeps, iterations);
    let best = trials
        .iter()
        .zip(&all)
        .min_by(|a, b| a.1[0].total_cmp(&b.1[0]))
        .map_or(f64::NAN, |(t, _)| t.key);
    let text = format!(
        "{}: at {n} solves per step, {n} substeps of one iteration keep every box within {} of its resting place ({}), one substep of {n} iterations within {} ({}): {} times as far ({} the {} allowed, standing within {}). The best split here is {} of {}.",
        status.name(),
        words::quantity(substeps, "m"),
        state(substeps),
        words::quantity(iterations, "m"),
        state(iterations),
        words::number(ratio),
        if status == Status::Holds { "within" } else { "beyond" },
        words::number(HOLDS_RATIO),
        words::quantity(STANDS, "m"),
        words::count(best as u32, "substep", "substeps"),
        words::count(n / (best as u32).max(1), "iteration", "iterations"),
    );
    let advice = match status {
        Status::Holds => "For stacks, spend the solves on substeps: one or two iterations each.",
        Status::Partly => "Substeps help a stack, but check the split you use before relying on it.",
        _ => "For this stack, substeps do not beat iterations at equal solves: keep the split that stands.",
    };
    let mut numbers = vec![
        ("displacementRatio", ratio),
        ("displacementMostSubsteps", substeps),
        ("displacementMostIterations", iterations),
        ("bestSubsteps", best),
        (
            "standing",
            all.iter().filter(|f| f[0] <= STANDS).count() as f64,
        ),
        ("fallen", all.iter().filter(|f| f[0] > FELL).count() as f64),
    ];
    numbers.push(("overlapMostSubsteps", all[all.len() - 1][3]));
    numbers.push(("overlapMostIterations", all[0][3]));
    Report::new(
        vec![chart],
        table,
        numbers,
        Verdict::new(status, text, advice),
    )
}
