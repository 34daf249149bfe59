//! Colliders: a ground line, circles and axis-aligned boxes the particles stay
//! out of, with Coulomb friction, static or moved by the user.
//!
//! A contact is an inequality constraint solved in the same loop as the
//! distance constraints (rigid, plain PBD): a free particle of radius `r`
//! (the `particleRadius` parameter) found inside a collider grown by `r` is
//! moved to its surface along the normal, by the penetration depth `d`.
//! Friction is positional: of the particle's tangential motion over the
//! substep *relative to the collider* (the collider's velocity times `h`
//! subtracted), up to `μ·d` is cancelled (`μ` = `friction`), so a particle
//! pressed onto a surface sticks until it is pulled harder than `μ` times the
//! push, and a cloth lying on a moving box moves with it.
//!
//! Boxes are grown by `r` with square corners (the corner region is slightly
//! larger than a rounded one would be).
//!
//! Tolerance: after the last projection of a substep no free particle is
//! inside any single collider by more than [`TOLERANCE`] (f32 rounding of the
//! surface position is far below it). A particle squeezed between two
//! overlapping colliders ends outside the last one projected.

use crate::params::{ClothError, Number};
use crate::scene::Shape;
use crate::solver::Points;

/// Most colliders one simulation holds.
pub const MAX_COLLIDERS: usize = 64;

/// Most a free particle may end a substep inside a collider (grown by the
/// particle radius), metres.
pub const TOLERANCE: f32 = 1e-4;

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

/// The centre of `shape` (a ground line's `x` is 0).
fn centre(shape: &Shape) -> [f32; 2] {
    match *shape {
        Shape::Ground { y } => [0.0, y],
        Shape::Circle { x, y, .. } | Shape::Box { x, y, .. } => [x, y],
    }
}

/// Accepts a collider size (`radius`, `width`, `height`): finite, above 0
/// and at most 2e6 m.
pub fn validate_size(field: &'static str, value: f64) -> Result<f32, ClothError> {
    let max = 2.0 * crate::params::MAX_COORDINATE;
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(value as f32)
    } else {
        Err(ClothError::InvalidValue {
            field,
            value: Number(value).to_string(),
            allowed: format!("a finite number above 0 and at most {max} m"),
        })
    }
}

/// Checks a shape: coordinates finite within ±1e6 m (the bounds of every
/// coordinate, [`crate::params::validate_coordinate`]), sizes as
/// [`validate_size`] accepts.
pub fn validate(shape: &Shape) -> Result<(), ClothError> {
    let coordinate =
        |field: &'static str, v: f32| crate::params::validate_coordinate(field, v.into()).map(drop);
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
        crate::memory::capacity_bytes(&self.list)
    }

    /// Adds a collider at simulated time `time`; returns its id. Refused: a
    /// shape [`validate`] refuses, more than [`MAX_COLLIDERS`] (`shape`), or
    /// no memory for the list.
    pub fn add(&mut self, shape: Shape, time: f64) -> Result<u32, ClothError> {
        validate(&shape)?;
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
    /// them; several moves at one time add up into the next sample.
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
        validate(&shape)?;
        collider.shape = shape;
        let elapsed = time - collider.sample_time;
        if elapsed > 0.0 {
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

    /// The id of the topmost (last added) collider containing `(x, y)`.
    pub fn pick(&self, x: f32, y: f32) -> Option<u32> {
        self.list
            .iter()
            .rev()
            .find(|c| depth(&c.shape, 0.0, x, y).is_some())
            .map(|c| c.id)
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

    /// Projects every free particle out of every collider, with friction.
    /// `previous` are the positions at the start of the substep (interleaved),
    /// `radius` the particle radius, `friction` μ, `h` the substep, seconds.
    pub fn project<P: Points + ?Sized>(
        &self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        radius: f32,
        friction: f32,
        h: f32,
    ) {
        for c in &self.list {
            let (v, mu) = (c.velocity, friction);
            // one loop per kind of shape, so the test of each particle is the
            // shape's own, without a match per particle
            match c.shape {
                Shape::Ground { y } => {
                    project_each(points, previous, inverse_mass, v, mu, h, |px, py| {
                        depth(&Shape::Ground { y }, radius, px, py)
                    })
                }
                Shape::Circle { x, y, radius: r } => {
                    project_each(points, previous, inverse_mass, v, mu, h, |px, py| {
                        depth(&Shape::Circle { x, y, radius: r }, radius, px, py)
                    })
                }
                Shape::Box {
                    x,
                    y,
                    width,
                    height,
                } => project_each(points, previous, inverse_mass, v, mu, h, |px, py| {
                    let shape = Shape::Box {
                        x,
                        y,
                        width,
                        height,
                    };
                    depth(&shape, radius, px, py)
                }),
            }
        }
    }
}

/// Projects every free particle out of the collider `depth_of` tells the
/// contacts of, moving at `velocity`, with friction (see [`resolve`]).
#[inline(always)]
fn project_each<P: Points + ?Sized>(
    points: &mut P,
    previous: &[f32],
    inverse_mass: &[f32],
    velocity: [f32; 2],
    friction: f32,
    h: f32,
    depth_of: impl Fn(f32, f32) -> Option<Contact>,
) {
    for (k, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = points.point(k);
        if let Some(contact) = depth_of(x, y) {
            let before = [previous[2 * k], previous[2 * k + 1]];
            let p = resolve([x, y], before, contact, velocity, friction, h);
            points.set_point(k, (p[0], p[1]));
        }
    }
}

/// A contact: unit normal out of the collider and penetration depth (> 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Unit normal pointing out of the collider.
    pub normal: [f32; 2],
    /// How deep the point is inside, metres.
    pub depth: f32,
}

/// The contact of a point `(x, y)` of radius `radius` with `shape`, if it is
/// inside (depth above 0).
pub fn depth(shape: &Shape, radius: f32, x: f32, y: f32) -> Option<Contact> {
    match *shape {
        Shape::Ground { y: g } => {
            let d = g + radius - y;
            (d > 0.0).then_some(Contact {
                normal: [0.0, 1.0],
                depth: d,
            })
        }
        Shape::Circle {
            x: cx,
            y: cy,
            radius: big,
        } => {
            let (dx, dy) = (x - cx, y - cy);
            let reach = big + radius;
            let d2 = dx * dx + dy * dy;
            if d2 >= reach * reach {
                return None;
            }
            let dist = d2.sqrt();
            let normal = if dist > 1e-12 {
                [dx / dist, dy / dist]
            } else {
                [0.0, 1.0]
            };
            Some(Contact {
                normal,
                depth: reach - dist,
            })
        }
        Shape::Box {
            x: cx,
            y: cy,
            width,
            height,
        } => {
            let (hx, hy) = (0.5 * width + radius, 0.5 * height + radius);
            let (dx, dy) = (x - cx, y - cy);
            let (ox, oy) = (hx - dx.abs(), hy - dy.abs());
            if ox <= 0.0 || oy <= 0.0 {
                return None;
            }
            // out through the nearest face
            Some(if ox < oy {
                Contact {
                    normal: [if dx < 0.0 { -1.0 } else { 1.0 }, 0.0],
                    depth: ox,
                }
            } else {
                Contact {
                    normal: [0.0, if dy < 0.0 { -1.0 } else { 1.0 }],
                    depth: oy,
                }
            })
        }
    }
}

/// Where a point at `p` (at `before` when the substep began) goes for
/// `contact` with a collider moving at `velocity`: out along the normal by
/// the depth, then the tangential motion relative to the collider over the
/// substep `h` cut by up to `friction · depth`.
pub fn resolve(
    p: [f32; 2],
    before: [f32; 2],
    contact: Contact,
    velocity: [f32; 2],
    friction: f32,
    h: f32,
) -> [f32; 2] {
    let [nx, ny] = contact.normal;
    let d = contact.depth;
    let p = [p[0] + nx * d, p[1] + ny * d];
    let rel = [
        p[0] - before[0] - velocity[0] * h,
        p[1] - before[1] - velocity[1] * h,
    ];
    let along = rel[0] * nx + rel[1] * ny;
    let t = [rel[0] - along * nx, rel[1] - along * ny];
    let slide = (t[0] * t[0] + t[1] * t[1]).sqrt();
    let limit = friction * d;
    if slide <= 0.0 {
        return p;
    }
    let cut = if slide <= limit { 1.0 } else { limit / slide };
    [p[0] - t[0] * cut, p[1] - t[1] * cut]
}
