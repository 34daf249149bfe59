//! Scenes: any set of particles and constraints the XPBD step can simulate.
//!
//! The grid cloth is one scene among others. A [`Scene`] is plain data, the
//! description `Simulation.fromScene` receives from JavaScript and each preset
//! builds: particles with their own masses, distance constraints with their own
//! stiffness, area constraints, bending constraints and colliders. Building a
//! simulation from it checks every entry and names the first wrong one.

/// A scene: particles and the constraints between them.
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

/// A collider's shape; positions are of its centre, metres (y up).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// The half-plane below the line `y`.
    Ground { y: f32 },
    /// A solid disc.
    Circle { x: f32, y: f32, radius: f32 },
    /// A solid axis-aligned box centred on `(x, y)`.
    Box {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
}
