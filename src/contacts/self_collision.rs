//! Self-collision: particles of radius `r` keep `2r` apart.
//!
//! Once per substep, at its first pass (after prediction and one sweep of the
//! distance constraints), the candidate pairs are searched ([`PairSearch`]).
//! Every later pass of the substep (after each sweep, and once more before
//! the velocity update) checks only these pairs: a pair closer than its
//! minimum distance is pushed apart along the line between them, each
//! particle in proportion to its inverse mass, with positional friction on
//! their relative tangential motion (up to `μ·depth` cancelled). The search's
//! margin covers how far particles move after it within one substep (at
//! most half a radius each from the speed limit, plus the constraints'
//! corrections); pairs that approach faster are caught at the next substep.
//!
//! The minimum distance of a pair is `min(2r, rest distance)`, the rest
//! distance being their distance in the scene's start positions, so
//! neighbours that start closer than `2r` are not forced apart.

use std::collections::TryReserveError;

use super::pair_search::PairSearch;
use crate::solver::Points;

/// The candidate pairs of the current substep and whether they must be
/// searched again.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfCollision {
    search: PairSearch,
    /// The pairs must be searched again before they are used.
    stale: bool,
}

impl SelfCollision {
    /// Reserves every buffer for `n` particles (fallibly); nothing changes on
    /// failure.
    pub fn try_reserve(&mut self, n: usize) -> Result<(), TryReserveError> {
        if !self.search.has_room(n) {
            self.search = PairSearch::try_new(n)?;
            self.stale = true;
        }
        Ok(())
    }

    /// Whether the buffers are reserved.
    pub fn is_reserved(&self) -> bool {
        self.search.is_reserved()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        self.search.heap_bytes()
    }

    /// A new substep begins: the pairs are searched again at its first pass.
    pub fn begin_substep(&mut self) {
        self.stale = true;
    }

    /// The candidate pairs of the last search, `(a, b, minimum distance)`.
    pub fn pairs(&self) -> &[(u32, u32, f32)] {
        self.search.pairs()
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
        if !self.is_reserved() || self.search.particles() != inverse_mass.len() {
            return;
        }
        if self.stale {
            self.search.search(points, rest, radius);
            self.stale = false;
        }
        for &(a, b, minimum) in self.search.pairs() {
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
