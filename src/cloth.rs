//! The cloth: simulation state, its parameters, user interaction and diagnostics.
//!
//! [`Cloth`] owns every array of the simulation in flat, `f32`, structure-of-arrays
//! form (the JavaScript side reads `positions` and `constraint_ids` directly out of
//! wasm memory), drives the steps of [`crate::solver`], and guards its state: every
//! method that takes outside input validates it first and leaves the cloth
//! unchanged when it refuses.

use crate::colored;
use crate::constraints::ConstraintSet;
use crate::grid::{self, Grid};
use crate::params::{self, ClothError, FixedPreset, GridSize, Params, SolverOrder};
use crate::solver::{self, Split};

/// Positions farther than this from the origin (metres) count as diverged:
/// still finite in `f32`, but no longer a cloth anyone can see. Dragging is
/// limited to the same range.
pub const DIVERGENCE_LIMIT: f32 = params::MAX_COORDINATE as f32;

/// Largest number of steps one [`Cloth::steps`] call accepts.
pub const MAX_STEPS_PER_CALL: u32 = 10_000;

/// Most constraint solves one [`Cloth::steps`] call may do (about a second);
/// one step alone is bounded by [`params::MAX_SOLVES_PER_STEP`], a third of it.
pub const MAX_SOLVES_PER_CALL: u64 = 3 * params::MAX_SOLVES_PER_STEP;

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
    params: Params,
    /// `[x0, y0, x1, y1, ...]`, metres.
    positions: Vec<f32>,
    /// Positions at the start of the current (sub)step.
    previous: Vec<f32>,
    /// Positions at the start of the current step: where a diverged step goes back to.
    step_start: Vec<f32>,
    /// `[vx0, vy0, ...]`, m/s.
    velocities: Vec<f32>,
    /// `1/mass` for free particles, 0 for pinned and grabbed ones.
    inverse_mass: Vec<f32>,
    pinned: Vec<bool>,
    /// The distance constraints, their rest lengths and multipliers, in solver order.
    constraints: ConstraintSet,
    /// Scratch: x and y of every particle, split for the coloured SIMD sweep.
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Scratch: tension of each constraint, filled by [`Cloth::constraint_forces`].
    forces: Vec<f32>,
    /// Scratch: which constraints tear this substep.
    torn: Vec<bool>,
    /// How many constraints have torn since the cloth was built.
    torn_count: usize,
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
            colors,
            fixed,
        } = grid::build(size, preset);
        let n = size.num_particles();
        let mut pinned = vec![false; n];
        for k in fixed {
            pinned[k] = true;
        }
        let params = Params::default();
        let constraints =
            ConstraintSet::new(constraint_ids, rest_lengths, colors, params.solver_order);
        let mut cloth = Cloth {
            params,
            previous: positions.clone(),
            step_start: positions.clone(),
            positions,
            velocities: vec![0.0; 2 * n],
            inverse_mass: vec![0.0; n],
            pinned,
            constraints,
            xs: Vec::with_capacity(n),
            ys: Vec::with_capacity(n),
            forces: Vec::new(),
            torn: Vec::new(),
            torn_count: 0,
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
        p.validate()?;
        let constraints = self.num_constraints();
        params::validate_work(
            "iterations",
            p.iterations as f64,
            p.substeps,
            p.iterations,
            constraints,
        )?;
        self.params = p;
        self.update_inverse_masses();
        self.constraints.set_order(p.solver_order);
        Ok(())
    }

    /// Sets the time step `dt` in seconds (1e-6..=1).
    pub fn set_time_step(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.time_step = params::validate_time_step(value)?;
        Ok(())
    }

    /// Sets the solver sweeps per step (whole number, 1..=1000).
    /// Refused too when `substeps × iterations × constraints` would exceed
    /// [`params::MAX_SOLVES_PER_STEP`].
    pub fn set_iterations(&mut self, value: f64) -> Result<(), ClothError> {
        let iterations = params::validate_iterations(value)?;
        let (substeps, constraints) = (self.params.substeps, self.num_constraints());
        params::validate_work("iterations", value, substeps, iterations, constraints)?;
        self.params.iterations = iterations;
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

    /// Sets the substeps per time step (whole number, 1..=100).
    /// Refused too when `substeps × iterations × constraints` would exceed
    /// [`params::MAX_SOLVES_PER_STEP`].
    pub fn set_substeps(&mut self, value: f64) -> Result<(), ClothError> {
        let substeps = params::validate_substeps(value)?;
        let (iterations, constraints) = (self.params.iterations, self.num_constraints());
        params::validate_work("substeps", value, substeps, iterations, constraints)?;
        self.params.substeps = substeps;
        Ok(())
    }

    /// Sets the constraint damping coefficient in N·s/m (0..=1e9).
    pub fn set_damping(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.damping = params::validate_damping(value)?;
        Ok(())
    }

    /// Sets the global velocity damping rate in 1/s (0..=1000).
    pub fn set_velocity_damping(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.velocity_damping = params::validate_velocity_damping(value)?;
        Ok(())
    }

    /// Sets the tear threshold (0 = off, else a stretch factor above 1, up to 1000).
    pub fn set_tear_stretch(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.tear_stretch = params::validate_tear_stretch(value)?;
        Ok(())
    }

    /// Sets the sweep order; the constraint arrays are rearranged to match.
    pub fn set_solver_order(&mut self, order: SolverOrder) -> Result<(), ClothError> {
        self.params.solver_order = order;
        self.constraints.set_order(order);
        Ok(())
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

    /// Advances the cloth by one time step `dt`, made of `substeps` substeps.
    /// Does nothing once the cloth has diverged (see [`Cloth::is_finite`]).
    pub fn step(&mut self) {
        if self.diverged {
            return;
        }
        // With one substep, `previous` already holds the start of the step.
        if self.params.substeps > 1 {
            self.step_start.copy_from_slice(&self.positions);
        }
        for _ in 0..self.params.substeps {
            self.substep();
        }
        self.time += self.params.time_step;
        self.track_grab();
        if !self.positions_in_bounds() {
            self.undo_diverged_step();
        }
    }

    /// One substep of size `h = dt / substeps`: predict, reset the multipliers,
    /// sweep `iterations` times, update velocities, then damp and tear.
    fn substep(&mut self) {
        let p = self.params;
        let h = p.substep_size();
        let alpha_tilde = solver::alpha_tilde(p.compliance(), h);
        let gamma = solver::gamma(p.compliance(), p.damping, h);
        solver::predict(
            &mut self.positions,
            &mut self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            h as f32,
            p.gravity as f32,
        );
        self.constraints.reset_multipliers();
        self.solve_constraints(p.iterations, alpha_tilde, gamma);
        solver::update_velocities(
            &self.positions,
            &self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            h as f32,
        );
        if p.velocity_damping > 0.0 {
            solver::damp_velocities(&mut self.velocities, p.velocity_damping, h);
        }
        if p.tear_stretch > 0.0 {
            self.tear(p.tear_stretch);
        }
    }

    /// `iterations` Gauss–Seidel sweeps over all constraints in the current order.
    fn solve_constraints(&mut self, iterations: u32, alpha_tilde: f32, gamma: f32) {
        let colored = !self.constraints.runs().is_empty();
        // The original order is a serial chain and runs one by one; damping needs
        // the previous positions and stays on that scalar path too.
        if gamma != 0.0 || !colored {
            for _ in 0..iterations {
                let (ids, rest_lengths, lambdas) = self.constraints.parts_mut();
                solver::solve_sweep(
                    &mut self.positions,
                    &self.previous,
                    &self.inverse_mass,
                    ids,
                    rest_lengths,
                    lambdas,
                    alpha_tilde,
                    gamma,
                );
            }
            return;
        }
        // The coloured sweep loads four particles per vector from split x and y
        // arrays: split once, sweep `iterations` times, merge back.
        colored::split(&self.positions, &mut self.xs, &mut self.ys);
        let mut points = Split {
            xs: &mut self.xs,
            ys: &mut self.ys,
        };
        let (runs, ids, rest_lengths, lambdas) = self.constraints.runs_and_parts_mut();
        for _ in 0..iterations {
            for run in runs {
                let inverse_mass = &self.inverse_mass;
                colored::solve_run(
                    &mut points,
                    inverse_mass,
                    run,
                    ids,
                    rest_lengths,
                    lambdas,
                    alpha_tilde,
                );
            }
        }
        colored::merge(&self.xs, &self.ys, &mut self.positions);
    }

    /// Removes every constraint stretched beyond `factor` times its rest length.
    fn tear(&mut self, factor: f64) {
        let limit = (factor - 1.0) as f32;
        let (ids, rest_lengths) = (self.constraints.ids(), self.constraints.rest_lengths());
        self.torn.clear();
        self.torn.extend(
            (0..rest_lengths.len())
                .map(|c| solver::stretch(&self.positions, ids, rest_lengths, c) > limit),
        );
        self.torn_count += self.constraints.remove(&self.torn);
    }

    /// Advances `n` steps in one call: a whole number from 0 to 10000, and no
    /// more than [`MAX_SOLVES_PER_CALL`] constraint solves in all, so one call
    /// cannot block its caller for more than about a second.
    pub fn steps(&mut self, n: f64) -> Result<(), ClothError> {
        let most = self.max_steps_per_call();
        if !(n.is_finite() && n.fract() == 0.0 && (0.0..=most as f64).contains(&n)) {
            let why = if most < MAX_STEPS_PER_CALL {
                format!(
                    " for this cloth (steps × substeps × iterations × constraints at most \
                     {MAX_SOLVES_PER_CALL} per call; call steps more often instead)"
                )
            } else {
                String::new()
            };
            return Err(ClothError::InvalidValue {
                field: "steps",
                value: params::Number(n).to_string(),
                allowed: format!("a whole number from 0 to {most}{why}"),
            });
        }
        for _ in 0..n as u32 {
            self.step();
        }
        Ok(())
    }

    /// The most steps one [`Cloth::steps`] call may take with the current work per step.
    pub fn max_steps_per_call(&self) -> u32 {
        let p = self.params;
        let per_step =
            (p.substeps as u64 * p.iterations as u64 * self.num_constraints() as u64).max(1);
        (MAX_SOLVES_PER_CALL / per_step).min(MAX_STEPS_PER_CALL as u64) as u32
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

    /// Puts every particle back where it started the step and stops the cloth,
    /// so no NaN ever leaves the simulation.
    fn undo_diverged_step(&mut self) {
        let start = if self.params.substeps > 1 {
            &self.step_start
        } else {
            &self.previous
        };
        self.positions.copy_from_slice(start);
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
                value: params::Number(radius).to_string(),
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

    /// Interleaved constraint endpoints `[a0, b0, a1, b1, ...]`, in solver order
    /// (torn constraints are gone).
    pub fn constraint_ids(&self) -> &[u32] {
        self.constraints.ids()
    }

    /// Rest length of each constraint, in metres, in the order of `constraint_ids`.
    pub fn rest_lengths(&self) -> &[f32] {
        self.constraints.rest_lengths()
    }

    /// Tension of each constraint in newtons, from its multiplier after the last
    /// substep: `-λ / h²` (positive when the constraint pulls its ends together).
    pub fn constraint_forces(&mut self) -> &[f32] {
        let h = self.params.substep_size();
        let scale = (-1.0 / (h * h)) as f32;
        self.forces.clear();
        self.forces.extend(
            self.constraints
                .lambdas()
                .iter()
                .map(|&lambda| lambda * scale),
        );
        &self.forces
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

    /// Gravitational potential energy `Σ m (-gravity) y` of the moving
    /// particles, in joules (zero at y = 0).
    pub fn potential_energy(&self) -> f64 {
        let (mass, gravity) = (self.params.mass, self.params.gravity);
        self.positions
            .chunks_exact(2)
            .zip(&self.inverse_mass)
            .filter(|(_, &w)| w != 0.0)
            .map(|(p, _)| -mass * gravity * p[1] as f64)
            .sum()
    }

    /// `false` once a step produced a non-finite or runaway position. That step
    /// was undone and the cloth stopped; build a new one to continue.
    pub fn is_finite(&self) -> bool {
        !self.diverged
    }
}
