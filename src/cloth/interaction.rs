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
/// Its velocity is measured between drag calls, not between steps: pointer
/// events arrive about once per animation frame while several steps run per
/// frame, so per-step motion is one jump followed by stillness. Displacement
/// over the simulated time between two drags is the motion the user made, and
/// the velocity the particle keeps when it is let go (a flick).
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

    /// Takes hold of particle `index`: it stops moving on its own (inverse mass
    /// 0) and follows [`Cloth::drag`]. Grabbing another particle releases the
    /// first. O(1), like [`Cloth::release`] (and [`Cloth::set_pinned`] without
    /// tethers or bending).
    pub fn grab(&mut self, index: usize) -> Result<(), ClothError> {
        let k = params::validate_index(index, self.num_particles())?;
        self.release();
        self.held = Some(Held {
            index: k,
            sample_position: [self.positions[2 * k], self.positions[2 * k + 1]],
            sample_time: self.time,
            sample_interval: 0.0,
            velocity: [0.0, 0.0],
        });
        self.velocities[2 * k] = 0.0;
        self.velocities[2 * k + 1] = 0.0;
        self.update_inverse_mass(k);
        Ok(())
    }

    /// Moves the grabbed particle exactly to `(x, y)`, in metres. Without a
    /// grabbed particle this does nothing.
    pub fn drag(&mut self, x: f64, y: f64) -> Result<(), ClothError> {
        let x = params::validate_coordinate("x", x)?;
        let y = params::validate_coordinate("y", y)?;
        let time = self.time;
        if let Some(held) = self.held.as_mut() {
            self.positions[2 * held.index] = x;
            self.positions[2 * held.index + 1] = y;
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

    /// Lets go of the grabbed particle. It keeps the velocity of the drag motion
    /// (unless it is pinned), so the cloth can be flicked.
    pub fn release(&mut self) {
        let Some(held) = self.held.take() else {
            return;
        };
        let k = held.index;
        let velocity = if self.pinned[k] {
            [0.0, 0.0]
        } else {
            held.velocity
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
        self.update_inverse_mass(k);
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

    /// Gives the held particle the drag velocity, so kinetic energy and a later
    /// release see the motion the user makes.
    pub(super) fn track_held(&mut self) {
        if let Some(held) = self.held {
            let velocity = held.velocity_at(self.time);
            self.velocities[2 * held.index] = velocity[0];
            self.velocities[2 * held.index + 1] = velocity[1];
        }
    }
}
