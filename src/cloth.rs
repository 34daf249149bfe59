//! The cloth: simulation state, its parameters, user interaction and diagnostics.
//!
//! [`Cloth`] owns every array of the simulation in flat, `f32`, structure-of-arrays
//! form (the JavaScript side reads `positions` and `constraint_ids` directly out of
//! wasm memory), drives the steps of [`crate::solver`], and guards its state: every
//! method that takes outside input validates it first and leaves the cloth
//! unchanged when it refuses.

use crate::grid::{self, Grid};
use crate::params::{self, ClothError, FixedPreset, GridSize, Params};
use crate::solver;

/// Positions farther than this from the origin (metres) count as diverged:
/// still finite in `f32`, but no longer a cloth anyone can see.
pub const DIVERGENCE_LIMIT: f32 = 1e6;

/// Largest number of steps one [`Cloth::steps`] call accepts.
pub const MAX_STEPS_PER_CALL: u32 = 10_000;

/// A particle held by the user.
///
/// Its velocity is measured between drag calls, not between steps: pointer
/// events arrive about once per animation frame while several steps run per
/// frame, so per-step motion is one jump followed by stillness. Displacement
/// over the simulated time between two drags is the motion the user made, and
/// the velocity the particle keeps when it is let go (a flick).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Grab {
    index: usize,
    /// Position and simulated time of the last velocity sample.
    sample_position: [f32; 2],
    sample_time: f64,
    /// Simulated time between the last two samples, seconds.
    sample_interval: f64,
    /// Velocity of the drag motion at the last sample, m/s.
    velocity: [f32; 2],
}

impl Grab {
    /// The drag velocity now: zero once the pointer has rested for more than two
    /// of its usual event intervals.
    fn velocity_at(&self, time: f64) -> [f32; 2] {
        let resting = time - self.sample_time > 2.0 * self.sample_interval + 1e-12;
        if resting {
            [0.0, 0.0]
        } else {
            self.velocity
        }
    }
}

/// An XPBD cloth: a grid of particles joined by distance constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct Cloth {
    size: GridSize,
    preset: FixedPreset,
    params: Params,
    /// `[x0, y0, x1, y1, ...]`, metres.
    positions: Vec<f32>,
    /// Positions at the start of the current step (free particles only).
    previous: Vec<f32>,
    /// `[vx0, vy0, ...]`, m/s.
    velocities: Vec<f32>,
    /// `1/mass` for free particles, 0 for pinned and grabbed ones.
    inverse_mass: Vec<f32>,
    pinned: Vec<bool>,
    /// `[a0, b0, a1, b1, ...]`, in solver order.
    constraint_ids: Vec<u32>,
    rest_lengths: Vec<f32>,
    /// Lagrange multiplier of each constraint, accumulated over the current step.
    lambdas: Vec<f32>,
    /// Simulated time, seconds.
    time: f64,
    grab: Option<Grab>,
    diverged: bool,
}

impl Cloth {
    /// Builds the original's cloth of `size` with the `preset` fixed corners and
    /// default parameters.
    pub fn new(size: GridSize, preset: FixedPreset) -> Cloth {
        let Grid {
            positions,
            constraint_ids,
            rest_lengths,
            fixed,
        } = grid::build(size, preset);
        let n = size.num_particles();
        let mut pinned = vec![false; n];
        for k in fixed {
            pinned[k] = true;
        }
        let mut cloth = Cloth {
            size,
            preset,
            params: Params::default(),
            previous: positions.clone(),
            positions,
            velocities: vec![0.0; 2 * n],
            inverse_mass: vec![0.0; n],
            pinned,
            lambdas: vec![0.0; rest_lengths.len()],
            constraint_ids,
            rest_lengths,
            time: 0.0,
            grab: None,
            diverged: false,
        };
        cloth.update_inverse_masses();
        cloth
    }

    /// Builds a cloth from numbers as a user types them: width and height in
    /// particles, and 1, 2 or 4 fixed corners. Errors name the bad argument.
    pub fn from_numbers(width: f64, height: f64, fixed_count: f64) -> Result<Cloth, ClothError> {
        let size = GridSize::new(width, height)?;
        let preset = FixedPreset::from_count(fixed_count)?;
        Ok(Cloth::new(size, preset))
    }

    // ----- parameters -----------------------------------------------------

    /// The live solver parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Replaces all parameters at once, after validating each; on error nothing changes.
    pub fn set_params(&mut self, p: Params) -> Result<(), ClothError> {
        params::validate_time_step(p.time_step)?;
        params::validate_iterations(p.iterations as f64)?;
        params::validate_stiffness(p.stiffness)?;
        params::validate_gravity(p.gravity)?;
        params::validate_mass(p.mass)?;
        self.params = p;
        self.update_inverse_masses();
        Ok(())
    }

    /// Sets the time step `dt` in seconds (1e-6..=1).
    pub fn set_time_step(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.time_step = params::validate_time_step(value)?;
        Ok(())
    }

    /// Sets the solver sweeps per step (whole number, 1..=1000).
    pub fn set_iterations(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.iterations = params::validate_iterations(value)?;
        Ok(())
    }

    /// Sets the stiffness in N/m (0..=1e15; 0 is PBD).
    pub fn set_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.stiffness = params::validate_stiffness(value)?;
        Ok(())
    }

    /// Sets gravity in m/s² (-1e6..=1e6; negative pulls down).
    pub fn set_gravity(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.gravity = params::validate_gravity(value)?;
        Ok(())
    }

    /// Sets the mass of every particle in kg (1e-6..=1e6).
    pub fn set_mass(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.mass = params::validate_mass(value)?;
        self.update_inverse_masses();
        Ok(())
    }

    /// The grid size this cloth was built with.
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The fixed-corner preset this cloth was built with.
    pub fn preset(&self) -> FixedPreset {
        self.preset
    }

    fn update_inverse_masses(&mut self) {
        let w = (1.0 / self.params.mass) as f32;
        let grabbed = self.grab.map(|g| g.index);
        for (k, inverse_mass) in self.inverse_mass.iter_mut().enumerate() {
            let held = self.pinned[k] || grabbed == Some(k);
            *inverse_mass = if held { 0.0 } else { w };
        }
    }

    // ----- stepping ---------------------------------------------------------

    /// Advances the cloth by one time step. Does nothing once the cloth has
    /// diverged (see [`Cloth::is_finite`]).
    pub fn step(&mut self) {
        if self.diverged {
            return;
        }
        let dt = self.params.time_step as f32;
        let alpha_tilde = solver::alpha_tilde(self.params.compliance(), self.params.time_step);
        solver::predict(
            &mut self.positions,
            &mut self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            dt,
            self.params.gravity as f32,
        );
        solver::reset_multipliers(&mut self.lambdas);
        for _ in 0..self.params.iterations {
            solver::solve_sweep(
                &mut self.positions,
                &self.inverse_mass,
                &self.constraint_ids,
                &self.rest_lengths,
                &mut self.lambdas,
                alpha_tilde,
            );
        }
        solver::update_velocities(
            &self.positions,
            &self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            dt,
        );
        self.time += self.params.time_step;
        self.track_grab();
        if !self.positions_in_bounds() {
            self.undo_diverged_step();
        }
    }

    /// Advances `n` steps (a whole number, 0..=10000) in one call.
    pub fn steps(&mut self, n: f64) -> Result<(), ClothError> {
        if !(n.is_finite() && n.fract() == 0.0 && (0.0..=MAX_STEPS_PER_CALL as f64).contains(&n)) {
            return Err(ClothError::InvalidValue {
                field: "steps",
                value: n.to_string(),
                allowed: format!("a whole number from 0 to {MAX_STEPS_PER_CALL}"),
            });
        }
        for _ in 0..n as u32 {
            self.step();
        }
        Ok(())
    }

    /// Gives the held particle the drag velocity, so kinetic energy and a later
    /// release see the motion the user makes.
    fn track_grab(&mut self) {
        if let Some(grab) = self.grab {
            let velocity = grab.velocity_at(self.time);
            self.velocities[2 * grab.index] = velocity[0];
            self.velocities[2 * grab.index + 1] = velocity[1];
        }
    }

    fn positions_in_bounds(&self) -> bool {
        self.positions
            .iter()
            .all(|p| p.is_finite() && p.abs() <= DIVERGENCE_LIMIT)
    }

    /// Puts every free particle back where it started the step and stops the
    /// cloth, so no NaN ever leaves the simulation.
    fn undo_diverged_step(&mut self) {
        for (k, &w) in self.inverse_mass.iter().enumerate() {
            if w != 0.0 {
                self.positions[2 * k] = self.previous[2 * k];
                self.positions[2 * k + 1] = self.previous[2 * k + 1];
            }
        }
        self.velocities.fill(0.0);
        self.time -= self.params.time_step;
        self.diverged = true;
    }

    // ----- interaction --------------------------------------------------------

    /// The particle nearest to `(x, y)` (metres) within `radius` metres, if any.
    pub fn pick(&self, x: f64, y: f64, radius: f64) -> Result<Option<usize>, ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(ClothError::InvalidValue {
                field: "radius",
                value: radius.to_string(),
                allowed: "a finite number >= 0 m".into(),
            });
        }
        let limit = (radius * radius) as f32;
        let mut best: Option<(usize, f32)> = None;
        for (k, p) in self.positions.chunks_exact(2).enumerate() {
            let d2 = (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y);
            if d2 <= limit && best.is_none_or(|(_, b)| d2 < b) {
                best = Some((k, d2));
            }
        }
        Ok(best.map(|(k, _)| k))
    }

    /// Takes hold of particle `index`: it stops moving on its own (inverse mass
    /// 0) and follows [`Cloth::drag`]. Grabbing another particle releases the first.
    pub fn grab(&mut self, index: f64) -> Result<(), ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        self.release();
        self.grab = Some(Grab {
            index: k,
            sample_position: [self.positions[2 * k], self.positions[2 * k + 1]],
            sample_time: self.time,
            sample_interval: 0.0,
            velocity: [0.0, 0.0],
        });
        self.velocities[2 * k] = 0.0;
        self.velocities[2 * k + 1] = 0.0;
        self.update_inverse_masses();
        Ok(())
    }

    /// Moves the grabbed particle exactly to `(x, y)`, in metres. Without a
    /// grabbed particle this does nothing.
    pub fn drag(&mut self, x: f64, y: f64) -> Result<(), ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        let time = self.time;
        if let Some(grab) = self.grab.as_mut() {
            self.positions[2 * grab.index] = x;
            self.positions[2 * grab.index + 1] = y;
            let elapsed = time - grab.sample_time;
            // Several drags between two steps add up into the next sample.
            if elapsed > 0.0 {
                let seconds = elapsed as f32;
                grab.velocity = [
                    (x - grab.sample_position[0]) / seconds,
                    (y - grab.sample_position[1]) / seconds,
                ];
                grab.sample_position = [x, y];
                grab.sample_time = time;
                grab.sample_interval = elapsed;
            }
        }
        Ok(())
    }

    /// Lets go of the grabbed particle. It keeps the velocity of the drag motion
    /// (unless it is pinned), so the cloth can be flicked.
    pub fn release(&mut self) {
        let Some(grab) = self.grab.take() else {
            return;
        };
        let k = grab.index;
        let velocity = if self.pinned[k] {
            [0.0, 0.0]
        } else {
            grab.velocity
        };
        self.velocities[2 * k] = velocity[0];
        self.velocities[2 * k + 1] = velocity[1];
        self.previous[2 * k] = self.positions[2 * k];
        self.previous[2 * k + 1] = self.positions[2 * k + 1];
        self.update_inverse_masses();
    }

    /// The index of the grabbed particle, if any.
    pub fn grabbed(&self) -> Option<usize> {
        self.grab.map(|g| g.index)
    }

    /// Pins (`true`) or frees (`false`) particle `index`. A pinned particle has
    /// inverse mass 0: constraints and gravity cannot move it, only a drag can.
    pub fn set_pinned(&mut self, index: f64, pinned: bool) -> Result<(), ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        self.pinned[k] = pinned;
        if self.grabbed() != Some(k) {
            self.velocities[2 * k] = 0.0;
            self.velocities[2 * k + 1] = 0.0;
        }
        self.update_inverse_masses();
        Ok(())
    }

    /// Whether particle `index` is pinned.
    pub fn is_pinned(&self, index: f64) -> Result<bool, ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        Ok(self.pinned[k])
    }

    // ----- views and diagnostics -------------------------------------------------

    /// Interleaved positions `[x0, y0, x1, y1, ...]`, in metres.
    pub fn positions(&self) -> &[f32] {
        &self.positions
    }

    /// Interleaved velocities `[vx0, vy0, ...]`, in m/s.
    pub fn velocities(&self) -> &[f32] {
        &self.velocities
    }

    /// Interleaved constraint endpoints `[a0, b0, a1, b1, ...]`.
    pub fn constraint_ids(&self) -> &[u32] {
        &self.constraint_ids
    }

    /// Rest length of each constraint, in metres.
    pub fn rest_lengths(&self) -> &[f32] {
        &self.rest_lengths
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
        self.rest_lengths.len()
    }

    /// The largest relative stretch `(length - rest_length) / rest_length` of any
    /// constraint, or 0 when none is stretched.
    pub fn max_stretch(&self) -> f64 {
        let mut max = 0.0f32;
        for (ids, &rest) in self.constraint_ids.chunks_exact(2).zip(&self.rest_lengths) {
            let (a, b) = (ids[0] as usize, ids[1] as usize);
            let dx = self.positions[2 * a] - self.positions[2 * b];
            let dy = self.positions[2 * a + 1] - self.positions[2 * b + 1];
            let stretch = ((dx * dx + dy * dy).sqrt() - rest) / rest;
            max = max.max(stretch);
        }
        max as f64
    }

    /// Kinetic energy `Σ ½ m |v|²` of the moving particles, in joules.
    pub fn kinetic_energy(&self) -> f64 {
        let mass = self.params.mass;
        self.velocities
            .chunks_exact(2)
            .zip(&self.inverse_mass)
            .filter(|(_, &w)| w != 0.0)
            .map(|(v, _)| 0.5 * mass * (v[0] as f64 * v[0] as f64 + v[1] as f64 * v[1] as f64))
            .sum()
    }

    /// `false` once a step produced a non-finite or runaway position. That step
    /// was undone and the cloth stopped; build a new one to continue.
    pub fn is_finite(&self) -> bool {
        !self.diverged
    }
}
