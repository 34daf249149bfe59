//! Interaction: picking, holding and dragging a particle, pins, and the
//! colliders the user adds and moves. Every input is checked first; a refusal
//! changes nothing.

use super::Cloth;
use crate::contacts::Collider;

use crate::error::{ClothError, Number};
use crate::model::shape::{self, Shape};
use crate::params;

/// A particle held by the user.
///
/// The pointer's velocity is measured between drag calls, not between steps:
/// pointer events arrive about once per animation frame while several steps
/// run per frame, so per-step motion is one jump followed by stillness.
/// Displacement over the simulated time between two drags is the motion the
/// user made: the velocity a held pinned particle (which the pointer moves
/// itself) is shown with, and the one a particle keeps when it is let go (a
/// flick).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Held {
    index: usize,
    /// Position and simulated time of the last velocity sample.
    sample_position: [f32; 2],
    sample_time: f64,
    /// Simulated time between the last two samples, seconds.
    sample_interval: f64,
    /// Velocity of the drag motion at the last sample, m/s.
    velocity: [f32; 2],
}

impl Held {
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

impl Cloth {
    /// The particle nearest to `(x, y)` (metres) within `radius` metres, if any.
    pub fn pick(&self, x: f64, y: f64, radius: f64) -> Result<Option<usize>, ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(ClothError::InvalidValue {
                field: "radius",
                value: Number(radius).to_string(),
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

    /// Takes hold of particle `index`: it follows [`Cloth::drag`] through
    /// the grab's spring (see [`crate::kinds::grab`]), which pulls it towards
    /// the pointer with a finite force, so a hard pull stretches the cloth
    /// around it; a pinned particle held is put exactly at the pointer.
    /// Grabbing another particle releases the first. O(1), like
    /// [`Cloth::release`] (and [`Cloth::set_pinned`] without tethers or
    /// bending).
    pub fn grab(&mut self, index: usize) -> Result<(), ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        self.release();
        let at = [self.positions[2 * k], self.positions[2 * k + 1]];
        self.held = Some(Held {
            index: k,
            sample_position: at,
            sample_time: self.time,
            sample_interval: 0.0,
            velocity: [0.0, 0.0],
        });
        self.kinds.grab.hold(k, at);
        Ok(())
    }

    /// Moves the pointer holding the grabbed particle to `(x, y)`, in metres:
    /// a free particle is pulled there by the grab's spring as the cloth
    /// steps, a pinned one is put there at once. Without a grabbed particle
    /// this does nothing.
    pub fn drag(&mut self, x: f64, y: f64) -> Result<(), ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        let time = self.time;
        if let Some(held) = self.held.as_mut() {
            self.kinds.grab.move_to([x, y]);
            if self.pinned[held.index] {
                self.positions[2 * held.index] = x;
                self.positions[2 * held.index + 1] = y;
            }
            let elapsed = time - held.sample_time;
            // Several drags between two steps add up into the next sample.
            if elapsed > 0.0 {
                let seconds = elapsed as f32;
                held.velocity = [
                    (x - held.sample_position[0]) / seconds,
                    (y - held.sample_position[1]) / seconds,
                ];
                held.sample_position = [x, y];
                held.sample_time = time;
                held.sample_interval = elapsed;
            }
        }
        Ok(())
    }

    /// Lets go of the grabbed particle. A free one leaves with the velocity
    /// of the pointer's motion (so the cloth can be flicked; none once the
    /// pointer has rested); a pinned one stays.
    pub fn release(&mut self) {
        let Some(held) = self.held.take() else {
            return;
        };
        self.kinds.grab.let_go();
        let k = held.index;
        let velocity = if self.pinned[k] {
            [0.0, 0.0]
        } else {
            held.velocity_at(self.time)
        };
        self.velocities[2 * k] = velocity[0];
        self.velocities[2 * k + 1] = velocity[1];
        // Within a substep the velocity update measures motion from `previous`:
        // put it where the particle would have been moving at `velocity`.
        let h = self
            .cursor
            .and_then(|at| at.running)
            .map_or(0.0, |s| s.now.h as f32);
        self.previous[2 * k] = self.positions[2 * k] - h * velocity[0];
        self.previous[2 * k + 1] = self.positions[2 * k + 1] - h * velocity[1];
    }

    /// Where the pointer holds the grabbed particle, metres, if one is held.
    pub fn grab_target(&self) -> Option<[f32; 2]> {
        self.kinds.grab.target()
    }

    /// Cuts the cloth along the segment from `(x0, y0)` to `(x1, y1)`, in
    /// metres: every live distance constraint whose segment (between its two
    /// particles as they are now) crosses it is removed, as a tear removes it
    /// (it counts in [`Cloth::torn_count`] and a saved state keeps it torn).
    /// Returns how many were cut. A step in progress is finished first. A
    /// segment of length 0 cuts nothing. Refused, with nothing changed: a
    /// coordinate that is not finite or beyond ±1e6 m (the error names `x0`,
    /// `y0`, `x1` or `y1`). O(constraints).
    pub fn cut(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) -> Result<usize, ClothError> {
        let a = [
            params::validate_coordinate("x0", x0)?,
            params::validate_coordinate("y0", y0)?,
        ];
        let b = [
            params::validate_coordinate("x1", x1)?,
            params::validate_coordinate("y1", y1)?,
        ];
        if a == b {
            return Ok(0);
        }
        if self.step_in_progress() {
            self.advance(1, u64::MAX);
        }
        let positions = &self.positions;
        let point = |k: u32| [positions[2 * k as usize], positions[2 * k as usize + 1]];
        let cut = self
            .constraints
            .tear(|p, q, _| segments_cross(a, b, point(p), point(q)));
        self.torn_count += cut;
        if cut > 0 {
            self.topology_changed();
        }
        Ok(cut)
    }

    /// Adds a collider (see [`crate::contacts::colliders`]); returns its id (from 1,
    /// never reused). Refused: a coordinate that is not finite or beyond
    /// ±1e6 m, a size not above 0 (the error names `x`, `y`, `radius`,
    /// `width` or `height`), more than [`crate::contacts::MAX_COLLIDERS`]
    /// colliders, or a step that would then exceed
    /// [`params::MAX_WORK_PER_STEP`] (`shape`).
    pub fn add_collider(&mut self, shape: Shape) -> Result<u32, ClothError> {
        shape::validate(&shape)?;
        let n = self.num_particles();
        let id = self
            .kinds
            .contacts
            .add_collider(shape, self.time, n, "shape")?;
        // the work limit with it, or it is taken back
        let p = self.params;
        if let Err(error) = self.validate_work("shape", &"a collider more", &p) {
            self.kinds.contacts.colliders_mut().take_back(id);
            return Err(error);
        }
        Ok(id)
    }

    /// Moves collider `id`'s centre to `(x, y)`, metres (a ground line to
    /// height `y`; `x` is ignored). Its motion (displacement over the simulated
    /// time since its last move) is carried into friction until it rests.
    pub fn move_collider(&mut self, id: u32, x: f64, y: f64) -> Result<(), ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        self.kinds
            .contacts
            .colliders_mut()
            .move_to(id, x, y, self.time)
    }

    /// Removes collider `id`.
    pub fn remove_collider(&mut self, id: u32) -> Result<(), ClothError> {
        self.kinds.contacts.colliders_mut().remove(id)
    }

    /// The id of the topmost (last added) collider containing `(x, y)`, metres.
    pub fn pick_collider(&self, x: f64, y: f64) -> Result<Option<u32>, ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        Ok(self.kinds.contacts.colliders().pick(x, y))
    }

    /// The colliders, in the order they were added (the last drawn on top).
    pub fn colliders(&self) -> &[Collider] {
        self.kinds.contacts.colliders().list()
    }

    /// The index of the grabbed particle, if any.
    pub fn grabbed(&self) -> Option<usize> {
        self.held.map(|g| g.index)
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

    /// Gives a held pinned particle the drag velocity, so kinetic energy
    /// sees the motion the user makes (a free one moves on its own).
    pub(super) fn track_held(&mut self) {
        if let Some(held) = self.held.filter(|held| self.pinned[held.index]) {
            let velocity = held.velocity_at(self.time);
            self.velocities[2 * held.index] = velocity[0];
            self.velocities[2 * held.index + 1] = velocity[1];
        }
    }
}

/// Whether segments `a`–`b` and `p`–`q` share a point: each pair of ends lies
/// on both sides of (or on) the other's line, in `f64` (orientation tests);
/// collinear segments share a point when their extents along the line overlap.
fn segments_cross(a: [f32; 2], b: [f32; 2], p: [f32; 2], q: [f32; 2]) -> bool {
    let f = |v: [f32; 2]| [v[0] as f64, v[1] as f64];
    let (a, b, p, q) = (f(a), f(b), f(p), f(q));
    let orient = |o: [f64; 2], u: [f64; 2], v: [f64; 2]| {
        (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
    };
    let (d1, d2) = (orient(a, b, p), orient(a, b, q));
    let (d3, d4) = (orient(p, q, a), orient(p, q, b));
    if d1 == 0.0 && d2 == 0.0 {
        // on one line: overlapping extents on both axes
        let overlaps =
            |k: usize| a[k].min(b[k]) <= p[k].max(q[k]) && p[k].min(q[k]) <= a[k].max(b[k]);
        return overlaps(0) && overlaps(1);
    }
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0
}

#[cfg(test)]
mod tests {
    use super::segments_cross;

    #[test]
    fn segments_cross_when_they_share_a_point() {
        let (a, b) = ([0.0, 0.0], [2.0, 0.0]);
        assert!(segments_cross(a, b, [1.0, -1.0], [1.0, 1.0]), "an X");
        assert!(segments_cross(a, b, [1.0, 0.0], [1.0, 1.0]), "a T");
        assert!(
            !segments_cross(a, b, [3.0, -1.0], [3.0, 1.0]),
            "beyond the end"
        );
        assert!(!segments_cross(a, b, [0.0, 1.0], [2.0, 1.0]), "parallel");
        assert!(
            segments_cross(a, b, [1.5, 0.0], [3.0, 0.0]),
            "collinear, overlapping"
        );
        assert!(
            !segments_cross(a, b, [2.5, 0.0], [3.0, 0.0]),
            "collinear, apart"
        );
    }
}
