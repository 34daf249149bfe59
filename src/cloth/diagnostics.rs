//! What the cloth shows: views of its arrays (for drawing, without copies),
//! the constraint forces, and diagnostics (energies, the largest stretch).

use super::Cloth;
use super::Kinds;
use crate::solver;

impl Cloth {
    /// Interleaved positions `[x0, y0, x1, y1, ...]`, in metres.
    pub fn positions(&self) -> &[f32] {
        &self.positions
    }

    /// Interleaved velocities `[vx0, vy0, ...]`, in m/s.
    pub fn velocities(&self) -> &[f32] {
        &self.velocities
    }

    /// Interleaved endpoints `[a0, b0, a1, b1, ...]` of the live constraints, in
    /// solver order (torn constraints are not in it). A slice of a buffer that is
    /// never reallocated: torn constraints move behind the live ones in place.
    pub fn constraint_ids(&self) -> &[u32] {
        self.constraints.ids()
    }

    /// Rest length of each live constraint, in metres, in the order of
    /// `constraint_ids` (the same kind of never-reallocated buffer).
    pub fn rest_lengths(&self) -> &[f32] {
        self.constraints.rest_lengths()
    }

    /// Tension of each constraint in newtons, from its multiplier after the last
    /// substep: `-λ / h²` (positive when the constraint pulls its ends together).
    pub fn constraint_forces(&mut self) -> &[f32] {
        let h = self.params.substep_size();
        let scale = (-1.0 / (h * h)) as f32;
        // room for every constraint the cloth was built with (reserved when it
        // was built, so this never reallocates)
        self.forces.clear();
        self.forces.reserve_exact(self.constraints.built_with());
        self.forces.extend(
            self.constraints
                .lambdas()
                .iter()
                .map(|&lambda| lambda * scale),
        );
        &self.forces
    }

    /// The constraint kinds besides the distance constraints (and their
    /// readouts, such as [`crate::kinds::area::Areas::area`]).
    pub fn kinds(&self) -> &Kinds {
        &self.kinds
    }

    /// Number of constraints torn since the cloth was built.
    pub fn torn_count(&self) -> usize {
        self.torn_count
    }

    /// Inverse mass of each particle, in 1/kg.
    pub fn inverse_masses(&self) -> &[f32] {
        &self.inverse_mass
    }

    /// Simulated time, in seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Number of particles.
    pub fn num_particles(&self) -> usize {
        self.inverse_mass.len()
    }

    /// Number of distance constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The largest relative stretch `(length - rest_length) / rest_length` of any
    /// constraint, or 0 when none is stretched.
    pub fn max_stretch(&self) -> f64 {
        let (ids, rest_lengths) = (self.constraints.ids(), self.constraints.rest_lengths());
        (0..rest_lengths.len())
            .map(|c| solver::stretch(&self.positions, ids, rest_lengths, c))
            .fold(0.0f32, f32::max) as f64
    }

    /// Whether particle `k` moves: it is free, or held (a held particle moves
    /// with the pointer, even a pinned one); pinned particles do not.
    fn moves(&self, k: usize) -> bool {
        self.inverse_mass[k] != 0.0 || self.grabbed() == Some(k)
    }

    /// Kinetic energy `Σ ½ m |v|²` of the moving particles, in joules. A held
    /// pinned particle counts with the velocity of the drag.
    pub fn kinetic_energy(&self) -> f64 {
        self.velocities
            .chunks_exact(2)
            .enumerate()
            .filter(|&(k, _)| self.moves(k))
            .map(|(k, v)| {
                0.5 * self.mass_of(k) * (v[0] as f64 * v[0] as f64 + v[1] as f64 * v[1] as f64)
            })
            .sum()
    }

    /// Gravitational potential energy `Σ m (-gravity) y` of the moving particles
    /// (the held one included), in joules (zero at y = 0).
    pub fn potential_energy(&self) -> f64 {
        let gravity = self.params.gravity;
        self.positions
            .chunks_exact(2)
            .enumerate()
            .filter(|&(k, _)| self.moves(k))
            .map(|(k, p)| -self.mass_of(k) * gravity * p[1] as f64)
            .sum()
    }

    /// `false` once a step produced a non-finite or runaway position. That step
    /// was undone and the cloth stopped; build a new one to continue.
    pub fn is_finite(&self) -> bool {
        !self.diverged
    }
}
