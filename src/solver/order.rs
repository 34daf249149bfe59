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

use std::collections::TryReserveError;

use super::columns::{Arrays, Column, TEAR_START};
use super::distance::Constraints;
use super::runs::{Arrangement, ColoredLayout, Run};
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
    /// [`TEAR_START`] set); also the permutation buffer of a reorder, which clears
    /// the log. One entry per constraint, allocated with the set.
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

    /// The constraints of each colour cut into runs of regular memory layout
    /// (colored order; empty in original order).
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The runs and scattered constraints of the coloured sweep (see
    /// [`ColoredLayout`]): exact in colored order; in original order a bound for
    /// the colored arrangement, from the last one known (each constraint torn
    /// since splits at most one run in two and leaves at most six constraints
    /// scattered), so the cost of switching can be judged before switching.
    pub fn colored_layout(&self) -> ColoredLayout {
        if self.order == SolverOrder::Colored {
            return self.measure_colored_layout();
        }
        let (base, live_then) = self.colored_base;
        let torn_since = live_then.saturating_sub(self.live);
        ColoredLayout {
            runs: (base.runs + torn_since).min(self.live),
            scattered: (base.scattered + 6 * torn_since).min(self.live),
        }
    }

    fn measure_colored_layout(&self) -> ColoredLayout {
        let scattered = self.runs.iter().map(Run::scattered).sum();
        ColoredLayout {
            runs: self.runs.len(),
            scattered,
        }
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

    /// Makes the constraints of creation indices `live` the live ones, in that
    /// order, and every other one torn; multipliers become 0 and the tear log
    /// is cleared. `live` must hold distinct creation indices below
    /// [`ConstraintSet::built_with`], arranged as the set's order arranges
    /// them (ascending in original order, colour by colour in colored order);
    /// the caller checks that. O(n), without allocating.
    pub fn arrange_live(&mut self, live: &[u32]) {
        let n = self.built_with();
        debug_assert!(live.len() <= n);
        self.logged = 0;
        // `scratch` maps a creation index to its position now
        for (c, &created) in self.creation.iter().enumerate() {
            self.scratch[created as usize] = c as u32;
        }
        for (slot, &created) in self.tear_log.iter_mut().zip(live) {
            *slot = self.scratch[created as usize];
            self.scratch[created as usize] = u32::MAX;
        }
        let mut next = live.len();
        for created in 0..n {
            let c = self.scratch[created];
            if c != u32::MAX {
                self.tear_log[next] = c;
                next += 1;
            }
        }
        self.lambdas.fill(0.0);
        let (mut arrays, tear_log, scratch) = self.arrays();
        let permutation = &tear_log[..n];
        arrays.permute_constraints(permutation, scratch);
        Column::new(&mut *arrays.creation, 1, 0).permute(permutation, scratch);
        self.live = live.len();
        self.update_runs();
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

    /// Rearranges the live constraints into `order` (stable: creation order within
    /// a colour, and in colored order the leftovers of each colour's runs behind
    /// its regular runs, see below), in O(n) and without allocating: the
    /// permutation is found first and the arrays move once. Does nothing when the
    /// arrays are in `order` already (a new set starts in creation order, which is
    /// the original order). Clears the tear log: its positions would no longer hold.
    pub fn set_order(&mut self, order: SolverOrder) {
        if order == self.order {
            return;
        }
        self.logged = 0;
        let live = self.live;
        // The live constraints in creation order, as a permutation in `tear_log`.
        if self.order == SolverOrder::Original {
            for (k, slot) in self.tear_log[..live].iter_mut().enumerate() {
                *slot = k as u32;
            }
        } else {
            // `scratch` maps a creation index to its position
            let (tear_log, scratch) = (&mut self.tear_log, &mut self.scratch);
            scratch.fill(u32::MAX);
            for (c, &created) in self.creation[..live].iter().enumerate() {
                scratch[created as usize] = c as u32;
            }
            let present = scratch.iter().filter(|&&c| c != u32::MAX);
            for (slot, &c) in tear_log.iter_mut().zip(present) {
                *slot = c;
            }
        }
        if order == SolverOrder::Colored {
            let colors = &self.colors;
            counting_sort(
                &self.tear_log[..live],
                |c| colors[c] as usize,
                &mut self.scratch,
            );
            std::mem::swap(&mut self.tear_log, &mut self.scratch);
            self.gather_leftovers();
        }
        self.apply_permutation();
        self.order = order;
        self.update_runs();
        if order == SolverOrder::Colored {
            self.colored_base = (self.measure_colored_layout(), self.live);
        }
    }

    /// Applies the permutation in `tear_log[..live]` to every array. Two need
    /// no moving in a new set: multipliers that are all 0, and creation indices
    /// that are still `0, 1, 2, ...`, which become the permutation itself.
    fn apply_permutation(&mut self) {
        let live = self.live;
        let in_creation_order = self.order == SolverOrder::Original && live == self.built_with();
        let multipliers_zero = self.lambdas[..live].iter().all(|&lambda| lambda == 0.0);
        let (mut arrays, tear_log, scratch) = self.arrays();
        let permutation = &tear_log[..live];
        arrays.permute_constraints(permutation, scratch);
        if !multipliers_zero {
            Column::new(&mut *arrays.lambdas, 1, 0).permute(permutation, scratch);
        }
        if in_creation_order {
            arrays.creation[..live].copy_from_slice(permutation);
        } else {
            Column::new(&mut *arrays.creation, 1, 0).permute(permutation, scratch);
        }
    }

    /// Refines the colour-sorted permutation in `tear_log` so that the
    /// constraints that do not fill a group of four in a regular run (the ends of
    /// rows) move behind the regular runs of their colour, where they form one
    /// scattered run that is still solved four at a time. The runs are found on
    /// the arrangement the permutation describes, before anything moves.
    fn gather_leftovers(&mut self) {
        let live = self.live;
        let order = &self.tear_log;
        let view = Arrangement {
            ids: &self.ids,
            colors: &self.colors,
            index: |c: usize| order[c] as usize,
        };
        view.cut(live, self.runs_capacity, &mut self.runs);
        // key of each position: 2 × colour + 1 for a leftover
        let key = |run: &Run, c: usize| {
            let grouped = run.range.len() - run.scattered();
            let leftover = c >= run.range.start + grouped;
            2 * view.color(c) as usize + leftover as usize
        };
        let mut starts = [0usize; 513];
        for run in &self.runs {
            for c in run.range.clone() {
                starts[key(run, c) + 1] += 1;
            }
        }
        for k in 1..starts.len() {
            starts[k] += starts[k - 1];
        }
        for run in &self.runs {
            for c in run.range.clone() {
                let slot = &mut starts[key(run, c)];
                self.scratch[*slot] = order[c];
                *slot += 1;
            }
        }
        std::mem::swap(&mut self.tear_log, &mut self.scratch);
    }

    /// Forgets the positions of earlier tears: [`ConstraintSet::restore_logged`]
    /// brings back only what tears after this call.
    pub fn clear_tear_log(&mut self) {
        self.logged = 0;
    }

    /// Tears every live constraint `(a, b, rest_length)` for which `is_torn` is
    /// true: it moves behind the live ones, in place, and the order of the rest
    /// is kept. Logs where each one was. Returns how many tore.
    pub fn tear(&mut self, mut is_torn: impl FnMut(u32, u32, f32) -> bool) -> usize {
        let start = self.logged;
        for c in 0..self.live {
            if is_torn(self.ids[2 * c], self.ids[2 * c + 1], self.rest_lengths[c]) {
                let mark = if self.logged == start { TEAR_START } else { 0 };
                self.tear_log[self.logged] = c as u32 | mark;
                self.logged += 1;
            }
        }
        let torn = self.logged - start;
        if torn > 0 {
            let (live, end) = (self.live, self.logged);
            let (mut arrays, tear_log, scratch) = self.arrays();
            let positions = &tear_log[start..end];
            arrays.for_each_column(|column| column.move_behind(positions, live, scratch));
            self.live -= torn;
            self.update_runs();
        }
        torn
    }

    /// Brings back every constraint torn since the tear log was last cleared, each
    /// to the place it tore from, newest tear first, so the arrays are exactly as
    /// they were then (their multipliers are whatever they were). Returns how many
    /// came back.
    pub fn restore_logged(&mut self) -> usize {
        let restored = self.logged;
        while self.logged > 0 {
            let end = self.logged;
            let mut start = end - 1;
            while self.tear_log[start] & TEAR_START == 0 {
                start -= 1;
            }
            let live = self.live;
            let (mut arrays, tear_log, scratch) = self.arrays();
            let positions = &tear_log[start..end];
            arrays.for_each_column(|column| column.move_back(positions, live, scratch));
            self.live += end - start;
            self.logged = start;
        }
        if restored > 0 {
            self.update_runs();
        }
        restored
    }

    fn update_runs(&mut self) {
        self.runs.clear();
        if self.order == SolverOrder::Original {
            return;
        }
        let view = Arrangement {
            ids: &self.ids,
            colors: &self.colors,
            index: |c: usize| c,
        };
        view.cut(self.live, self.runs_capacity, &mut self.runs);
    }
}

/// The stable counting sort of `items` by `key` (below 512): the sorted items
/// go into the front of `out`.
fn counting_sort(items: &[u32], key: impl Fn(usize) -> usize, out: &mut [u32]) {
    let mut starts = [0usize; 513];
    for &c in items {
        starts[key(c as usize) + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    for &c in items {
        let slot = &mut starts[key(c as usize)];
        out[*slot] = c;
        *slot += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;
    use crate::model::grid;
    use crate::params::{FixedPreset, GridSize};
    use crate::solver::runs::RunLayout;

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

    /// The set's batches (colored order): one range per colour.
    fn batches(s: &ConstraintSet) -> Vec<Range<usize>> {
        let view = Arrangement {
            ids: &s.ids,
            colors: &s.colors,
            index: |c: usize| c,
        };
        view.batches(s.live).collect()
    }

    #[test]
    fn no_two_constraints_of_a_batch_share_a_particle() {
        let s = set(13, 7, SolverOrder::Colored);
        assert_eq!(batches(&s).len(), 8, "8 colours");
        let covered: usize = batches(&s).iter().map(|r| r.len()).sum();
        assert_eq!(covered, s.len());
        for batch in batches(&s) {
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

    /// The colored arrangement as a comparison sort makes it: by (colour,
    /// creation), then the leftovers of each colour's runs behind its regular runs.
    fn colored_by_sorting(width: usize, height: usize) -> Vec<u32> {
        let g = grid::build(GridSize { width, height }, FixedPreset::Two);
        let count = g.rest_lengths.len();
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&c| (g.colors[c], c));
        let ids: Vec<u32> = order
            .iter()
            .flat_map(|&c| [g.constraint_ids[2 * c], g.constraint_ids[2 * c + 1]])
            .collect();
        let colors: Vec<u8> = order.iter().map(|&c| g.colors[c]).collect();
        let mut arranged = ConstraintSet::new(ids, vec![1.0; count], colors, SolverOrder::Original);
        arranged.order = SolverOrder::Colored;
        arranged.update_runs();
        let mut leftover = vec![false; count];
        for run in arranged.runs() {
            let grouped = match run.layout {
                RunLayout::Scattered => 0,
                _ => run.range.len() / 4 * 4,
            };
            for flag in &mut leftover[run.range.start + grouped..run.range.end] {
                *flag = true;
            }
        }
        let mut keys: Vec<usize> = (0..count).collect();
        keys.sort_by_key(|&c| (arranged.colors[c], leftover[c], c));
        keys.iter()
            .flat_map(|&c| [arranged.ids[2 * c], arranged.ids[2 * c + 1]])
            .collect()
    }

    #[test]
    fn the_counting_sort_arranges_as_a_comparison_sort_would() {
        for (w, h) in [(2, 2), (3, 5), (13, 7), (40, 30)] {
            assert_eq!(
                set(w, h, SolverOrder::Colored).ids(),
                colored_by_sorting(w, h).as_slice(),
                "{w}x{h}"
            );
        }
    }

    /// Tears every `k`-th live constraint, and returns how many tore.
    fn tear_every(s: &mut ConstraintSet, k: usize) -> usize {
        let mut c = 0;
        s.tear(|_, _, _| {
            c += 1;
            c % k == 0
        })
    }

    #[test]
    fn tearing_moves_torn_constraints_behind_in_place_and_restoring_undoes_it() {
        for order in [SolverOrder::Colored, SolverOrder::Original] {
            let original = set(13, 7, order);
            let mut s = original.clone();
            let (ids, rest) = (s.ids.as_ptr(), s.rest_lengths.as_ptr());
            let live_before = s.ids().to_vec();
            s.clear_tear_log();
            let first = tear_every(&mut s, 7);
            let second = tear_every(&mut s, 3);
            assert_eq!(s.len(), original.len() - first - second);
            // the same buffers, still holding every constraint: the live ones in
            // their old relative order, then the torn ones
            assert_eq!((s.ids.as_ptr(), s.rest_lengths.as_ptr()), (ids, rest));
            assert_eq!(s.ids.len(), original.ids.len());
            let live: Vec<&[u32]> = s.ids().chunks(2).collect();
            let mut kept = live_before.chunks(2).filter(|pair| live.contains(pair));
            assert!(
                live.iter().all(|pair| kept.next() == Some(pair)),
                "order kept"
            );
            let mut all: Vec<&[u32]> = s.ids.chunks(2).collect();
            let mut expected: Vec<&[u32]> = original.ids.chunks(2).collect();
            all.sort();
            expected.sort();
            assert_eq!(all, expected, "{order:?}: nothing lost, nothing doubled");
            assert!(s.rest_lengths.iter().all(|&r| r > 0.0));
            // runs still cover the live constraints only
            if order == SolverOrder::Colored {
                assert_eq!(s.runs().last().unwrap().range.end, s.len());
            }
            assert_eq!(s.restore_logged(), first + second);
            assert!(s == original, "{order:?}: restored exactly");
            assert_eq!(s.runs(), original.runs());
        }
    }

    #[test]
    fn reordering_a_torn_set_keeps_the_torn_ones_behind() {
        let mut s = set(9, 6, SolverOrder::Colored);
        let torn = tear_every(&mut s, 4);
        let tail = s.ids[2 * s.len()..].to_vec();
        let live = s.len();
        s.set_order(SolverOrder::Original);
        assert_eq!(s.len(), live);
        assert_eq!(&s.ids[2 * s.len()..], tail.as_slice());
        // creation order
        assert!(s.creation[..live].windows(2).all(|w| w[0] < w[1]));
        s.set_order(SolverOrder::Colored);
        let batched: usize = batches(&s).iter().map(|b| b.len()).sum();
        assert_eq!(batched, live);
        assert_eq!(s.built_with(), live + torn);
        // nothing to restore after a reorder: it clears the log
        assert_eq!(s.restore_logged(), 0);
    }

    #[test]
    fn the_colored_layout_bound_covers_the_arrangement() {
        let mut s = set(40, 30, SolverOrder::Colored);
        s.set_order(SolverOrder::Original);
        tear_every(&mut s, 5);
        let bound = s.colored_layout();
        s.set_order(SolverOrder::Colored);
        let exact = s.colored_layout();
        assert!(
            exact.runs <= bound.runs && exact.scattered <= bound.scattered,
            "{exact:?} vs {bound:?}"
        );
    }

    #[test]
    fn tearing_never_grows_the_runs_past_their_room() {
        let mut s = set(40, 30, SolverOrder::Colored);
        let room = s.runs.capacity();
        // every other constraint: the most fragmenting tear there is
        tear_every(&mut s, 2);
        assert_eq!(s.runs.capacity(), room);
        assert!(s.runs.len() <= room);
        let mut next = 0;
        for run in s.runs() {
            assert_eq!(run.range.start, next, "runs stay contiguous");
            next = run.range.end;
        }
        assert_eq!(next, s.len());
        s.restore_logged();
        assert_eq!(s.runs.capacity(), room);
    }

    #[test]
    fn tearing_keeps_the_order_of_the_rest() {
        let mut s = set(3, 3, SolverOrder::Original);
        let mut torn = vec![false; s.len()];
        torn[0] = true;
        torn[5] = true;
        let before = s.ids().to_vec();
        let mut c = 0;
        let tore = s.tear(|_, _, _| {
            c += 1;
            torn[c - 1]
        });
        assert_eq!(tore, 2);
        assert_eq!(s.len(), before.len() / 2 - 2);
        assert_eq!(&s.ids()[..2], &before[2..4]);
    }
}
