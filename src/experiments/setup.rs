//! The set-up most experiments share: a grid cloth held by its two top
//! corners, stepped for a simulated time and sampled along the way.

use super::measure::grid_cloth;
use super::{Plan, Probe, Setting, Settings, Trial};
use crate::error::ClothError;
use crate::params::{FixedPreset, Params};

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
/// corners, with `params`, stepped for the `duration` setting and measured
/// by `probe`.
pub(super) fn hanging_trial(
    settings: &Settings,
    label: impl Into<String>,
    key: f64,
    params: Params,
    probe: Probe,
) -> Result<Trial, ClothError> {
    let cloth = grid_cloth(
        settings.count("width"),
        settings.count("height"),
        FixedPreset::Two,
        params,
    )?;
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
    max: 100.0,
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

/// The energy gravity can release from a hanging cloth of the settings: every
/// free particle dropping to the depth of the bottom row, joules (the scale
/// energy errors are measured against).
pub(super) fn gravity_scale(settings: &Settings) -> f64 {
    let depth = (settings.get("height") - 1.0) * crate::model::grid::SPACING as f64;
    let particles = settings.get("width") * settings.get("height") - 2.0;
    particles * settings.get("mass") * 9.81 * depth
}
