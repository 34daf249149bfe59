//! Stiffness against the time step, PBD and XPBD.

use super::setup;
use super::stiffness_sweep::{self, Ends};
use super::{Change, Choice, Definition, Report, Setting, Settings, Trial};
use crate::error::ClothError;
use crate::params::Params;

/// XPBD's stretch may change at most this much (%) from the largest time step
/// to the smallest for its stiffness to be "independent of the time step".
pub const XPBD_MAX_CHANGE: f64 = 10.0;
/// PBD's stretch must fall at least this much (%) over the same range for it to
/// "get stiffer" with smaller steps.
pub const PBD_MIN_CHANGE: f64 = 25.0;

/// The time steps swept, between `minTimeStep` and `maxTimeStep` (both included).
const STEPS: [f64; 7] = [0.04, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

pub(super) static DEFINITION: Definition = Definition {
    id: "time-step",
    title: "Stiffness against the time step",
    claim: "Plain PBD's constraints get stiffer as the time step shrinks, while XPBD's stiffness stays the one you set whatever the time step.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), sections 1 and 6",
    method: "A cloth hangs from its two top corners and runs, for each time step, the same simulated time as plain PBD with stiffness coefficient k (every solve moves a constraint k of the way) and as XPBD (the stiffness below), with the same iteration count and velocity damping so it settles. Measured: the mean relative stretch of all constraints over the second half of the run, and XPBD's against the exact static equilibrium of springs of that stiffness (Newton's method in f64).",
    rule: "Holds when, from the largest time step to the smallest, PBD's mean stretch falls by at least 25 % (well beyond a settled cloth's wobble: PBD stiffens), XPBD's changes by at most 10 % and stays within 10 % of the exact equilibrium's at both ends (what a user could see), and every run has settled (its stretch over the last quarter within 1 % of the equilibrium's from that over the second half). In part when only one of PBD's and XPBD's parts holds, or the runs had not settled.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        setup::XPBD_STIFFNESS,
        stiffness_sweep::PBD_COEFFICIENT,
        setup::MASS,
        setup::ITERATIONS,
        Setting { name: "maxTimeStep", label: "Largest time step", unit: "s", min: 0.001, max: 0.04, whole: false, default: 0.02 },
        Setting { name: "minTimeStep", label: "Smallest time step", unit: "s", min: 0.0005, max: 0.02, whole: false, default: 0.001 },
        stiffness_sweep::SETTLING_DURATION,
        stiffness_sweep::SETTLING_DAMPING,
    ],
    key: "xpbdChange",
    choices: &[
        setup::TEN_TIMES_THE_ITERATIONS,
        Choice::run(
            &["maxTimeStep"],
            "the largest time step",
            Change::Times(2.0),
            "A verdict that changes with the range of time steps holds only over the range tried: \"whatever the time step\" claims more.",
            "Keep the time step within the range where the verdict holds, or raise the iterations with it.",
        ),
        setup::TWICE_THE_TIME,
    ],
    explain: None,
    prepare: Some(setup::prepare_hanging),
    build,
    report,
};

fn time_steps(settings: &Settings) -> Vec<f64> {
    let (min, max) = (settings.get("minTimeStep"), settings.get("maxTimeStep"));
    let mut steps: Vec<f64> = STEPS
        .iter()
        .copied()
        .filter(|&s| s > min && s < max)
        .collect();
    steps.extend([min, max]);
    steps.sort_by(|a, b| b.total_cmp(a));
    steps.dedup();
    steps
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (min, max) = (settings.get("minTimeStep"), settings.get("maxTimeStep"));
    if min >= max {
        return Err(ClothError::InvalidValue {
            field: "minTimeStep",
            value: min.to_string(),
            allowed: format!("a time step below maxTimeStep ({max} s)"),
        });
    }
    stiffness_sweep::build(
        settings,
        &time_steps(settings),
        |mode, dt| format!("{mode}, Δt = {dt} s"),
        |stiffness, dt| Params {
            stiffness,
            time_step: dt,
            iterations: settings.count("iterations"),
            mass: settings.get("mass"),
            velocity_damping: settings.get("velocityDamping"),
            ..Params::default()
        },
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let steps = time_steps(settings);
    let last = steps.len() - 1;
    let (largest, smallest) = (steps[0], steps[last]);
    let ends = Ends {
        title: "Settled mean stretch against the time step",
        x_label: "time step (s)",
        from: Some(0),
        to: Some(last),
        names: [
            "pbdStretchLargest",
            "pbdStretchSmallest",
            "xpbdStretchLargest",
            "xpbdStretchSmallest",
        ],
        range: format!("from Δt = {largest} s to {smallest} s"),
        steady: "independent",
        xpbd_max_change: XPBD_MAX_CHANGE,
        pbd_min_change: PBD_MIN_CHANGE,
    };
    stiffness_sweep::report(settings, trials, &steps, ends)
}
