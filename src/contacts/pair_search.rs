//! The candidate pairs of self-collision: every pair of particles closer than
//! `s = 2r · (1 + MARGIN)`, found with a spatial grid in time linear in `n`.
//!
//! Every particle is sorted into square cells of side `s` (a counting sort);
//! each particle's 3 × 3 neighbourhood of cells then yields the candidate
//! pairs closer than `s`.
//!
//! The cells: while the particles' bounding box holds at most
//! `2 · next_power_of_two(n)` of them, a dense grid over the box, so that the
//! three cells of a neighbourhood row are one run of the sorted particles and
//! each pair is met once (a particle looks at the rest of its own cell, the
//! next cell of its row and the three cells of the row above); the particles'
//! positions are copied in cell order so the search reads memory in order.
//! When the box is larger (a cloth torn into pieces far apart) the grid's
//! side grows up to twice `s`; beyond that the cells are hashed into the same
//! table (each particle probes its 9 cells: `pair_search/hashed.rs`). The
//! cells' coordinates are whole numbers counted from the box's corner in
//! `f64`, below 2^30 (the cells grow for a box wider than 2^30 · s), so none
//! saturates however far from the origin the particles are and however small
//! the radius; the table's bucket is the Fibonacci hash of both coordinates,
//! so a lattice of cells does not pile into one bucket.
//!
//! The cost is bounded whatever the positions: each particle is compared
//! with at most [`MAX_CANDIDATES`] others per search (a cloth crumpled into a
//! few cells, or cells made to share a bucket, lose the pairs beyond), and
//! the work model counts that bound (`SELF_COLLISION_SEARCH`) and the room
//! for pairs (`SELF_COLLISION_PASS`, both in `src/contacts/mod.rs`).
//!
//! The minimum distance of a pair is `min(2r, rest distance)`, the rest
//! distance being their distance in the scene's start positions, so
//! neighbours that start closer than `2r` are not forced apart (particles
//! added later have no rest distance). In a simulation with bodies, two
//! particles of one body are no pair (its shape holds them), and two
//! particles of no body are one only with self-collision on ([`PairRules`]).
//!
//! Memory: a table of `2 · next_power_of_two(n)` cells, the sorted particles
//! and their positions, and at most [`PAIRS_PER_PARTICLE`]` · n` candidate
//! pairs with the depths they were pushed apart by, reserved when self-collision is switched on
//! or the simulation has bodies; pairs beyond that are
//! dropped (a packing of equal discs has 3 neighbours within `s` per
//! particle).

use std::collections::TryReserveError;

use crate::memory;
use crate::solver::Points;

mod hashed;
#[cfg(test)]
mod tests;

/// Candidate radius beyond `2r`, as a fraction of `2r`.
pub const MARGIN: f32 = 0.5;

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

/// How much larger than `s` the dense grid's cells may grow to cover the
/// particles' bounding box before the search hashes cells instead.
const MAX_COARSENING: f32 = 2.0;

/// The spatial grid and the candidate pairs of the last search.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairSearch {
    /// Start of each cell's particles in `sorted`, and the end (`table + 1`).
    cell_start: Vec<u32>,
    /// Particle indices sorted by cell.
    sorted: Vec<u32>,
    /// Their positions, in the same order (in the order of the particles in
    /// a hashed search).
    sorted_x: Vec<f32>,
    sorted_y: Vec<f32>,
    /// Cell of each particle.
    cell_of: Vec<u32>,
    /// Candidate pairs `(a, b, minimum distance, push)`, the push being the
    /// depths the pair was pushed apart by in the current substep, summed
    /// (for friction and the contact velocity pass, [`super::velocity`]).
    pairs: Vec<(u32, u32, f32, f32)>,
    /// How many particles the last search compared, all particles together:
    /// at most [`MAX_CANDIDATES`] per particle.
    compared: usize,
    /// Room for pairs: [`PAIRS_PER_PARTICLE`] per particle.
    room: usize,
}

/// Which pairs a search keeps, and how close each may come: its particles'
/// rest positions (the exemption of neighbours that start close) and, in a
/// simulation with bodies, the body of each particle.
#[derive(Debug, Clone, Copy)]
pub struct PairRules<'a> {
    /// The start positions, interleaved (shorter than the particles: no
    /// exemption; NaN for a particle added later: none for it).
    pub rest: &'a [f32],
    /// Each particle's body, counted from 1 (0: in none); empty without
    /// bodies. Two particles of one body are never a pair.
    pub groups: &'a [u32],
    /// Whether two particles in no body are a pair (self-collision is on).
    pub cloth_pairs: bool,
}

impl PairRules<'_> {
    /// Every pair, exempting only those that start close at `rest`.
    pub fn rest(rest: &[f32]) -> PairRules<'_> {
        PairRules {
            rest,
            groups: &[],
            cloth_pairs: true,
        }
    }

    /// The minimum distance of particles `a` and `b` (of `n`): `diameter`,
    /// or their rest distance when smaller; `None` when they are no pair.
    #[inline(always)]
    fn minimum(&self, n: usize, a: usize, b: usize, diameter: f32) -> Option<f32> {
        if !self.groups.is_empty() {
            let (ga, gb) = (self.groups[a], self.groups[b]);
            if ga == gb && (ga != 0 || !self.cloth_pairs) {
                return None;
            }
        }
        let rest = self.rest;
        if rest.len() >= 2 * n {
            // one bounds check for each particle's two coordinates
            let (ra, rb) = (&rest[2 * a..2 * a + 2], &rest[2 * b..2 * b + 2]);
            let (rx, ry) = (rb[0] - ra[0], rb[1] - ra[1]);
            // f32::min takes the number when the rest distance is NaN
            Some(diameter.min((rx * rx + ry * ry).sqrt()))
        } else {
            Some(diameter)
        }
    }
}

impl PairSearch {
    /// Every buffer for `n` particles, reserved fallibly.
    pub fn try_new(n: usize) -> Result<PairSearch, TryReserveError> {
        let table = 2 * n.max(1).next_power_of_two();
        Ok(PairSearch {
            cell_start: memory::filled(table + 1, 0u32)?,
            sorted: memory::filled(n, 0u32)?,
            sorted_x: memory::filled(n, 0f32)?,
            sorted_y: memory::filled(n, 0f32)?,
            cell_of: memory::filled(n, 0u32)?,
            pairs: memory::with_capacity(PAIRS_PER_PARTICLE * n)?,
            compared: 0,
            room: PAIRS_PER_PARTICLE * n,
        })
    }

    /// Reserves room for `n` particles (nothing changes but capacity), which
    /// [`PairSearch::resize`] takes.
    pub fn reserve_particles(&mut self, n: usize) -> Result<(), TryReserveError> {
        let table = 2 * n.max(1).next_power_of_two();
        memory::reserve_len(&mut self.cell_start, table + 1)?;
        memory::reserve_len(&mut self.sorted, n)?;
        memory::reserve_len(&mut self.sorted_x, n)?;
        memory::reserve_len(&mut self.sorted_y, n)?;
        memory::reserve_len(&mut self.cell_of, n)?;
        memory::reserve_len(&mut self.pairs, PAIRS_PER_PARTICLE * n)
    }

    /// Sized for `n` particles, in the room [`PairSearch::reserve_particles`]
    /// reserved (or fewer); no pairs until the next search.
    pub fn resize(&mut self, n: usize) {
        let table = 2 * n.max(1).next_power_of_two();
        self.cell_start.resize(table + 1, 0);
        self.sorted.resize(n, 0);
        self.sorted_x.resize(n, 0.0);
        self.sorted_y.resize(n, 0.0);
        self.cell_of.resize(n, 0);
        self.pairs.clear();
        self.compared = 0;
        self.room = PAIRS_PER_PARTICLE * n;
    }

    /// Whether it has room for `n` particles.
    pub fn has_room(&self, n: usize) -> bool {
        self.sorted.capacity() >= n && self.is_reserved()
    }

    /// Whether the buffers are reserved.
    pub fn is_reserved(&self) -> bool {
        !self.cell_start.is_empty()
    }

    /// How many particles it sorts.
    pub fn particles(&self) -> usize {
        self.sorted.len()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes;
        capacity_bytes(&self.cell_start)
            + capacity_bytes(&self.sorted)
            + capacity_bytes(&self.sorted_x)
            + capacity_bytes(&self.sorted_y)
            + capacity_bytes(&self.cell_of)
            + capacity_bytes(&self.pairs)
    }

    /// The candidate pairs of the last search, `(a, b, minimum distance,
    /// push)`.
    pub fn pairs(&self) -> &[(u32, u32, f32, f32)] {
        &self.pairs
    }

    /// The candidate pairs, to push them apart.
    pub fn pairs_mut(&mut self) -> &mut [(u32, u32, f32, f32)] {
        &mut self.pairs
    }

    /// How many comparisons of two particles the last search made (its
    /// cost, at most [`MAX_CANDIDATES`] per particle).
    pub fn compared(&self) -> usize {
        self.compared
    }

    /// Room for candidate pairs.
    pub fn pairs_capacity(&self) -> usize {
        self.room
    }

    /// Finds the candidate pairs from the current positions, as `rules`
    /// say.
    pub fn search<P: Points + ?Sized>(&mut self, points: &P, rules: PairRules, radius: f32) {
        self.pairs.clear();
        self.compared = 0;
        let n = self.sorted.len();
        if n == 0 {
            return;
        }
        let (mut min_x, mut min_y) = (f32::INFINITY, f32::INFINITY);
        let (mut max_x, mut max_y) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
        for k in 0..n {
            // comparisons rather than f32::min/max: one instruction each in
            // wasm (a NaN fails both and is left out either way)
            let (x, y) = points.point(k);
            if x < min_x {
                min_x = x;
            }
            if x > max_x {
                max_x = x;
            }
            if y < min_y {
                min_y = y;
            }
            if y > max_y {
                max_y = y;
            }
        }
        match self.grid((min_x, min_y, max_x, max_y), radius) {
            Ok(grid) => self.search_dense(points, rules, radius, grid),
            Err(span) => {
                // the hashed search reads the positions from a copy in index
                // order, so that it is compiled once for every layout
                for k in 0..n {
                    let (x, y) = points.point(k);
                    self.sorted_x[k] = x;
                    self.sorted_y[k] = y;
                }
                self.search_hashed(rules, radius, (min_x, min_y, span));
            }
        }
    }

    /// The dense grid of the search over the particles' box `(min_x, min_y,
    /// max_x, max_y)` when the table holds its cells, or the span of the box
    /// (along its longer side) for a hashed search. Out of line: one copy
    /// for every layout's search.
    #[inline(never)]
    fn grid(
        &self,
        (min_x, min_y, max_x, max_y): (f32, f32, f32, f32),
        radius: f32,
    ) -> Result<Grid, f64> {
        let s = 2.0 * radius * (1.0 + MARGIN);
        let table = self.cell_start.len() - 1;
        // cells of side s over the box, in f64 so no size overflows
        let cells = |side: f64| {
            let across = ((max_x - min_x) as f64 / side).floor() + 1.0;
            let down = ((max_y - min_y) as f64 / side).floor() + 1.0;
            (across, down)
        };
        let (across, down) = cells(s as f64);
        let coarsening = ((across * down / table as f64).sqrt() as f32).max(1.0);
        if coarsening <= MAX_COARSENING {
            // a little larger than needed, so rounding cannot overflow the table
            let side = s * coarsening * 1.01;
            let (across, down) = cells(side as f64);
            if across * down <= table as f64 {
                return Ok(Grid {
                    min_x,
                    min_y,
                    inverse_side: 1.0 / side,
                    across: across as usize,
                    down: down as usize,
                });
            }
        }
        Err(f64::from(max_x - min_x).max(f64::from(max_y - min_y)))
    }

    /// [`PairSearch::search`] on a dense grid over the particles' box.
    fn search_dense<P: Points + ?Sized>(
        &mut self,
        points: &P,
        rules: PairRules,
        radius: f32,
        grid: Grid,
    ) {
        self.sort_into_cells(points, grid);
        self.pairs_in_cells(rules, radius, grid);
    }

    /// Sorts the particles into the cells of the dense `grid` (a counting
    /// sort that keeps each cell's particles in index order) and copies their
    /// positions in that order.
    fn sort_into_cells<P: Points + ?Sized>(&mut self, points: &P, grid: Grid) {
        let n = self.sorted.len();
        let Grid {
            min_x,
            min_y,
            inverse_side,
            across,
            down,
        } = grid;
        let cells = across * down;
        let cell_start = &mut self.cell_start[..cells + 1];
        cell_start.fill(0);
        for (k, cell) in self.cell_of[..n].iter_mut().enumerate() {
            let (x, y) = points.point(k);
            // non-negative, so truncation is floor (through u32: one
            // instruction in wasm, fewer than to a 64-bit usize natively);
            // clamped against rounding
            let ix = (((x - min_x) * inverse_side) as u32 as usize).min(across - 1);
            let iy = (((y - min_y) * inverse_side) as u32 as usize).min(down - 1);
            let c = iy * across + ix;
            *cell = c as u32;
            cell_start[c] += 1;
        }
        cell_ends(cell_start, n);
        // fill each cell from its end backwards, the particles in reverse
        // order (so each cell's stay in index order): cell_start[c] ends as
        // the start of cell c
        for (k, &c) in self.cell_of[..n].iter().enumerate().rev() {
            let c = c as usize;
            cell_start[c] -= 1;
            let slot = cell_start[c] as usize;
            self.sorted[slot] = k as u32;
            let (x, y) = points.point(k);
            self.sorted_x[slot] = x;
            self.sorted_y[slot] = y;
        }
    }

    /// The candidate pairs of the particles sorted into the dense `grid`:
    /// each particle meets the rest of its cell, the next cell of its row and
    /// the three cells of the row above, so each pair is met once.
    fn pairs_in_cells(&mut self, rules: PairRules, radius: f32, grid: Grid) {
        let n = self.sorted.len();
        let Grid { across, down, .. } = grid;
        let cell_start = &self.cell_start[..across * down + 1];
        let capacity = self.room;
        let s = 2.0 * radius * (1.0 + MARGIN);
        let reach2 = s * s;
        let diameter = 2.0 * radius;
        let (sorted, xs, ys) = (&self.sorted, &self.sorted_x, &self.sorted_y);
        let cell_of = &self.cell_of;
        for iy in 0..down {
            // the sorted particles of this row of cells, each with its cell
            let row = iy * across;
            let (first, last) = (cell_start[row] as usize, cell_start[row + across] as usize);
            for i in first..last {
                let a = sorted[i] as usize;
                let c = cell_of[a] as usize;
                let ix = c - row;
                // the rest of this cell and the next one in the row
                let row_end = cell_start[if ix + 1 < across { c + 2 } else { c + 1 }] as usize;
                // the three cells of the row above
                let above = if iy + 1 < down {
                    let first = c + across - usize::from(ix > 0);
                    let last = c + across + usize::from(ix + 1 < across);
                    cell_start[first] as usize..cell_start[last + 1] as usize
                } else {
                    0..0
                };
                let (x, y) = (xs[i], ys[i]);
                let mut budget = MAX_CANDIDATES;
                for range in [i + 1..row_end, above] {
                    let range = range.start..range.end.min(range.start + budget);
                    budget -= range.len();
                    self.compared += range.len();
                    for j in range {
                        let (dx, dy) = (xs[j] - x, ys[j] - y);
                        if dx * dx + dy * dy >= reach2 {
                            continue;
                        }
                        let b = sorted[j] as usize;
                        if self.pairs.len() == capacity {
                            return;
                        }
                        if let Some(minimum) = rules.minimum(n, a, b, diameter) {
                            self.pairs.push((a as u32, b as u32, minimum, 0.0));
                        }
                    }
                }
            }
        }
    }
}

/// Each cell's count of the `n` particles in `cell_start` (cells, and one
/// more for the end) becomes the end of the cell. Out of line: one copy for
/// every layout's search.
#[inline(never)]
fn cell_ends(cell_start: &mut [u32], n: usize) {
    let cells = cell_start.len() - 1;
    for c in 1..cells {
        cell_start[c] += cell_start[c - 1];
    }
    cell_start[cells] = n as u32;
}

/// A dense grid of square cells over the particles' bounding box.
#[derive(Debug, Clone, Copy)]
struct Grid {
    min_x: f32,
    min_y: f32,
    inverse_side: f32,
    across: usize,
    down: usize,
}
