//! What a step costs, in *work units*: one unit is about a nanosecond of the
//! wasm build in headless Chromium on the reference machine (2 cores; see
//! README, "Limits and errors"). Each weight is the measured cost of one piece
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
//! The weights come first; then the sizes a step's cost depends on
//! ([`Workload`]), the cost of each part of a step, and the limit a step and a
//! call must stay within ([`validate_work`]).

use std::fmt;

use super::solver_order::SolverOrder;
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
/// Dijkstra search over the whole cloth).
pub const TETHER_RECOMPUTE: u64 = 90;
/// Per particle and per live constraint, per substep in which bending is
/// on (tethers off) and tearing may cut the cloth: rebuilding the
/// neighbour lists that tell which bending pairs a tear has cut.
pub const TOPOLOGY_REBUILD: u64 = 20;
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
/// Per live constraint per substep with wind on (measured natively 11 ns).
pub const WIND_EDGE: u64 = 20;
/// Per live constraint per substep with gusts or turbulence on, besides
/// [`WIND_EDGE`]: the noise of the wind at the edge (two 3D value noises, 16
/// lattice hashes; not timed, counted as a scalar constraint solve).
pub const GUSTY_WIND_EDGE: u64 = 40;

/// Most work one time step may take: about half a second (README, "Limits and
/// errors", has the measured worst case), so no single step can freeze a tab.
pub const MAX_WORK_PER_STEP: u64 = 500_000_000;

/// Most work one `steps(n)` or `advance` call may take: about 1.5 seconds.
pub const MAX_WORK_PER_CALL: u64 = 3 * MAX_WORK_PER_STEP;

/// The sweep a substep runs, which sets the cost of each constraint solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepPath {
    /// Four constraints at a time with SIMD ([`SolverOrder::Colored`], no damping).
    Colored,
    /// One by one in creation order ([`SolverOrder::Original`], no damping),
    /// or in either order for plain PBD with a coefficient below 1.
    Original,
    /// One by one with constraint damping (`damping > 0`, either order).
    Damped,
}

impl SweepPath {
    /// The path the solver takes with parameters `p`.
    pub fn of(p: &Params) -> SweepPath {
        if p.damping > 0.0 {
            SweepPath::Damped
        } else if p.solver_order == SolverOrder::Original || p.pbd_scale() < 1.0 {
            SweepPath::Original
        } else {
            SweepPath::Colored
        }
    }
}

/// What a step works on: the sizes its cost depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Workload {
    /// Particles of the cloth.
    pub particles: usize,
    /// Live (untorn) constraints.
    pub constraints: usize,
    /// The coloured sweep's runs and scattered constraints (see
    /// [`crate::solver::runs::ColoredLayout`]); used on the coloured path only.
    pub colored_runs: usize,
    /// See `colored_runs`.
    pub colored_scattered: usize,
    /// Bending constraints (they work while `bending_stiffness > 0`).
    pub bending_pairs: usize,
    /// Area constraints, and their corners all together.
    pub area_constraints: usize,
    /// See `area_constraints`.
    pub area_corners: usize,
    /// Particles the tethers check (while `tethers` is on).
    pub tethered: usize,
    /// Colliders (ground lines, circles, boxes).
    pub colliders: usize,
}

/// Work units of one constraint solve on a scalar path (on the coloured one,
/// see [`colored_run_cost`]).
pub fn solve_cost(path: SweepPath) -> u64 {
    match path {
        SweepPath::Colored => SOLVE_COLORED,
        SweepPath::Original => SOLVE_ORIGINAL,
        SweepPath::Damped => SOLVE_DAMPED,
    }
}

/// Work units of one coloured run of `constraints` constraints, `scattered` of
/// them gathered one by one.
pub fn colored_run_cost(constraints: usize, scattered: usize) -> u64 {
    COLORED_RUN + constraints as u64 * SOLVE_COLORED + scattered as u64 * COLORED_SCATTERED
}

/// Work units of one sweep over the constraints of `load` on `path`.
pub fn sweep_cost(path: SweepPath, load: &Workload) -> u64 {
    let m = load.constraints as u64;
    SWEEP
        + match path {
            SweepPath::Colored => {
                m * SOLVE_COLORED
                    + load.colored_runs as u64 * COLORED_RUN
                    + load.colored_scattered as u64 * COLORED_SCATTERED
            }
            path => m * solve_cost(path),
        }
}

/// Work units of one pass over the bending, area and tether constraints of
/// `load` with parameters `p` (one follows each sweep).
pub fn extras_pass_cost(p: &Params, load: &Workload) -> u64 {
    let mut cost =
        load.area_constraints as u64 * AREA_SOLVE + load.area_corners as u64 * AREA_CORNER;
    if p.bending_stiffness > 0.0 {
        cost += load.bending_pairs as u64 * BENDING_SOLVE;
    }
    if p.tethers {
        cost += load.tethered as u64 * TETHER_SOLVE;
    }
    cost
}

/// The work units of one substep's fixed part: everything but the sweeps.
pub fn substep_overhead(p: &Params, load: &Workload) -> u64 {
    let (n, m) = (load.particles as u64, load.constraints as u64);
    let mut cost = SUBSTEP + n * (PREDICT + VELOCITY_UPDATE) + m * CONSTRAINT_SUBSTEP;
    if SweepPath::of(p) == SweepPath::Colored && m > 0 {
        cost += n * SPLIT_MERGE;
    }
    if p.velocity_damping > 0.0 {
        cost += n * VELOCITY_DAMPING;
    }
    if p.tear_stretch > 0.0 {
        cost += m * TEAR_CHECK + tear_followup_cost(p, load.particles, load.constraints);
    }
    cost + extras_multipliers(p, load) as u64 * CONSTRAINT_SUBSTEP + contacts_and_wind_cost(p, load)
}

/// Work units of following the tears of one substep with parameters `p`
/// (tearing on) on `particles` particles and `constraints` live constraints:
/// the tethers' anchors found again, or the bending pairs' neighbour lists
/// rebuilt (counted whether or not anything tears).
pub fn tear_followup_cost(p: &Params, particles: usize, constraints: usize) -> u64 {
    let size = (particles + constraints) as u64;
    if p.tethers {
        size * TETHER_RECOMPUTE
    } else if p.bending_stiffness > 0.0 {
        size * TOPOLOGY_REBUILD
    } else {
        0
    }
}

/// The multipliers of bending and area constraints reset each substep with
/// parameters `p`.
pub fn extras_multipliers(p: &Params, load: &Workload) -> usize {
    let bending = if p.bending_stiffness > 0.0 {
        load.bending_pairs
    } else {
        0
    };
    bending + load.area_constraints
}

/// The work units of one substep's contacts (colliders, self-collision, the
/// speed limit, the velocity pass) and wind; 0 with all of them off.
pub fn contacts_and_wind_cost(p: &Params, load: &Workload) -> u64 {
    let (n, m) = (load.particles as u64, load.constraints as u64);
    let passes = p.iterations as u64 + 1;
    let mut cost = 0;
    if load.colliders > 0 || p.self_collision {
        cost += n * (MAX_SPEED + CONTACT_VELOCITY)
            + passes * n * load.colliders as u64 * COLLIDER_CONTACT;
    }
    if p.self_collision {
        cost += n * SELF_COLLISION_SEARCH + passes * n * SELF_COLLISION_PASS;
    }
    if p.wind_blows() {
        cost += m * WIND_EDGE;
        if p.wind_gust > 0.0 || p.wind_turbulence > 0.0 {
            cost += m * GUSTY_WIND_EDGE;
        }
    }
    cost
}

/// The work units of one step with parameters `p` on the cloth `load`: every
/// sweep on its path, the per-particle work of every substep, tearing and
/// damping checks, and the step's own overhead. Never 0, even for a cloth whose
/// constraints all tore.
pub fn work_per_step(p: &Params, load: &Workload) -> u64 {
    let sweeps =
        p.iterations as u64 * (sweep_cost(SweepPath::of(p), load) + extras_pass_cost(p, load));
    let substep = substep_overhead(p, load) + sweeps;
    STEP + load.particles as u64 * PARTICLE_STEP + p.substeps as u64 * substep
}

/// Checks that one step with parameters `p` stays within [`MAX_WORK_PER_STEP`] on
/// the cloth `load`; the error names `field`, the one being changed, and its `value`.
pub fn validate_work(
    field: &'static str,
    value: &dyn fmt::Display,
    p: &Params,
    load: &Workload,
) -> Result<(), ClothError> {
    let work = work_per_step(p, load);
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
            load.particles,
            load.constraints,
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
