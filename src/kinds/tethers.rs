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
//! particle over the live distance constraints ([`Tethers::recompute`],
//! [`super::shortest_paths`]), run
//! again when pins change or constraints tear, in buffers reserved once when
//! tethers are switched on. Particles with no path to a pinned one have no
//! tether.

use std::collections::TryReserveError;

use super::neighbours::Neighbours;
use super::shortest_paths::{ShortestPaths, NONE};
use super::{on_points, Addition, ConstraintKind, Cost, Positions, Sizes, Topology};
use crate::error::ClothError;
use crate::model::Scene;
use crate::params::Params;
use crate::solver::Points;

/// Work units of one tether check (and projection when too far), per
/// particle per pass (see [`crate::params::work`]).
pub const TETHER_SOLVE: u64 = 10;
/// Work units per particle and per live constraint, per substep in which
/// tethers are on and tearing may cut the cloth: finding the anchors again (a
/// Dijkstra search over the whole cloth), besides rebuilding the neighbour
/// lists ([`crate::params::work::NEIGHBOURS_REBUILD`]).
pub const TETHER_RECOMPUTE: u64 = 70;

/// Each particle's anchor and limit: its shortest path from the pins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tethers {
    paths: ShortestPaths<f32>,
}

impl Tethers {
    /// Room for `n` particles.
    pub fn try_new(n: usize) -> Result<Tethers, TryReserveError> {
        Ok(Tethers {
            paths: ShortestPaths::try_new(n)?,
        })
    }

    /// Whether it has room (built by [`Tethers::try_new`] for at least one
    /// particle, not the empty default).
    pub fn is_reserved(&self) -> bool {
        self.paths.is_reserved()
    }

    /// Back to the particles before `first`, after additions.
    pub fn take_out(&mut self, first: usize) {
        self.paths.grow(first);
    }

    /// Particle `k`'s anchor and limit (metres), if it has a tether. Pinned
    /// particles are their own anchor with limit 0.
    pub fn tether(&self, k: usize) -> Option<(usize, f32)> {
        self.paths.path(k)
    }

    /// Multi-source Dijkstra from every pinned particle over `graph`: each
    /// particle's nearest pinned particle and the rest-path distance to it.
    /// Never allocates.
    pub fn recompute(&mut self, graph: &Neighbours, pinned: &[bool]) {
        self.paths.recompute(graph, pinned, |_| {});
    }

    /// Pulls every free particle (inverse mass above 0) farther than its limit
    /// from its anchor back onto the limit.
    pub fn pass<P: Points + ?Sized>(&self, points: &mut P, inverse_mass: &[f32]) {
        let (anchors, limits) = (self.paths.pins(), self.paths.lengths());
        for (k, (&anchor, &limit)) in anchors.iter().zip(limits).enumerate() {
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
}

impl ConstraintKind for Tethers {
    /// None until `tethers` is switched on: the scene has nothing of them.
    fn from_scene(_scene: &Scene) -> Result<Tethers, ClothError> {
        Ok(Tethers::default())
    }

    /// On while `tethers` is.
    fn is_on(&self, p: &Params) -> bool {
        p.tethers
    }

    /// A check per particle and pass; with tearing, the anchors found again
    /// (a search over the whole cloth) in every substep.
    fn cost(&self, _p: &Params, sizes: Sizes) -> Cost {
        let (n, m) = (sizes.particles as u64, sizes.constraints as u64);
        Cost {
            pass: n * TETHER_SOLVE,
            tear: (n + m) * TETHER_RECOMPUTE,
            ..Cost::default()
        }
    }

    fn heap_bytes(&self) -> u64 {
        self.paths.heap_bytes()
    }

    fn switch(&self) -> &'static str {
        "tethers"
    }

    /// Room for every particle's anchor, when first switched on.
    fn prepare(&mut self, p: &Params, topology: &Topology) -> Result<(), TryReserveError> {
        if p.tethers && !self.is_reserved() {
            *self = Tethers::try_new(topology.pinned.len())?;
        }
        Ok(())
    }

    /// 16 bytes per particle.
    fn prepare_bytes(&self, _p: &Params, sizes: Sizes) -> u64 {
        16 * sizes.particles as u64
    }

    fn uses_neighbours(&self, _p: &Params) -> bool {
        true
    }

    /// Room for the particles added.
    fn reserve_addition(&mut self, addition: &Addition) -> Result<(), TryReserveError> {
        self.paths.reserve_particles(addition.particles_after())
    }

    /// The particles added, without anchors until the cloth's topology
    /// changes (which it does next).
    fn add(&mut self, addition: &Addition) {
        self.paths.grow(addition.particles_after());
    }

    /// Not kept: back to the particles there were.
    fn finish_addition(&mut self, addition: &Addition, kept: bool) {
        if !kept {
            self.take_out(addition.first);
        }
    }

    /// The anchors found again from the pins over the live constraints.
    fn topology_changed(&mut self, _p: &Params, topology: &Topology, neighbours: &Neighbours) {
        self.recompute(neighbours, topology.pinned);
    }

    fn solve(
        &mut self,
        positions: Positions,
        _previous: &[f32],
        inverse_mass: &[f32],
        _now: &super::Now,
    ) {
        on_points!(positions, |points| self.pass(points, inverse_mass))
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
        tethers.pass(&mut points[..], &[0.0, 1.0, 1.0]);
        assert_eq!(&points[..4], &[0.0, 0.0, 0.5, 0.0]);
        assert_eq!(&points[4..], &[0.0, -2.0]);
    }
}
