//! Scenes: any set of particles and constraints the XPBD step can simulate.
//!
//! The grid cloth is one scene among others. A [`Scene`] is plain data, the
//! description `Simulation.fromScene` receives from JavaScript and each preset
//! builds: particles with their own masses, distance constraints with their own
//! stiffness, area constraints, bending constraints and colliders. Building a
//! simulation from it checks every entry and names the first wrong one.

use crate::memory;
use crate::params::{self, ClothError, Number, Rule, MAX_PARTICLES};

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

/// Most distance constraints (and, separately, bending pairs and area
/// corners) a scene may have: four per particle of the largest grid, more
/// than any grid of [`MAX_PARTICLES`] particles has.
pub const MAX_SCENE_CONSTRAINTS: usize = 4 * MAX_PARTICLES;

/// Smallest start area of an area constraint, m²: below it the polygon is
/// degenerate (its corners in a line) and its gradient says nothing.
pub const MIN_AREA: f64 = 1e-8;

/// Largest pressure of an area constraint (target area over start area).
pub const MAX_PRESSURE: f64 = 100.0;

/// Most colours a greedy colouring may use: colours are `u8`.
const COLORS: usize = 256;

fn refuse(field: &'static str, index: Option<usize>, problem: String) -> ClothError {
    ClothError::InvalidScene {
        field,
        index,
        problem,
    }
}

fn at(field: &'static str, index: usize, problem: String) -> ClothError {
    refuse(field, Some(index), problem)
}

/// The signed area enclosed by `particles` at `positions` (shoelace formula,
/// counter-clockwise positive), m².
pub fn polygon_area(positions: &[f32], particles: &[u32]) -> f64 {
    let point = |k: u32| {
        let k = k as usize;
        (positions[2 * k] as f64, positions[2 * k + 1] as f64)
    };
    let count = particles.len();
    (0..count)
        .map(|i| {
            let (a, b) = (point(particles[i]), point(particles[(i + 1) % count]));
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f64>()
        / 2.0
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

    /// Checks every entry; the error names the first wrong one
    /// (`invalid scene: distances[7] joins particle 3 to itself`). Given
    /// colours are checked too, in a buffer of 32 bytes per particle, and
    /// rings of more than 64 particles for repeats in a sorted copy
    /// ([`ClothError::OutOfMemory`] when either does not fit).
    pub fn validate(&self) -> Result<(), ClothError> {
        self.validate_entries()?;
        if let Some(colors) = &self.colors {
            self.validate_colors(colors)?;
        }
        Ok(())
    }

    /// [`Scene::validate`] but for the colours, which are taken as a proper
    /// colouring (the grid's own scene is built this way); allocates nothing
    /// for a scene without long rings.
    pub(crate) fn validate_entries(&self) -> Result<(), ClothError> {
        self.validate_particles()?;
        let n = self.num_particles();
        self.validate_pairs("distances", &self.distances)?;
        let m = self.num_distances();
        if let Some(rest_lengths) = &self.rest_lengths {
            if rest_lengths.len() != m {
                return Err(refuse(
                    "restLengths",
                    None,
                    format!(
                        "has {} entries, expected one per distance constraint ({m})",
                        rest_lengths.len()
                    ),
                ));
            }
            let max = 2.0 * params::MAX_COORDINATE as f32 * std::f32::consts::SQRT_2;
            for (c, &r) in rest_lengths.iter().enumerate() {
                if !(r.is_finite() && r > 0.0 && r <= max) {
                    return Err(at(
                        "restLengths",
                        c,
                        format!(
                            "is {}, expected a finite length greater than 0 m",
                            Number(r as f64)
                        ),
                    ));
                }
            }
        }
        match &self.distance_stiffness {
            DistanceStiffness::Uniform(k) => {
                params::STIFFNESS
                    .check_number(*k)
                    .map_err(|_| refuse("distanceStiffness", None, stiffness_problem(*k)))?;
            }
            DistanceStiffness::PerConstraint(values) => {
                if values.len() != m {
                    return Err(refuse(
                        "distanceStiffness",
                        None,
                        format!(
                            "has {} entries, expected a number or one per distance constraint ({m})",
                            values.len()
                        ),
                    ));
                }
                for (c, &k) in values.iter().enumerate() {
                    if params::STIFFNESS.check_number(k).is_err() {
                        return Err(at("distanceStiffness", c, stiffness_problem(k)));
                    }
                }
            }
        }
        self.validate_areas(n)?;
        if let Bending::Pairs(pairs) = &self.bending {
            self.validate_pairs("bending", pairs)?;
        }
        for (i, shape) in self.colliders.iter().enumerate() {
            validate_shape(shape).map_err(|problem| at("colliders", i, problem))?;
        }
        Ok(())
    }

    fn validate_particles(&self) -> Result<(), ClothError> {
        let length = self.positions.len();
        if length % 2 != 0 {
            return Err(refuse(
                "positions",
                None,
                format!("has {length} numbers, expected an even count (x and y of each particle)"),
            ));
        }
        let n = length / 2;
        if n == 0 {
            return Err(refuse(
                "positions",
                None,
                "is empty, expected at least one particle".into(),
            ));
        }
        if n > MAX_PARTICLES {
            return Err(refuse(
                "positions",
                None,
                format!("has {n} particles, at most {MAX_PARTICLES} are allowed"),
            ));
        }
        let limit = params::MAX_COORDINATE as f32;
        for (i, &v) in self.positions.iter().enumerate() {
            if !(v.is_finite() && v.abs() <= limit) {
                return Err(at(
                    "positions",
                    i,
                    format!(
                        "is {}, expected a finite coordinate from -{limit} to {limit} m",
                        Number(v as f64)
                    ),
                ));
            }
        }
        if self.masses.len() != n {
            return Err(refuse(
                "masses",
                None,
                format!(
                    "has {} entries, expected one per particle ({n})",
                    self.masses.len()
                ),
            ));
        }
        let (min, max) = mass_range();
        for (k, &mass) in self.masses.iter().enumerate() {
            let m = mass as f64;
            if !(mass == 0.0 || (m.is_finite() && (min..=max).contains(&m))) {
                return Err(at(
                    "masses",
                    k,
                    format!(
                        "is {}, expected 0 (pinned) or a mass from {min} to {max} kg",
                        Number(m)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks flat pairs of particle indices: even length, within the limit,
    /// in range, two different particles that do not start at one place.
    fn validate_pairs(&self, field: &'static str, pairs: &[u32]) -> Result<(), ClothError> {
        let n = self.num_particles();
        if pairs.len() % 2 != 0 {
            return Err(refuse(
                field,
                None,
                format!(
                    "has {} indices, expected an even count (two per constraint)",
                    pairs.len()
                ),
            ));
        }
        if pairs.len() / 2 > MAX_SCENE_CONSTRAINTS {
            return Err(refuse(
                field,
                None,
                format!(
                    "has {} constraints, at most {MAX_SCENE_CONSTRAINTS} are allowed",
                    pairs.len() / 2
                ),
            ));
        }
        let given_rest = field == "distances" && self.rest_lengths.is_some();
        for (c, pair) in pairs.chunks_exact(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            for k in [a, b] {
                if k as usize >= n {
                    return Err(at(
                        field,
                        c,
                        format!("names particle {k}, expected an index from 0 to {}", n - 1),
                    ));
                }
            }
            if a == b {
                return Err(at(field, c, format!("joins particle {a} to itself")));
            }
            let (a, b) = (a as usize, b as usize);
            let dx = self.positions[2 * a] - self.positions[2 * b];
            let dy = self.positions[2 * a + 1] - self.positions[2 * b + 1];
            if !given_rest && (dx * dx + dy * dy).sqrt() == 0.0 {
                return Err(at(
                    field,
                    c,
                    format!(
                        "joins particles {a} and {b}, which start at the same place: \
                         a zero rest length"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks given colours: one per constraint, and a proper colouring (no
    /// particle in two constraints of one colour), which the coloured sweep
    /// relies on.
    fn validate_colors(&self, colors: &[u8]) -> Result<(), ClothError> {
        let m = self.num_distances();
        if colors.len() != m {
            return Err(refuse(
                "colors",
                None,
                format!(
                    "has {} entries, expected one per distance constraint ({m})",
                    colors.len()
                ),
            ));
        }
        let mut used = colour_sets(self.num_particles(), "colors", m)?;
        for (c, (pair, &color)) in self.distances.chunks_exact(2).zip(colors).enumerate() {
            let bit = 1u64 << (color % 64);
            let word = color as usize / 64;
            for k in [pair[0] as usize, pair[1] as usize] {
                if used[k][word] & bit != 0 {
                    return Err(at(
                        "colors",
                        c,
                        format!(
                            "is {color}, which particle {k} has in another constraint: \
                             constraints of one colour may not share a particle"
                        ),
                    ));
                }
                used[k][word] |= bit;
            }
        }
        Ok(())
    }

    fn validate_areas(&self, n: usize) -> Result<(), ClothError> {
        let corners: usize = self.areas.iter().map(|a| a.particles.len()).sum();
        if corners > MAX_SCENE_CONSTRAINTS {
            return Err(refuse(
                "areas",
                None,
                format!(
                    "have {corners} corners in all, at most {MAX_SCENE_CONSTRAINTS} are allowed"
                ),
            ));
        }
        for (i, area) in self.areas.iter().enumerate() {
            let count = area.particles.len();
            if count < 3 {
                return Err(at(
                    "areas",
                    i,
                    format!("has {count} particles, expected at least 3"),
                ));
            }
            for (j, &k) in area.particles.iter().enumerate() {
                if k as usize >= n {
                    return Err(at(
                        "areas",
                        i,
                        format!("names particle {k}, expected an index from 0 to {}", n - 1),
                    ));
                }
                if area.particles[..j].contains(&k) && count <= 64 {
                    return Err(at("areas", i, format!("names particle {k} twice")));
                }
            }
            if count > 64 {
                if let Some(k) = duplicate(&area.particles)? {
                    return Err(at("areas", i, format!("names particle {k} twice")));
                }
            }
            if params::STIFFNESS.check_number(area.stiffness).is_err() {
                return Err(at(
                    "areas",
                    i,
                    format!(
                        "has stiffness {}, expected a finite number from 0 to 1e15 J/m⁴ (0 = rigid)",
                        Number(area.stiffness)
                    ),
                ));
            }
            if !(area.pressure.is_finite() && area.pressure > 0.0 && area.pressure <= MAX_PRESSURE)
            {
                return Err(at(
                    "areas",
                    i,
                    format!(
                        "has pressure {}, expected a number above 0 up to {MAX_PRESSURE}",
                        Number(area.pressure)
                    ),
                ));
            }
            let start = polygon_area(&self.positions, &area.particles);
            if start.abs() < MIN_AREA {
                return Err(at(
                    "areas",
                    i,
                    format!(
                        "encloses {} m² at the start, expected at least {MIN_AREA} m²",
                        Number(start)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// An index that occurs twice, if any (for long rings: sorts a copy, the
/// ring's own size).
fn duplicate(particles: &[u32]) -> Result<Option<u32>, ClothError> {
    let mut sorted = memory::copied(particles).map_err(|_| ClothError::OutOfMemory {
        field: "areas",
        what: format!("checking a ring of {} particles", particles.len()),
    })?;
    sorted.sort_unstable();
    Ok(sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]))
}

fn stiffness_problem(k: f64) -> String {
    format!(
        "is {}, expected a finite number from 0 to 1e15 N/m (0 = rigid)",
        Number(k)
    )
}

/// The masses a free particle may have, kg: the `mass` parameter's range.
pub fn mass_range() -> (f64, f64) {
    match params::MASS.rule {
        Rule::Range { min, max } | Rule::Positive { min, max, .. } => (min, max),
        _ => (0.0, f64::MAX),
    }
}

/// Checks a collider's shape as [`crate::colliders::validate`] does (the
/// rules `addCollider` applies), with its complaint worded for a scene entry.
fn validate_shape(shape: &Shape) -> Result<(), String> {
    crate::colliders::validate(shape).map_err(|error| match error {
        ClothError::InvalidValue {
            field,
            value,
            allowed,
        } => format!("has {field} {value}, expected {allowed}"),
        other => other.to_string(),
    })
}

/// A greedy edge colouring of the constraints `pairs` of `n` particles: each
/// constraint takes the lowest colour neither of its particles has yet, so
/// no two constraints of one colour share a particle. A particle in more than
/// 128 constraints may leave none of the 256 colours free: the error names the
/// constraint and says so.
pub fn greedy_colors(field: &'static str, pairs: &[u32], n: usize) -> Result<Vec<u8>, ClothError> {
    let mut used = colour_sets(n, field, pairs.len() / 2)?;
    let mut colors = memory::with_capacity(pairs.len() / 2)
        .map_err(|_| colouring_out_of_memory(field, n, pairs.len() / 2))?;
    for (c, pair) in pairs.chunks_exact(2).enumerate() {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let taken: [u64; COLORS / 64] = std::array::from_fn(|w| used[a][w] | used[b][w]);
        let free = taken
            .iter()
            .enumerate()
            .find(|(_, &bits)| bits != u64::MAX)
            .map(|(w, &bits)| 64 * w + (!bits).trailing_zeros() as usize);
        let Some(color) = free else {
            return Err(at(
                field,
                c,
                format!(
                    "joins particles {a} and {b}, which are in too many constraints between them \
                     (all {COLORS} colours of the solver taken); give a particle at most 128"
                ),
            ));
        };
        used[a][color / 64] |= 1 << (color % 64);
        used[b][color / 64] |= 1 << (color % 64);
        colors.push(color as u8);
    }
    Ok(colors)
}

/// The colours each particle has, 256 bits per particle, all clear.
fn colour_sets(
    n: usize,
    field: &'static str,
    constraints: usize,
) -> Result<Vec<[u64; COLORS / 64]>, ClothError> {
    memory::filled(n, [0; COLORS / 64]).map_err(|_| colouring_out_of_memory(field, n, constraints))
}

fn colouring_out_of_memory(field: &'static str, n: usize, constraints: usize) -> ClothError {
    ClothError::OutOfMemory {
        field,
        what: format!(
            "colouring {constraints} constraints of {n} particles needs {} MiB",
            memory::mib((COLORS / 8 * n + constraints) as u64)
        ),
    }
}
