//! The hashed search: when a dense grid of cells over the particles' box
//! would be larger than the table (particles spread far apart), the cells
//! are hashed into its buckets instead, and each particle probes the buckets
//! of its 9 cells.

use super::{PairRules, PairSearch, MARGIN, MAX_CANDIDATES};

/// Most cells the hashed search's grid spans along either axis: a cell
/// coordinate always fits a `u32` (none saturates, so no two cells far apart
/// become one), at the cost of cells larger than `s` for a box wider than
/// `2^30 · s`.
const MAX_CELLS_ACROSS: f64 = (1u64 << 30) as f64;

/// The bucket of cell `(ix, iy)` in a table of `2^bits` buckets: Fibonacci
/// hashing of the cell's 64-bit key, whose top bits mix every bit of both
/// coordinates, so a lattice of cells spaced by a power of two (the table's
/// size, say) spreads over the table instead of sharing one bucket.
fn hash(ix: u32, iy: u32, bits: u32) -> u32 {
    let key = (u64::from(iy) << 32) | u64::from(ix);
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as u32
}

impl PairSearch {
    /// [`PairSearch::search`] with the cells hashed into the table, the
    /// particles' positions copied into `sorted_x` and `sorted_y` in their
    /// order; the particles' box starts at `(min_x, min_y)` and is `span`
    /// wide along its longer side.
    pub(super) fn search_hashed(
        &mut self,
        rules: PairRules,
        radius: f32,
        (min_x, min_y, span): (f32, f32, f64),
    ) {
        let n = self.sorted.len();
        let s = 2.0 * radius * (1.0 + MARGIN);
        let table = self.cell_start.len() - 1;
        let bits = table.trailing_zeros();
        // cells of side s, or larger when the box spans more than 2^30 of them
        let side = (s as f64).max(span / MAX_CELLS_ACROSS) * 1.01;
        let cells = HashedCells {
            min_x,
            min_y,
            inverse_side: 1.0 / side,
            bits,
        };
        self.cell_start.fill(0);
        for k in 0..n {
            let (ix, iy) = cells.cell((self.sorted_x[k], self.sorted_y[k]));
            let c = hash(ix, iy, bits);
            self.cell_of[k] = c;
            self.cell_start[c as usize + 1] += 1;
        }
        for c in 0..table {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        // fill each cell from its end backwards: cell_start[c] ends as its start
        for k in (0..n).rev() {
            let c = self.cell_of[k] as usize + 1;
            self.cell_start[c] -= 1;
            self.sorted[self.cell_start[c] as usize] = k as u32;
        }
        // cell_start[c + 1] is now the start of cell c; shift back down
        self.cell_start.copy_within(1..=table, 0);
        self.cell_start[table] = n as u32;
        self.pairs_in_buckets(rules, radius, cells);
    }

    /// The candidate pairs of the particles sorted into hashed `cells`: each
    /// particle probes the buckets of its 9 cells (each bucket once) and
    /// meets the particles of higher index there, at most
    /// [`MAX_CANDIDATES`] of them.
    fn pairs_in_buckets(&mut self, rules: PairRules, radius: f32, cells: HashedCells) {
        let n = self.sorted.len();
        let capacity = self.room;
        let s = 2.0 * radius * (1.0 + MARGIN);
        let reach2 = s * s;
        let diameter = 2.0 * radius;
        for a in 0..n {
            let (x, y) = (self.sorted_x[a], self.sorted_y[a]);
            let (ix, iy) = cells.cell((x, y));
            let mut seen = [u32::MAX; 9];
            let mut buckets = 0;
            let mut budget = MAX_CANDIDATES;
            for (dx, dy) in NEIGHBOURHOOD {
                // a cell outside the box holds no particle
                let (Some(cx), Some(cy)) = (ix.checked_add_signed(dx), iy.checked_add_signed(dy))
                else {
                    continue;
                };
                let c = hash(cx, cy, cells.bits);
                // two neighbouring cells may hash alike: visit each bucket once
                if seen[..buckets].contains(&c) {
                    continue;
                }
                seen[buckets] = c;
                buckets += 1;
                let c = c as usize;
                let (start, end) = (self.cell_start[c] as usize, self.cell_start[c + 1] as usize);
                let end = end.min(start + budget);
                budget -= end - start;
                self.compared += end - start;
                for &b in &self.sorted[start..end] {
                    if b as usize <= a {
                        continue;
                    }
                    let (bx, by) = (self.sorted_x[b as usize], self.sorted_y[b as usize]);
                    let d2 = (bx - x) * (bx - x) + (by - y) * (by - y);
                    if d2 >= reach2 {
                        continue;
                    }
                    if self.pairs.len() == capacity {
                        return;
                    }
                    if let Some(minimum) = rules.minimum(n, a, b as usize, diameter) {
                        self.pairs.push((a as u32, b, minimum, 0.0));
                    }
                }
                if budget == 0 {
                    break;
                }
            }
        }
    }
}

/// The 9 cells around a cell, itself included, as offsets.
const NEIGHBOURHOOD: [(i32, i32); 9] = [
    (0, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The cells of the hashed search: squares of side `1 / inverse_side` from
/// the corner `(min_x, min_y)` of the particles' box, hashed into a table of
/// `2^bits` buckets.
#[derive(Debug, Clone, Copy)]
struct HashedCells {
    min_x: f32,
    min_y: f32,
    inverse_side: f64,
    bits: u32,
}

impl HashedCells {
    /// The cell of the point `(x, y)` of the box: whole coordinates below
    /// 2^30 (computed in `f64`, so they never saturate).
    #[inline(always)]
    fn cell(&self, (x, y): (f32, f32)) -> (u32, u32) {
        let ix = (f64::from(x) - f64::from(self.min_x)) * self.inverse_side;
        let iy = (f64::from(y) - f64::from(self.min_y)) * self.inverse_side;
        // non-negative, so truncation is floor; a NaN becomes cell 0
        (ix as u32, iy as u32)
    }
}
