//! The cloth: simulation state, its parameters, user interaction and diagnostics.
//!
//! [`Cloth`] owns every array of the simulation in flat, `f32`, structure-of-arrays
//! form (the JavaScript side reads `positions` and `constraint_ids` directly out of
//! wasm memory), drives the steps of [`crate::solver`], and guards its state: every
//! method that takes outside input validates it first and leaves the cloth
//! unchanged when it refuses.

use crate::colliders::Collider;
use crate::colored;
use crate::constraints::ConstraintSet;
use crate::extras::{Extras, Topology};
use crate::grid;
use crate::memory;
use crate::params::{
    self, ClothError, FixedPreset, GridSize, Params, SolverOrder, SweepPath, Workload,
};
use crate::scene::{self, DistanceStiffness, Scene, Shape};
use crate::solver::{self, Split};
use std::collections::TryReserveError;

/// Positions farther than this from the origin (metres) count as diverged:
/// still finite in `f32`, but no longer a cloth anyone can see. Dragging is
/// limited to the same range.
pub const DIVERGENCE_LIMIT: f32 = params::MAX_COORDINATE as f32;

/// Constraints per piece of a sweep: where [`Cloth::advance`] may stop within
/// one (a fraction of a millisecond of work on any path).
pub const SWEEP_CHUNK: usize = 16_384;

/// Largest number of steps one [`Cloth::steps`] call accepts.
pub const MAX_STEPS_PER_CALL: u32 = 10_000;

/// The refusal of `value` (shown as given) as the `max_steps` of
/// [`Cloth::advance_checked`].
pub fn max_steps_error(value: impl std::fmt::Display) -> ClothError {
    ClothError::InvalidValue {
        field: "maxSteps",
        value: value.to_string(),
        allowed: format!("a whole number from 0 to {MAX_STEPS_PER_CALL}"),
    }
}

/// The refusal of `value` (shown as given) as the `work_budget` of
/// [`Cloth::advance_checked`].
pub fn work_budget_error(value: impl std::fmt::Display) -> ClothError {
    ClothError::InvalidValue {
        field: "workBudget",
        value: value.to_string(),
        allowed: format!(
            "a number of work units from 0 to {} (about 1.5 s)",
            params::MAX_WORK_PER_CALL
        ),
    }
}

/// The connectivity [`Extras`] reads: the live constraints and the pins.
fn topology<'a>(constraints: &'a ConstraintSet, pinned: &'a [bool]) -> Topology<'a> {
    Topology {
        ids: constraints.ids(),
        rest_lengths: constraints.rest_lengths(),
        built_with: constraints.built_with(),
        pinned,
    }
}

/// Compliance `1/k` in m/N of stiffness `k` N/m, 0 for 0 (rigid).
fn compliance(stiffness: f64) -> f64 {
    if stiffness == 0.0 {
        0.0
    } else {
        1.0 / stiffness
    }
}

/// Bytes a simulation of `scene` needs, roughly: what a grid of as many
/// particles and constraints keeps, for an out-of-memory message.
fn scene_bytes(scene: &Scene) -> u64 {
    let (n, m) = (scene.num_particles() as u64, scene.num_distances() as u64);
    n * 60 + m * 40
}

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

/// The values one substep runs with, fixed when it begins: a setter called while
/// it is in progress applies from the next substep.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Substep {
    /// Substep size `h = dt / substeps`, seconds.
    h: f64,
    alpha_tilde: f32,
    gamma: f32,
    iterations: u32,
    /// Constraint damping is on: the sweeps run on the scalar damped path.
    damped: bool,
    /// The constraint damping coefficient, N·s/m.
    damping: f64,
    velocity_damping: f64,
    tear_stretch: f64,
}

/// Where a step in progress is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// The next substep has not begun (no prediction yet).
    Predict,
    /// The substep has predicted and done `sweeps` of its sweeps and the first
    /// `next` chunks' worth of the one in progress (constraints on the scalar
    /// path, runs on the coloured one); after the last sweep it updates
    /// velocities, damps and tears.
    Solve {
        substep: Substep,
        sweeps: u32,
        next: usize,
    },
}

/// A step that has begun and not finished (see [`Cloth::advance`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct StepInProgress {
    /// The time step and substep count the step began with; it keeps them, so
    /// its substeps add up to its `dt`.
    time_step: f64,
    substeps: u32,
    /// The substep in progress (0-based).
    substep: u32,
    phase: Phase,
    /// Simulated time and torn count when the step began (restored if it diverges).
    start_time: f64,
    start_torn_count: usize,
}

/// An XPBD simulation: particles joined by distance constraints (the grid
/// cloth, or any [`Scene`]), with what the scene adds (see [`crate::extras`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Cloth {
    params: Params,
    /// `[x0, y0, x1, y1, ...]`, metres.
    positions: Vec<f32>,
    /// Positions at the start of the current (sub)step.
    previous: Vec<f32>,
    /// Positions and velocities at the start of the current step: where a
    /// diverged step goes back to.
    step_start: Vec<f32>,
    step_start_velocities: Vec<f32>,
    /// `[vx0, vy0, ...]`, m/s.
    velocities: Vec<f32>,
    /// `1/mass` for free particles, 0 for pinned and grabbed ones.
    inverse_mass: Vec<f32>,
    /// Each particle's own mass in kg (0: pinned by the scene), for a scene
    /// whose free particles differ in mass, until `mass` is set; `None`: every
    /// free particle has the `mass` parameter.
    masses: Option<Vec<f32>>,
    pinned: Vec<bool>,
    /// The distance constraints, their rest lengths and multipliers, in solver order.
    constraints: ConstraintSet,
    /// Compliance (m/N, 0 = rigid) of each distance constraint by creation
    /// index, for a scene with per-constraint stiffness; `None`: all have the
    /// `stiffness` parameter's.
    compliances: Option<Vec<f64>>,
    /// Bending, areas, tethers, contacts and wind (see [`crate::extras`]).
    extras: Extras,
    /// Scratch: x and y of every particle, split for the coloured SIMD sweep.
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Scratch: tension of each constraint, filled by [`Cloth::constraint_forces`].
    forces: Vec<f32>,
    /// How many constraints have torn since the cloth was built.
    torn_count: usize,
    /// Simulated time, seconds.
    time: f64,
    /// The step begun and not yet finished by [`Cloth::advance`], if any.
    step: Option<StepInProgress>,
    /// Work units done since the cloth was built.
    work_done: u64,
    grab: Option<Grab>,
    diverged: bool,
}

impl Cloth {
    /// Builds the original's cloth of `size` with the `preset` fixed corners and
    /// default parameters. Panics where [`Cloth::try_new`] returns an error.
    pub fn new(size: GridSize, preset: FixedPreset) -> Cloth {
        Cloth::try_new(size, preset).unwrap_or_else(|error| panic!("{error}"))
    }

    /// Builds the original's cloth of `size` with the `preset` fixed corners and
    /// default parameters, or refuses: a size outside the limits of
    /// [`GridSize::new`], or a cloth that does not fit in memory
    /// ([`ClothError::OutOfMemory`]). Every buffer the steps use is reserved
    /// here, so stepping never allocates.
    pub fn try_new(size: GridSize, preset: FixedPreset) -> Result<Cloth, ClothError> {
        let scene = grid::scene(size, preset)?;
        let out_of_memory = |_| memory::cloth_out_of_memory(size);
        // the grid's colours are a proper colouring by construction
        scene.validate_entries()?;
        let mut cloth = Cloth::build(scene, &out_of_memory)?;
        cloth.defer_grid_bending(size);
        Ok(cloth)
    }

    /// Makes a grid cloth of `size` derive its bending pairs (particles two
    /// apart along rows and columns) when bending is first switched on, so a
    /// cloth without bending keeps no memory for them.
    pub(crate) fn defer_grid_bending(&mut self, size: GridSize) {
        self.extras.defer_grid_bending(size);
    }

    /// Builds the simulation of `scene` with default parameters but for what
    /// the scene sets: the stiffness of uniformly stiff distance constraints
    /// and the masses. Refuses a malformed scene with
    /// [`ClothError::InvalidScene`] naming the first wrong entry, and one that
    /// does not fit in memory with [`ClothError::OutOfMemory`].
    ///
    /// Masses: particles of mass 0 start pinned. When every free particle has
    /// one mass, that is the `mass` parameter; otherwise each keeps its own and
    /// the `mass` parameter reports their mean, until it is set: setting `mass`
    /// gives every free particle that mass. A particle pinned by the scene and
    /// freed with [`Cloth::set_pinned`] gets the `mass` parameter.
    ///
    /// Distance constraints without given colours are coloured greedily for the
    /// coloured sweep; constraints with [`DistanceStiffness::PerConstraint`]
    /// are solved one by one (the scalar sweep), each with its own compliance,
    /// and the `stiffness` parameter does not apply to them.
    pub fn from_scene(scene: &Scene) -> Result<Cloth, ClothError> {
        scene.validate()?;
        let out_of_memory = |_| ClothError::OutOfMemory {
            field: "scene",
            what: format!(
                "a scene of {} particles and {} constraints needs {} MiB",
                scene.num_particles(),
                scene.num_distances(),
                memory::mib(scene_bytes(scene))
            ),
        };
        let copy = Scene {
            positions: memory::copied(&scene.positions).map_err(out_of_memory)?,
            masses: memory::copied(&scene.masses).map_err(out_of_memory)?,
            distances: memory::copied(&scene.distances).map_err(out_of_memory)?,
            rest_lengths: match &scene.rest_lengths {
                Some(r) => Some(memory::copied(r).map_err(out_of_memory)?),
                None => None,
            },
            distance_stiffness: scene.distance_stiffness.clone(),
            colors: match &scene.colors {
                Some(c) => Some(memory::copied(c).map_err(out_of_memory)?),
                None => None,
            },
            areas: scene.areas.clone(),
            bending: scene.bending.clone(),
            colliders: scene.colliders.clone(),
        };
        Cloth::build(copy, &out_of_memory)
    }

    /// Builds the simulation of a validated `scene`, taking its arrays over
    /// (its masses become the inverse masses, its positions the positions), so
    /// the grid needs no memory beyond the cloth it becomes.
    fn build(
        scene: Scene,
        out_of_memory: &dyn Fn(TryReserveError) -> ClothError,
    ) -> Result<Cloth, ClothError> {
        let extras = Extras::try_new(&scene)?;
        let n = scene.num_particles();
        let mut params = Params::default();
        let colors = match scene.colors {
            Some(colors) => colors,
            None => scene::greedy_colors("distances", &scene.distances, n)?,
        };
        let rest_lengths = match scene.rest_lengths {
            Some(rest_lengths) => rest_lengths,
            None => memory::collect(
                scene.distances.len() / 2,
                scene.distances.chunks_exact(2).map(|pair| {
                    let (a, b) = (pair[0] as usize, pair[1] as usize);
                    let dx = scene.positions[2 * a] - scene.positions[2 * b];
                    let dy = scene.positions[2 * a + 1] - scene.positions[2 * b + 1];
                    (dx * dx + dy * dy).sqrt()
                }),
            )
            .map_err(out_of_memory)?,
        };
        let compliances = match scene.distance_stiffness {
            DistanceStiffness::Uniform(stiffness) => {
                params.stiffness = stiffness;
                None
            }
            DistanceStiffness::PerConstraint(values) => Some(
                memory::collect(values.len(), values.iter().map(|&k| compliance(k)))
                    .map_err(out_of_memory)?,
            ),
        };
        let mut pinned = memory::filled(n, false).map_err(out_of_memory)?;
        let mut free = scene.masses.iter().filter(|&&m| m > 0.0);
        let first = free.clone().next().copied();
        let uniform = free.all(|&m| Some(m) == first);
        let masses = if uniform {
            if let Some(mass) = first {
                // the f32 as typed (0.05, not 0.05000000074505806)
                params.mass = format!("{mass}").parse().unwrap_or(mass as f64);
            }
            None
        } else {
            let (sum, count) = scene
                .masses
                .iter()
                .filter(|&&m| m > 0.0)
                .fold((0.0, 0usize), |(s, c), &m| (s + m as f64, c + 1));
            let (min, max) = scene::mass_range();
            params.mass = (sum / count as f64).clamp(min, max);
            Some(memory::copied(&scene.masses).map_err(out_of_memory)?)
        };
        for (k, &mass) in scene.masses.iter().enumerate() {
            pinned[k] = mass == 0.0;
        }
        // the masses' buffer becomes the inverse masses (set below)
        let inverse_mass = scene.masses;
        let positions = scene.positions;
        let constraints =
            ConstraintSet::try_new(scene.distances, rest_lengths, colors, params.solver_order)
                .map_err(out_of_memory)?;
        let count = constraints.len();
        let mut cloth = Cloth {
            params,
            previous: memory::copied(&positions).map_err(out_of_memory)?,
            step_start: memory::copied(&positions).map_err(out_of_memory)?,
            step_start_velocities: memory::filled(2 * n, 0.0).map_err(out_of_memory)?,
            positions,
            velocities: memory::filled(2 * n, 0.0).map_err(out_of_memory)?,
            inverse_mass,
            masses,
            pinned,
            constraints,
            compliances,
            extras,
            xs: memory::with_capacity(n).map_err(out_of_memory)?,
            ys: memory::with_capacity(n).map_err(out_of_memory)?,
            forces: memory::with_capacity(count).map_err(out_of_memory)?,
            torn_count: 0,
            time: 0.0,
            step: None,
            work_done: 0,
            grab: None,
            diverged: false,
        };
        cloth.update_inverse_masses();
        // bending pairs follow the tears of the constraints around their middle
        let p = cloth.params;
        cloth.prepare_extras(&p, "scene")?;
        Ok(cloth)
    }

    /// Bytes of memory the cloth's buffers hold (their capacity), for checking
    /// [`memory::cloth_bytes`] against what is really allocated.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.positions)
            + bytes(&self.previous)
            + bytes(&self.step_start)
            + bytes(&self.step_start_velocities)
            + bytes(&self.velocities)
            + bytes(&self.inverse_mass)
            + bytes(&self.pinned)
            + bytes(&self.xs)
            + bytes(&self.ys)
            + bytes(&self.forces)
            + self.masses.as_ref().map_or(0, bytes)
            + self.compliances.as_ref().map_or(0, bytes)
            + self.constraints.heap_bytes()
            + self.extras.heap_bytes()
    }

    // ----- parameters -----------------------------------------------------

    /// The live solver parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Replaces all parameters at once, after validating each; on error nothing changes.
    /// Values apply as their setters' do (see [`Cloth::advance`]).
    pub fn set_params(&mut self, p: Params) -> Result<(), ClothError> {
        p.validate()?;
        self.validate_work("iterations", p.iterations, &p)?;
        if p.self_collision {
            self.extras.reserve_self_collision(self.num_particles())?;
        }
        let field = if p.tethers && !self.params.tethers {
            "tethers"
        } else {
            "bendingStiffness"
        };
        self.prepare_extras(&p, field)?;
        if p.mass != self.params.mass {
            self.masses = None;
        }
        self.params = p;
        self.update_inverse_masses();
        self.arrange_constraints();
        Ok(())
    }

    /// Applies `change` to the parameters only when one step with the changed
    /// parameters stays within [`params::MAX_WORK_PER_STEP`]; otherwise nothing
    /// changes and the error names `field` and `value`.
    fn change_within_work_limit(
        &mut self,
        field: &'static str,
        value: impl std::fmt::Display,
        change: impl FnOnce(&mut Params),
    ) -> Result<(), ClothError> {
        let mut p = self.params;
        change(&mut p);
        self.validate_work(field, value, &p)?;
        self.params = p;
        Ok(())
    }

    /// Refuses parameters `p` when one step with them would exceed
    /// [`params::MAX_WORK_PER_STEP`]; the error names `field` and `value`.
    fn validate_work(
        &self,
        field: &'static str,
        value: impl std::fmt::Display,
        p: &Params,
    ) -> Result<(), ClothError> {
        params::validate_work(field, value, p, &self.workload())
    }

    /// The sizes the work of a step depends on.
    fn workload(&self) -> Workload {
        let mut layout = self.constraints.colored_layout();
        if self.compliances.is_some() {
            // solved one by one whatever the order: counted as the dearest
            // coloured layout, every constraint a scattered run of its own,
            // which costs more than a damped scalar solve
            layout.runs = self.num_constraints();
            layout.scattered = self.num_constraints();
        }
        Workload {
            particles: self.num_particles(),
            constraints: self.num_constraints(),
            colored_runs: layout.runs,
            colored_scattered: layout.scattered,
            colliders: self.extras.colliders.len(),
            ..self.extras.workload(self.num_particles())
        }
    }

    /// Sets the time step `dt` in seconds (1e-6..=1). A step in progress keeps its own.
    pub fn set_time_step(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.time_step = params::TIME_STEP.check_number(value)?;
        Ok(())
    }

    /// Sets the solver sweeps per step (1..=1000).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_iterations(&mut self, value: u32) -> Result<(), ClothError> {
        params::ITERATIONS.check_count(value.into())?;
        self.change_within_work_limit("iterations", value, |p| p.iterations = value)
    }

    /// Sets the stiffness in N/m (0..=1e15; 0 is PBD).
    pub fn set_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.stiffness = params::STIFFNESS.check_number(value)?;
        Ok(())
    }

    /// Sets gravity in m/s² (-1e6..=1e6; negative pulls down).
    pub fn set_gravity(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.gravity = params::GRAVITY.check_number(value)?;
        Ok(())
    }

    /// Sets the mass of every free particle in kg (1e-6..=1e6); a scene's own
    /// masses give way to it (see [`Cloth::from_scene`]).
    pub fn set_mass(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.mass = params::MASS.check_number(value)?;
        self.masses = None;
        self.update_inverse_masses();
        Ok(())
    }

    /// Sets the substeps per time step (1..=100).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_substeps(&mut self, value: u32) -> Result<(), ClothError> {
        params::SUBSTEPS.check_count(value.into())?;
        self.change_within_work_limit("substeps", value, |p| p.substeps = value)
    }

    /// Sets the constraint damping coefficient in N·s/m (0..=1e9). Above 0 the
    /// sweeps run on the slower scalar damped path, so turning it on is refused
    /// when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_damping(&mut self, value: f64) -> Result<(), ClothError> {
        let damping = params::DAMPING.check_number(value)?;
        self.change_within_work_limit("damping", params::Number(value), |p| p.damping = damping)
    }

    /// Sets the global velocity damping rate in 1/s (0..=1000); turning it on
    /// is refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_velocity_damping(&mut self, value: f64) -> Result<(), ClothError> {
        let velocity_damping = params::VELOCITY_DAMPING.check_number(value)?;
        self.change_within_work_limit("velocityDamping", params::Number(value), |p| {
            p.velocity_damping = velocity_damping
        })
    }

    /// Sets the tear threshold (0 = off, else a stretch factor above 1, up to
    /// 1000); turning tearing on is refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    pub fn set_tear_stretch(&mut self, value: f64) -> Result<(), ClothError> {
        let tear_stretch = params::TEAR_STRETCH.check_number(value)?;
        self.change_within_work_limit("tearStretch", params::Number(value), |p| {
            p.tear_stretch = tear_stretch
        })
    }

    /// Sets the sweep order; the constraint arrays are rearranged to match (at
    /// once, or when the step in progress ends). Refused when one step would
    /// exceed [`params::MAX_WORK_PER_STEP`] in that order.
    pub fn set_solver_order(&mut self, order: SolverOrder) -> Result<(), ClothError> {
        let name = format_args!("{:?}", order.name());
        self.change_within_work_limit("solverOrder", name, |p| p.solver_order = order)?;
        self.arrange_constraints();
        Ok(())
    }

    /// Sets the bending stiffness in N/m (0..=1e15; 0 turns bending off).
    /// Refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_bending_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        let stiffness = params::BENDING_STIFFNESS.check_number(value)?;
        let mut p = self.params;
        p.bending_stiffness = stiffness;
        self.validate_work("bendingStiffness", params::Number(value), &p)?;
        self.prepare_extras(&p, "bendingStiffness")?;
        self.params = p;
        Ok(())
    }

    /// Turns the long-range attachments on or off. Refused when one step
    /// would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_tethers(&mut self, on: bool) -> Result<(), ClothError> {
        let mut p = self.params;
        p.tethers = on;
        self.validate_work("tethers", on, &p)?;
        self.prepare_extras(&p, "tethers")?;
        self.params = p;
        Ok(())
    }

    /// Lets the extras reserve what parameters `p` switch on; `OutOfMemory`
    /// names `field`.
    fn prepare_extras(&mut self, p: &Params, field: &'static str) -> Result<(), ClothError> {
        let topology = topology(&self.constraints, &self.pinned);
        self.extras.prepare(p, topology, field)
    }

    /// Tells the extras that pins changed or constraints tore or came back.
    fn topology_changed(&mut self) {
        let topology = topology(&self.constraints, &self.pinned);
        self.extras.topology_changed(&self.params, topology);
    }

    /// Sets the friction coefficient μ of contacts (0..=10).
    pub fn set_friction(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.friction = params::FRICTION.check_number(value)?;
        Ok(())
    }

    /// Sets the particle radius of contacts in metres (1e-4..=10).
    pub fn set_particle_radius(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.particle_radius = params::PARTICLE_RADIUS.check_number(value)?;
        Ok(())
    }

    /// Turns self-collision on or off. Refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    /// Its buffers (a spatial hash) are reserved when it is first switched on;
    /// `OutOfMemory` when they do not fit.
    pub fn set_self_collision(&mut self, on: bool) -> Result<(), ClothError> {
        let mut p = self.params;
        p.self_collision = on;
        self.validate_work("selfCollision", on, &p)?;
        if on {
            self.extras.reserve_self_collision(self.num_particles())?;
        }
        self.params = p;
        Ok(())
    }

    /// Sets the horizontal wind velocity in m/s (-1000..=1000).
    pub fn set_wind_x(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_x = params::WIND_X.check_number(value)?;
        Ok(())
    }

    /// Sets the vertical wind velocity in m/s (-1000..=1000).
    pub fn set_wind_y(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_y = params::WIND_Y.check_number(value)?;
        Ok(())
    }

    /// Sets the wind drag coefficient in kg/m² (0..=1e6).
    pub fn set_wind_drag(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_drag = params::WIND_DRAG.check_number(value)?;
        Ok(())
    }

    /// Puts the constraints in the order the parameters ask for, unless a step is
    /// in progress: its tear log must stay valid, so it rearranges them when it ends.
    fn arrange_constraints(&mut self) {
        if self.step.is_none() {
            self.constraints.set_order(self.params.solver_order);
        }
    }

    fn update_inverse_masses(&mut self) {
        for k in 0..self.num_particles() {
            self.update_inverse_mass(k);
        }
    }

    /// Particle `k`'s inverse mass: 0 while pinned or held, else `1/mass`.
    fn update_inverse_mass(&mut self, k: usize) {
        let held = self.pinned[k] || self.grabbed() == Some(k);
        self.inverse_mass[k] = if held {
            0.0
        } else {
            (1.0 / self.mass_of(k)) as f32
        };
    }

    /// Particle `k`'s mass in kg when free: its own in a scene of differing
    /// masses, else the `mass` parameter.
    fn mass_of(&self, k: usize) -> f64 {
        match &self.masses {
            Some(masses) if masses[k] > 0.0 => masses[k] as f64,
            _ => self.params.mass,
        }
    }

    // ----- stepping ---------------------------------------------------------

    /// Work units one step takes with the current parameters and live
    /// constraints (see [`params::work_per_step`]): about nanoseconds of wasm.
    pub fn work_per_step(&self) -> u64 {
        params::work_per_step(&self.params, &self.workload())
    }

    /// Work units done since the cloth was built.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }

    /// Whether a step has begun and not finished (see [`Cloth::advance`]).
    pub fn step_in_progress(&self) -> bool {
        self.step.is_some()
    }

    /// How far the step in progress is, from 0 (none, or just begun) to below 1:
    /// the fraction of its sweeps done.
    pub fn step_progress(&self) -> f64 {
        let Some(step) = self.step else { return 0.0 };
        let within = match step.phase {
            Phase::Predict => 0.0,
            Phase::Solve {
                substep,
                sweeps,
                next,
            } => {
                let pieces = self.sweep_pieces(&substep).max(1);
                (sweeps as f64 + next as f64 / pieces as f64) / (substep.iterations as f64 + 1.0)
            }
        };
        (step.substep as f64 + within) / step.substeps as f64
    }

    /// Advances the cloth by one time step `dt`, made of `substeps` substeps;
    /// a step in progress is finished instead (this is `advance(1, u64::MAX)`).
    /// Does nothing once the cloth has diverged (see [`Cloth::is_finite`]).
    pub fn step(&mut self) {
        self.advance(1, u64::MAX);
    }

    /// Steps in slices: finishes at most `max_steps` steps (a step in progress
    /// counts as one), and stops earlier, at the first boundary between two
    /// pieces of work, once `work_budget` work units are spent, leaving a step in
    /// progress that the next call (or [`Cloth::step`]) continues. A piece is a
    /// chunk of a sweep ([`SWEEP_CHUNK`] constraints, or the coloured runs that
    /// cover as many), or the start or end of a substep; at least one is done
    /// per call (with `max_steps > 0`), so a call overshoots its budget by at
    /// most one piece, a millisecond or less. Returns `(steps finished, work
    /// units done)`.
    ///
    /// The result is bit for bit that of calling [`Cloth::step`] as often.
    /// Between slices the cloth is in a valid state: `positions` are current
    /// (mid-step: corrected by the sweeps done so far), and every setter and
    /// interaction may be called. What they change applies:
    /// * `mass`, pins, grab, drag and release: at once (to the remaining sweeps);
    /// * `iterations`, `stiffness`, `gravity`, `damping`, `velocityDamping`,
    ///   `tearStretch`: from the next substep (the one in progress keeps its values);
    /// * `timeStepSize`, `substeps`, `solverOrder`: from the next step (the step in
    ///   progress keeps its `h`, and its constraints keep their order until it ends).
    pub fn advance(&mut self, max_steps: u32, work_budget: u64) -> (u32, u64) {
        let mut finished = 0;
        let mut work = 0;
        while finished < max_steps && !self.diverged {
            if work > 0 && work >= work_budget {
                break;
            }
            let Some(step) = self.step else {
                work += self.begin_step();
                continue;
            };
            match step.phase {
                Phase::Predict => work += self.begin_substep(step),
                Phase::Solve {
                    substep,
                    sweeps,
                    next,
                } if sweeps < substep.iterations => {
                    let left = work_budget.saturating_sub(work);
                    work += self.sweep(step, substep, (sweeps, next), left);
                }
                Phase::Solve { substep, .. } => {
                    work += self.end_substep(step, substep);
                    if step.substep + 1 == step.substeps {
                        self.end_step(step);
                        finished += 1;
                    }
                }
            }
        }
        self.work_done += work;
        (finished, work)
    }

    /// Begins a step: saves where it starts. Returns its work.
    fn begin_step(&mut self) -> u64 {
        let p = self.params;
        self.step_start.copy_from_slice(&self.positions);
        self.step_start_velocities.copy_from_slice(&self.velocities);
        self.constraints.clear_tear_log();
        self.step = Some(StepInProgress {
            time_step: p.time_step,
            substeps: p.substeps,
            substep: 0,
            phase: Phase::Predict,
            start_time: self.time,
            start_torn_count: self.torn_count,
        });
        params::work::STEP + self.num_particles() as u64 * params::work::PARTICLE_STEP
    }

    /// Begins a substep of size `h = dt / substeps`: fixes its values, predicts
    /// and resets the multipliers. Returns its work.
    fn begin_substep(&mut self, step: StepInProgress) -> u64 {
        let p = self.params;
        let h = step.time_step / step.substeps as f64;
        let substep = Substep {
            h,
            alpha_tilde: solver::alpha_tilde(p.compliance(), h),
            gamma: solver::gamma(p.compliance(), p.damping, h),
            iterations: p.iterations,
            damped: p.damping > 0.0,
            damping: p.damping,
            velocity_damping: p.velocity_damping,
            tear_stretch: p.tear_stretch,
        };
        self.extras.begin_substep(
            &self.positions,
            &mut self.velocities,
            &self.inverse_mass,
            self.constraints.ids(),
            &p,
            h,
        );
        solver::predict(
            &mut self.positions,
            &mut self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            h as f32,
            p.gravity as f32,
        );
        self.constraints.reset_multipliers();
        self.step = Some(StepInProgress {
            phase: Phase::Solve {
                substep,
                sweeps: 0,
                next: 0,
            },
            ..step
        });
        let (n, m) = (self.num_particles() as u64, self.num_constraints() as u64);
        params::work::SUBSTEP
            + n * params::work::PREDICT
            + (m + self.extras.multipliers(&p) as u64) * params::work::CONSTRAINT_SUBSTEP
    }

    /// Whether the substep's sweeps run on the coloured SIMD path (else scalar).
    fn sweeps_colored(&self, substep: &Substep) -> bool {
        !substep.damped
            && self.compliances.is_none()
            && self.constraints.order() == SolverOrder::Colored
            && !self.constraints.is_empty()
    }

    /// What `next` counts in a sweep of the substep: runs on the coloured path,
    /// constraints on the scalar one.
    fn sweep_pieces(&self, substep: &Substep) -> usize {
        if self.sweeps_colored(substep) {
            self.constraints.runs().len()
        } else {
            self.constraints.len()
        }
    }

    /// Gauss–Seidel sweeps over all constraints in the current order, from
    /// `(sweep, next)` of the substep on (see [`Phase::Solve`]), a chunk at a
    /// time, until the last sweep ends or `budget` is spent (at least one
    /// chunk). Stopping between chunks and going on later does the same
    /// arithmetic in the same order. Returns the work done.
    fn sweep(
        &mut self,
        step: StepInProgress,
        substep: Substep,
        (mut sweeps, mut next): (u32, usize),
        budget: u64,
    ) -> u64 {
        let colored = self.sweeps_colored(&substep);
        let extras = self.extras.is_active(&self.params);
        let mut work = 0;
        let mut progressed = false;
        if colored {
            // The coloured sweep loads four particles per vector from split x and
            // y arrays: split, sweep, merge back, so `positions` stay current
            // between slices.
            work += self.num_particles() as u64 * params::work::SPLIT_MERGE;
            colored::split(&self.positions, &mut self.xs, &mut self.ys);
            let mut points = Split {
                xs: &mut self.xs,
                ys: &mut self.ys,
            };
            let (runs, mut constraints) = self.constraints.runs_and_solver_view();
            while sweeps < substep.iterations && !(progressed && work >= budget) {
                if next == 0 {
                    work += params::work::SWEEP;
                }
                let mut chunk = 0;
                while next < runs.len() && chunk < SWEEP_CHUNK {
                    let run = &runs[next];
                    colored::solve_run(
                        &mut points,
                        &self.inverse_mass,
                        run,
                        &mut constraints,
                        substep.alpha_tilde,
                    );
                    work += params::colored_run_cost(run.range.len(), run.scattered());
                    chunk += run.range.len();
                    next += 1;
                }
                progressed = true;
                if next == runs.len() {
                    (sweeps, next) = (sweeps + 1, 0);
                    if extras {
                        work += self
                            .extras
                            .solve_work(&self.params, self.inverse_mass.len());
                        let (previous, inverse_mass) = (&self.previous, &self.inverse_mass);
                        self.extras.solve(
                            &mut points,
                            previous,
                            inverse_mass,
                            &self.params,
                            substep.h,
                        );
                    }
                }
            }
            colored::merge(&self.xs, &self.ys, &mut self.positions);
        } else {
            // The original order is a serial chain and runs one by one; damping
            // needs the previous positions and stays on that scalar path too.
            let (gamma, path) = if substep.damped {
                (substep.gamma, SweepPath::Damped)
            } else {
                (0.0, SweepPath::Original)
            };
            let per_constraint = params::solve_cost(path);
            while sweeps < substep.iterations && !(progressed && work >= budget) {
                if next == 0 {
                    work += params::work::SWEEP;
                }
                let (mut constraints, creation) = self.constraints.solver_view_and_creation();
                let count = constraints.len();
                let end = (next + SWEEP_CHUNK).min(count);
                if let Some(compliances) = &self.compliances {
                    solver::solve_sweep_compliances(
                        &mut self.positions,
                        &self.previous,
                        &self.inverse_mass,
                        constraints.slice(next..end),
                        solver::Compliances {
                            of_created: compliances,
                            creation: &creation[next..end],
                            h: substep.h,
                            damping: substep.damping,
                        },
                    );
                    work += (end - next) as u64 * params::solve_cost(SweepPath::Damped);
                } else {
                    solver::solve_sweep(
                        &mut self.positions,
                        &self.previous,
                        &self.inverse_mass,
                        constraints.slice(next..end),
                        substep.alpha_tilde,
                        gamma,
                    );
                    work += (end - next) as u64 * per_constraint;
                }
                progressed = true;
                next = end;
                if next == count {
                    (sweeps, next) = (sweeps + 1, 0);
                    if extras {
                        work += self
                            .extras
                            .solve_work(&self.params, self.inverse_mass.len());
                        let (previous, inverse_mass) = (&self.previous, &self.inverse_mass);
                        self.extras.solve(
                            self.positions.as_mut_slice(),
                            previous,
                            inverse_mass,
                            &self.params,
                            substep.h,
                        );
                    }
                }
            }
        }
        self.step = Some(StepInProgress {
            phase: Phase::Solve {
                substep,
                sweeps,
                next,
            },
            ..step
        });
        work
    }

    /// Ends a substep: velocities from the motion, damping, tearing. Returns its work.
    fn end_substep(&mut self, step: StepInProgress, substep: Substep) -> u64 {
        let n = self.num_particles() as u64;
        let mut work = n * params::work::VELOCITY_UPDATE
            + params::contacts_and_wind_cost(&self.params, &self.workload());
        self.extras.end_substep(
            &mut self.positions,
            &self.previous,
            &self.inverse_mass,
            &self.params,
            substep.h,
        );
        solver::update_velocities(
            &self.positions,
            &self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            substep.h as f32,
        );
        if substep.velocity_damping > 0.0 {
            solver::damp_velocities(&mut self.velocities, substep.velocity_damping, substep.h);
            work += n * params::work::VELOCITY_DAMPING;
        }
        if substep.tear_stretch > 0.0 {
            let m = self.num_constraints();
            work += m as u64 * params::work::TEAR_CHECK;
            work += params::tear_followup_cost(&self.params, n as usize, m);
            self.tear(substep.tear_stretch);
        }
        self.step = Some(StepInProgress {
            substep: step.substep + 1,
            phase: Phase::Predict,
            ..step
        });
        work
    }

    /// Ends a step: time moves on by its `dt`; a step that went out of bounds is undone.
    fn end_step(&mut self, step: StepInProgress) {
        self.time += step.time_step;
        self.track_grab();
        self.extras.end_step(self.time);
        if !self.positions_in_bounds() {
            self.undo_diverged_step(step);
        }
        self.step = None;
        self.arrange_constraints();
    }

    /// Tears every constraint stretched beyond `factor` times its rest length.
    fn tear(&mut self, factor: f64) {
        let limit = (factor - 1.0) as f32;
        let positions = &self.positions;
        let torn = self
            .constraints
            .tear(|a, b, rest_length| solver::pair_stretch(positions, a, b, rest_length) > limit);
        self.torn_count += torn;
        if torn > 0 {
            self.topology_changed();
        }
    }

    /// Advances `n` steps in one call: from 0 to 10000, and no more than
    /// [`params::MAX_WORK_PER_CALL`] work units in all (see
    /// [`Cloth::max_steps_per_call`]), so one call cannot block its caller for
    /// more than about 1.5 seconds.
    pub fn steps(&mut self, n: u32) -> Result<(), ClothError> {
        if n > self.max_steps_per_call() {
            return Err(self.steps_error(n));
        }
        self.advance(n, u64::MAX);
        Ok(())
    }

    /// The refusal of `value` (shown as given) as the `n` of [`Cloth::steps`]:
    /// it says what this cloth accepts, and why when that is below 10000.
    pub fn steps_error(&self, value: impl std::fmt::Display) -> ClothError {
        let most = self.max_steps_per_call();
        let why = if most < MAX_STEPS_PER_CALL {
            format!(
                " for this cloth: one step takes {} work units, a call at most {} \
                 (about 1.5 s); call steps more often instead",
                self.work_per_step(),
                params::MAX_WORK_PER_CALL
            )
        } else {
            String::new()
        };
        ClothError::InvalidValue {
            field: "steps",
            value: value.to_string(),
            allowed: format!("a whole number from 0 to {most}{why}"),
        }
    }

    /// The most steps one [`Cloth::steps`] call may take:
    /// [`params::MAX_WORK_PER_CALL`] over the work of one step, at most 10000.
    pub fn max_steps_per_call(&self) -> u32 {
        (params::MAX_WORK_PER_CALL / self.work_per_step()).min(MAX_STEPS_PER_CALL as u64) as u32
    }

    /// [`Cloth::advance`] within the limits of one call: `max_steps` at most
    /// 10000, `work_budget` at most [`params::MAX_WORK_PER_CALL`] work units.
    /// Returns the steps finished.
    pub fn advance_checked(&mut self, max_steps: u32, work_budget: u64) -> Result<u32, ClothError> {
        if max_steps > MAX_STEPS_PER_CALL {
            return Err(max_steps_error(max_steps));
        }
        if work_budget > params::MAX_WORK_PER_CALL {
            return Err(work_budget_error(work_budget));
        }
        Ok(self.advance(max_steps, work_budget).0)
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

    /// Undoes all the step did and stops the cloth, so no NaN ever leaves the
    /// simulation: positions, velocities and time go back to the start of the
    /// step, and the constraints it tore come back (to their places, uncounted).
    /// The multipliers become 0: the step's tensions are meaningless, and those
    /// of the step before are not kept.
    fn undo_diverged_step(&mut self, step: StepInProgress) {
        self.positions.copy_from_slice(&self.step_start);
        self.velocities.copy_from_slice(&self.step_start_velocities);
        self.time = step.start_time;
        if self.constraints.restore_logged() > 0 {
            self.topology_changed();
        }
        self.constraints.reset_multipliers();
        self.torn_count = step.start_torn_count;
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
    /// 0) and follows [`Cloth::drag`]. Grabbing another particle releases the
    /// first. O(1), like [`Cloth::release`] (and [`Cloth::set_pinned`] without
    /// tethers or bending).
    pub fn grab(&mut self, index: usize) -> Result<(), ClothError> {
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
        self.update_inverse_mass(k);
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
        // Within a substep the velocity update measures motion from `previous`:
        // put it where the particle would have been moving at `velocity`.
        let h = match self.step.map(|s| s.phase) {
            Some(Phase::Solve { substep, .. }) => substep.h as f32,
            _ => 0.0,
        };
        self.previous[2 * k] = self.positions[2 * k] - h * velocity[0];
        self.previous[2 * k + 1] = self.positions[2 * k + 1] - h * velocity[1];
        self.update_inverse_mass(k);
    }

    // ----- colliders -----------------------------------------------------------

    /// Adds a collider (see [`crate::colliders`]); returns its id (from 1,
    /// never reused). Refused: a coordinate that is not finite or beyond
    /// ±1e6 m, a size not above 0 (the error names `x`, `y`, `radius`,
    /// `width` or `height`), more than [`crate::colliders::MAX_COLLIDERS`]
    /// colliders, or a step that would then exceed
    /// [`params::MAX_WORK_PER_STEP`] (`shape`).
    pub fn add_collider(&mut self, shape: Shape) -> Result<u32, ClothError> {
        crate::colliders::validate(&shape)?;
        let mut load = self.workload();
        load.colliders += 1;
        params::validate_work("shape", "a collider more", &self.params, &load)?;
        self.extras.colliders.add(shape, self.time)
    }

    /// Moves collider `id`'s centre to `(x, y)`, metres (a ground line to
    /// height `y`; `x` is ignored). Its motion (displacement over the simulated
    /// time since its last move) is carried into friction until it rests.
    pub fn move_collider(&mut self, id: u32, x: f64, y: f64) -> Result<(), ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        self.extras.colliders.move_to(id, x, y, self.time)
    }

    /// Removes collider `id`.
    pub fn remove_collider(&mut self, id: u32) -> Result<(), ClothError> {
        self.extras.colliders.remove(id)
    }

    /// The id of the topmost (last added) collider containing `(x, y)`, metres.
    pub fn pick_collider(&self, x: f64, y: f64) -> Result<Option<u32>, ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        Ok(self.extras.colliders.pick(x, y))
    }

    /// The colliders, in the order they were added (the last drawn on top).
    pub fn colliders(&self) -> &[Collider] {
        self.extras.colliders.list()
    }

    /// The index of the grabbed particle, if any.
    pub fn grabbed(&self) -> Option<usize> {
        self.grab.map(|g| g.index)
    }

    /// Pins (`true`) or frees (`false`) particle `index`. A pinned particle has
    /// inverse mass 0: constraints and gravity cannot move it, only a drag can.
    /// O(1), except with tethers on (their anchors are found again, a search
    /// over the whole cloth) or bending on (which pairs act is checked again).
    pub fn set_pinned(&mut self, index: usize, pinned: bool) -> Result<(), ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        let changed = self.pinned[k] != pinned;
        self.pinned[k] = pinned;
        if self.grabbed() != Some(k) {
            self.velocities[2 * k] = 0.0;
            self.velocities[2 * k + 1] = 0.0;
        }
        self.update_inverse_mass(k);
        if changed {
            self.topology_changed();
        }
        Ok(())
    }

    /// Whether particle `index` is pinned.
    pub fn is_pinned(&self, index: usize) -> Result<bool, ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        Ok(self.pinned[k])
    }

    // ----- saved state -----------------------------------------------------------

    /// What the cloth is now, for saving: parameters, time, positions,
    /// velocities, pins, which constraints are torn and the order the live
    /// ones are solved in, and the colliders. Refused while a step is in
    /// progress (finish it with [`Cloth::advance`]): its state is part way
    /// through a step and could not be continued from.
    pub fn saved_state(&self) -> Result<ClothState, ClothError> {
        if self.step.is_some() {
            return Err(state_error(
                "step",
                None,
                "is in progress: finish it before saving the state".into(),
            ));
        }
        let out_of_memory = |_| ClothError::OutOfMemory {
            field: "state",
            what: format!("a copy of the state of {} particles", self.num_particles()),
        };
        let live = self.constraints.len();
        let creation = self.constraints.creation();
        let mut torn = memory::copied(&creation[live..]).map_err(out_of_memory)?;
        torn.sort_unstable();
        let pinned = (0..self.num_particles())
            .filter(|&k| self.pinned[k])
            .map(|k| k as u32);
        Ok(ClothState {
            params: self.params,
            time: self.time,
            positions: memory::copied(&self.positions).map_err(out_of_memory)?,
            velocities: memory::copied(&self.velocities).map_err(out_of_memory)?,
            pinned: memory::collect(self.pinned.iter().filter(|&&p| p).count(), pinned)
                .map_err(out_of_memory)?,
            constraints: memory::copied(&creation[..live]).map_err(out_of_memory)?,
            torn,
            colliders: self.colliders().iter().map(|c| (c.id, c.shape)).collect(),
        })
    }

    /// Puts the cloth into a state [`Cloth::saved_state`] gave, of this cloth or of
    /// one built the same way (same scene or preset and sizes), so that it
    /// continues bit for bit as the saved one did (colliders restart at rest;
    /// a held particle is let go without its drag velocity; a step in
    /// progress is abandoned). Everything is checked first: a state that does
    /// not fit (lengths, particle or constraint indices, a torn list that is
    /// not the complement of the live one, an order the solver order does not
    /// arrange, values that are not finite or beyond ±1e6, parameters out of
    /// range or over the work limit) is refused with
    /// [`ClothError::InvalidState`] (or the parameter's own error) naming the
    /// field, and nothing changes.
    pub fn restore_state(&mut self, state: &ClothState) -> Result<(), ClothError> {
        self.check_state(state)?;
        // every fallible step first, so that a refusal changes nothing
        let mut colliders = self.extras.colliders.clone();
        colliders.replace(&state.colliders, state.time)?;
        let p = state.params;
        if p.self_collision {
            self.extras.reserve_self_collision(self.num_particles())?;
        }
        self.prepare_extras(&p, "params")?;
        self.step = None;
        self.grab = None;
        self.diverged = false;
        if p.mass != self.params.mass {
            self.masses = None;
        }
        self.params = p;
        self.constraints.set_order(p.solver_order);
        self.constraints.arrange_live(&state.constraints);
        self.torn_count = state.torn.len();
        self.extras.colliders = colliders;
        self.time = state.time;
        self.positions.copy_from_slice(&state.positions);
        self.previous.copy_from_slice(&state.positions);
        self.step_start.copy_from_slice(&state.positions);
        self.velocities.copy_from_slice(&state.velocities);
        self.step_start_velocities
            .copy_from_slice(&state.velocities);
        self.pinned.fill(false);
        for &k in &state.pinned {
            self.pinned[k as usize] = true;
        }
        self.update_inverse_masses();
        self.topology_changed();
        Ok(())
    }

    /// Checks `state` against this cloth without changing anything.
    fn check_state(&self, state: &ClothState) -> Result<(), ClothError> {
        let n = self.num_particles();
        let built = self.constraints.built_with();
        let length = |field: &'static str, got: usize, expected: usize| {
            if got == expected {
                Ok(())
            } else {
                Err(state_error(
                    field,
                    None,
                    format!("has {got} entries, expected {expected} (this cloth's)"),
                ))
            }
        };
        length("positions", state.positions.len(), 2 * n)?;
        length("velocities", state.velocities.len(), 2 * n)?;
        length(
            "constraints",
            state.constraints.len() + state.torn.len(),
            built,
        )
        .map_err(|_| {
            state_error(
                "torn",
                None,
                format!(
                    "has {} entries and constraints {}: together they must be the {built} \
                     constraints of this cloth",
                    state.torn.len(),
                    state.constraints.len()
                ),
            )
        })?;
        if !(state.time.is_finite() && (0.0..=1e12).contains(&state.time)) {
            return Err(state_error(
                "time",
                None,
                format!(
                    "is {}, expected a number from 0 to 1e12",
                    params::Number(state.time)
                ),
            ));
        }
        let limit = params::MAX_COORDINATE as f32;
        for (field, values) in [
            ("positions", &state.positions),
            ("velocities", &state.velocities),
        ] {
            if let Some(k) = values
                .iter()
                .position(|v| !(v.is_finite() && v.abs() <= limit))
            {
                return Err(state_error(
                    field,
                    Some(k),
                    format!(
                        "is {}, expected a finite number from -1e6 to 1e6",
                        params::Number(values[k] as f64)
                    ),
                ));
            }
        }
        ascending("pinned", &state.pinned, n)?;
        ascending("torn", &state.torn, built)?;
        // the live constraints: each below `built`, none twice, none torn,
        // arranged as the solver order arranges them
        let out_of_memory = |_| ClothError::OutOfMemory {
            field: "constraints",
            what: format!("checking the order of {built} constraints"),
        };
        let mut seen = memory::filled(built, false).map_err(out_of_memory)?;
        for &t in &state.torn {
            seen[t as usize] = true;
        }
        let mut colors = memory::filled(built, 0u8).map_err(out_of_memory)?;
        for (&created, &color) in self
            .constraints
            .creation()
            .iter()
            .zip(self.constraints.colors())
        {
            colors[created as usize] = color;
        }
        let mut last: Option<u32> = None;
        for (k, &c) in state.constraints.iter().enumerate() {
            let entry = |problem: String| Err(state_error("constraints", Some(k), problem));
            if c as usize >= built {
                return entry(format!(
                    "is {c}, expected a constraint index from 0 to {}",
                    built.saturating_sub(1)
                ));
            }
            if seen[c as usize] {
                return entry(format!("is {c}, which is torn or listed before"));
            }
            seen[c as usize] = true;
            if let Some(before) = last {
                let in_order = match state.params.solver_order {
                    SolverOrder::Original => before < c,
                    SolverOrder::Colored => colors[before as usize] <= colors[c as usize],
                };
                if !in_order {
                    return entry(format!(
                        "is {c} after {before}: not in {} order",
                        state.params.solver_order.name()
                    ));
                }
            }
            last = Some(c);
        }
        state.params.validate()?;
        let mut load = self.workload();
        load.colliders = state.colliders.len();
        params::validate_work("params", "the saved parameters", &state.params, &load)?;
        if state.colliders.len() > crate::colliders::MAX_COLLIDERS {
            return Err(state_error(
                "colliders",
                None,
                format!(
                    "has {} entries, expected at most {}",
                    state.colliders.len(),
                    crate::colliders::MAX_COLLIDERS
                ),
            ));
        }
        for (k, (id, shape)) in state.colliders.iter().enumerate() {
            crate::colliders::validate(shape)?;
            let repeated = state.colliders[..k].iter().any(|(other, _)| other == id);
            if *id == 0 || *id == u32::MAX || repeated {
                return Err(state_error(
                    "colliders",
                    Some(k),
                    format!("has id {id}, expected a whole number from 1, each once"),
                ));
            }
        }
        Ok(())
    }

    /// Puts every particle at `positions` with `velocities` (interleaved, two
    /// numbers per particle, each finite and within the divergence bound) and
    /// the clock at `time` seconds: how a cloth continues a state computed
    /// elsewhere (the WebGPU backend falling back to the CPU). A step in
    /// progress is abandoned first; the multipliers become 0 (the next step
    /// resets them anyway). On error nothing changes.
    pub fn set_state(
        &mut self,
        positions: &[f32],
        velocities: &[f32],
        time: f64,
    ) -> Result<(), ClothError> {
        let expected = 2 * self.num_particles();
        let allowed = || {
            format!(
                "{expected} finite numbers (two per particle) within ±{}",
                params::MAX_COORDINATE
            )
        };
        for (field, values) in [("positions", positions), ("velocities", velocities)] {
            let bad = values
                .iter()
                .position(|v| !(v.is_finite() && v.abs() <= DIVERGENCE_LIMIT));
            if values.len() != expected || bad.is_some() {
                let value = match bad {
                    Some(k) => format!("{} at {k}", params::Number(values[k] as f64)),
                    None => format!("{} numbers", values.len()),
                };
                return Err(ClothError::InvalidValue {
                    field,
                    value,
                    allowed: allowed(),
                });
            }
        }
        if !(time.is_finite() && time >= 0.0) {
            return Err(ClothError::InvalidValue {
                field: "time",
                value: params::Number(time).to_string(),
                allowed: "a finite number of seconds >= 0".into(),
            });
        }
        if self.step.take().is_some() {
            self.arrange_constraints();
        }
        self.positions.copy_from_slice(positions);
        self.previous.copy_from_slice(positions);
        self.velocities.copy_from_slice(velocities);
        self.constraints.reset_multipliers();
        self.time = time;
        Ok(())
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

    /// The bending, area and tether constraints (and their readouts, such as
    /// [`crate::area::Areas::area`]).
    pub fn extras(&self) -> &Extras {
        &self.extras
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

    /// Kinetic energy `Σ ½ m |v|²` of the moving particles, in joules. The held
    /// particle counts with the velocity of the drag (the one it keeps when let go).
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

/// A saved state of a [`Cloth`] (see [`Cloth::saved_state`], [`Cloth::restore_state`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ClothState {
    /// The solver parameters.
    pub params: Params,
    /// Simulated time, seconds.
    pub time: f64,
    /// `[x0, y0, x1, y1, ...]`, metres.
    pub positions: Vec<f32>,
    /// `[vx0, vy0, ...]`, m/s.
    pub velocities: Vec<f32>,
    /// Indices of the pinned particles, ascending.
    pub pinned: Vec<u32>,
    /// Creation indices of the live constraints, in the order they are solved.
    pub constraints: Vec<u32>,
    /// Creation indices of the torn constraints, ascending.
    pub torn: Vec<u32>,
    /// Each collider's id and shape (at its position).
    pub colliders: Vec<(u32, Shape)>,
}

fn state_error(field: &'static str, index: Option<usize>, problem: String) -> ClothError {
    ClothError::InvalidState {
        field,
        index,
        problem,
    }
}

/// Refuses `values` unless they rise strictly and stay below `count`.
fn ascending(field: &'static str, values: &[u32], count: usize) -> Result<(), ClothError> {
    let mut last: Option<u32> = None;
    for (k, &v) in values.iter().enumerate() {
        if v as usize >= count {
            return Err(state_error(
                field,
                Some(k),
                format!(
                    "is {v}, expected an index from 0 to {}",
                    count.saturating_sub(1)
                ),
            ));
        }
        if last.is_some_and(|l| l >= v) {
            return Err(state_error(
                field,
                Some(k),
                format!("is {v}, expected indices in ascending order, each once"),
            ));
        }
        last = Some(v);
    }
    Ok(())
}
