//! The set-up most experiments share: a grid cloth held by its two top
//! corners, stepped for a simulated time and sampled along the way.

use super::measure::grid_cloth;
use super::{Plan, Probe, Settings, Trial};
use crate::params::{ClothError, FixedPreset, Params};

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
