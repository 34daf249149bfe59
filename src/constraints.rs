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
//! together, so the `constraints()` view always lists what the solver solves,
//! and torn constraints are removed from all of them at once.

use std::collections::TryReserveError;
use std::ops::Range;

use crate::memory;
use crate::params::SolverOrder;

/// The constraints of a cloth and their multipliers, in solver order.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintSet {
    /// `[a0, b0, a1, b1, ...]`.
    ids: Vec<u32>,
    /// Rest length of each constraint, metres.
    rest_lengths: Vec<f32>,
    /// Lagrange multiplier of each constraint, accumulated over one (sub)step.
    lambdas: Vec<f32>,
    /// Position of each constraint in creation order (restores the original order).
    creation: Vec<u32>,
    /// Colour of each constraint: no two constraints of one colour share a particle.
    colors: Vec<u8>,
    /// Ranges of constraints that can be solved independently (one per colour in
    /// colored order; empty in original order).
    batches: Vec<Range<usize>>,
    /// The batches cut into runs of regular memory layout (colored order only).
    runs: Vec<Run>,
    order: SolverOrder,
}

/// Room for a rearranged copy of the per-constraint arrays, reserved before a
/// rearrangement starts so that it cannot run out of memory halfway.
struct Spare {
    ids: Vec<u32>,
    rest_lengths: Vec<f32>,
    lambdas: Vec<f32>,
    creation: Vec<u32>,
    colors: Vec<u8>,
}

impl Spare {
    fn with_capacity(count: usize) -> Result<Spare, TryReserveError> {
        Ok(Spare {
            ids: memory::with_capacity(2 * count)?,
            rest_lengths: memory::with_capacity(count)?,
            lambdas: memory::with_capacity(count)?,
            creation: memory::with_capacity(count)?,
            colors: memory::with_capacity(count)?,
        })
    }

    fn clear(&mut self) {
        self.ids.clear();
        self.rest_lengths.clear();
        self.lambdas.clear();
        self.creation.clear();
        self.colors.clear();
    }
}

/// How the particles of a run of constraints lie in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLayout {
    /// Constraint `i` of the run joins `a0 + i` and `a0 + i + offset` (vertical
    /// and diagonal edges along a row), with `offset >= 4` and at most `offset`
    /// constraints, so the `a`s and the `b`s are two separate stretches of memory.
    Consecutive {
        /// First particle `a`.
        a0: u32,
        /// `b - a`.
        offset: i32,
    },
    /// Constraint `i` joins `a0 + 2i` and `a0 + 2i + 1` (every other horizontal
    /// edge of a row): four constraints cover eight consecutive particles.
    Alternating {
        /// First particle `a`.
        a0: u32,
    },
    /// No regular layout: particles are gathered one by one.
    Scattered,
}

/// Consecutive constraints of one colour with one memory layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The constraints, as indices into the solver-order arrays.
    pub range: Range<usize>,
    /// Where their particles are.
    pub layout: RunLayout,
}

impl ConstraintSet {
    /// Takes constraints in creation order and arranges them for `order`.
    /// Panics where [`ConstraintSet::try_new`] returns an error.
    ///
    /// `colors` must be a proper colouring: no two constraints of one colour
    /// share a particle (the grid provides one).
    pub fn new(
        ids: Vec<u32>,
        rest_lengths: Vec<f32>,
        colors: Vec<u8>,
        order: SolverOrder,
    ) -> ConstraintSet {
        ConstraintSet::try_new(ids, rest_lengths, colors, order)
            .unwrap_or_else(|_| panic!("out of memory arranging constraints"))
    }

    /// [`ConstraintSet::new`], or an error when memory runs out.
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
            batches: Vec::new(),
            runs: Vec::new(),
            order: SolverOrder::Original,
        };
        set.try_set_order(order)?;
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
            + bytes(&self.batches)
            + bytes(&self.runs)
    }

    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.rest_lengths.len()
    }

    /// Whether there are no constraints left.
    pub fn is_empty(&self) -> bool {
        self.rest_lengths.is_empty()
    }

    /// `[a0, b0, a1, b1, ...]` in solver order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Rest lengths in solver order, metres.
    pub fn rest_lengths(&self) -> &[f32] {
        &self.rest_lengths
    }

    /// Multipliers in solver order.
    pub fn lambdas(&self) -> &[f32] {
        &self.lambdas
    }

    /// The sweep order in use.
    pub fn order(&self) -> SolverOrder {
        self.order
    }

    /// Independent ranges, one per colour (colored order; empty in original order).
    pub fn batches(&self) -> &[Range<usize>] {
        &self.batches
    }

    /// The batches cut into runs of regular memory layout (colored order).
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Everything the solver needs at once, with the multipliers mutable.
    pub fn parts_mut(&mut self) -> (&[u32], &[f32], &mut [f32]) {
        (&self.ids, &self.rest_lengths, &mut self.lambdas)
    }

    /// The runs with the arrays they index, the multipliers mutable.
    pub fn runs_and_parts_mut(&mut self) -> (&[Run], &[u32], &[f32], &mut [f32]) {
        (&self.runs, &self.ids, &self.rest_lengths, &mut self.lambdas)
    }

    /// Sets every multiplier to 0 (once per (sub)step).
    pub fn reset_multipliers(&mut self) {
        self.lambdas.fill(0.0);
    }

    /// Rearranges all arrays into `order` (creation order within a colour).
    /// Panics where [`ConstraintSet::try_set_order`] returns an error.
    pub fn set_order(&mut self, order: SolverOrder) {
        if self.try_set_order(order).is_err() {
            panic!("out of memory rearranging {} constraints", self.len());
        }
    }

    /// Rearranges all arrays into `order` (creation order within a colour).
    /// Does nothing when the arrays are in `order` already (a new set starts in
    /// creation order, which is the original order). Everything the
    /// rearrangement needs is reserved before anything moves, so when memory
    /// runs out it returns an error and the set is unchanged.
    pub fn try_set_order(&mut self, order: SolverOrder) -> Result<(), TryReserveError> {
        if order == self.order {
            return Ok(());
        }
        let count = self.len();
        let mut permutation = memory::collect(count, 0..count)?;
        let mut spare = Spare::with_capacity(count)?;
        let mut leftover = match order {
            SolverOrder::Original => Vec::new(),
            SolverOrder::Colored => memory::filled(count, false)?,
        };
        // Unstable sorts allocate nothing; every key is unique (it ends in the
        // creation index), so the result is the one a stable sort gives.
        match order {
            SolverOrder::Original => permutation.sort_unstable_by_key(|&c| self.creation[c]),
            SolverOrder::Colored => {
                permutation.sort_unstable_by_key(|&c| (self.colors[c], self.creation[c]))
            }
        }
        self.apply(&permutation, &mut spare);
        self.order = order;
        self.update_batches();
        if order == SolverOrder::Colored {
            self.gather_leftovers(&mut permutation, &mut leftover, &mut spare);
        }
        Ok(())
    }

    /// Moves the constraints that do not fill a group of four in a regular run
    /// (the ends of rows) behind the regular runs of their colour, where they
    /// form one scattered run that is still solved four at a time. Works in the
    /// buffers of [`ConstraintSet::try_set_order`], each `len()` long.
    fn gather_leftovers(
        &mut self,
        permutation: &mut [usize],
        leftover: &mut [bool],
        spare: &mut Spare,
    ) {
        leftover.fill(false);
        for run in &self.runs {
            let grouped = match run.layout {
                RunLayout::Scattered => 0,
                _ => run.range.len() / 4 * 4,
            };
            for flag in &mut leftover[run.range.start + grouped..run.range.end] {
                *flag = true;
            }
        }
        for (c, slot) in permutation.iter_mut().enumerate() {
            *slot = c;
        }
        permutation.sort_unstable_by_key(|&c| (self.colors[c], leftover[c], c));
        self.apply(permutation, spare);
        self.update_batches();
    }

    /// Removes the constraints for which `torn` is true, keeping the order of
    /// the rest. Returns how many were removed. Works in place: tearing, part
    /// of a step, allocates nothing.
    pub fn remove(&mut self, torn: &[bool]) -> usize {
        let count = self.len();
        let mut kept = 0;
        for c in 0..count {
            if torn.get(c) == Some(&true) {
                continue;
            }
            if kept != c {
                self.ids.copy_within(2 * c..2 * c + 2, 2 * kept);
                self.rest_lengths[kept] = self.rest_lengths[c];
                self.lambdas[kept] = self.lambdas[c];
                self.creation[kept] = self.creation[c];
                self.colors[kept] = self.colors[c];
            }
            kept += 1;
        }
        let removed = count - kept;
        if removed > 0 {
            self.ids.truncate(2 * kept);
            self.rest_lengths.truncate(kept);
            self.lambdas.truncate(kept);
            self.creation.truncate(kept);
            self.colors.truncate(kept);
            self.update_batches();
        }
        removed
    }

    /// Rearranges the arrays into the order of `selection` (a permutation of
    /// the constraints), writing into `spare` and swapping: afterwards `spare`
    /// holds the old arrays, ready for another pass.
    fn apply(&mut self, selection: &[usize], spare: &mut Spare) {
        spare.clear();
        for &c in selection {
            spare.ids.extend_from_slice(&self.ids[2 * c..2 * c + 2]);
            spare.rest_lengths.push(self.rest_lengths[c]);
            spare.lambdas.push(self.lambdas[c]);
            spare.creation.push(self.creation[c]);
            spare.colors.push(self.colors[c]);
        }
        std::mem::swap(&mut self.ids, &mut spare.ids);
        std::mem::swap(&mut self.rest_lengths, &mut spare.rest_lengths);
        std::mem::swap(&mut self.lambdas, &mut spare.lambdas);
        std::mem::swap(&mut self.creation, &mut spare.creation);
        std::mem::swap(&mut self.colors, &mut spare.colors);
    }

    /// Cuts the colored order into batches and runs. The run list can grow as
    /// constraints tear; when memory for it runs out, the set keeps no runs
    /// and the solver sweeps the same order one constraint at a time: the same
    /// result (the four-wide sweep equals the scalar one bit for bit), slower.
    fn update_batches(&mut self) {
        if self.try_update_batches().is_err() {
            self.batches.clear();
            self.runs.clear();
        }
    }

    fn try_update_batches(&mut self) -> Result<(), TryReserveError> {
        self.batches.clear();
        self.runs.clear();
        if self.order == SolverOrder::Original {
            return Ok(());
        }
        let mut start = 0;
        for c in 1..=self.len() {
            if c == self.len() || self.colors[c] != self.colors[start] {
                self.batches.try_reserve(1)?;
                self.batches.push(start..c);
                start = c;
            }
        }
        for b in 0..self.batches.len() {
            let batch = self.batches[b].clone();
            let first_of_batch = self.runs.len();
            let mut c = batch.start;
            while c < batch.end {
                let run = self.longest_run(c, batch.end);
                c = run.range.end;
                let in_batch = self.runs.len() > first_of_batch;
                match self.runs.last_mut() {
                    // scattered neighbours of one batch are gathered together
                    Some(last)
                        if in_batch
                            && last.layout == RunLayout::Scattered
                            && run.layout == RunLayout::Scattered =>
                    {
                        last.range.end = run.range.end
                    }
                    _ => {
                        self.runs.try_reserve(1)?;
                        self.runs.push(run)
                    }
                }
            }
        }
        Ok(())
    }

    fn a(&self, c: usize) -> i64 {
        self.ids[2 * c] as i64
    }

    fn b(&self, c: usize) -> i64 {
        self.ids[2 * c + 1] as i64
    }

    /// The longest regular run starting at constraint `start` (before `end`).
    /// Runs shorter than four constraints gain nothing: they become scattered.
    fn longest_run(&self, start: usize, end: usize) -> Run {
        let extend = |step: i64, offset: i64| {
            let mut c = start + 1;
            while c < end && self.a(c) == self.a(c - 1) + step && self.b(c) - self.a(c) == offset {
                c += 1;
            }
            c
        };
        let a0 = self.a(start);
        let offset = self.b(start) - a0;
        // The `a` particles and the `b` particles of a run must be two separate
        // stretches of memory (run length <= offset) so the solver can borrow
        // them as two slices.
        let consecutive = if offset >= 4 {
            extend(1, offset).min(start + offset as usize)
        } else {
            start + 1
        };
        let alternating = if offset == 1 { extend(2, 1) } else { start + 1 };
        let (stop, layout) = if consecutive >= alternating {
            let layout = RunLayout::Consecutive {
                a0: a0 as u32,
                offset: offset as i32,
            };
            (consecutive, layout)
        } else {
            (alternating, RunLayout::Alternating { a0: a0 as u32 })
        };
        if stop - start >= 4 {
            Run {
                range: start..stop,
                layout,
            }
        } else {
            // gather up to the next place a regular run could start
            Run {
                range: start..start + 1,
                layout: RunLayout::Scattered,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid;
    use crate::params::{FixedPreset, GridSize};

    fn set(width: usize, height: usize, order: SolverOrder) -> ConstraintSet {
        let size = GridSize { width, height };
        let g = grid::build(size, FixedPreset::Two);
        ConstraintSet::new(g.constraint_ids, g.rest_lengths, g.colors, order)
    }

    #[test]
    fn runs_cover_every_constraint_and_match_their_layout() {
        for (w, h) in [(2, 2), (3, 5), (4, 4), (5, 3), (13, 7), (40, 30)] {
            let s = set(w, h, SolverOrder::Colored);
            let mut next = 0;
            for run in s.runs() {
                assert_eq!(run.range.start, next, "{w}x{h}: runs are contiguous");
                next = run.range.end;
                for (i, c) in run.range.clone().enumerate() {
                    let (a, b) = (s.ids()[2 * c] as i64, s.ids()[2 * c + 1] as i64);
                    match run.layout {
                        RunLayout::Consecutive { a0, offset } => {
                            assert_eq!(
                                (a, b),
                                (a0 as i64 + i as i64, a0 as i64 + i as i64 + offset as i64)
                            );
                            assert!(offset >= 4 && run.range.len() <= offset as usize);
                        }
                        RunLayout::Alternating { a0 } => {
                            assert_eq!(
                                (a, b),
                                (a0 as i64 + 2 * i as i64, a0 as i64 + 2 * i as i64 + 1)
                            );
                        }
                        RunLayout::Scattered => {}
                    }
                }
            }
            assert_eq!(next, s.len());
        }
        // on a 40 × 30 grid almost every constraint is in a regular run
        let s = set(40, 30, SolverOrder::Colored);
        let scattered = s
            .runs()
            .iter()
            .filter(|r| r.layout == RunLayout::Scattered)
            .count();
        assert!(
            scattered * 20 < s.len(),
            "{scattered} scattered of {}",
            s.len()
        );
    }

    #[test]
    fn no_two_constraints_of_a_batch_share_a_particle() {
        let s = set(13, 7, SolverOrder::Colored);
        assert_eq!(s.batches().len(), 8, "8 colours");
        let covered: usize = s.batches().iter().map(|r| r.len()).sum();
        assert_eq!(covered, s.len());
        for batch in s.batches() {
            let mut seen = std::collections::HashSet::new();
            for c in batch.clone() {
                assert!(
                    seen.insert(s.ids()[2 * c]),
                    "batch {batch:?} repeats a particle"
                );
                assert!(
                    seen.insert(s.ids()[2 * c + 1]),
                    "batch {batch:?} repeats a particle"
                );
            }
        }
    }

    #[test]
    fn switching_orders_round_trips() {
        let original = set(9, 6, SolverOrder::Original);
        let mut s = original.clone();
        s.set_order(SolverOrder::Colored);
        assert_ne!(s.ids(), original.ids());
        s.set_order(SolverOrder::Original);
        assert_eq!(s, original);
    }

    #[test]
    fn removing_keeps_the_order_of_the_rest() {
        let mut s = set(3, 3, SolverOrder::Original);
        let mut torn = vec![false; s.len()];
        torn[0] = true;
        torn[5] = true;
        let before = s.ids().to_vec();
        assert_eq!(s.remove(&torn), 2);
        assert_eq!(s.len(), before.len() / 2 - 2);
        assert_eq!(&s.ids()[..2], &before[2..4]);
    }
}
