//! The shape of a collider: a ground line, a circle or an axis-aligned box,
//! and the checks of its numbers. What a collider does to the particles is
//! `src/contacts/`'s.

use crate::error::{ClothError, Number, Plain};
use crate::params::{self, MAX_COORDINATE};

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

/// The centre of `shape` (a ground line's `x` is 0).
pub fn centre(shape: &Shape) -> [f32; 2] {
    match *shape {
        Shape::Ground { y } => [0.0, y],
        Shape::Circle { x, y, .. } | Shape::Box { x, y, .. } => [x, y],
    }
}

/// Accepts a collider size (`radius`, `width`, `height`): finite, above 0
/// (also once stored as `f32`: 1e-50 is not) and at most 2e6 m.
pub fn validate_size(field: &'static str, value: f64) -> Result<f32, ClothError> {
    let max = 2.0 * MAX_COORDINATE;
    if value.is_finite() && value as f32 > 0.0 && value <= max {
        Ok(value as f32)
    } else {
        Err(ClothError::InvalidValue {
            field,
            value: Number(value).to_string(),
            allowed: format!("a finite number above 0 and at most {} m", Plain(max)),
        })
    }
}

/// Checks a shape: coordinates finite within ±1e6 m (the bounds of every
/// coordinate, [`params::validate_coordinate`]), sizes as
/// [`validate_size`] accepts.
pub fn validate(shape: &Shape) -> Result<(), ClothError> {
    let coordinate =
        |field: &'static str, v: f32| params::validate_coordinate(field, v.into()).map(drop);
    let size = |field: &'static str, v: f32| validate_size(field, v.into()).map(drop);
    match *shape {
        Shape::Ground { y } => coordinate("y", y),
        Shape::Circle { x, y, radius } => {
            coordinate("x", x)?;
            coordinate("y", y)?;
            size("radius", radius)
        }
        Shape::Box {
            x,
            y,
            width,
            height,
        } => {
            coordinate("x", x)?;
            coordinate("y", y)?;
            size("width", width)?;
            size("height", height)
        }
    }
}
