//! Scenes: any set of particles and constraints the XPBD step can simulate.
//!
//! The grid cloth is one scene among others. A [`Scene`] is plain data, the
//! description `Simulation.fromScene` receives from JavaScript and each preset
//! builds: particles with their own masses, distance constraints with their own
//! stiffness, area constraints, bending constraints, bodies and colliders. Building a
//! simulation from it checks every entry and names the first wrong one
//! ([`Scene::validate`], in `validate.rs`).

use super::shape::Shape;
use crate::error::ClothError;
use crate::params::{self, Rule, MAX_PARTICLES};

/// A scene: particles and the constraints between them. The default is an
/// empty scene with the default stiffness, to fill in field by field
/// (`Scene { positions, masses, ..Scene::default() }`).
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Interleaved start positions `[x0, y0, x1, y1, ...]`, metres (y up).
    pub positions: Vec<f32>,
    /// Mass of each particle, kg; 0 pins the particle.
    pub masses: Vec<f32>,
    /// Distance constraints as flat pairs `[a0, b0, a1, b1, ...]`.
    pub distances: Vec<u32>,
    /// Rest length of each distance constraint, metres; `None`: the distance
    /// between its particles' start positions.
    pub rest_lengths: Option<Vec<f32>>,
    /// Stiffness of the distance constraints.
    pub distance_stiffness: DistanceStiffness,
    /// Colour of each distance constraint (no two of one colour share a
    /// particle), when the scene knows one (the grid does); `None`: a greedy
    /// colouring is computed.
    pub colors: Option<Vec<u8>>,
    /// Area constraints: triangles and closed rings.
    pub areas: Vec<AreaSpec>,
    /// Bending constraints.
    pub bending: Bending,
    /// Bodies: clusters of particles kept in their rest shape by shape
    /// matching (see [`crate::kinds::bodies`]).
    pub bodies: Vec<BodySpec>,
    /// Colliders the scene starts with.
    pub colliders: Vec<Shape>,
}

/// The stiffness of a scene's distance constraints, N/m (0 = rigid, plain PBD).
#[derive(Debug, Clone, PartialEq)]
pub enum DistanceStiffness {
    /// One value for all: the simulation's `stiffness` parameter, which the
    /// user can change while it runs.
    Uniform(f64),
    /// One value per constraint, fixed by the scene.
    PerConstraint(Vec<f64>),
}

/// An area constraint: the signed area enclosed by `particles` (a triangle for
/// three, a closed ring for more, counter-clockwise positive) is kept at
/// `pressure` times its start area.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaSpec {
    /// The polygon's corners in order, at least three, no index twice.
    pub particles: Vec<u32>,
    /// Stiffness, J/m⁴ (the energy is `stiffness/2 · C²` with `C` in m²);
    /// 0 = rigid.
    pub stiffness: f64,
    /// Target area as a multiple of the start area (1 = keep it; above 1
    /// inflates, like a balloon's pressure).
    pub pressure: f64,
}

/// A body: particles kept in their rest shape (their start positions) by
/// shape matching, rigid or soft, elastic or plastic (see
/// [`crate::kinds::bodies`]). A particle belongs to one body at most, and may
/// be in distance, area and bending constraints as well.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySpec {
    /// The body's particles, at least two, not all on one line, none twice.
    pub particles: Vec<u32>,
    /// Compliance `α` of the shape, s² (0 = rigid): the energy of a deformed
    /// body is `Σ m_i |x_i - g_i|² / (2α)`, so a particle pulled from its goal
    /// oscillates at `ω = 1/√α`.
    pub compliance: f64,
    /// Plasticity: how the rest shape follows a deformation; `None`: elastic.
    pub plastic: Option<Plasticity>,
}

/// How a plastic body's rest shape follows its deformation (see
/// [`crate::kinds::bodies`]): a particle farther from its goal than `yield`
/// times the body's size moves its rest position towards where it is, by
/// `creep` of the excess per second, up to `max` times the body's size from
/// its first rest position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plasticity {
    /// The yield: a deformation (a particle's distance from its goal over the
    /// body's RMS radius) up to which the body springs back exactly.
    pub yield_strain: f64,
    /// The creep rate, 1/s: the fraction of the deformation beyond the yield
    /// the rest shape takes on per second (all of it at once from `1/h`).
    pub creep: f64,
    /// The cap: the farthest a particle's rest position moves from where it
    /// started, over the body's RMS radius.
    pub max: f64,
}

/// Which bending constraints a scene has. A bending constraint is a distance
/// constraint between the two neighbours of a particle that lie on opposite
/// sides of it, with the `bendingStiffness` parameter's compliance.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Bending {
    /// None.
    #[default]
    None,
    /// Derived from the distance constraints: every pair of neighbours of one
    /// particle whose rest angle through it is within 30° of straight (for a
    /// grid: particles two apart along rows and columns).
    Auto,
    /// Given as flat pairs `[a0, b0, a1, b1, ...]`.
    Pairs(Vec<u32>),
}

/// Most distance constraints (and, separately, bending pairs and area
/// corners) a scene may have: four per particle of the largest grid, more
/// than any grid of [`MAX_PARTICLES`] particles has.
pub const MAX_SCENE_CONSTRAINTS: usize = 4 * MAX_PARTICLES;

/// Most area constraints a scene read from JavaScript (`fromScene`) may
/// have; more are refused by their count before any is read. Each is an
/// object read across the wasm boundary and built, about 0.5 µs with its
/// corners in a plain array, 0.9 µs in a typed one and 2.9 µs when the list
/// must be read one property at a time: the largest such scene then takes
/// about 60 ms at the slowest, within one main-thread task's 100 ms
/// (docs/limits.md, "Reading a scene", has the measure and its command). A
/// preset builds its areas in Rust, without reading objects, and is bounded
/// by its size alone.
pub const MAX_SCENE_AREAS: usize = 20_000;

/// Most corners in all of the areas of a scene read from JavaScript: three
/// for each of the most areas. Corners read one at a time (a list the bulk
/// reading cannot take) cost about half a microsecond each, so the slowest
/// accepted reading stays within one main-thread task (docs/limits.md,
/// "Reading a scene"). Presets are bounded by their size alone.
pub const MAX_SCENE_CORNERS: usize = 3 * MAX_SCENE_AREAS;

impl Default for Scene {
    fn default() -> Scene {
        Scene {
            positions: Vec::new(),
            masses: Vec::new(),
            distances: Vec::new(),
            rest_lengths: None,
            distance_stiffness: DistanceStiffness::Uniform(params::STIFFNESS.default_number()),
            colors: None,
            areas: Vec::new(),
            bending: Bending::None,
            bodies: Vec::new(),
            colliders: Vec::new(),
        }
    }
}

impl Scene {
    /// Number of particles (half the length of `positions`).
    pub fn num_particles(&self) -> usize {
        self.positions.len() / 2
    }

    /// Number of distance constraints (half the length of `distances`).
    pub fn num_distances(&self) -> usize {
        self.distances.len() / 2
    }

    /// A copy of every field but the particles' and the distance
    /// constraints' arrays, which are left empty (a simulation copies those
    /// fallibly): the distance stiffness and the constraint kinds' fields.
    pub fn clone_fields(&self) -> Scene {
        Scene {
            distance_stiffness: self.distance_stiffness.clone(),
            areas: self.areas.clone(),
            bending: self.bending.clone(),
            bodies: self.bodies.clone(),
            colliders: self.colliders.clone(),
            ..Scene::default()
        }
    }

    /// The refusal of this scene when what a simulation of it needs does not
    /// fit in memory. Out of line: its message is formatted here once, not
    /// at each of the dozen places that refuse a scene for memory.
    #[cold]
    #[inline(never)]
    pub fn out_of_memory(&self) -> ClothError {
        ClothError::OutOfMemory {
            field: "scene",
            what: format!(
                "a scene of {} particles, {} constraints and {} areas",
                self.masses.len(),
                self.distances.len() / 2,
                self.areas.len()
            ),
        }
    }
}

/// The masses a free particle may have, kg: the `mass` parameter's range.
pub fn mass_range() -> (f64, f64) {
    match params::MASS.rule {
        Rule::Range { min, max } | Rule::Positive { min, max, .. } => (min, max),
        _ => (0.0, f64::MAX),
    }
}
