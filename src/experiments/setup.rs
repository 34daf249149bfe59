//! The set-up most experiments share: a grid cloth held by its two top
//! corners, stepped for a simulated time and sampled along the way.

use std::cell::RefCell;
use std::rc::Rc;

use super::equilibrium::{self, Newton, Springs};
use super::measure::grid_cloth;
use super::{Change, Choice, Plan, Preparation, Probe, Setting, Settings, Trial};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::{FixedPreset, Params, SolverOrder};

/// About how many times a trial's probe runs over its steps.
const SAMPLES: u32 = 400;

/// The plan that steps `duration` seconds of simulated time at `time_step`
/// (at least one step), measured about [`SAMPLES`] times.
pub(super) fn steps_for(duration: f64, time_step: f64) -> Plan {
    let total = (duration / time_step).round().max(1.0) as u32;
    let every = (total / SAMPLES).max(1);
    Plan::Steps { total, every }
}

/// A trial on a cloth of the `width × height` settings held by its two top
/// corners, with `params` (in the sweep order of the `order` setting, if the
/// experiment has one), stepped for the `duration` setting and measured by
/// `probe`.
pub(super) fn hanging_trial(
    settings: &Settings,
    label: impl Into<String>,
    key: f64,
    params: Params,
    probe: Probe,
) -> Result<Trial, ClothError> {
    let params = Params {
        solver_order: order(settings),
        ..params
    };
    let cloth = settings_cloth(settings, params)?;
    Ok(Trial::new(
        label,
        key,
        cloth,
        steps_for(settings.get("duration"), params.time_step),
        probe,
    ))
}

/// One hanging cloth per substep count, 1 iteration each, at the `stiffness`,
/// `mass` and `timeStep` settings: the counts of `fixed` below the
/// `maxSubsteps` setting, then `maxSubsteps` itself, each measured by a probe
/// that `probe` makes.
pub(super) fn substep_trials(
    settings: &Settings,
    fixed: &[u32],
    probe: fn() -> Probe,
) -> Result<Vec<Trial>, ClothError> {
    let max = settings.count("maxSubsteps");
    let mut counts: Vec<u32> = fixed.iter().copied().filter(|&n| n < max).collect();
    counts.push(max);
    counts
        .into_iter()
        .map(|substeps| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                substeps,
                iterations: 1,
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                ..Params::default()
            };
            let label = super::words::count(substeps, "substep", "substeps");
            hanging_trial(settings, label, substeps as f64, params, probe())
        })
        .collect()
}

// The settings several experiments share, with the same range and default.

/// The cloth's width.
pub(super) const WIDTH: Setting = Setting {
    name: "width",
    label: "Width",
    unit: "particles",
    min: 2.0,
    max: 60.0,
    whole: true,
    default: 20.0,
};

/// The cloth's height.
pub(super) const HEIGHT: Setting = Setting {
    name: "height",
    label: "Height",
    unit: "particles",
    min: 2.0,
    max: 60.0,
    whole: true,
    default: 15.0,
};

/// The mass of each free particle.
pub(super) const MASS: Setting = Setting {
    name: "mass",
    label: "Mass per particle",
    unit: "kg",
    min: 1e-4,
    max: 100.0,
    whole: false,
    default: 0.1,
};

/// The time step.
pub(super) const TIME_STEP: Setting = Setting {
    name: "timeStep",
    label: "Time step",
    unit: "s",
    min: 1e-4,
    max: 0.05,
    whole: false,
    default: 0.01,
};

/// The velocity damping, so a hanging cloth settles.
pub(super) const VELOCITY_DAMPING: Setting = Setting {
    name: "velocityDamping",
    label: "Velocity damping",
    unit: "1/s",
    min: 0.0,
    max: 100.0,
    whole: false,
    default: 1.0,
};

/// How long the cloth runs.
pub(super) const DURATION: Setting = Setting {
    name: "duration",
    label: "Simulated time",
    unit: "s",
    min: 0.5,
    max: 20.0,
    whole: false,
    default: 4.0,
};

/// The iteration count.
pub(super) const ITERATIONS: Setting = Setting {
    name: "iterations",
    label: "Iterations",
    unit: "",
    min: 1.0,
    max: 1000.0,
    whole: true,
    default: 10.0,
};

/// The stiffness of the XPBD runs (the PBD runs are rigid).
pub(super) const XPBD_STIFFNESS: Setting = Setting {
    name: "stiffness",
    label: "XPBD stiffness",
    unit: "N/m",
    min: 1.0,
    max: 1e9,
    whole: false,
    default: 1000.0,
};

/// How finely single precision resolves a substep's fall under gravity,
/// `g h²`, the motion the prediction adds to a resting particle and the
/// solve takes back, for a cloth whose coordinates reach `extent` metres:
/// one rounding of a coordinate against it, `ε·extent/(g h²)`, known before
/// a run. Where it is coarse the prediction itself rounds, and the particles
/// move where rounding, not their weight, takes them.
pub fn fall_resolution(extent: f64, h: f64) -> f64 {
    f32::EPSILON as f64 * extent / (Params::default().gravity.abs() * h * h)
}

/// The sweep order: 0 = coloured (the cloth's default), 1 = original.
pub(super) const ORDER: Setting = Setting {
    name: "order",
    label: "Sweep order",
    unit: "0 = coloured, 1 = original",
    min: 0.0,
    max: 1.0,
    whole: true,
    default: 0.0,
};

/// The sweep order of the `order` setting ([`ORDER`]), or the cloth's
/// default for an experiment without one.
pub(super) fn order(settings: &Settings) -> SolverOrder {
    if settings.has("order") && settings.get("order") == 1.0 {
        SolverOrder::Original
    } else if settings.has("order") {
        SolverOrder::Colored
    } else {
        Params::default().solver_order
    }
}

// The choices several experiments declare, with what a verdict that changes
// under their perturbation means.

/// Twice the simulated time: where a window is a share of the run, twice the
/// window as well.
pub(super) const TWICE_THE_TIME: Choice = Choice::run(
    &["duration"],
    "the simulated time",
    Change::Times(2.0),
    "A verdict that changes when the run lasts twice as long rests on a run too short to settle, or on a transient it happened to catch.",
    "Run it longer before relying on the verdict.",
);

/// The other sweep order.
pub(super) const THE_OTHER_ORDER: Choice = Choice::run(
    &["order"],
    "the sweep order",
    Change::Other,
    "A verdict that changes with the sweep order rests on a solve that had not converged, whose result depends on the order it visits the constraints.",
    "Check the result in the other sweep order (Solver order) before relying on it.",
);

/// Ten times the iterations of the `iterations` setting.
pub(super) const TEN_TIMES_THE_ITERATIONS: Choice = Choice::run(
    &["iterations"],
    "the iteration count",
    Change::Times(10.0),
    "A verdict that changes with ten times the iterations rests on a solve that had not converged: it measures too few iterations, not the method.",
    "Raise the iterations until the result stops changing before relying on it.",
);

/// The cloth of an experiment's `width` and `height` settings, hanging from
/// its two top corners, with `params`.
pub(super) fn settings_cloth(settings: &Settings, params: Params) -> Result<Cloth, ClothError> {
    grid_cloth(
        settings.count("width"),
        settings.count("height"),
        FixedPreset::Two,
        params,
    )
}

/// The stiffness the static equilibrium of a rigid cloth (stiffness 0) is
/// found with, and the largest one used: a stand-in whose stretches
/// (about weight / k) and energy differ from the rigid limit's by about a
/// millionth of the energies measured.
const RIGID_STAND_IN: f64 = 1e7;

/// The exact static equilibrium of a hanging cloth of an experiment's
/// settings (Newton's method in f64), and what the experiments read from it.
pub(super) struct Hanging {
    /// `[a0, b0, …]`: the constraints' particles, as the cloth has them.
    pub pairs: Vec<u32>,
    pub rest_lengths: Vec<f64>,
    /// The stiffness the equilibrium is of (see [`RIGID_STAND_IN`]).
    pub stiffness: f64,
    /// The equilibrium's positions.
    pub exact: Vec<f64>,
    /// The energy the cloth can release: the rest shape's total energy less
    /// the equilibrium's, joules.
    pub releasable: f64,
}

impl Hanging {
    /// Each constraint's force at equilibrium, `k(l − L)`, newtons (a
    /// tension positive).
    pub fn forces(&self) -> Vec<f64> {
        let x = &self.exact;
        self.pairs
            .chunks_exact(2)
            .zip(&self.rest_lengths)
            .map(|(p, &rest)| {
                let (a, b) = (p[0] as usize, p[1] as usize);
                let l = (x[2 * a] - x[2 * b]).hypot(x[2 * a + 1] - x[2 * b + 1]);
                self.stiffness * (l - rest)
            })
            .collect()
    }
}

/// An equilibrium found: (width, height, stiffness, mass) as bits, and the
/// equilibrium (`None`: the cloth was refused).
type Found = ([u64; 4], Option<Rc<Hanging>>);

/// How many equilibria are kept, the most recent.
const KEPT: usize = 16;

thread_local! {
    /// The equilibria already found, the most recent last.
    static HANGING: RefCell<Vec<Found>> = const { RefCell::new(Vec::new()) };
}

/// What an equilibrium is kept by: the settings it depends on, as bits.
fn key_of(settings: &Settings) -> [u64; 4] {
    ["width", "height", "stiffness", "mass"].map(|name| settings.get(name).to_bits())
}

/// The equilibrium kept for `key`, if one was found (`Some(None)`: the
/// cloth was refused).
fn kept(key: [u64; 4]) -> Option<Option<Rc<Hanging>>> {
    HANGING.with(|r| {
        r.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|e| e.1.clone())
    })
}

/// Keeps `found` for `key`, the oldest of [`KEPT`] let go.
fn keep(key: [u64; 4], found: Option<Rc<Hanging>>) {
    HANGING.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= KEPT {
            r.remove(0);
        }
        r.push((key, found));
    });
}

/// The exact static equilibrium of a cloth of the settings (`width ×
/// height`, held by its two top corners, `stiffness`, `mass`), found once
/// per set-up and kept (`None` if the settings make no cloth). A run whose
/// probes or report read it finds it first, in pieces
/// ([`prepare_hanging`]); found here, it is found in one call.
pub(super) fn hanging(settings: &Settings) -> Option<Rc<Hanging>> {
    let key = key_of(settings);
    if let Some(found) = kept(key) {
        return found;
    }
    let found = HangingSprings::of(settings).ok().map(|springs| {
        let exact = equilibrium::solve(&springs.springs()).positions;
        Rc::new(springs.hanging(exact))
    });
    keep(key, found.clone());
    found
}

/// The Newton solve of [`hanging`]'s equilibrium as a run's preparation, in
/// pieces of bounded work, kept where [`hanging`] finds it; `None` if it is
/// kept already or the settings make no cloth (which [`hanging`] finds out
/// at once).
pub(super) fn prepare_hanging(settings: &Settings) -> Option<Box<dyn Preparation>> {
    let key = key_of(settings);
    if kept(key).is_some() {
        return None;
    }
    let springs = HangingSprings::of(settings).ok()?;
    let newton = Newton::new(&springs.springs());
    Some(Box::new(HangingSolve {
        key,
        work: newton.most_work() as f64,
        solve: Some((springs, newton)),
    }))
}

/// [`prepare_hanging`]'s preparation: the springs and their solve until it
/// is done and kept.
struct HangingSolve {
    key: [u64; 4],
    work: f64,
    solve: Option<(HangingSprings, Newton)>,
}

impl Preparation for HangingSolve {
    fn advance(&mut self, budget: u64) -> u64 {
        // another run (or a check of this one) may have found it since
        if kept(self.key).is_some() {
            self.solve = None;
            return 1;
        }
        let Some((_, newton)) = self.solve.as_mut() else {
            return 1;
        };
        let before = newton.work_done();
        let done = newton.advance(budget);
        let spent = newton.work_done() - before;
        if done {
            if let Some((springs, newton)) = self.solve.take() {
                let exact = newton.result().positions;
                keep(self.key, Some(Rc::new(springs.hanging(exact))));
            }
        }
        spent
    }

    fn is_done(&self) -> bool {
        self.solve.is_none()
    }

    fn work(&self) -> f64 {
        self.work
    }
}

/// The mean stretch (%) of the exact static equilibrium of a hanging cloth
/// of the settings (see [`hanging`]); NaN if the settings make no cloth.
pub(super) fn equilibrium_stretch(settings: &Settings) -> f64 {
    let Some(exact) = hanging(settings) else {
        return f64::NAN;
    };
    let forces = exact.forces();
    let sum: f64 = forces
        .iter()
        .zip(&exact.rest_lengths)
        .map(|(f, rest)| f / exact.stiffness / rest)
        .sum();
    100.0 * sum / forces.len().max(1) as f64
}

/// The energy a hanging cloth of the settings can release, joules: its total
/// energy in its rest shape less that of its exact static equilibrium, the
/// most it can lose by coming to rest in its plane (see [`hanging`]); the
/// scale its energy errors are measured against. NaN if the settings make no
/// cloth.
pub(super) fn releasable_energy(settings: &Settings) -> f64 {
    hanging(settings).map_or(f64::NAN, |h| h.releasable)
}

/// The springs of a hanging cloth of the settings: what [`Hanging`] is the
/// equilibrium of.
struct HangingSprings {
    /// The rest shape's positions, where the solve starts.
    rest: Vec<f64>,
    inverse_masses: Vec<f64>,
    pairs: Vec<u32>,
    rest_lengths: Vec<f64>,
    stiffness: f64,
    gravity: f64,
}

impl HangingSprings {
    fn of(settings: &Settings) -> Result<HangingSprings, ClothError> {
        let params = Params {
            mass: settings.get("mass"),
            ..Params::default()
        };
        let cloth = settings_cloth(settings, params)?;
        let k = settings.get("stiffness");
        let stiffness = if k == 0.0 {
            RIGID_STAND_IN
        } else {
            k.min(RIGID_STAND_IN)
        };
        let to_f64 = |values: &[f32]| values.iter().map(|&v| v as f64).collect::<Vec<f64>>();
        Ok(HangingSprings {
            rest: to_f64(cloth.positions()),
            inverse_masses: to_f64(cloth.inverse_masses()),
            pairs: cloth.constraint_ids().to_vec(),
            rest_lengths: to_f64(cloth.rest_lengths()),
            stiffness,
            gravity: params.gravity,
        })
    }

    fn springs(&self) -> Springs<'_> {
        Springs {
            positions: &self.rest,
            inverse_masses: &self.inverse_masses,
            pairs: &self.pairs,
            rest_lengths: &self.rest_lengths,
            stiffness: self.stiffness,
            gravity: self.gravity,
        }
    }

    /// The equilibrium at `exact`, the positions the solve found.
    fn hanging(self, exact: Vec<f64>) -> Hanging {
        let springs = self.springs();
        let releasable =
            equilibrium::energy(&springs, &self.rest) - equilibrium::energy(&springs, &exact);
        Hanging {
            pairs: self.pairs,
            rest_lengths: self.rest_lengths,
            stiffness: self.stiffness,
            exact,
            releasable,
        }
    }
}
