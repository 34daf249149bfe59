//! Self-collision: particles of radius `r` keep `2r` apart, found with a
//! spatial hash.
//!
//! Once per substep, at its first pass (after prediction and one sweep of the
//! distance constraints), every particle is hashed into square cells of side
//! `s = 2r · (1 + MARGIN)`; each particle's 3 × 3 neighbourhood of cells then
//! yields the candidate pairs closer than `s`. Every later pass of the substep
//! (after each sweep, and once more before the velocity update) checks only
//! these pairs: a pair closer than its minimum distance is pushed apart along
//! the line between them, each particle in proportion to its inverse mass,
//! with positional friction on their relative tangential motion (up to
//! `μ·depth` cancelled). The margin covers how far particles move after the
//! search within one substep (at most half a radius each from the speed
//! limit, plus the constraints' corrections); pairs that approach faster are
//! caught at the next substep.
//!
//! The minimum distance of a pair is `min(2r, rest distance)`, the rest
//! distance being their distance in the scene's start positions, so
//! neighbours that start closer than `2r` are not forced apart.
//!
//! Memory: a table of `next_power_of_two(n)` cells, the sorted particles and at
//! most [`PAIRS_PER_PARTICLE`]` · n` candidate pairs, reserved when
//! self-collision is switched on; pairs beyond that are dropped (a packing of
//! equal discs has 3 neighbours within `s` per particle).

use crate::solver::Points;

/// Candidate radius beyond `2r`, as a fraction of `2r`.
pub const MARGIN: f32 = 0.5;

/// Room for candidate pairs per particle.
pub const PAIRS_PER_PARTICLE: usize = 8;

/// The spatial hash and the candidate pairs of the current substep.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfCollision {
    /// Start of each cell's particles in `sorted`, and the end (`table + 1`).
    cell_start: Vec<u32>,
    /// Particle indices sorted by cell.
    sorted: Vec<u32>,
    /// Cell of each particle.
    cell_of: Vec<u32>,
    /// Candidate pairs `(a, b, minimum distance)`.
    pairs: Vec<(u32, u32, f32)>,
    /// The pairs must be searched again before they are used.
    stale: bool,
}

fn cell(x: f32, s: f32) -> i32 {
    (x / s).floor() as i32
}

fn hash(ix: i32, iy: i32, mask: u32) -> u32 {
    ((ix as u32).wrapping_mul(92_837_111) ^ (iy as u32).wrapping_mul(689_287_499)) & mask
}

impl SelfCollision {
    /// Reserves every buffer for `n` particles (fallibly); nothing changes on
    /// failure.
    pub fn try_reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        if self.sorted.capacity() >= n && !self.cell_start.is_empty() {
            return Ok(());
        }
        let table = n.max(1).next_power_of_two();
        let cell_start = crate::memory::filled(table + 1, 0u32)?;
        let sorted = crate::memory::filled(n, 0u32)?;
        let cell_of = crate::memory::filled(n, 0u32)?;
        let pairs = crate::memory::with_capacity(PAIRS_PER_PARTICLE * n)?;
        *self = SelfCollision {
            cell_start,
            sorted,
            cell_of,
            pairs,
            stale: true,
        };
        Ok(())
    }

    /// Whether the buffers are reserved.
    pub fn is_reserved(&self) -> bool {
        !self.cell_start.is_empty()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        use crate::memory::capacity_bytes;
        capacity_bytes(&self.cell_start)
            + capacity_bytes(&self.sorted)
            + capacity_bytes(&self.cell_of)
            + capacity_bytes(&self.pairs)
    }

    /// A new substep begins: the pairs are searched again at its first pass.
    pub fn begin_substep(&mut self) {
        self.stale = true;
    }

    /// Finds the candidate pairs from the current positions; `rest` are the
    /// start positions (interleaved; empty: no rest exemption).
    fn search<P: Points + ?Sized>(&mut self, points: &P, rest: &[f32], radius: f32) {
        self.stale = false;
        self.pairs.clear();
        let n = self.sorted.len();
        let s = 2.0 * radius * (1.0 + MARGIN);
        let table = self.cell_start.len() - 1;
        let mask = (table - 1) as u32;
        self.cell_start.fill(0);
        for k in 0..n {
            let (x, y) = points.point(k);
            let c = hash(cell(x, s), cell(y, s), mask);
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
        for c in 0..table {
            self.cell_start[c] = self.cell_start[c + 1];
        }
        self.cell_start[table] = n as u32;
        let capacity = self.pairs.capacity();
        let reach2 = s * s;
        let diameter = 2.0 * radius;
        'particles: for a in 0..n {
            let (x, y) = points.point(a);
            let (ix, iy) = (cell(x, s), cell(y, s));
            let mut seen = [u32::MAX; 9];
            let mut buckets = 0;
            for c in (-1..=1).flat_map(|dx| {
                [-1, 0, 1].map(|dy| hash(ix.wrapping_add(dx), iy.wrapping_add(dy), mask))
            }) {
                // two neighbouring cells may hash alike: visit each bucket once
                if seen[..buckets].contains(&c) {
                    continue;
                }
                seen[buckets] = c;
                buckets += 1;
                let c = c as usize;
                let (start, end) = (self.cell_start[c] as usize, self.cell_start[c + 1] as usize);
                for &b in &self.sorted[start..end] {
                    if b as usize <= a {
                        continue;
                    }
                    let (bx, by) = points.point(b as usize);
                    let d2 = (bx - x) * (bx - x) + (by - y) * (by - y);
                    if d2 >= reach2 {
                        continue;
                    }
                    let minimum = if rest.len() >= 2 * n {
                        let b = b as usize;
                        let (rx, ry) =
                            (rest[2 * b] - rest[2 * a], rest[2 * b + 1] - rest[2 * a + 1]);
                        diameter.min((rx * rx + ry * ry).sqrt())
                    } else {
                        diameter
                    };
                    if self.pairs.len() == capacity {
                        break 'particles;
                    }
                    self.pairs.push((a as u32, b, minimum));
                }
            }
        }
    }

    /// One pass over the candidate pairs (searching them first if a substep
    /// began since): pushes apart the pairs closer than their minimum
    /// distance, with friction `friction` on their relative tangential motion
    /// since `previous`.
    #[allow(clippy::too_many_arguments)]
    pub fn solve<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        rest: &[f32],
        radius: f32,
        friction: f32,
    ) {
        if !self.is_reserved() || self.sorted.len() != inverse_mass.len() {
            return;
        }
        if self.stale {
            self.search(points, rest, radius);
        }
        for &(a, b, minimum) in &self.pairs {
            let (a, b) = (a as usize, b as usize);
            let (wa, wb) = (inverse_mass[a], inverse_mass[b]);
            let w = wa + wb;
            if w == 0.0 {
                continue;
            }
            let (pa, pb) = (points.point(a), points.point(b));
            let (dx, dy) = (pa.0 - pb.0, pa.1 - pb.1);
            let d2 = dx * dx + dy * dy;
            if d2 >= minimum * minimum {
                continue;
            }
            let dist = d2.sqrt();
            let (nx, ny) = if dist > 1e-9 {
                (dx / dist, dy / dist)
            } else {
                (0.0, 1.0)
            };
            let depth = minimum - dist;
            let (ca, cb) = (wa / w * depth, wb / w * depth);
            let mut pa = (pa.0 + nx * ca, pa.1 + ny * ca);
            let mut pb = (pb.0 - nx * cb, pb.1 - ny * cb);
            // friction: relative tangential motion over the substep
            let rx = (pa.0 - previous[2 * a]) - (pb.0 - previous[2 * b]);
            let ry = (pa.1 - previous[2 * a + 1]) - (pb.1 - previous[2 * b + 1]);
            let along = rx * nx + ry * ny;
            let (tx, ty) = (rx - along * nx, ry - along * ny);
            let slide = (tx * tx + ty * ty).sqrt();
            if slide > 0.0 {
                let cut = (friction * depth / slide).min(1.0);
                let (fa, fb) = (wa / w * cut, wb / w * cut);
                pa = (pa.0 - tx * fa, pa.1 - ty * fa);
                pb = (pb.0 + tx * fb, pb.1 + ty * fb);
            }
            points.set_point(a, pa);
            points.set_point(b, pb);
        }
    }
}
