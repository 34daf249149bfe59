//! Constraint kinds: everything a step solves or applies besides the distance
//! constraints, one file each, all answering the questions of
//! [`ConstraintKind`].
//!
//! The distance constraints are built into the step (they are its sweeps, see
//! `src/solver/`). Every other kind joins a substep at fixed points (see
//! `src/cloth/step.rs`):
//!
//! ```text
//! begin_substep       before prediction: multipliers back to 0, forces on velocities
//! solve               after each sweep of the distance constraints: one pass
//! end_substep         after the last sweep, before the velocity update
//! after_velocities    right after the velocity update
//! end_step            when the step ends
//! ```
//!
//! and is kept in step with the cloth by two more: [`ConstraintKind::prepare`]
//! reserves what parameters switch on before the cloth accepts them (so a
//! refusal leaves them as they were), and [`ConstraintKind::topology_changed`]
//! follows pins and torn constraints. A kind does work only while
//! [`ConstraintKind::is_on`] says so: the cloth asks it once, at the start of a
//! substep, and calls its hooks and counts its cost for that substep by the
//! answer. Its cost ([`ConstraintKind::cost`]) is what the work meter charges
//! and what `work_per_step` predicts, from the same numbers.
//!
//! Here: bending ([`bending`]), area constraints ([`area`]), tethers
//! ([`tethers`], walking the [`neighbours`] lists), wind ([`wind`]),
//! bodies held in shape by shape matching ([`bodies`]) and the user's hand on
//! the held particle ([`grab`]); the contacts (`src/contacts/`) answer the
//! same questions. The list of every kind the cloth runs, in the order a pass
//! solves them, is in `src/cloth/kinds.rs`.
//!
//! # Adding a kind
//!
//! 1. A file here with a type that implements [`ConstraintKind`] (and its
//!    `pub mod` line above): its math in the names of the theory
//!    (`alpha_tilde`, `delta_lambda`, see `src/solver/`), its multipliers reset
//!    in `begin_substep`, its part of the scene checked in `from_scene` (each
//!    refusal naming the scene field and entry), its work weights beside its
//!    `cost`, measured by the worst-case search (`bench/limits.js`).
//! 2. One line in the list of `src/cloth/kinds.rs`.
//! 3. Its field in [`Scene`] (`src/model/scene.rs`), read from JavaScript in
//!    `src/wasm/scene.rs`, documented in `docs/api.md`.
//! 4. Tests: an independent `f64` reference of one pass (as
//!    `tests/reference_kinds.rs` does), the behaviour it promises with numbers
//!    (as `tests/constraint_kinds.rs`), the work it counts
//!    (`tests/work_limits.rs`) and what it allocates (`tests/memory.rs`).

pub mod area;
pub mod bending;
pub mod bodies;
pub mod grab;
pub mod gusts;
pub mod neighbours;
pub mod shortest_paths;
pub mod tethers;
pub mod wind;

use std::collections::TryReserveError;

use neighbours::Neighbours;

use crate::error::ClothError;
use crate::model::{BodySpec, Scene};
use crate::params::Params;
use crate::solver::Split;

/// The substep a hook runs in: its parameters, size and start time. The
/// parameters are those the substep began with: a setter called meanwhile
/// applies from the next substep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Now {
    /// The solver parameters of the substep.
    pub p: Params,
    /// The substep's size `h = dt / substeps`, seconds.
    pub h: f64,
    /// Simulated time at the substep's start, seconds.
    pub time: f64,
}

/// The particles as the hooks at the start and end of a substep see them.
pub struct Particles<'a> {
    /// `[x0, y0, x1, y1, ...]`, metres.
    pub positions: &'a mut [f32],
    /// The positions at the start of the substep (interleaved).
    pub previous: &'a [f32],
    /// `[vx0, vy0, ...]`, m/s.
    pub velocities: &'a mut [f32],
    /// `1/mass` of each particle, 0 for pinned and held ones.
    pub inverse_mass: &'a [f32],
    /// The live distance constraints as flat pairs (the wind's edges).
    pub edges: &'a [u32],
}

/// The positions a pass after a sweep works on: the cloth's own interleaved
/// array, or the x and y arrays the coloured sweep works on.
pub enum Positions<'a> {
    /// `[x0, y0, x1, y1, ...]`.
    Interleaved(&'a mut [f32]),
    /// Split into x and y.
    Split(Split<'a>),
}

impl Positions<'_> {
    /// The same positions, borrowed again (for the next kind's pass).
    pub fn reborrow(&mut self) -> Positions<'_> {
        match self {
            Positions::Interleaved(points) => Positions::Interleaved(points),
            Positions::Split(split) => Positions::Split(Split {
                xs: split.xs,
                ys: split.ys,
            }),
        }
    }
}

/// Runs `$body` with `$points` bound to the positions of a [`Positions`] as a
/// [`crate::solver::Points`], so a kind writes its pass once, generic over the
/// layout.
macro_rules! on_points {
    ($positions:expr, |$points:ident| $body:expr) => {
        match $positions {
            $crate::kinds::Positions::Interleaved($points) => $body,
            $crate::kinds::Positions::Split(mut split) => {
                let $points = &mut split;
                $body
            }
        }
    };
}
pub(crate) use on_points;

/// The cloth's connectivity, as [`ConstraintKind::prepare`] and
/// [`ConstraintKind::topology_changed`] read it.
#[derive(Debug, Clone, Copy)]
pub struct Topology<'a> {
    /// Live distance constraints, flat pairs.
    pub ids: &'a [u32],
    /// Their rest lengths, metres.
    pub rest_lengths: &'a [f32],
    /// How many constraints the cloth was built with (torn ones come back
    /// when a diverged step is undone).
    pub built_with: usize,
    /// Which particles are pinned.
    pub pinned: &'a [bool],
}

/// Particles and bodies added to a running simulation, after those it has
/// (see `Cloth::add_body`), as [`ConstraintKind::reserve_addition`] and
/// [`ConstraintKind::add`] see them.
#[derive(Debug, Clone, Copy)]
pub struct Addition<'a> {
    /// The index of its first particle: its particles are `first..first + masses.len()`.
    pub first: usize,
    /// Their start positions, interleaved, metres.
    pub positions: &'a [f32],
    /// Their masses, kg (0: pinned).
    pub masses: &'a [f32],
    /// Its bodies, naming particles by their index in the simulation.
    pub bodies: &'a [BodySpec],
    /// How many distance constraints (live and torn) the simulation has
    /// with it (a rope brings its own).
    pub constraints_after: usize,
}

impl Addition<'_> {
    /// How many particles the simulation has with it.
    pub fn particles_after(&self) -> usize {
        self.first + self.masses.len()
    }
}

/// The sizes of a cloth a kind's cost depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sizes {
    /// Particles.
    pub particles: usize,
    /// Live distance constraints.
    pub constraints: usize,
}

/// What a kind costs in one substep, in work units (see
/// [`crate::params::work`]), at each point it joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    /// [`ConstraintKind::begin_substep`].
    pub begin: u64,
    /// One [`ConstraintKind::solve`] (one follows each sweep).
    pub pass: u64,
    /// [`ConstraintKind::end_substep`] and [`ConstraintKind::after_velocities`].
    pub end: u64,
    /// Following the tears of one substep, while tearing is on (counted
    /// whether or not anything tears): [`ConstraintKind::topology_changed`].
    pub tear: u64,
}

/// What a constraint kind answers: how it is built from a scene, when it is
/// on, what it costs and holds, what it does at each point of a substep, what
/// tearing and pins do to it, and what a saved state keeps of it. Only
/// [`ConstraintKind::from_scene`], [`ConstraintKind::is_on`],
/// [`ConstraintKind::cost`] and [`ConstraintKind::heap_bytes`] have no
/// default; every hook does nothing unless the kind says otherwise.
pub trait ConstraintKind {
    /// The kind as `scene` describes it, with every buffer its steps need
    /// reserved. The scene's particles and distance constraints are checked
    /// already; the kind checks its own part and refuses a wrong entry with
    /// [`ClothError::InvalidScene`] naming it, or [`ClothError::OutOfMemory`].
    fn from_scene(scene: &Scene) -> Result<Self, ClothError>
    where
        Self: Sized;

    /// Whether it does work with parameters `p`: the one rule its hooks and
    /// its cost follow (asked at the start of each substep).
    fn is_on(&self, p: &Params) -> bool;

    /// What one substep of it costs with parameters `p` on a cloth of `sizes`,
    /// while it is on.
    fn cost(&self, p: &Params, sizes: Sizes) -> Cost;

    /// Bytes of memory its buffers hold.
    fn heap_bytes(&self) -> u64;

    /// The parameter that switches it on, named in the refusal of
    /// [`ConstraintKind::prepare`].
    fn switch(&self) -> &'static str {
        "scene"
    }

    /// Reserves (and derives) what parameters `p` switch on, before the cloth
    /// accepts them, and brings it up to date with `topology`. On an error
    /// nothing of it has changed. Called with every change of parameters.
    fn prepare(&mut self, _p: &Params, _topology: &Topology) -> Result<(), TryReserveError> {
        Ok(())
    }

    /// Bytes [`ConstraintKind::prepare`] may reserve with parameters `p` on a
    /// cloth of `sizes`, at most (for the message of a refusal).
    fn prepare_bytes(&self, _p: &Params, _sizes: Sizes) -> u64 {
        0
    }

    /// Whether, while on with parameters `p`, it reads the neighbour lists
    /// (the cloth keeps them up to date for it, and counts their rebuild).
    fn uses_neighbours(&self, _p: &Params) -> bool {
        false
    }

    /// Pins changed or constraints tore (or came back): what it derived from
    /// them follows. `neighbours` are rebuilt already when
    /// [`ConstraintKind::uses_neighbours`] said so. Never allocates.
    fn topology_changed(&mut self, _p: &Params, _topology: &Topology, _neighbours: &Neighbours) {}

    /// At the start of a substep, before prediction: its multipliers back to
    /// 0, and forces that change the velocities of free particles.
    fn begin_substep(&mut self, _particles: &mut Particles, _now: &Now) {}

    /// After each sweep of the distance constraints: one Gauss–Seidel pass.
    /// `previous` are the positions at the start of the substep (interleaved).
    fn solve(
        &mut self,
        _positions: Positions,
        _previous: &[f32],
        _inverse_mass: &[f32],
        _now: &Now,
    ) {
    }

    /// After the last sweep, before the velocity update.
    fn end_substep(&mut self, _particles: &mut Particles, _now: &Now) {}

    /// Right after the velocity update.
    fn after_velocities(&mut self, _particles: &mut Particles, _now: &Now) {}

    /// When a step ends at simulated `time`.
    fn end_step(&mut self, _time: f64) {}

    /// What a saved state must keep of it besides the particles (a plastic
    /// body's rest shape, which changes as it steps): nothing for a kind
    /// whose state is all in its scene and the particles.
    fn saved(&self) -> &[f32] {
        &[]
    }

    /// Checks `values` as the [`ConstraintKind::saved`] of a kind built from
    /// the same scene; the refusal says what is wrong.
    fn check_saved(&self, values: &[f32]) -> Result<(), String> {
        match values.len() {
            0 => Ok(()),
            n => Err(format!("has {n} numbers, expected none")),
        }
    }

    /// Takes `values`, checked by [`ConstraintKind::check_saved`].
    fn restore_saved(&mut self, _values: &[f32]) {}

    /// Reserves what it needs for `addition`, particles and bodies added to
    /// the simulation while it runs, before any is added: on an error nothing
    /// has changed but the room it reserved (which stays, unused).
    fn reserve_addition(&mut self, _addition: &Addition) -> Result<(), TryReserveError> {
        Ok(())
    }

    /// Takes `addition` in, in the room [`ConstraintKind::reserve_addition`]
    /// reserved: never allocates.
    fn add(&mut self, _addition: &Addition) {}

    /// After [`ConstraintKind::add`]: `kept`, it lets go of what the
    /// addition replaced; not kept (a step with it would be too much work),
    /// it undoes [`ConstraintKind::add`] and is as it was before. Never
    /// allocates.
    fn finish_addition(&mut self, _addition: &Addition, _kept: bool) {}
}
