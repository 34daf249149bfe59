//! Where anything may be: the bounds of every coordinate and particle index.

use std::fmt;

use crate::error::{invalid, ClothError, Number, Plain};

/// How far from the origin anything may be, in metres: a point further out is
/// refused, and a cloth that gets there counts as diverged.
pub const MAX_COORDINATE: f64 = 1e6;

/// The latest simulated time, seconds, a saved or set state may have (about 32
/// years): below it, a step of the smallest time step (1e-6 s) still moves the
/// clock, which at 1e12 s (a spacing of 1.2e-4 s between doubles) it would not.
pub const MAX_TIME: f64 = 1e9;

/// Accepts a point coordinate in metres: finite, within ±1e6 m.
pub fn validate_coordinate(field: &'static str, value: f64) -> Result<f32, ClothError> {
    if value.is_finite() && value.abs() <= MAX_COORDINATE {
        Ok(value as f32)
    } else {
        Err(invalid(
            field,
            Number(value),
            format!(
                "a finite number from {} to {} m",
                Plain(-MAX_COORDINATE),
                Plain(MAX_COORDINATE)
            ),
        ))
    }
}

/// Accepts a particle index: one below `count`, the number of particles.
pub fn validate_index(index: usize, count: usize) -> Result<usize, ClothError> {
    if index < count {
        Ok(index)
    } else {
        Err(index_error(index, count))
    }
}

/// The refusal of particle index `index` (shown as given) in a cloth of `count` particles.
pub fn index_error(index: impl fmt::Display, count: usize) -> ClothError {
    ClothError::ParticleIndex {
        index: index.to_string(),
        count,
    }
}
