//! Long-range attachments (tethers): no free particle gets farther from its
//! nearest pinned particle than its rest-path distance.
//!
//! Gauss–Seidel passes carry a correction one constraint per pass, so a long
//! cloth hanging from its corners stretches far beyond its rest lengths before
//! the pins' pull reaches the middle (the default cloth's corners stretch by
//! tens of percent). A tether connects each free particle `i` directly to its
//! anchor `a`, the pinned particle nearest along the rest lengths of the live
//! distance constraints, and allows at most that rest-path distance `L`:
//!
//! * `C = |x_i - x_a| - L ≤ 0`, an inequality: nothing happens while the
//!   particle is closer;
//! * the anchor is pinned (inverse mass 0), so only the free particle moves,
//!   straight back onto the circle of radius `L` around it (a rigid
//!   projection: the tether is a limit, not a spring).
//!
//! Anchors and limits come from a multi-source Dijkstra from every pinned
//! particle over the live distance constraints ([`Tethers::recompute`]), run
//! again when pins change or constraints tear, in buffers reserved once when
//! tethers are switched on. Particles with no path to a pinned one have no
//! tether.

use std::collections::TryReserveError;

use super::neighbours::Neighbours;
use crate::memory;
use crate::solver::Points;

/// No anchor: the particle has no tether.
const NONE: u32 = u32::MAX;

/// Each particle's anchor and limit, and the Dijkstra scratch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tethers {
    /// The pinned particle each particle is tethered to, or `NONE`.
    anchors: Vec<u32>,
    /// Rest-path distance to the anchor, metres (infinite without one).
    limits: Vec<f32>,
    /// Binary min-heap of particles by `limits`, and each particle's place in
    /// it (`NONE` when not in it).
    heap: Vec<u32>,
    place: Vec<u32>,
}

impl Tethers {
    /// Room for `n` particles.
    pub fn try_new(n: usize) -> Result<Tethers, TryReserveError> {
        Ok(Tethers {
            anchors: memory::filled(n, NONE)?,
            limits: memory::filled(n, f32::INFINITY)?,
            heap: memory::with_capacity(n)?,
            place: memory::filled(n, NONE)?,
        })
    }

    /// Whether it has room (built by [`Tethers::try_new`] for at least one
    /// particle, not the empty default).
    pub fn is_reserved(&self) -> bool {
        !self.anchors.is_empty()
    }

    /// Bytes its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.anchors) + bytes(&self.limits) + bytes(&self.heap) + bytes(&self.place)
    }

    /// Particle `k`'s anchor and limit (metres), if it has a tether. Pinned
    /// particles are their own anchor with limit 0.
    pub fn tether(&self, k: usize) -> Option<(usize, f32)> {
        (self.anchors[k] != NONE).then(|| (self.anchors[k] as usize, self.limits[k]))
    }

    /// Multi-source Dijkstra from every pinned particle over `graph`: each
    /// particle's nearest pinned particle and the rest-path distance to it.
    /// Never allocates.
    pub fn recompute(&mut self, graph: &Neighbours, pinned: &[bool]) {
        self.anchors.fill(NONE);
        self.limits.fill(f32::INFINITY);
        self.place.fill(NONE);
        self.heap.clear();
        for (k, _) in pinned.iter().enumerate().filter(|(_, &p)| p) {
            self.anchors[k] = k as u32;
            self.limits[k] = 0.0;
            self.push(k as u32);
        }
        while let Some(k) = self.pop() {
            let (anchor, reached) = (self.anchors[k as usize], self.limits[k as usize]);
            for (next, rest) in graph.of(k as usize) {
                let through = reached + rest;
                if through < self.limits[next as usize] {
                    self.limits[next as usize] = through;
                    self.anchors[next as usize] = anchor;
                    if self.place[next as usize] == NONE {
                        self.push(next);
                    } else {
                        self.sift_up(self.place[next as usize] as usize);
                    }
                }
            }
        }
    }

    /// Pulls every free particle (inverse mass above 0) farther than its limit
    /// from its anchor back onto the limit.
    pub fn solve<P: Points + ?Sized>(&self, points: &mut P, inverse_mass: &[f32]) {
        for (k, (&anchor, &limit)) in self.anchors.iter().zip(&self.limits).enumerate() {
            if anchor == NONE || anchor as usize == k || inverse_mass[k] == 0.0 {
                continue;
            }
            let (x, y) = points.point(k);
            let (ax, ay) = points.point(anchor as usize);
            let (dx, dy) = (x - ax, y - ay);
            let distance2 = dx * dx + dy * dy;
            if distance2 > limit * limit {
                let scale = limit / distance2.sqrt();
                points.set_point(k, (ax + dx * scale, ay + dy * scale));
            }
        }
    }

    fn push(&mut self, k: u32) {
        self.heap.push(k);
        let at = self.heap.len() - 1;
        self.place[k as usize] = at as u32;
        self.sift_up(at);
    }

    fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.place[top as usize] = NONE;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.place[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    fn key(&self, at: usize) -> f32 {
        self.limits[self.heap[at] as usize]
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.place[self.heap[i] as usize] = i as u32;
        self.place[self.heap[j] as usize] = j as u32;
    }

    fn sift_up(&mut self, mut at: usize) {
        while at > 0 {
            let parent = (at - 1) / 2;
            if self.key(at) >= self.key(parent) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
    }

    fn sift_down(&mut self, mut at: usize) {
        loop {
            let (left, right) = (2 * at + 1, 2 * at + 2);
            let mut least = at;
            if left < self.heap.len() && self.key(left) < self.key(least) {
                least = left;
            }
            if right < self.heap.len() && self.key(right) < self.key(least) {
                least = right;
            }
            if least == at {
                break;
            }
            self.swap(at, least);
            at = least;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_particle_is_tethered_to_its_nearest_pin_along_the_constraints() {
        // a chain 0 – 1 – 2 – 3 – 4 pinned at both ends, rest lengths 1, 2, 3, 1,
        // and particle 5 on its own
        let ids = [0, 1, 1, 2, 2, 3, 3, 4];
        let rest = [1.0, 2.0, 3.0, 1.0];
        let mut graph = Neighbours::try_new(6, 4).unwrap();
        graph.rebuild(&ids, &rest);
        assert!(graph.joined(2, 3) && graph.joined(3, 2) && !graph.joined(0, 2));
        let mut tethers = Tethers::try_new(6).unwrap();
        let pinned = [true, false, false, false, true, false];
        tethers.recompute(&graph, &pinned);
        assert_eq!(tethers.tether(0), Some((0, 0.0)));
        assert_eq!(tethers.tether(1), Some((0, 1.0)));
        assert_eq!(tethers.tether(2), Some((0, 3.0)));
        assert_eq!(tethers.tether(3), Some((4, 1.0)));
        assert_eq!(tethers.tether(5), None);
        // tearing 0 – 1 sends 1 and 2 the long way round
        graph.rebuild(&ids[2..], &rest[1..]);
        tethers.recompute(&graph, &pinned);
        assert_eq!(tethers.tether(1), Some((4, 6.0)));
        assert_eq!(tethers.tether(2), Some((4, 4.0)));
    }

    #[test]
    fn only_a_free_particle_beyond_its_limit_moves() {
        let ids = [0, 1, 1, 2];
        let mut graph = Neighbours::try_new(3, 2).unwrap();
        graph.rebuild(&ids, &[1.0, 1.0]);
        let mut tethers = Tethers::try_new(3).unwrap();
        tethers.recompute(&graph, &[true, false, false]);
        let mut points = [0.0, 0.0, 0.5, 0.0, 0.0, -4.0];
        tethers.solve(&mut points[..], &[0.0, 1.0, 1.0]);
        assert_eq!(&points[..4], &[0.0, 0.0, 0.5, 0.0]);
        assert_eq!(&points[4..], &[0.0, -2.0]);
    }
}
