//! What a step costs, in *work units*: one unit is about a nanosecond of the
//! wasm build in headless Chromium on the reference machine (2 cores; see
//! docs/limits.md, "The work model"). Each weight is the measured cost of one piece
//! of work, taken from the slowest cloths measured (500 × 500 and 1000 × 250,
//! whose arrays no longer fit in the caches; a torn-up cloth for the runs) and
//! rounded up; `node scripts/bench-browser.mjs --worst-case` prints the
//! measurements next to them. Measured (2026-11-23, fastest of five rounds, a
//! quiet machine; under load everything takes up to twice as long): coloured
//! solve 1.5 ns intact and 3.9–5.0 ns per live constraint once tearing has cut
//! the runs up, original 12.4 ns, damped 8.1–8.5 ns in coloured order and 18 ns
//! in original order, prediction and velocity update together 3.8 ns per
//! particle, the tear check 7.0 ns, velocity damping 0.3 ns, a sweep of a 2 × 2
//! cloth 70–100 ns. The worst accepted step measured 389 ms, the worst
//! `steps(n)` 1193 ms.
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
/// Fixed cost of one sweep.
pub const SWEEP: u64 = 50;
/// Per particle per substep: the prediction (with saving the positions).
pub const PREDICT: u64 = 3;
/// Per particle per substep: the velocity update.
pub const VELOCITY_UPDATE: u64 = 2;
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
// The weights below were measured natively (400 × 300 cloth, release
// build, 2026-11-23: bending 4.8 ns per pair and pass, tethers 1.7 ns per
// particle and pass, finding the anchors again 30 ns per particle and
// constraint) and scaled by about three for wasm, like the others.
/// One bending constraint solve (a scalar distance solve), per pass.
pub const BENDING_SOLVE: u64 = 16;
/// One area constraint solve, per pass, on top of its corners.
pub const AREA_SOLVE: u64 = 30;
/// Each corner of an area constraint, per pass (gradient, area, move).
pub const AREA_CORNER: u64 = 12;
/// One tether check (and projection when too far), per particle per pass.
pub const TETHER_SOLVE: u64 = 6;
/// Per particle and per live constraint, per substep in which tethers are
/// on and tearing may cut the cloth: finding the anchors again (a
/// Dijkstra search over the whole cloth), besides [`NEIGHBOURS_REBUILD`].
pub const TETHER_RECOMPUTE: u64 = 70;
/// Per particle and per live constraint, per substep in which a kind that
/// reads the neighbour lists is on (bending, tethers) and tearing may cut the
/// cloth: rebuilding them.
pub const NEIGHBOURS_REBUILD: u64 = 20;
/// Per bending pair, per substep in which bending is on and tearing may cut
/// the cloth: whether the tear cut it (two lookups in the neighbour lists).
pub const BENDING_LIVE_CHECK: u64 = 4;
/// Per particle per collider per contact pass (a pass after each sweep
/// and one at the end of the substep). Its worst case, every particle
/// inside every collider (64 grounds, circles and boxes around the whole
/// cloth: two depth tests, the push, friction and its record each time),
/// measured 23 to 26 ns in V8's wasm, against under 3 ns for a
/// particle outside (`node scripts/bench-browser.mjs --worst-case`).
pub const COLLIDER_CONTACT: u64 = 28;
/// Per particle per substep while any contact is on: the speed limit.
pub const MAX_SPEED: u64 = 1;
/// Per particle per substep while any contact is on: the contact velocity
/// pass (clearing its records, keeping the velocities the solve starts from
/// with restitution, and the pass over the substep's contacts after the
/// velocity update; a self-collision pair's share is in
/// [`SELF_COLLISION_SEARCH`]).
pub const CONTACT_VELOCITY: u64 = 2;
/// Room for self-collision's candidate pairs, per particle: pairs beyond it
/// are left out of a search (a packing of equal discs has 3 neighbours
/// within the search's reach per particle, a cloth at rest with `2r` its
/// spacing 4).
pub const PAIRS_PER_PARTICLE: usize = 8;

/// Most particles one particle is compared with in one self-collision
/// search, so that the search's cost is bounded whatever the positions (a
/// cloth crumpled into a few cells, cells that share a bucket of the hash);
/// the pairs of a particle beyond them are left out of that search.
pub const MAX_CANDIDATES: usize = 48;

/// Per particle per substep with self-collision on: sorting the particles
/// into cells and the neighbour search, which compares each particle with at
/// most [`MAX_CANDIDATES`] others whatever the positions (a
/// crumpled cloth, cells far from the origin or sharing a bucket). Measured
/// natively (2026-11-24) with every particle at that bound: about 200 ns
/// per particle and substep; native and wasm run at about the same speed here.
pub const SELF_COLLISION_SEARCH: u64 = 400;
/// One candidate pair of self-collision, per contact pass: the distance
/// check, and the push with friction when the pair is too close. Measured
/// natively on a crumpled cloth whose pairs fill their room: 10 to 15 ns.
pub const SELF_COLLISION_PAIR: u64 = 20;
/// Per particle per contact pass with self-collision on: the room for its
/// candidate pairs ([`PAIRS_PER_PARTICLE`], all of which a
/// crumpled cloth fills), each a [`SELF_COLLISION_PAIR`].
pub const SELF_COLLISION_PASS: u64 = PAIRS_PER_PARTICLE as u64 * SELF_COLLISION_PAIR;
/// One body's shape-matching solve, per pass, on top of its particles.
pub const BODY_SOLVE: u64 = 40;
/// Each particle of a body, per pass: its share of the centres and the
/// rotation, and its move towards its goal (three visits); the same per
/// substep for a plastic body's flow.
pub const BODY_PARTICLE: u64 = 12;
/// Each particle of a body, per substep: its multiplier back to 0 and its
/// share of the prediction along the body's arcs.
pub const BODY_PREDICT: u64 = 8;
/// Per live constraint per substep with wind on (measured natively 11 ns).
pub const WIND_EDGE: u64 = 20;
/// Per live constraint per substep with gusts or turbulence on, besides
/// [`WIND_EDGE`]: the noise of the wind at the edge (two 3D value noises, 16
/// lattice hashes; not timed, counted as a scalar constraint solve).
pub const GUSTY_WIND_EDGE: u64 = 40;

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
