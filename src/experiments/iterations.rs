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

pub(super) static DEFINITION: Definition = Definition {
    id: "iterations",
    title: "Stiffness against the iteration count",
    claim: "\"The stiffness of PBD depends on the iteration count\": with stiffness coefficient k a constraint closes 1 − (1 − k)ⁿ of its error in n iterations, so plain PBD gets stiffer with every extra iteration, while XPBD keeps the stiffness you set: after about 10 iterations its stiffness hardly depends on the iteration count.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), sections 1 and 6, figure 2; the coefficient k is Müller et al., \"Position Based Dynamics\" (2007), section 3.3",
    method: "A cloth hangs from its two top corners; for each iteration count it runs as plain PBD with stiffness coefficient k (every solve moves a constraint k of the way, its multiplier reset each time) and as XPBD (the stiffness below), with velocity damping so it settles. Measured: the mean relative stretch of all constraints over the second half of the run (lower = stiffer), and XPBD's against the exact static equilibrium of springs of that stiffness (Newton's method in f64).",
    rule: "Holds when, from \"Compare from\" to \"Up to\" iterations, PBD's mean stretch falls by at least 25 % (a change well beyond the run-to-run wobble of a settled cloth: PBD stiffens), XPBD's changes by at most 10 % and stays within 10 % of the exact equilibrium's at both ends (10 %: \"hardly depends\" and \"the stiffness you set\" within what a user could see), and every run has settled (its stretch over the last quarter within 1 % of the equilibrium's from that over the second half: a tenth of the effects judged). In part when only one of PBD's and XPBD's parts holds, or the runs had not settled.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        setup::XPBD_STIFFNESS,
        stiffness_sweep::PBD_COEFFICIENT,
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "fromIterations", label: "Compare from", unit: "iterations", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "maxIterations", label: "Up to", unit: "iterations", min: 2.0, max: 200.0, whole: true, default: 100.0 },
        stiffness_sweep::SETTLING_DURATION,
        stiffness_sweep::SETTLING_DAMPING,
    ],
    key: "xpbdChange",
    choices: &[setup::TWICE_THE_TIME],
    explain: None,
    prepare: Some(setup::prepare_hanging),
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
    stiffness_sweep::report(settings, trials, &keys, ends)
}
