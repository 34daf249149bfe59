//! The checks of a scene: every entry, each refusal naming the first wrong one.

use super::scene::mass_range;
use super::scene::{DistanceStiffness, Scene, MAX_SCENE_CONSTRAINTS};
use crate::error::{ClothError, Number, Plain};
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
    /// Checks the particles and the distance constraints, every entry; the
    /// error names the first wrong one (`invalid scene: distances[7] joins
    /// particle 3 to itself`). Given colours are checked too, in a buffer of
    /// 32 bytes per particle ([`ClothError::OutOfMemory`] when it does not
    /// fit). Each constraint kind checks its own field when it is built from
    /// the scene (see `src/kinds/`).
    pub fn validate(&self) -> Result<(), ClothError> {
        self.validate_entries()?;
        if let Some(colors) = &self.colors {
            self.validate_colors(colors)?;
        }
        Ok(())
    }

    /// [`Scene::validate`] but for the colours, which are taken as a proper
    /// colouring (the grid's own scene is built this way); allocates nothing.
    pub(crate) fn validate_entries(&self) -> Result<(), ClothError> {
        self.validate_particles()?;
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

    /// Checks flat pairs of particle indices of scene field `field`: even
    /// length, within the limit, in range, two different particles that do
    /// not start at one place (for `distances`, unless rest lengths are given).
    pub fn validate_pairs(&self, field: &'static str, pairs: &[u32]) -> Result<(), ClothError> {
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
}

fn stiffness_problem(k: f64) -> String {
    format!(
        "is {}, expected a finite number from 0 to 1e15 N/m (0 = rigid)",
        Number(k)
    )
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
