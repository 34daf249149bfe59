//! Self-collision: particles of radius `r` keep `2r` apart.
//!
//! Once per substep, at its first pass (after prediction and one sweep of the
//! distance constraints), the candidate pairs are searched ([`PairSearch`]).
//! Every later pass of the substep (after each sweep, and once more before
//! the velocity update) checks only these pairs, every other pass in the
//! opposite order (symmetric Gauss–Seidel, so the order leaves no drift): a pair closer than its
//! minimum distance is pushed apart along the line between them, each
//! particle in proportion to its inverse mass, with positional friction on
//! their relative tangential motion over the substep (up to `μ` times the
//! depths the pair was pushed apart by in the substep so far cancelled, as
//! for colliders). A pair that was already too close when the substep began
//! comes apart no faster than [`super::velocity::push_depth`] allows. The
//! pairs pushed apart are listed for the contact velocity pass
//! ([`super::velocity`]), which visits only those. The search's
//! margin covers how far particles move after it within one substep (at
//! most half a radius each from the speed limit, plus the constraints'
//! corrections); pairs that approach faster are caught at the next substep.
//!
//! The minimum distance of a pair is `min(2r, rest distance)`, the rest
//! distance being their distance in the scene's start positions, so
//! neighbours that start closer than `2r` are not forced apart.

use std::collections::TryReserveError;

use super::pair_search::{PairRules, PairSearch};
use super::rigid::Movable;
use super::velocity::{append, push_depth};
use crate::memory;

/// The candidate pairs of the current substep and whether they must be
/// searched again.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfCollision {
    search: PairSearch,
    /// The indices of the pairs pushed apart in the current substep, each
    /// once, in the order of their first push.
    pushed: Vec<u32>,
    /// The pairs must be searched again before they are used.
    stale: bool,
    /// Passes over the pairs in the current substep (plus one in an odd
    /// substep): the odd ones go backwards.
    passes: u32,
}

impl SelfCollision {
    /// Reserves every buffer for `n` particles (fallibly); nothing changes on
    /// failure.
    pub fn try_reserve(&mut self, n: usize) -> Result<(), TryReserveError> {
        if !self.search.has_room(n) {
            *self = SelfCollision::try_new(n)?;
        }
        Ok(())
    }

    /// Every buffer for `n` particles, reserved fallibly.
    pub fn try_new(n: usize) -> Result<SelfCollision, TryReserveError> {
        let search = PairSearch::try_new(n)?;
        Ok(SelfCollision {
            pushed: memory::with_capacity(search.pairs_capacity())?,
            search,
            stale: true,
            passes: 0,
        })
    }

    /// Reserves room for `n` particles (nothing changes but capacity), which
    /// [`SelfCollision::resize`] takes.
    pub fn reserve_particles(&mut self, n: usize) -> Result<(), TryReserveError> {
        self.search.reserve_particles(n)?;
        memory::reserve_len(&mut self.pushed, super::pair_search::PAIRS_PER_PARTICLE * n)
    }

    /// Sized for `n` particles, in the room reserved for them (or fewer).
    pub fn resize(&mut self, n: usize) {
        self.search.resize(n);
        self.pushed.clear();
        self.stale = true;
    }

    /// Whether the buffers are reserved.
    pub fn is_reserved(&self) -> bool {
        self.search.is_reserved()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        self.search.heap_bytes() + memory::capacity_bytes(&self.pushed)
    }

    /// A new substep begins: the pairs are searched again at its first pass.
    /// `odd`: the substep's number is odd, and its first pass goes backwards
    /// (so the last pass, which has the final word, alternates too).
    pub fn begin_substep(&mut self, odd: bool) {
        self.stale = true;
        self.pushed.clear();
        self.passes = u32::from(odd);
    }

    /// The candidate pairs of the last search, `(a, b, minimum distance,
    /// push)`.
    pub fn pairs(&self) -> &[(u32, u32, f32, f32)] {
        self.search.pairs()
    }

    /// The pairs pushed apart in this substep, `(a, b)`, with the depths each
    /// was pushed apart by, summed.
    pub fn pushed_pairs(&self) -> impl Iterator<Item = ((u32, u32), f32)> + Clone + '_ {
        let pairs = self.search.pairs();
        self.pushed.iter().map(move |&i| {
            let (a, b, _, push) = pairs[i as usize];
            ((a, b), push)
        })
    }

    /// One pass over the candidate pairs (searching them first, as `rules`
    /// say, if a substep began since): pushes apart the pairs closer than their minimum
    /// distance, with friction `friction` on their relative tangential motion
    /// since `previous`; a pair that was already too close when the substep
    /// (of `h` seconds) began comes apart no faster than [`push_depth`]
    /// allows.
    #[allow(clippy::too_many_arguments)]
    pub fn solve<P: Movable + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        rules: PairRules,
        radius: f32,
        friction: f32,
        h: f32,
    ) {
        if !self.is_reserved() || self.search.particles() != inverse_mass.len() {
            return;
        }
        if self.stale {
            self.search.search(points, rules, radius);
            self.pushed.clear();
            self.stale = false;
        }
        // every other pass backwards, so that the order of the pairs leaves
        // no bias (a box on another would creep along the order's direction)
        let backwards = self.passes % 2 == 1;
        self.passes += 1;
        let (count, room) = (self.search.pairs().len(), self.search.pairs_capacity());
        for j in 0..count {
            let i = if backwards { count - 1 - j } else { j };
            let pair = &mut self.search.pairs_mut()[i];
            let (a, b, minimum) = (pair.0 as usize, pair.1 as usize, pair.2);
            let (pa, pb) = (points.point(a), points.point(b));
            let (dx, dy) = (pa.0 - pb.0, pa.1 - pb.1);
            let d2 = dx * dx + dy * dy;
            if d2 >= minimum * minimum {
                continue;
            }
            // the inverse masses only of the pairs that are too close
            let (wa, wb) = (inverse_mass[a], inverse_mass[b]);
            if wa + wb == 0.0 {
                continue;
            }
            let dist = d2.sqrt();
            let (nx, ny) = if dist > 1e-9 {
                (dx / dist, dy / dist)
            } else {
                (0.0, 1.0)
            };
            // a particle of a rigid body shows the body's inverse mass
            let wa = points.inverse_mass_along(a, [nx, ny], wa);
            let wb = points.inverse_mass_along(b, [nx, ny], wb);
            let w = wa + wb;
            if w == 0.0 {
                continue;
            }
            let mut depth = minimum - dist;
            if pair.3 == 0.0 {
                let at = (depth, dist, h);
                depth = first_push(pair, previous, at, &mut self.pushed, (i, room));
                if depth <= 0.0 {
                    continue;
                }
            }
            pair.3 += depth;
            let (ca, cb) = (wa / w * depth, wb / w * depth);
            points.set_point(a, (pa.0 + nx * ca, pa.1 + ny * ca));
            points.set_point(b, (pb.0 - nx * cb, pb.1 - ny * cb));
            // friction: relative tangential motion over the substep, of where
            // the push put them (a rigid body moved with its particle)
            let (pa, pb) = (points.point(a), points.point(b));
            // one bounds check for each particle's two coordinates
            let (sa, sb) = (&previous[2 * a..2 * a + 2], &previous[2 * b..2 * b + 2]);
            let rx = (pa.0 - sa[0]) - (pb.0 - sb[0]);
            let ry = (pa.1 - sa[1]) - (pb.1 - sb[1]);
            let along = rx * nx + ry * ny;
            let (tx, ty) = (rx - along * nx, ry - along * ny);
            let slide = (tx * tx + ty * ty).sqrt();
            if slide > 0.0 {
                let cut = (friction * pair.3 / slide).min(1.0);
                let t = [tx / slide, ty / slide];
                let wa = points.inverse_mass_along(a, t, inverse_mass[a]);
                let wb = points.inverse_mass_along(b, t, inverse_mass[b]);
                let w = wa + wb;
                if w > 0.0 {
                    let (fa, fb) = (wa / w * cut, wb / w * cut);
                    points.set_point(a, (pa.0 - tx * fa, pa.1 - ty * fa));
                    points.set_point(b, (pb.0 + tx * fb, pb.1 + ty * fb));
                }
            }
        }
    }
}

/// The depth of pair `i`'s first push in a substep, `depth` at distance
/// `dist` (see [`first_push_depth`]); a pair pushed (depth not at most 0) is listed
/// in `pushed` while it has fewer than `room`. Out of line: one copy for
/// every pass over the pairs (a pair's first push in a substep is rare
/// among its passes).
#[inline(never)]
fn first_push(
    pair: &mut (u32, u32, f32, f32),
    previous: &[f32],
    (depth, dist, h): (f32, f32, f32),
    pushed: &mut Vec<u32>,
    (i, room): (usize, usize),
) -> f32 {
    let depth = first_push_depth(pair, previous, depth, dist, h);
    if depth <= 0.0 {
        return depth;
    }
    if pushed.len() < room {
        append(pushed, i as u32);
    }
    depth
}

/// The depth of a pair's first push in a substep, `depth` at distance `dist`:
/// a pair already too close when the substep began may come apart only so
/// far in it ([`push_depth`]), which lowers its minimum distance for the rest
/// of the substep.
#[inline(always)]
fn first_push_depth(
    pair: &mut (u32, u32, f32, f32),
    previous: &[f32],
    depth: f32,
    dist: f32,
    h: f32,
) -> f32 {
    let (a, b, minimum) = (pair.0 as usize, pair.1 as usize, pair.2);
    let (sa, sb) = (&previous[2 * a..2 * a + 2], &previous[2 * b..2 * b + 2]);
    let (bx, by) = (sa[0] - sb[0], sa[1] - sb[1]);
    let overlap = minimum - (bx * bx + by * by).sqrt();
    let depth = push_depth(depth, overlap, 0.0, h);
    pair.2 = dist + depth;
    depth
}
