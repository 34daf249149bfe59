//! Ropes added to a running simulation: a chain of particles along a drawn
//! line, each joined to the next by a distance constraint at the `stiffness`
//! parameter's compliance, that falls into the scene and meets cloth, bodies
//! and colliders through the particle contacts.

use super::addition::refuse_value;
use super::Cloth;
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::model::scene::mass_range;
use crate::model::Scene;

/// Most points of the line a rope is drawn along.
pub const MAX_ROPE_POINTS: usize = 10_000;

/// Most particles of one rope.
pub const MAX_ROPE_PARTICLES: usize = 10_000;

/// Smallest and largest spacing of a rope's particles, m: a body's.
pub const ROPE_SPACING_RANGE: (f64, f64) = super::addition::SPACING_RANGE;

/// A rope, what `addRope` takes: particles `spacing` apart (along the line)
/// on the polyline `points`, the first on its first point and the last on its
/// last, each joined to the next.
#[derive(Debug, Clone, PartialEq)]
pub struct RopeSpec {
    /// The line's points `[x0, y0, x1, y1, ...]`, metres, at least 2.
    pub points: Vec<f64>,
    /// The particles' spacing along the line, m; `None`: twice the particle
    /// radius (neighbours touch, so nothing slips between them).
    pub spacing: Option<f64>,
    /// Each particle's mass, kg; `None`: the `mass` parameter.
    pub mass: Option<f64>,
}

impl Cloth {
    /// Adds a rope ([`RopeSpec`]) at rest and returns the index of its first
    /// particle (its particles follow in order along the line). The line is
    /// cut into as many equal pieces as its length holds spacings (at least
    /// one), so the particles are evenly spaced along it; each constraint's
    /// rest length is the straight distance between its particles.
    ///
    /// Refused, with nothing changed, naming the field (`points`, `spacing`,
    /// `mass`, or `rope` for the work limit): fewer than 2 or more than
    /// [`MAX_ROPE_POINTS`] points, a coordinate that is not finite within
    /// ±1e6 m, a line of length 0, a spacing outside [`ROPE_SPACING_RANGE`],
    /// more than [`MAX_ROPE_PARTICLES`] particles (a line too long for its
    /// spacing), a mass outside the `mass` parameter's range, and as
    /// [`Cloth::add_bodies`] refuses (too many particles, the work limit).
    pub fn add_rope(&mut self, rope: &RopeSpec) -> Result<usize, ClothError> {
        let scene = self.rope_scene(rope)?;
        self.add_scene(&scene, "rope")
    }

    /// Checks `rope`'s points, spacing and mass; returns the spacing and mass.
    fn check_rope(&self, rope: &RopeSpec) -> Result<(f64, f64), ClothError> {
        let points = &rope.points;
        let corners = points.len() / 2;
        if points.len() % 2 != 0 || !(2..=MAX_ROPE_POINTS).contains(&corners) {
            return Err(refuse_value(
                "points",
                format_args!("{} numbers", points.len()),
                format_args!(
                    "[x0, y0, x1, y1, ...]: 2 to {MAX_ROPE_POINTS} points, two numbers each"
                ),
            ));
        }
        let spacing = self.check_points("points", points, rope.spacing)?;
        let mass = rope.mass.unwrap_or(self.params.mass);
        let (least, most) = mass_range();
        if !(mass.is_finite() && (least..=most).contains(&mass)) {
            return Err(refuse_value(
                "mass",
                format_args!("{} kg", Number(mass)),
                format_args!("a mass from {} to {} kg", Plain(least), Plain(most)),
            ));
        }
        Ok((spacing, mass))
    }

    /// The scene of the rope [`Cloth::add_rope`] adds, checked.
    fn rope_scene(&self, rope: &RopeSpec) -> Result<Scene, ClothError> {
        let (spacing, mass) = self.check_rope(rope)?;
        let points = &rope.points;
        let corners = points.len() / 2;
        let piece = |k: usize| {
            let (dx, dy) = (
                points[2 * k + 2] - points[2 * k],
                points[2 * k + 3] - points[2 * k + 1],
            );
            (dx * dx + dy * dy).sqrt()
        };
        let length: f64 = (0..corners - 1).map(piece).sum();
        if length <= 0.0 {
            return Err(refuse_value(
                "points",
                format_args!("a line of length 0"),
                format_args!("a line through at least 2 different points"),
            ));
        }
        let pieces = (length / spacing).round().max(1.0);
        if pieces + 1.0 > MAX_ROPE_PARTICLES as f64 {
            return Err(refuse_value(
                "points",
                format_args!(
                    "a line {} m long, {} particles at spacing {} m",
                    Number(length),
                    Number(pieces + 1.0),
                    Number(spacing)
                ),
                format_args!(
                    "a line at most {} m long at this spacing ({MAX_ROPE_PARTICLES} particles)",
                    Number((MAX_ROPE_PARTICLES - 1) as f64 * spacing)
                ),
            ));
        }
        let count = pieces as usize + 1;
        let out_of_memory = |_| rope_out_of_memory(count);
        let mut positions = memory::with_capacity(2 * count).map_err(out_of_memory)?;
        // walk the line, a particle every `length / pieces` metres along it
        let step = length / pieces;
        let (mut corner, mut walked) = (0, 0.0);
        for k in 0..count {
            let along = if k + 1 == count {
                length
            } else {
                k as f64 * step
            };
            while corner + 2 < corners && walked + piece(corner) < along {
                walked += piece(corner);
                corner += 1;
            }
            let d = piece(corner);
            let t = if d > 0.0 {
                ((along - walked) / d).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (x0, y0) = (points[2 * corner], points[2 * corner + 1]);
            let (x1, y1) = (points[2 * corner + 2], points[2 * corner + 3]);
            positions.push((x0 + t * (x1 - x0)) as f32);
            positions.push((y0 + t * (y1 - y0)) as f32);
        }
        let chain = (0..count as u32 - 1).flat_map(|k| [k, k + 1]);
        Ok(Scene {
            masses: memory::filled(count, mass as f32).map_err(out_of_memory)?,
            distances: memory::collect(2 * (count - 1), chain).map_err(out_of_memory)?,
            positions,
            ..Scene::default()
        })
    }
}

/// The refusal of a rope of `count` particles that does not fit in memory:
/// written out once for its three allocations.
#[cold]
#[inline(never)]
fn rope_out_of_memory(count: usize) -> ClothError {
    ClothError::OutOfMemory {
        field: "rope",
        what: format!("a rope of {count} particles"),
    }
}
