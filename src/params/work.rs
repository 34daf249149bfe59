//! What a step costs, in *work units*: one unit is about a nanosecond of the
//! wasm build in headless Chromium on the reference machine (2 cores; see
//! docs/limits.md, "The work model"). Each weight is the measured cost of one
//! piece of work, taken from the slowest cloths measured (500 × 500 and
//! 1000 × 250, whose arrays no longer fit in the caches; a torn-up cloth for
//! the particles' work, a 2 × 2 one with nothing left to solve for the fixed
//! costs) and rounded up; `node scripts/bench-browser.mjs --worst-case` prints
//! the measurements next to them (docs/limits.md has the figures and the
//! load they were taken under).
//!
//! The weights are here, with the limit a step and a call must stay within
//! ([`validate_work`]); what each phase of a step costs with them is in
//! `src/cloth/cost.rs` and, for each constraint kind, in its own file.

use std::fmt;

use super::Params;
use crate::error::{invalid, ClothError};

/// One constraint solve in the coloured SIMD sweep.
pub const SOLVE_COLORED: u64 = 3;
/// Each run of the coloured sweep, per sweep: a call and its scalar tail.
pub const COLORED_RUN: u64 = 25;
/// Each constraint the coloured sweep gathers one by one, on top of
/// [`SOLVE_COLORED`].
pub const COLORED_SCATTERED: u64 = 4;
/// One constraint solve in the scalar sweep in creation order.
pub const SOLVE_ORIGINAL: u64 = 16;
/// One constraint solve in the scalar damped sweep (any order): constraint
/// damping above 0 runs on this path.
pub const SOLVE_DAMPED: u64 = 24;
/// One constraint solve of a scene whose constraints each have their own
/// stiffness (one by one, each constraint's `alpha_tilde` and `gamma` worked
/// out as it is solved).
pub const SOLVE_OWN_STIFFNESS: u64 = 32;
/// One constraint solve in the soft step's sweep (any order): reads the
/// substep's start like the damped solve.
pub const SOLVE_SOFT: u64 = 24;
/// Per constraint per substep on the soft step: the warm start.
pub const WARM_START: u64 = 14;
/// Per constraint per substep on the soft step: the relax pass.
pub const RELAX: u64 = 18;
/// Fixed cost of one sweep.
pub const SWEEP: u64 = 50;
/// Per particle per substep: the prediction (with saving the positions).
pub const PREDICT: u64 = 2;
/// Per particle per substep: the velocity update.
pub const VELOCITY_UPDATE: u64 = 1;
/// Per particle per coloured block of sweeps: splitting positions into x and
/// y arrays and merging them back (once per substep in a whole step).
pub const SPLIT_MERGE: u64 = 4;
/// Per live constraint per substep: resetting its multiplier.
pub const CONSTRAINT_SUBSTEP: u64 = 1;
/// Per live constraint per substep with tearing on: the stretch check (and
/// moving torn constraints behind the live ones).
pub const TEAR_CHECK: u64 = 10;
/// Per particle per substep with velocity damping on.
pub const VELOCITY_DAMPING: u64 = 1;
/// Per particle per step: saving the start of the step, the divergence check.
pub const PARTICLE_STEP: u64 = 3;
/// Fixed cost of a substep.
pub const SUBSTEP: u64 = 200;
/// Fixed cost of a step.
pub const STEP: u64 = 1_000;
/// Per particle and per live constraint, per substep in which a kind that
/// reads the neighbour lists is on (bending, tethers) and tearing may cut the
/// cloth: rebuilding them. (Each constraint kind's own weights are in its
/// file: `src/kinds/`, `src/contacts/mod.rs`.)
pub const NEIGHBOURS_REBUILD: u64 = 20;

/// Most work one time step may take: about half a second (docs/limits.md,
/// "The worst cases", has the measured worst case), so no single step can
/// freeze a tab.
pub const MAX_WORK_PER_STEP: u64 = 500_000_000;

/// Most work one `steps(n)` or `advance` call may take: about 1.5 seconds.
pub const MAX_WORK_PER_CALL: u64 = 3 * MAX_WORK_PER_STEP;

/// Checks that one step with parameters `p`, which takes `work` work units
/// on a cloth of `particles` particles and `constraints` live constraints,
/// stays within [`MAX_WORK_PER_STEP`]; the error names `field`, the one being
/// changed, and its `value`.
pub fn validate_work(
    field: &'static str,
    value: &dyn fmt::Display,
    work: u64,
    p: &Params,
    (particles, constraints): (usize, usize),
) -> Result<(), ClothError> {
    if work <= MAX_WORK_PER_STEP {
        return Ok(());
    }
    let switch = |on: bool| if on { "on" } else { "off" };
    Err(invalid(
        field,
        value,
        format!(
            "a value that keeps one step within the work limit: with it a step needs {work} \
             work units, at most {MAX_WORK_PER_STEP} (about 0.5 s) are allowed (this cloth: \
             {} particles, {} constraints; substeps {}, iterations {}, solverOrder {}, \
             damping {}, velocityDamping {}, tearing {}, bending {}, tethers {}); lower \
             substeps or iterations, or use a smaller cloth",
            particles,
            constraints,
            p.substeps,
            p.iterations,
            p.solver_order.name(),
            switch(p.damping > 0.0),
            switch(p.velocity_damping > 0.0),
            switch(p.tear_stretch > 0.0),
            switch(p.bending_stiffness > 0.0),
            switch(p.tethers),
        ),
    ))
}
