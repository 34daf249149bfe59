//! Four solvers at equal work: PBD, XPBD, XPBD with small steps and Catto's
//! soft step on the same hanging cloth, each given the work units of n
//! iterations of XPBD; their stretch, energy over time, and response to a
//! yank.

use super::measure::{elastic_energy, grid_cloth, mean_stretch};
use super::setup::{self, hanging_trial};
use super::{
    series, trial_table, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::error::ClothError;
use crate::params::{FixedPreset, Params, SolverKind};

/// The soft step holds when its stretch at equal work is at most this
/// fraction of small steps' (at least as stiff per unit of work).
pub const HOLDS_RATIO: f64 = 1.0;
/// In part up to this fraction: within a factor two, the same order of stiffness.
pub const PARTLY_RATIO: f64 = 2.0;
/// How long the yanked particle is held down, seconds.
const YANK_HOLD: f64 = 0.1;

pub(super) static DEFINITION: Definition = Definition {
    id: "four-solvers",
    title: "Four solvers at equal work: PBD, XPBD, small steps, soft step",
    claim: "At the same cost, Catto's soft step holds a cloth at least as stiff as XPBD with small steps.",
    source: "Erin Catto, \"Solver2D\" (box2d.org, 2024) and the Box2D v3 solver, against Macklin et al., \"Small Steps in Physics Simulation\" (2019)",
    method: "A cloth hangs from its two top corners. Four runs get the work units (the cost model's estimate of wasm time) of n iterations × 1 substep of XPBD: PBD (rigid, n × 1), XPBD at the stiffness setting (n × 1), XPBD with small steps (1 iteration × the most substeps that cost no more) and the soft step (1 iteration × the most substeps that cost no more, each constraint at a quarter of the substep rate, Box2D's rule, and the damping ratio setting); beside them, not judged, the soft step with small steps' substeps (equal constraint solves: the soft step here has no SIMD path, so equal work gives it fewer substeps). Measured over time: the links' mean stretch, the energy (kinetic, gravitational and the springs') and the kinetic energy. At half the duration the bottom-middle particle is yanked 'yank' metres down in one step, held 0.1 s and let go: the peak stretch while held, the largest kinetic energy after the release, and the energy change 0.5 s and 1 s after it (nothing but gravity acts then: a rise is energy the solver made).",
    rule: "Written before the data. Key number: the soft step's mean stretch divided by small steps', both averaged from a quarter to half the duration (hanging, before the yank). Holds when it is at most 1 (at least as stiff per unit of work); in part up to 2 (the same order of stiffness); does not hold above. The peak stretch while yanked, the kinetic energy and the energy change after the release are reported for all, not judged.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 3.0, max: 40.0, whole: true, default: 12.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 3.0, max: 40.0, whole: true, default: 10.0 },
        Setting { name: "stiffness", label: "XPBD stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1e6 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "work", label: "Iterations n (the budget)", unit: "", min: 2.0, max: 60.0, whole: true, default: 20.0 },
        Setting { name: "dampingRatio", label: "Soft damping ratio", unit: "", min: 0.0, max: 10.0, whole: false, default: 1.0 },
        Setting { name: "yank", label: "Yank", unit: "m", min: 0.0, max: 2.0, whole: false, default: 0.3 },
        Setting { name: "duration", label: "Duration", unit: "s", min: 1.0, max: 20.0, whole: false, default: 4.0 },
        setup::ORDER,
    ],
    key: "stretchRatio",
    choices: &[setup::TWICE_THE_TIME, setup::THE_OTHER_ORDER],
    explain: None,
    prepare: None,
    build,
    report,
};

/// The four solvers, in the report's order.
#[derive(Clone, Copy, PartialEq)]
enum Solver {
    Pbd,
    Xpbd,
    SmallSteps,
    Soft,
    /// The soft step with small steps' substeps: equal constraint solves,
    /// not equal work (reported, not judged).
    SoftEqualSolves,
}

const SOLVERS: [Solver; 5] = [
    Solver::Pbd,
    Solver::Xpbd,
    Solver::SmallSteps,
    Solver::Soft,
    Solver::SoftEqualSolves,
];

/// The soft step's frequency, as a share of the substep rate: Box2D's rule
/// (a quarter; at half, the measured cloth gains energy).
pub const SOFT_RATE_SHARE: f64 = 0.25;

/// The parameters of `solver` with `substeps` (1 iteration each, but PBD's
/// and XPBD's n × 1).
fn params(settings: &Settings, solver: Solver, substeps: u32) -> Params {
    let dt = settings.get("timeStep");
    let base = Params {
        mass: settings.get("mass"),
        time_step: dt,
        substeps,
        iterations: 1,
        stiffness: settings.get("stiffness"),
        velocity_damping: 0.0,
        ..Params::default()
    };
    let n = settings.count("work");
    match solver {
        Solver::Pbd => Params {
            stiffness: 0.0,
            iterations: n,
            substeps: 1,
            ..base
        },
        Solver::Xpbd => Params {
            iterations: n,
            substeps: 1,
            ..base
        },
        Solver::SmallSteps => base,
        Solver::Soft | Solver::SoftEqualSolves => Params {
            solver: SolverKind::SoftStep,
            soft_frequency: SOFT_RATE_SHARE * substeps as f64 / dt,
            soft_damping_ratio: settings.get("dampingRatio"),
            ..base
        },
    }
}

/// The substeps each solver runs at the budget: 1 for PBD and XPBD, the most
/// whose step costs no more than n iterations of XPBD for the others.
fn substeps(settings: &Settings, solver: Solver) -> Result<u32, ClothError> {
    match solver {
        Solver::Pbd | Solver::Xpbd => return Ok(1),
        Solver::SoftEqualSolves => return substeps(settings, Solver::SmallSteps),
        _ => {}
    }
    let (w, h) = (settings.count("width"), settings.count("height"));
    let cost = |p: Params| -> Result<u64, ClothError> {
        Ok(grid_cloth(w, h, FixedPreset::Two, p)?.work_per_step())
    };
    let budget = cost(params(settings, Solver::Xpbd, 1))?;
    let mut s = 1;
    while s < 100 && cost(params(settings, solver, s + 1))? <= budget {
        s += 1;
    }
    Ok(s)
}

fn label(solver: Solver, p: &Params) -> String {
    let name = match solver {
        Solver::Pbd => "PBD",
        Solver::Xpbd => "XPBD",
        Solver::SmallSteps => "XPBD, small steps",
        Solver::Soft => "Soft step",
        Solver::SoftEqualSolves => "Soft step, equal solves (not judged)",
    };
    format!("{name}, {} × {}", p.iterations, p.substeps)
}

/// Grabs the bottom-middle particle at half the duration, drags it `yank`
/// metres down at once, holds it [`YANK_HOLD`] seconds and lets it go.
fn yank_driver(settings: &Settings) -> super::Driver {
    let (w, h) = (
        settings.count("width") as usize,
        settings.count("height") as usize,
    );
    let particle = (h - 1) * w + w / 2;
    let (at, yank) = (settings.get("duration") / 2.0, settings.get("yank"));
    let mut target = None;
    Box::new(move |c| {
        let t = c.time();
        if t >= at && t < at + YANK_HOLD {
            let (x, y) = *target.get_or_insert_with(|| {
                let p = c.positions();
                (p[2 * particle] as f64, p[2 * particle + 1] as f64 - yank)
            });
            if c.grabbed() != Some(particle) {
                let _ = c.grab(particle);
            }
            let _ = c.drag(x, y);
        } else if t >= at + YANK_HOLD && c.grabbed().is_some() {
            c.release();
        }
    })
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    SOLVERS
        .iter()
        .map(|&solver| {
            let p = params(settings, solver, substeps(settings, solver)?);
            let trial = hanging_trial(
                settings,
                label(solver, &p),
                p.substeps as f64,
                p,
                Box::new(|c| {
                    let energy = energy(c);
                    vec![
                        c.time(),
                        100.0 * mean_stretch(c),
                        energy,
                        c.kinetic_energy(),
                    ]
                }),
            )?;
            Ok(trial.with_driver(yank_driver(settings)))
        })
        .collect()
}

/// Kinetic, gravitational and elastic energy, J: the springs are XPBD's
/// `½ k C²`, or the soft step's `½ m_eff ω² C²` (PBD's rigid links hold none).
fn energy(c: &mut crate::cloth::Cloth) -> f64 {
    let p = c.params();
    let elastic = if p.solver == SolverKind::SoftStep {
        let omega = 2.0 * std::f64::consts::PI * p.soft_frequency;
        let (x, w, ids) = (c.positions(), c.inverse_masses(), c.constraint_ids());
        c.rest_lengths()
            .iter()
            .enumerate()
            .map(|(k, &rest)| {
                let (a, b) = (ids[2 * k] as usize, ids[2 * k + 1] as usize);
                let w_sum = (w[a] + w[b]) as f64;
                let dx = (x[2 * a] - x[2 * b]) as f64;
                let dy = (x[2 * a + 1] - x[2 * b + 1]) as f64;
                let error = dx.hypot(dy) - rest as f64;
                if w_sum > 0.0 {
                    0.5 * omega * omega * error * error / w_sum
                } else {
                    0.0
                }
            })
            .sum()
    } else {
        elastic_energy(c)
    };
    c.kinetic_energy() + c.potential_energy() + elastic
}

/// The mean of `column` over the rows from `from` to `to` seconds.
fn mean_between(samples: &[Vec<f64>], column: usize, from: f64, to: f64) -> f64 {
    let values: Vec<f64> = samples
        .iter()
        .filter(|r| r[0] >= from && r[0] < to)
        .map(|r| r[column])
        .collect();
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The largest of `column` over the rows from `from` to `to` seconds.
fn peak_between(samples: &[Vec<f64>], column: usize, from: f64, to: f64) -> f64 {
    samples
        .iter()
        .filter(|r| r[0] >= from && r[0] < to)
        .map(|r| r[column])
        .fold(f64::NAN, f64::max)
}

/// The value of `column` at the first row at or after `t` seconds.
fn at_time(samples: &[Vec<f64>], column: usize, t: f64) -> f64 {
    samples
        .iter()
        .find(|r| r[0] >= t - 1e-9)
        .map_or(f64::NAN, |r| r[column])
}

/// The names of each run's [`figures`] among the report's numbers.
const NUMBERS: [[&str; 5]; 5] = [
    [
        "stretchPbd",
        "yankStretchPbd",
        "yankKineticPbd",
        "driftHalfSecondPbd",
        "driftOneSecondPbd",
    ],
    [
        "stretchXpbd",
        "yankStretchXpbd",
        "yankKineticXpbd",
        "driftHalfSecondXpbd",
        "driftOneSecondXpbd",
    ],
    [
        "stretchSmallSteps",
        "yankStretchSmallSteps",
        "yankKineticSmallSteps",
        "driftHalfSecondSmallSteps",
        "driftOneSecondSmallSteps",
    ],
    [
        "stretchSoft",
        "yankStretchSoft",
        "yankKineticSoft",
        "driftHalfSecondSoft",
        "driftOneSecondSoft",
    ],
    [
        "stretchSoftEqualSolves",
        "yankStretchSoftEqualSolves",
        "yankKineticSoftEqualSolves",
        "driftHalfSecondSoftEqualSolves",
        "driftOneSecondSoftEqualSolves",
    ],
];

/// Each run's figures: (mean stretch % hanging, peak stretch % while
/// yanked, largest kinetic energy after the release, J; the energy change
/// from the release to 0.5 s and 1 s after it, J: with nothing acting but
/// gravity, a change above 0 is energy the solver made).
fn figures(settings: &Settings, trial: &Trial) -> [f64; 5] {
    let duration = settings.get("duration");
    let s = &trial.samples;
    let (yank, release) = (duration / 2.0, duration / 2.0 + YANK_HOLD);
    let released = at_time(s, 2, release);
    [
        mean_between(s, 1, duration / 4.0, yank),
        peak_between(s, 1, yank, release),
        peak_between(s, 3, release, duration + 1.0),
        at_time(s, 2, release + 0.5) - released,
        at_time(s, 2, release + 1.0) - released,
    ]
}

/// The table: each run's cost, its constraint solves and its [`figures`].
fn table(trials: &[Trial], all: &[[f64; 5]]) -> Table {
    let columns = [
        "run",
        "work units per step",
        "constraint solves per step",
        "mean stretch hanging (%)",
        "peak stretch yanked (%)",
        "largest kinetic energy after the release (J)",
        "energy change 0.5 s after the release (J)",
        "energy change 1 s after the release (J)",
    ];
    let solves = |t: &Trial| {
        let p = t.cloth.params();
        let solves = (p.iterations * p.substeps) as usize * t.cloth.num_constraints();
        vec![Cell::Number(solves as f64)]
    };
    trial_table(&columns, trials, all, solves, |_| vec![])
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let mut stretch = Chart::new("Mean stretch of the links", "time (s)", "stretch (%)");
    let mut energy = Chart::new(
        "Energy (kinetic, gravitational and the springs')",
        "time (s)",
        "energy (J)",
    );
    for trial in trials {
        stretch
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        energy
            .series
            .push(series(trial.label.clone(), &trial.samples, 2));
    }
    let all: Vec<[f64; 5]> = trials.iter().map(|t| figures(settings, t)).collect();
    let table = table(trials, &all);
    let ratio = all[3][0] / all[2][0];
    let status = if ratio <= HOLDS_RATIO {
        Status::Holds
    } else if ratio <= PARTLY_RATIO {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let text = format!(
        "{}: at the work units of {} iterations of XPBD, the soft step ({}) stretches its links {:.4} % on average against {:.4} % for XPBD with small steps ({}): {:.2} times as much ({} {:.0} allowed for holds, {:.0} for in part). PBD stretches them {:.4} %, XPBD {:.4} %; the soft step with small steps' substeps (equal solves, not equal work) {:.4} %.",
        status.name(),
        settings.count("work"),
        trials[3].label,
        all[3][0],
        all[2][0],
        trials[2].label,
        ratio,
        if ratio <= HOLDS_RATIO { "within the" } else { "beyond the" },
        HOLDS_RATIO,
        PARTLY_RATIO,
        all[0][0],
        all[1][0],
        all[4][0],
    );
    let advice = match status {
        Status::Holds => "For a stiff cloth at a fixed budget the soft step is as good a use of it as small steps.",
        _ => "For a stiff cloth at a fixed budget, spend it on XPBD's small steps; the soft step's constraints stay softer at the same cost.",
    };
    let mut numbers = vec![("stretchRatio", ratio)];
    for (names, f) in NUMBERS.iter().zip(&all) {
        numbers.extend(names.iter().copied().zip(f.iter().copied()));
    }
    numbers.push(("substepsSmallSteps", trials[2].key));
    numbers.push(("substepsSoft", trials[3].key));
    Report::new(
        vec![stretch, energy],
        table,
        numbers,
        Verdict::new(status, text, advice),
    )
}
