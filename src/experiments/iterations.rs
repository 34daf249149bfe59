//! Stiffness against the iteration count, PBD and XPBD.

use super::setup;
use super::stiffness_sweep::{self, Ends};
use super::{Definition, Report, Setting, Settings, Trial};
use crate::error::ClothError;
use crate::params::Params;

/// XPBD's stretch may change at most this much (%) from `fromIterations` to
/// `maxIterations` for its stiffness to "hardly depend" on the count.
pub const XPBD_MAX_CHANGE: f64 = 10.0;
/// PBD's stretch must fall at least this much (%) over the same range for it to
/// "get stiffer".
pub const PBD_MIN_CHANGE: f64 = 25.0;

/// The iteration counts swept (those up to `maxIterations`, and it).
const COUNTS: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 200];

/// What the result means for someone choosing settings.
const ADVICE: &str = "With XPBD, set the stiffness you want and choose iterations for accuracy only; with plain PBD, changing the iteration count changes the material.";

pub(super) static DEFINITION: Definition = Definition {
    id: "iterations",
    title: "Stiffness against the iteration count",
    claim: "Plain PBD gets stiffer with every extra iteration, while XPBD keeps the stiffness you set: after about 10 iterations its stiffness hardly depends on the iteration count.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 6 and figure 2",
    method: "A cloth hangs from its two top corners; for each iteration count it runs as PBD (rigid constraints) and as XPBD (the stiffness below), with a little velocity damping so it settles. Measured: the mean relative stretch of all constraints over the second half of the run (lower = stiffer).",
    rule: "Compare the settled mean stretch at the first and the last iteration count of the sweep: the claim holds when XPBD's changes by at most 10 % and PBD's falls by at least 25 % (10 % allows for a solve that is not fully converged; 25 % is a change a viewer sees).",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        setup::XPBD_STIFFNESS,
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "fromIterations", label: "Compare from", unit: "iterations", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "maxIterations", label: "Up to", unit: "iterations", min: 2.0, max: 200.0, whole: true, default: 100.0 },
        setup::DURATION_PER_RUN,
        setup::VELOCITY_DAMPING,
    ],
    build,
    report,
};

/// The counts swept: `from`, `max` and the round counts below `max`.
fn counts(settings: &Settings) -> Vec<u32> {
    let (from, max) = (
        settings.count("fromIterations"),
        settings.count("maxIterations"),
    );
    let mut counts: Vec<u32> = COUNTS.iter().copied().filter(|&n| n < max).collect();
    counts.extend([from, max]);
    counts.sort_unstable();
    counts.dedup();
    counts
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (from, max) = (
        settings.count("fromIterations"),
        settings.count("maxIterations"),
    );
    if from >= max {
        return Err(ClothError::InvalidValue {
            field: "fromIterations",
            value: from.to_string(),
            allowed: format!("a count below maxIterations ({max})"),
        });
    }
    stiffness_sweep::build(
        settings,
        &counts(settings),
        |mode, n| format!("{mode}, {n} iterations"),
        |stiffness, n| Params {
            stiffness,
            iterations: n,
            mass: settings.get("mass"),
            time_step: settings.get("timeStep"),
            velocity_damping: settings.get("velocityDamping"),
            ..Params::default()
        },
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let (from, max) = (
        settings.count("fromIterations") as f64,
        settings.count("maxIterations") as f64,
    );
    let keys: Vec<f64> = counts(settings).iter().map(|&n| n as f64).collect();
    let index = |n: f64| keys.iter().position(|&c| c == n);
    let ends = Ends {
        title: "Settled mean stretch against iterations",
        x_label: "iterations",
        from: index(from),
        to: index(max),
        names: [
            "pbdStretchFrom",
            "pbdStretchMax",
            "xpbdStretchFrom",
            "xpbdStretchMax",
        ],
        range: format!("from {from} to {max} iterations"),
        steady: "hardly depends",
        xpbd_max_change: XPBD_MAX_CHANGE,
        pbd_min_change: PBD_MIN_CHANGE,
    };
    let mut report = stiffness_sweep::report(settings, trials, &keys, ends);
    if let Some(verdict) = report.verdict.as_mut() {
        verdict.advice = ADVICE.into();
    }
    report
}
