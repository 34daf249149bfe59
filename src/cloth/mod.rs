//! The cloth: the state of a simulation and what drives it.
//!
//! [`Cloth`] owns every array of the simulation in flat, `f32`,
//! structure-of-arrays form (the JavaScript side reads `positions` and
//! `constraint_ids` directly out of wasm memory), drives the steps of
//! [`crate::solver`], and guards its state: every method that takes outside
//! input validates it first and leaves the cloth unchanged when it refuses.
//!
//! Read **`step.rs`** first: one time step, phase by phase, as the textbook
//! writes it, and [`Cloth::advance`], the loop that runs it in slices of a
//! work budget and resumes bit for bit where it stopped. Then:
//!
//! * this file: the state (the fields of [`Cloth`]) and the constructors;
//! * `kinds.rs`: the list of constraint kinds besides the distance
//!   constraints (see [`crate::kinds`]);
//! * `cost.rs`: what each phase of a step costs (the weights of
//!   [`crate::params::work`]), for the work meter and the prediction;
//! * `limits.rs`: the limits of a step and of one call;
//! * `setters.rs`: the parameters, each checked against the table;
//! * `interaction.rs`: pick, grab, drag, pins and colliders;
//! * `addition.rs`: particles and bodies added while it runs, and the path
//!   by which particles are taken in, whether built or added; `rope.rs`:
//!   ropes added while it runs;
//! * `state.rs` and `state_checks.rs`: saving and restoring a state;
//! * `diagnostics.rs`: views of the arrays, forces, energies, stretch.

mod addition;
mod cost;
mod diagnostics;
mod interaction;
mod kinds;
mod limits;
mod rope;
mod setters;
mod state;
mod state_checks;
mod step;

pub use addition::{
    BodyOutline, DEFAULT_DENSITY, MAX_FILLED_PARTICLES, MAX_OUTLINE_CORNERS, SPACING_RANGE,
};
pub use kinds::{Kinds, KIND_NAMES};
pub use limits::{max_steps_error, work_budget_error, MAX_STEPS_PER_CALL};
pub use rope::{RopeSpec, MAX_ROPE_PARTICLES, MAX_ROPE_POINTS, ROPE_SPACING_RANGE};
pub use state::ClothState;
pub use step::{Sweep, SWEEP_CHUNK};

use std::collections::TryReserveError;

use crate::error::{self, quote, ClothError};
use crate::kinds::bending::BendingSet;
use crate::memory;
use crate::model::presets::{self, Preset};
use crate::model::{coloring, footprint, grid, scene, DistanceStiffness, Scene};
use crate::params::{self, FixedPreset, GridSize, Params, Value};
use crate::solver::order::ConstraintSet;

/// Positions farther than this from the origin (metres) count as diverged:
/// still finite in `f32`, but no longer a cloth anyone can see. Dragging is
/// limited to the same range.
pub const DIVERGENCE_LIMIT: f32 = params::MAX_COORDINATE as f32;

/// An XPBD simulation: particles joined by distance constraints (the grid
/// cloth, or any [`Scene`]), with the other constraint kinds of the scene and
/// its contacts (see [`Kinds`]).
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
    /// Each particle's own mass in kg as the scene gave it (0: pinned by the
    /// scene), for a scene whose free particles differ in mass; `None`: every
    /// free particle has the `mass` parameter.
    masses: Option<Vec<f32>>,
    /// The `mass` parameter at which each particle weighs its `masses` entry,
    /// kg (the mean of the scene's free particles' masses, the `mass`
    /// parameter it was built with; the `mass` parameter when bodies of
    /// other masses were added to a cloth of one mass): particle `k` weighs
    /// `masses[k] · mass / masses_mean` (0: the `mass` parameter).
    masses_mean: f64,
    pinned: Vec<bool>,
    /// The distance constraints, their rest lengths and multipliers, in solver order.
    constraints: ConstraintSet,
    /// Compliance (m/N, 0 = rigid) of each distance constraint by creation
    /// index, for a scene with per-constraint stiffness; `None`: all have the
    /// `stiffness` parameter's.
    compliances: Option<Vec<f64>>,
    /// Bending, areas, tethers, wind, colliders and self-collision.
    kinds: Kinds,
    /// Scratch: x and y of every particle, split for the coloured SIMD sweep.
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Scratch: tension of each constraint, filled by [`Cloth::constraint_forces`].
    forces: Vec<f32>,
    /// How many constraints have torn since the cloth was built.
    torn_count: usize,
    /// Simulated time, seconds.
    time: f64,
    /// Where the step begun and not yet finished by [`Cloth::advance`] is.
    cursor: Option<step::Cursor>,
    /// Work units done since the cloth was built.
    work_done: u64,
    /// The particle the user holds, if any.
    held: Option<interaction::Held>,
    /// A step went out of bounds and was undone: the cloth has stopped.
    diverged: bool,
    /// What was added while it ran ([`Cloth::add_bodies`]), in order: what a
    /// saved state carries, so that a cloth built the same way takes the same
    /// additions when it is restored.
    added: Vec<Added>,
}

/// One addition of bodies to a running cloth: the scene added and the `mass`
/// parameter when it was added (which fixes how its masses are kept).
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// The particles (positions, masses) and bodies added, as given to
    /// [`Cloth::add_bodies`].
    pub scene: Scene,
    /// The `mass` parameter at the time, kg.
    pub mass: f64,
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
        let out_of_memory = |_| footprint::cloth_out_of_memory(size);
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
        if self.kinds.bending.is_empty() {
            self.kinds.bending = BendingSet::pending_grid(size);
        }
    }

    /// Builds the simulation of `scene` with default parameters but for what
    /// the scene sets: the stiffness of uniformly stiff distance constraints
    /// and the masses. Refuses a malformed scene with
    /// [`ClothError::InvalidScene`] naming the first wrong entry, and one that
    /// does not fit in memory with [`ClothError::OutOfMemory`].
    ///
    /// Masses: particles of mass 0 start pinned. When every free particle has
    /// one mass, that is the `mass` parameter; otherwise each keeps its own and
    /// the `mass` parameter is their mean: setting it scales every mass by
    /// the same factor so that their mean becomes the value (setting the mean
    /// they have changes nothing). A particle pinned by the scene and freed
    /// with [`Cloth::set_pinned`] gets the `mass` parameter.
    ///
    /// Distance constraints without given colours are coloured greedily for the
    /// coloured sweep; constraints with [`DistanceStiffness::PerConstraint`]
    /// are solved one by one (the scalar sweep), each with its own compliance,
    /// and the `stiffness` parameter does not apply to them.
    pub fn from_scene(scene: &Scene) -> Result<Cloth, ClothError> {
        scene.validate()?;
        let out_of_memory = |_| scene_out_of_memory(scene);
        // the large arrays copied fallibly, the other fields cloned
        let mut copy = Scene {
            positions: memory::copied(&scene.positions).map_err(out_of_memory)?,
            masses: memory::copied(&scene.masses).map_err(out_of_memory)?,
            distances: memory::copied(&scene.distances).map_err(out_of_memory)?,
            ..scene.clone_fields()
        };
        if let Some(r) = &scene.rest_lengths {
            copy.rest_lengths = Some(memory::copied(r).map_err(out_of_memory)?);
        }
        if let Some(c) = &scene.colors {
            copy.colors = Some(memory::copied(c).map_err(out_of_memory)?);
        }
        Cloth::build(copy, &out_of_memory)
    }

    /// [`Cloth::from_scene`], taking the scene over instead of copying it.
    pub fn from_owned_scene(scene: Scene) -> Result<Cloth, ClothError> {
        scene.validate()?;
        let (n, m) = (scene.num_particles(), scene.num_distances());
        Cloth::build(scene, &|_| sized_out_of_memory(n, m))
    }

    /// Builds the preset `name` with `options` (see [`presets::preset`]): the scene,
    /// then each parameter value through its setter, so a value is refused as
    /// the setter refuses it. A value the preset chose itself (its `substeps`,
    /// say) that its size makes too much work is refused naming the `width`
    /// the user gave, not the parameter they never set.
    pub fn from_preset(name: &str, options: &[(&str, Value)]) -> Result<Cloth, ClothError> {
        let Preset {
            scene,
            params,
            grid,
        } = presets::preset(name, options)?;
        let mut cloth = Cloth::from_owned_scene(scene)?;
        if let Some(size) = grid {
            cloth.defer_grid_bending(size);
        }
        for (parameter, value) in params {
            let given = options.iter().any(|(n, _)| *n == parameter);
            cloth.set_parameter(parameter, value).map_err(|error| {
                if given {
                    error
                } else {
                    too_large(name, options, &cloth, error)
                }
            })?;
        }
        Ok(cloth)
    }

    /// Builds the simulation of a validated `scene`, taking its arrays over
    /// (its positions become the positions, its masses the buffer of the
    /// inverse masses), so the grid needs no memory beyond the cloth it
    /// becomes: the distance constraints and the kinds from the scene, then
    /// the particles taken in by the path an addition takes
    /// ([`Cloth::reserve_particles`], [`Cloth::take_particles`]).
    fn build(
        mut scene: Scene,
        out_of_memory: &dyn Fn(TryReserveError) -> ClothError,
    ) -> Result<Cloth, ClothError> {
        let n = scene.num_particles();
        // the colouring refuses a particle in too many constraints: before
        // the bending pairs are derived around it
        let colors = match scene.colors.take() {
            Some(colors) => colors,
            None => coloring::greedy_colors("distances", &scene.distances, n)?,
        };
        let kinds = Kinds::from_scene(&scene)?;
        let mut params = Params::default();
        let rest_lengths = match scene.rest_lengths.take() {
            Some(rest_lengths) => rest_lengths,
            None => start_lengths(&scene.distances, &scene.positions).map_err(out_of_memory)?,
        };
        let stiffness = std::mem::replace(
            &mut scene.distance_stiffness,
            DistanceStiffness::Uniform(0.0),
        );
        let compliances = own_compliances(stiffness, &mut params).map_err(out_of_memory)?;
        let uniform = own_mass(&scene.masses, &mut params);
        let distances = std::mem::take(&mut scene.distances);
        let constraints =
            ConstraintSet::try_new(distances, rest_lengths, colors, params.solver_order)
                .map_err(out_of_memory)?;
        let forces = memory::with_capacity(constraints.len()).map_err(out_of_memory)?;
        let mut cloth = Cloth {
            params,
            positions: std::mem::take(&mut scene.positions),
            previous: Vec::new(),
            step_start: Vec::new(),
            step_start_velocities: Vec::new(),
            velocities: Vec::new(),
            inverse_mass: std::mem::take(&mut scene.masses),
            masses: None,
            masses_mean: params.mass,
            pinned: Vec::new(),
            constraints,
            compliances,
            kinds,
            xs: Vec::new(),
            ys: Vec::new(),
            forces,
            torn_count: 0,
            time: 0.0,
            cursor: None,
            work_done: 0,
            held: None,
            diverged: false,
            added: Vec::new(),
        };
        let list = cloth.reserve_particles(n, uniform).map_err(out_of_memory)?;
        cloth.take_particles(0, uniform, list);
        let p = cloth.params;
        cloth.prepare_kinds(&p)?;
        Ok(cloth)
    }

    /// Bytes of memory the cloth's buffers hold (their capacity), for checking
    /// [`footprint::cloth_bytes`] against what is really allocated.
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
            + self.kinds.heap_bytes()
    }
}

/// The refusal of `scene`, which does not fit in memory.
fn scene_out_of_memory(scene: &Scene) -> ClothError {
    sized_out_of_memory(scene.num_particles(), scene.num_distances())
}

/// The refusal of a scene of `n` particles and `m` distance constraints,
/// which does not fit in memory: what a grid of as many particles and
/// constraints keeps, roughly.
#[cold]
fn sized_out_of_memory(n: usize, m: usize) -> ClothError {
    let bytes = n as u64 * 60 + m as u64 * 40;
    ClothError::OutOfMemory {
        field: "scene",
        what: format!(
            "a scene of {n} particles and {m} constraints needs {} MiB",
            memory::mib(bytes)
        ),
    }
}

/// The refusal of preset `name` built with `options` as `cloth`, whose own
/// choice of a parameter was refused (`error`): its size is too large for it,
/// so the error names the `width` given (or the preset's own).
fn too_large(
    name: &str,
    options: &[(&str, Value)],
    cloth: &Cloth,
    error: ClothError,
) -> ClothError {
    let width = options
        .iter()
        .rev()
        .find(|(n, _)| *n == params::WIDTH.name)
        .map_or_else(|| "the preset's own".to_string(), |(_, v)| v.shown());
    ClothError::InvalidValue {
        field: params::WIDTH.name,
        value: format!("{width} ({} particles)", cloth.num_particles()),
        allowed: format!("a smaller {} preset: at this size {error}", quote(name)),
    }
}

/// The rest length of each distance constraint `distances` (flat pairs): the
/// distance between its particles at `positions`.
fn start_lengths(distances: &[u32], positions: &[f32]) -> Result<Vec<f32>, TryReserveError> {
    memory::collect(
        distances.len() / 2,
        distances.chunks_exact(2).map(|pair| {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            let dx = positions[2 * a] - positions[2 * b];
            let dy = positions[2 * a + 1] - positions[2 * b + 1];
            (dx * dx + dy * dy).sqrt()
        }),
    )
}

/// What a cloth keeps of a scene's `stiffness`: nothing for one value for
/// all, which becomes the `stiffness` parameter of `params`; the compliance of
/// each constraint, by creation index, for one value each.
fn own_compliances(
    stiffness: DistanceStiffness,
    params: &mut Params,
) -> Result<Option<Vec<f64>>, TryReserveError> {
    match stiffness {
        DistanceStiffness::Uniform(stiffness) => {
            params.stiffness = stiffness;
            Ok(None)
        }
        DistanceStiffness::PerConstraint(values) => {
            memory::collect(values.len(), values.iter().map(|&k| params::compliance(k))).map(Some)
        }
    }
}

/// Sets the `mass` parameter of `params` from a scene's `masses` (0:
/// pinned): their one mass when every free particle has one, which it
/// returns `true` for (the cloth keeps no list of masses); otherwise their
/// mean, and the cloth keeps each particle's own.
fn own_mass(masses: &[f32], params: &mut Params) -> bool {
    let mut free = masses.iter().filter(|&&m| m > 0.0);
    let first = free.clone().next().copied();
    if free.all(|&m| Some(m) == first) {
        if let Some(mass) = first {
            // the f32 as typed (0.05, not 0.05000000074505806)
            params.mass = error::as_typed(mass);
        }
        return true;
    }
    let (sum, count) = masses
        .iter()
        .filter(|&&m| m > 0.0)
        .fold((0.0, 0usize), |(s, c), &m| (s + m as f64, c + 1));
    let (min, max) = scene::mass_range();
    params.mass = (sum / count as f64).clamp(min, max);
    false
}
