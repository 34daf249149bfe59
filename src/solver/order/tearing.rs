//! Tearing a [`ConstraintSet`] in place, and undoing it: torn constraints move
//! behind the live ones, and the tear log says where each one sat.

use super::ConstraintSet;
use crate::solver::columns::TEAR_START;

impl ConstraintSet {
    /// Forgets the positions of earlier tears: [`ConstraintSet::restore_logged`]
    /// brings back only what tears after this call.
    pub fn clear_tear_log(&mut self) {
        self.logged = 0;
    }

    /// Tears every live constraint `(a, b, rest_length)` for which `is_torn` is
    /// true: it moves behind the live ones, in place, and the order of the rest
    /// is kept. Logs where each one was. Returns how many tore. Out of line,
    /// like the loops of `src/solver/integrate.rs` (see there).
    #[inline(never)]
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
}
