//! Rearranging a [`ConstraintSet`]: into the original or the coloured order,
//! or to a given set of live constraints, each by a permutation found first
//! (a counting sort by colour) and applied to every array at once.

use super::ConstraintSet;
use crate::params::SolverOrder;
use crate::solver::columns::Column;
use crate::solver::runs::{Arrangement, Run};

impl ConstraintSet {
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

impl ConstraintSet {
    /// A new set of these constraints and a chain more: `ids` (flat pairs,
    /// each particle index plus `first`) and `rest_lengths` of the new ones,
    /// which take the next creation indices and the colours 0, 1, 0, ... (a
    /// proper colouring for a chain of particles in no other constraint),
    /// arranged for the same order: the
    /// live constraints stay live, the torn ones torn, the new ones are live.
    /// Multipliers are 0 and the tear log is clear (call it between steps).
    /// Allocates the new set whole; out of memory, `self` is untouched.
    pub fn try_extended(
        &self,
        ids: &[u32],
        first: u32,
        rest_lengths: &[f32],
    ) -> Result<ConstraintSet, std::collections::TryReserveError> {
        use crate::memory;
        let old = self.built_with();
        let count = old + rest_lengths.len();
        let mut all_ids = memory::filled(2 * count, 0u32)?;
        let mut all_rest = memory::filled(count, 0.0f32)?;
        let mut all_colors = memory::filled(count, 0u8)?;
        let mut is_live = memory::filled(count, true)?;
        for (c, &created) in self.creation.iter().enumerate() {
            let k = created as usize;
            all_ids[2 * k] = self.ids[2 * c];
            all_ids[2 * k + 1] = self.ids[2 * c + 1];
            all_rest[k] = self.rest_lengths[c];
            all_colors[k] = self.colors[c];
            is_live[k] = c < self.live;
        }
        for (slot, &k) in all_ids[2 * old..].iter_mut().zip(ids) {
            *slot = k + first;
        }
        all_rest[old..].copy_from_slice(rest_lengths);
        for (c, color) in all_colors[old..].iter_mut().enumerate() {
            *color = (c % 2) as u8;
        }
        let live_count = self.live + rest_lengths.len();
        let live_ids = (0..count as u32).filter(|&k| is_live[k as usize]);
        let live = memory::collect(live_count, live_ids)?;
        let mut set = ConstraintSet::try_new(all_ids, all_rest, all_colors, SolverOrder::Original)?;
        set.arrange_live(&live);
        set.set_order(self.order);
        Ok(set)
    }
}
