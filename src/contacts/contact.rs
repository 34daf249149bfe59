//! Contacts with colliders: a free particle found inside a collider is pushed
//! out of it, with Coulomb friction.
//!
//! A contact is an inequality constraint solved in the same loop as the
//! distance constraints (rigid, plain PBD): a free particle of radius `r`
//! (the `particleRadius` parameter) found inside a collider grown by `r` is
//! moved to its surface along the normal, by the penetration depth `d`.
//! Friction is positional: of the particle's tangential motion over the
//! substep *relative to the collider* (the collider's velocity times `h`
//! subtracted), up to `μ·p` is cancelled (`μ` = `friction`), `p` being how
//! far the contacts have pushed the particle along the normal in the substep
//! so far: the tangential correction over a substep is at most `μ` times the
//! normal one, Coulomb's law for the impulses (Müller et al. 2020 compare the
//! friction multiplier with the normal multiplier accumulated over the
//! substep in the same way). So a particle pressed onto a surface sticks
//! until it is pulled harder than `μ` times the push, and a cloth lying on a
//! moving box moves with it. Each push is recorded for the contact velocity
//! pass ([`super::velocity`]), which keeps the push from becoming outward
//! speed.
//!
//! Boxes are grown by `r` with square corners (the corner region is slightly
//! larger than a rounded one would be).
//!
//! An overlap a particle already had when its substep began (a collider
//! moved onto it, the radius raised) is undone no faster than the collider
//! approaches plus [`super::velocity::MAX_DEPENETRATION_SPEED`] (see
//! [`push_depth`]), so undoing it launches nothing.
//!
//! Tolerance: after the last projection of a substep no free particle that
//! began the substep outside is inside any single collider by more than
//! [`TOLERANCE`] (f32 rounding of the surface position is far below it). A
//! particle squeezed between two overlapping colliders ends outside the last
//! one projected.

use super::colliders::Colliders;
use super::velocity::{push_depth, ContactVelocities};
use crate::model::shape::Shape;
use crate::solver::Points;

/// Most a free particle may end a substep inside a collider (grown by the
/// particle radius), metres.
pub const TOLERANCE: f32 = 1e-4;

impl Colliders {
    /// The id of the topmost (last added) collider containing `(x, y)`.
    pub fn pick(&self, x: f32, y: f32) -> Option<u32> {
        self.list()
            .iter()
            .rev()
            .find(|c| depth(&c.shape, 0.0, x, y).is_some())
            .map(|c| c.id)
    }

    /// Projects every free particle out of every collider, with friction.
    /// `previous` are the positions at the start of the substep (interleaved),
    /// `radius` the particle radius, `friction` μ, `h` the substep, seconds.
    /// Each push is recorded in `log` for the velocity pass.
    #[allow(clippy::too_many_arguments)]
    pub fn project<P: Points + ?Sized>(
        &self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        radius: f32,
        friction: f32,
        h: f32,
        log: &mut ContactVelocities,
    ) {
        for c in self.list() {
            let (v, mu) = ((c.velocity, &mut *log), friction);
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
/// contacts of, moving at `velocity`, with friction (see [`resolve`]), and
/// records each push in `log`.
#[inline(always)]
fn project_each<P: Points + ?Sized>(
    points: &mut P,
    previous: &[f32],
    inverse_mass: &[f32],
    (velocity, log): ([f32; 2], &mut ContactVelocities),
    friction: f32,
    h: f32,
    depth_of: impl Fn(f32, f32) -> Option<Contact>,
) {
    // each particle's start of the substep beside its inverse mass, so the
    // loop reads `previous` with no bounds check
    let starts = inverse_mass.iter().zip(previous.chunks_exact(2));
    for (k, (&w, start)) in starts.enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = points.point(k);
        if let Some(contact) = depth_of(x, y) {
            let before = [start[0], start[1]];
            let overlap = depth_of(before[0], before[1]).map_or(0.0, |c| c.depth);
            let [nx, ny] = contact.normal;
            let approach = velocity[0] * nx + velocity[1] * ny;
            let depth = push_depth(contact.depth, overlap, approach, h);
            if depth <= 0.0 {
                continue;
            }
            let contact = Contact { depth, ..contact };
            let pushed = log.record(k, contact.normal, depth, velocity);
            // out, then friction on where that put it (a particle of a rigid
            // body moves with its body, see `super::rigid`)
            let [x, y] = push_out([x, y], contact);
            points.set_point(k, (x, y));
            let (x, y) = points.point(k);
            let p = rub([x, y], before, contact, velocity, (friction, pushed), h);
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
#[inline(always)]
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
/// the depth ([`push_out`]), then the tangential motion relative to the
/// collider over the substep `h` cut by up to `friction · pushed` ([`rub`]),
/// `pushed` being how far the contacts have pushed it along the normal this
/// substep, this push included (at least the depth).
#[inline(always)]
pub fn resolve(
    p: [f32; 2],
    before: [f32; 2],
    contact: Contact,
    velocity: [f32; 2],
    friction: (f32, f32),
    h: f32,
) -> [f32; 2] {
    rub(push_out(p, contact), before, contact, velocity, friction, h)
}

/// The point at `p` moved out of `contact` along its normal by its depth.
#[inline(always)]
pub fn push_out(p: [f32; 2], contact: Contact) -> [f32; 2] {
    let [nx, ny] = contact.normal;
    let d = contact.depth;
    [p[0] + nx * d, p[1] + ny * d]
}

/// Friction on a point at `p`, just pushed out of `contact` (at `before`
/// when the substep began, the collider moving at `velocity`): its motion
/// over the substep `h` relative to the collider, across the normal, cut by
/// up to `friction · pushed` (see [`resolve`]).
#[inline(always)]
pub fn rub(
    p: [f32; 2],
    before: [f32; 2],
    contact: Contact,
    velocity: [f32; 2],
    (friction, pushed): (f32, f32),
    h: f32,
) -> [f32; 2] {
    let [nx, ny] = contact.normal;
    let d = contact.depth;
    let rel = [
        p[0] - before[0] - velocity[0] * h,
        p[1] - before[1] - velocity[1] * h,
    ];
    let along = rel[0] * nx + rel[1] * ny;
    let t = [rel[0] - along * nx, rel[1] - along * ny];
    let slide = (t[0] * t[0] + t[1] * t[1]).sqrt();
    let limit = friction * pushed.max(d);
    if slide <= 0.0 {
        return p;
    }
    let cut = if slide <= limit { 1.0 } else { limit / slide };
    [p[0] - t[0] * cut, p[1] - t[1] * cut]
}
