//! Colliders: a ground line, circles and axis-aligned boxes the particles stay
//! out of, static or moved by the user. This file keeps the list (ids,
//! positions, the velocity of a moved collider); `contact.rs` pushes the
//! particles out of them.

use crate::error::ClothError;
use crate::memory;
use crate::model::shape::{self, centre, Shape};

/// Most colliders one simulation holds.
pub const MAX_COLLIDERS: usize = 64;

/// One collider: its id, shape (position of its centre) and velocity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collider {
    /// Its id, from 1, never reused within one simulation.
    pub id: u32,
    /// Its shape, at its current position.
    pub shape: Shape,
    /// Velocity of its last move, m/s (zero once it rests, see
    /// [`Colliders::track`]).
    pub velocity: [f32; 2],
    /// Where and when (simulated time) its velocity was last sampled.
    sample_position: [f32; 2],
    sample_time: f64,
    /// Simulated time between its last two samples, seconds.
    sample_interval: f64,
}

impl Collider {
    /// Collider `id` of `shape`, at rest since simulated time `time`.
    fn at_rest(id: u32, shape: Shape, time: f64) -> Collider {
        Collider {
            id,
            shape,
            velocity: [0.0, 0.0],
            sample_position: centre(&shape),
            sample_time: time,
            sample_interval: 0.0,
        }
    }
}

/// The colliders of a simulation.
#[derive(Debug, Clone, PartialEq)]
pub struct Colliders {
    list: Vec<Collider>,
    next_id: u32,
}

impl Default for Colliders {
    fn default() -> Self {
        Colliders {
            list: Vec::new(),
            next_id: 1,
        }
    }
}

impl Colliders {
    /// The colliders, in the order they were added (the last is on top).
    pub fn list(&self) -> &[Collider] {
        &self.list
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Bytes the list holds.
    pub fn heap_bytes(&self) -> u64 {
        memory::capacity_bytes(&self.list)
    }

    /// Adds a collider at simulated time `time`; returns its id. Refused: a
    /// shape [`shape::validate`] refuses, more than [`MAX_COLLIDERS`] (`shape`), or
    /// no memory for the list.
    pub fn add(&mut self, shape: Shape, time: f64) -> Result<u32, ClothError> {
        shape::validate(&shape)?;
        if self.list.len() >= MAX_COLLIDERS {
            return Err(ClothError::InvalidValue {
                field: "shape",
                value: format!("collider {}", self.list.len() + 1),
                allowed: format!("at most {MAX_COLLIDERS} colliders (remove one first)"),
            });
        }
        self.reserve("shape")?;
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Collider::at_rest(id, shape, time));
        Ok(id)
    }

    /// Replaces every collider by `colliders` (id and shape each), all at rest
    /// at simulated time `time`; later ids continue after the largest. The
    /// caller has validated them (shapes, distinct ids from 1, at most
    /// [`MAX_COLLIDERS`]); refused without change only when the list's memory
    /// cannot be reserved.
    pub fn replace(&mut self, colliders: &[(u32, Shape)], time: f64) -> Result<(), ClothError> {
        self.reserve("colliders")?;
        self.list.clear();
        for &(id, shape) in colliders {
            self.list.push(Collider::at_rest(id, shape, time));
        }
        let largest = colliders.iter().map(|&(id, _)| id).max().unwrap_or(0);
        self.next_id = self.next_id.max(largest.saturating_add(1));
        Ok(())
    }

    /// Reserves room for [`MAX_COLLIDERS`] once, so adding never allocates
    /// later; `OutOfMemory` names `field`.
    fn reserve(&mut self, field: &'static str) -> Result<(), ClothError> {
        if self.list.capacity() < MAX_COLLIDERS {
            self.list
                .try_reserve_exact(MAX_COLLIDERS - self.list.len())
                .map_err(|_| ClothError::OutOfMemory {
                    field,
                    what: format!("the list of {MAX_COLLIDERS} colliders"),
                })?;
        }
        Ok(())
    }

    fn index(&self, id: u32) -> Result<usize, ClothError> {
        self.list
            .iter()
            .position(|c| c.id == id)
            .ok_or_else(|| ClothError::InvalidValue {
                field: "id",
                value: id.to_string(),
                allowed: "the id of a collider of this simulation".into(),
            })
    }

    /// Moves collider `id`'s centre to `(x, y)` (a ground line: to height `y`,
    /// `x` is ignored) at simulated time `time`. Its velocity becomes the
    /// displacement since its last sample over the simulated time between
    /// them; several moves at one time add up into the next sample. A
    /// collider at rest (see [`Colliders::track`]) that is moved is placed:
    /// one sample tells no velocity, so it keeps none (a teleport, or the
    /// first move of a drag) and the next move measures one. Contacts push
    /// at the collider's velocity: a placement measured over the whole rest
    /// before it would give a collider teleported metres a speed it never had.
    pub fn move_to(&mut self, id: u32, x: f32, y: f32, time: f64) -> Result<(), ClothError> {
        let k = self.index(id)?;
        let collider = &mut self.list[k];
        let mut shape = collider.shape;
        match &mut shape {
            Shape::Ground { y: gy } => *gy = y,
            Shape::Circle { x: cx, y: cy, .. } | Shape::Box { x: cx, y: cy, .. } => {
                (*cx, *cy) = (x, y)
            }
        }
        shape::validate(&shape)?;
        collider.shape = shape;
        let elapsed = time - collider.sample_time;
        if elapsed > 2.0 * collider.sample_interval + 1e-12 {
            collider.velocity = [0.0, 0.0];
            collider.sample_position = centre(&shape);
            collider.sample_time = time;
            // measured from the next move on, however long after this one
            collider.sample_interval = f64::INFINITY;
        } else if elapsed > 0.0 {
            let now = centre(&shape);
            let seconds = elapsed as f32;
            collider.velocity = [
                (now[0] - collider.sample_position[0]) / seconds,
                (now[1] - collider.sample_position[1]) / seconds,
            ];
            if matches!(shape, Shape::Ground { .. }) {
                collider.velocity[0] = 0.0;
            }
            collider.sample_position = now;
            collider.sample_time = time;
            collider.sample_interval = elapsed;
        }
        Ok(())
    }

    /// Removes collider `id`.
    pub fn remove(&mut self, id: u32) -> Result<(), ClothError> {
        let k = self.index(id)?;
        self.list.remove(k);
        Ok(())
    }

    /// Takes back collider `id`, the last one added (a refused addition):
    /// the list and the next id are as they were before it.
    pub fn take_back(&mut self, id: u32) {
        if self.list.last().is_some_and(|c| c.id == id) {
            self.list.pop();
            self.next_id = id;
        }
    }

    /// After a step ending at simulated time `time`: a collider that has not
    /// moved for more than two of its usual move intervals rests (velocity 0).
    pub fn track(&mut self, time: f64) {
        for c in &mut self.list {
            if time - c.sample_time > 2.0 * c.sample_interval + 1e-12 {
                c.velocity = [0.0, 0.0];
            }
        }
    }
}
