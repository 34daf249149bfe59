//! The checks of a scene: every entry, each refusal naming the first wrong one.

use super::scene::{mass_range, polygon_area};
use super::scene::{
    Bending, DistanceStiffness, Scene, MAX_PRESSURE, MAX_SCENE_CONSTRAINTS, MIN_AREA,
};
use super::shape::{self, Shape};
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::params::{self, MAX_PARTICLES};

/// The refusal of scene field `field` (entry `index`, when it is one entry's).
pub(super) fn refuse(field: &'static str, index: Option<usize>, problem: String) -> ClothError {
    ClothError::InvalidScene {
        field,
        index,
        problem,
    }
}

/// The refusal of entry `index` of scene field `field`.
pub(super) fn at(field: &'static str, index: usize, problem: String) -> ClothError {
    refuse(field, Some(index), problem)
}

/// Checks that a scene's areas have `corners` corners in all, at most
/// `most`: [`MAX_SCENE_CONSTRAINTS`] for any scene, and
/// [`MAX_SCENE_CORNERS`](crate::model::scene::MAX_SCENE_CORNERS) for one read
/// from JavaScript, which checks it before it reads the corners.
pub fn check_corners(corners: usize, most: usize) -> Result<(), ClothError> {
    if corners > most {
        return Err(refuse(
            "areas",
            None,
            format!("have {corners} corners in all, at most {most} are allowed"),
        ));
    }
    Ok(())
}

/// Checks that a scene's `positions` of `length` numbers are x and y of at
/// least one and at most [`MAX_PARTICLES`] particles; returns their count.
/// Reading a scene checks it before it reads anything else.
pub fn check_particle_count(length: usize) -> Result<usize, ClothError> {
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
    Ok(n)
}

/// Checks particle coordinate `i` of a scene's `positions`, `v` metres as
/// given (before it is stored as `f32`): finite, within ±1e6 m.
pub fn check_position(i: usize, v: f64) -> Result<(), ClothError> {
    let limit = params::MAX_COORDINATE;
    if v.is_finite() && v.abs() <= limit {
        return Ok(());
    }
    Err(at(
        "positions",
        i,
        format!(
            "is {}, expected a finite coordinate from -{} to {} m",
            Number(v),
            Plain(limit),
            Plain(limit)
        ),
    ))
}

/// Checks mass `k` of a scene's `masses`, `m` kg as given: 0 (pinned) or
/// within `(min, max)` (the mass rule's bounds, or those bounds as `f32`
/// stores them when `m` is a stored `f32`).
pub fn check_mass(k: usize, m: f64, (min, max): (f64, f64)) -> Result<(), ClothError> {
    if m == 0.0 || (m.is_finite() && (min..=max).contains(&m)) {
        return Ok(());
    }
    let (min, max) = mass_range();
    Err(at(
        "masses",
        k,
        format!(
            "is {}, expected 0 (pinned) or a mass from {} to {} kg",
            Number(m),
            Plain(min),
            Plain(max)
        ),
    ))
}

impl Scene {
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
        let n = check_particle_count(self.positions.len())?;
        for (i, &v) in self.positions.iter().enumerate() {
            check_position(i, v.into())?;
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
        // the bounds as f32 stores them: 1e-6 kg, the documented minimum,
        // is stored just below 1e-6
        let (min, max) = mass_range();
        let stored = (f64::from(min as f32), f64::from(max as f32));
        for (k, &mass) in self.masses.iter().enumerate() {
            check_mass(k, mass.into(), stored)?;
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

    /// Checks the area constraints: at least three corners each, each a
    /// particle of the scene and named once, a valid stiffness and pressure,
    /// and a start area of at least [`MIN_AREA`].
    fn validate_areas(&self, n: usize) -> Result<(), ClothError> {
        let corners = self.areas.iter().map(|a| a.particles.len()).sum();
        check_corners(corners, MAX_SCENE_CONSTRAINTS)?;
        // which particles the ring being checked has named so far (cleared
        // after each ring): a repeated corner is found in one pass
        let mut named = if self.areas.is_empty() {
            Vec::new()
        } else {
            memory::filled(n, false).map_err(|_| ClothError::OutOfMemory {
                field: "areas",
                what: format!("checking the corners of areas among {n} particles"),
            })?
        };
        for (i, area) in self.areas.iter().enumerate() {
            let count = area.particles.len();
            if count < 3 {
                return Err(at(
                    "areas",
                    i,
                    format!("has {count} particles, expected at least 3"),
                ));
            }
            check_ring(i, &area.particles, &mut named)?;
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
                        "has pressure {}, expected a number above 0 up to {}",
                        Number(area.pressure),
                        Plain(MAX_PRESSURE)
                    ),
                ));
            }
            let start = polygon_area(&self.positions, &area.particles);
            if start.abs() < MIN_AREA {
                return Err(at(
                    "areas",
                    i,
                    format!(
                        "encloses {} m² at the start, expected at least {} m²",
                        Number(start),
                        Plain(MIN_AREA)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Checks the ring of area `i`: each corner a particle of the scene (`named`
/// has one flag per particle, all clear) and none named twice. Leaves the
/// flags clear again.
fn check_ring(i: usize, particles: &[u32], named: &mut [bool]) -> Result<(), ClothError> {
    let n = named.len();
    for &k in particles {
        if k as usize >= n {
            return Err(at(
                "areas",
                i,
                format!("names particle {k}, expected an index from 0 to {}", n - 1),
            ));
        }
        if named[k as usize] {
            return Err(at("areas", i, format!("names particle {k} twice")));
        }
        named[k as usize] = true;
    }
    for &k in particles {
        named[k as usize] = false;
    }
    Ok(())
}

fn stiffness_problem(k: f64) -> String {
    format!(
        "is {}, expected a finite number from 0 to 1e15 N/m (0 = rigid)",
        Number(k)
    )
}

/// Checks a collider's shape as [`shape::validate`] does (the
/// rules `addCollider` applies), with its complaint worded for a scene entry.
fn validate_shape(shape: &Shape) -> Result<(), String> {
    shape::validate(shape).map_err(shape_problem)
}

/// How a scene's refusal of a collider words the refusal of one of its
/// numbers (`has radius -1, expected ...`).
pub fn shape_problem(error: ClothError) -> String {
    match error {
        ClothError::InvalidValue {
            field,
            value,
            allowed,
        } => format!("has {field} {value}, expected {allowed}"),
        other => other.to_string(),
    }
}
