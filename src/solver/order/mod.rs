//! The distance constraints of a cloth, kept in the order the solver sweeps them.
//!
//! Gauss–Seidel solves constraints one after another, each seeing the
//! corrections of those before it, so the sweep order is part of the result.
//! Two orders are offered:
//!
//! * [`SolverOrder::Original`]: creation order, exactly as the original demo.
//!   Neighbouring constraints share particles, so each solve waits for the one
//!   before it: a serial chain.
//! * [`SolverOrder::Colored`]: constraints grouped by a graph colouring, so no
//!   two constraints of one colour share a particle. Within a colour the solves
//!   are independent and run four at a time in SIMD lanes. It is a different
//!   but equally valid Gauss–Seidel sweep.
//!
//! Within a colour, the grid's constraints come in [`Run`]s whose particles sit
//! next to each other in memory (a row of vertical edges: `a, a+1, a+2, ...`,
//! each tied to `a + width`), so four solves load and store their particles
//! with a few vector instructions instead of sixteen scalar ones.
//!
//! All per-constraint arrays (`ids`, `rest_lengths`, `lambdas`) are permuted
//! together, so the `constraints()` view always lists what the solver solves.
//!
//! The arrays are allocated once, when the set is built, and never reallocated:
//! tearing and reordering move entries *in place* (through a scratch buffer
//! reserved with them). The live constraints are the prefix `0..len()`; torn
//! ones are kept behind it, newest first. A typed-array view taken over the
//! arrays earlier therefore keeps reading real constraints (valid particle
//! indices, positive rest lengths), and the torn ones stay at hand so that a
//! diverged step can be undone completely ([`ConstraintSet::restore_logged`]).
//! Every rearrangement is O(n): reordering is a counting sort by colour.

mod layout;
mod reorder;
mod tearing;
#[cfg(test)]
mod tests;

use std::collections::TryReserveError;

use super::columns::Arrays;
use super::distance::Constraints;
use super::runs::{ColoredLayout, Run};
use crate::memory;
use crate::params::SolverOrder;

/// The constraints of a cloth and their multipliers, in solver order.
#[derive(Debug, Clone)]
pub struct ConstraintSet {
    /// `[a0, b0, a1, b1, ...]`: the live constraints first, then the torn ones.
    ids: Vec<u32>,
    /// Rest length of each constraint, metres.
    rest_lengths: Vec<f32>,
    /// Lagrange multiplier of each constraint, accumulated over one (sub)step.
    lambdas: Vec<f32>,
    /// Position of each constraint in creation order (restores the original order).
    creation: Vec<u32>,
    /// Colour of each constraint: no two constraints of one colour share a particle.
    colors: Vec<u8>,
    /// Number of live constraints: the prefix of every array.
    live: usize,
    /// The colours cut into runs of regular memory layout (colored order only).
    runs: Vec<Run>,
    /// Most runs `runs` holds without reallocating once the set is built (0 while
    /// building: no limit). Past it the rest of a colour becomes one scattered
    /// run, so tearing, which splits runs, never allocates.
    runs_capacity: usize,
    order: SolverOrder,
    /// Where each constraint torn since [`ConstraintSet::clear_tear_log`] sat just
    /// before it tore, one tear after another (the first entry of each tear has
    /// [`TEAR_START`](super::columns::TEAR_START) set); also the permutation
    /// buffer of a reorder, which clears the log. One entry per constraint,
    /// allocated with the set.
    tear_log: Vec<u32>,
    /// Entries of `tear_log` in use.
    logged: usize,
    /// One word per constraint for moving entries around; its contents mean nothing.
    scratch: Vec<u32>,
    /// The coloured layout when the set was built (or last arranged in colored
    /// order) and how many constraints were live then: the base of
    /// [`ConstraintSet::colored_layout`]'s bound while the order is original.
    colored_base: (ColoredLayout, usize),
}

/// Two sets are equal when they hold the same constraints in the same places,
/// with the same multipliers and the same tear log; the scratch buffer is not
/// part of the state.
impl PartialEq for ConstraintSet {
    fn eq(&self, other: &Self) -> bool {
        self.ids == other.ids
            && self.rest_lengths == other.rest_lengths
            && self.lambdas == other.lambdas
            && self.creation == other.creation
            && self.colors == other.colors
            && self.live == other.live
            && self.runs == other.runs
            && self.order == other.order
            && self.tear_log[..self.logged] == other.tear_log[..other.logged]
    }
}

impl ConstraintSet {
    /// Takes constraints in creation order and arranges them for `order`.
    /// Panics where [`ConstraintSet::try_new`] returns an error (out of memory).
    pub fn new(
        ids: Vec<u32>,
        rest_lengths: Vec<f32>,
        colors: Vec<u8>,
        order: SolverOrder,
    ) -> ConstraintSet {
        Self::try_new(ids, rest_lengths, colors, order).expect("out of memory")
    }

    /// Takes constraints in creation order and arranges them for `order`,
    /// allocating every buffer the set will ever need (tearing and reordering
    /// later allocate nothing); when memory runs out, returns the error instead.
    ///
    /// `colors` must be a proper colouring: no two constraints of one colour
    /// share a particle (the grid provides one).
    pub fn try_new(
        ids: Vec<u32>,
        rest_lengths: Vec<f32>,
        colors: Vec<u8>,
        order: SolverOrder,
    ) -> Result<ConstraintSet, TryReserveError> {
        let count = rest_lengths.len();
        let mut set = ConstraintSet {
            ids,
            rest_lengths,
            lambdas: memory::filled(count, 0.0)?,
            creation: memory::collect(count, 0..count as u32)?,
            colors,
            live: count,
            runs: Vec::new(),
            runs_capacity: 0,
            order: SolverOrder::Original,
            tear_log: memory::filled(count, 0)?,
            logged: 0,
            scratch: memory::filled(count, 0)?,
            // until arranged in colored order: every constraint scattered, a run each
            colored_base: (
                ColoredLayout {
                    constraints: count,
                    runs: count,
                    scattered: count,
                },
                count,
            ),
        };
        set.set_order(order);
        // Tearing splits runs: room for as many again (or for the colored
        // arrangement of a set built in original order), then a fixed limit.
        let colored_runs = set.colored_base.0.runs.min(count);
        let room = 2 * colored_runs.max(set.runs.len()) + 64;
        set.runs
            .try_reserve_exact(room.saturating_sub(set.runs.len()))?;
        set.runs_capacity = set.runs.capacity();
        Ok(set)
    }

    /// Bytes of memory the set's buffers hold (their capacity).
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.ids)
            + bytes(&self.rest_lengths)
            + bytes(&self.lambdas)
            + bytes(&self.creation)
            + bytes(&self.colors)
            + bytes(&self.tear_log)
            + bytes(&self.scratch)
            + bytes(&self.runs)
    }

    /// Number of live (untorn) constraints.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether there are no constraints left.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of constraints the set was built with, live and torn.
    pub fn built_with(&self) -> usize {
        self.rest_lengths.len()
    }

    /// `[a0, b0, a1, b1, ...]` of the live constraints, in solver order.
    pub fn ids(&self) -> &[u32] {
        &self.ids[..2 * self.live]
    }

    /// Rest lengths of the live constraints in solver order, metres.
    pub fn rest_lengths(&self) -> &[f32] {
        &self.rest_lengths[..self.live]
    }

    /// Multipliers of the live constraints in solver order.
    pub fn lambdas(&self) -> &[f32] {
        &self.lambdas[..self.live]
    }

    /// The sweep order in use.
    pub fn order(&self) -> SolverOrder {
        self.order
    }

    /// The live constraints as the solver takes them, the multipliers mutable.
    pub fn solver_view(&mut self) -> Constraints<'_> {
        self.runs_and_solver_view().1
    }

    /// [`ConstraintSet::solver_view`] with the creation index of each live
    /// constraint (what per-constraint data is indexed by).
    pub fn solver_view_and_creation(&mut self) -> (Constraints<'_>, &[u32]) {
        let live = self.live;
        let constraints = Constraints {
            ids: &self.ids[..2 * live],
            rest_lengths: &self.rest_lengths[..live],
            lambdas: &mut self.lambdas[..live],
        };
        (constraints, &self.creation[..live])
    }

    /// The runs with the constraint arrays they index, the multipliers mutable.
    pub fn runs_and_solver_view(&mut self) -> (&[Run], Constraints<'_>) {
        let live = self.live;
        let constraints = Constraints {
            ids: &self.ids[..2 * live],
            rest_lengths: &self.rest_lengths[..live],
            lambdas: &mut self.lambdas[..live],
        };
        (&self.runs, constraints)
    }

    /// Position in creation order of every constraint, the live ones first
    /// (in solver order), then the torn ones.
    pub fn creation(&self) -> &[u32] {
        &self.creation
    }

    /// Colour of every constraint, in the arrangement of [`ConstraintSet::creation`].
    pub fn colors(&self) -> &[u8] {
        &self.colors
    }

    /// Sets every multiplier to 0 (once per (sub)step).
    pub fn reset_multipliers(&mut self) {
        self.lambdas[..self.live].fill(0.0);
    }

    fn arrays(&mut self) -> (Arrays<'_>, &mut Vec<u32>, &mut Vec<u32>) {
        (
            Arrays {
                ids: &mut self.ids,
                rest_lengths: &mut self.rest_lengths,
                lambdas: &mut self.lambdas,
                creation: &mut self.creation,
                colors: &mut self.colors,
            },
            &mut self.tear_log,
            &mut self.scratch,
        )
    }
}
