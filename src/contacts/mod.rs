//! Contacts: colliders and self-collision, and the speed limit that keeps
//! them from being tunnelled through.
//!
//! [`Contacts`] owns everything they need: the colliders ([`colliders`], how
//! a particle is pushed out of one in [`contact`]), the candidate pairs of
//! self-collision ([`self_collision`], found by [`pair_search`]) and the
//! scene's start positions (the rest distances self-collision exempts). A
//! substep calls it at three points (see `src/cloth/step.rs`):
//!
//! * [`Contacts::begin_substep`], before prediction: the speed limit
//!   ([`speed_limit`]), and a new search for self-collision's pairs to come;
//! * [`Contacts::solve`], after each sweep and what the scene adds: one pass
//!   over the contacts, on whichever layout the sweep uses (see [`Points`]);
//! * [`Contacts::solve`] once more after the last sweep, before the velocity
//!   update, so no particle ends a substep inside a collider.
//!
//! With no collider and self-collision off ([`Contacts::is_active`] is false)
//! none of them does any work.

pub mod colliders;
pub mod contact;
pub mod pair_search;
pub mod self_collision;
pub mod speed_limit;

pub use colliders::{Collider, Colliders, MAX_COLLIDERS};
pub use contact::TOLERANCE;
pub use speed_limit::{max_speed, MAX_TRAVEL};

use self_collision::SelfCollision;

use crate::error::ClothError;
use crate::memory;
use crate::model::Scene;
use crate::params::Params;
use crate::solver::Points;

/// The contacts of a simulation: its colliders, self-collision's pairs and
/// the rest positions those exempt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contacts {
    /// Ground, circles and boxes.
    colliders: Colliders,
    /// The spatial hash and candidate pairs of self-collision.
    self_collision: SelfCollision,
    /// The scene's start positions, interleaved: the rest distances
    /// self-collision exempts.
    rest_positions: Vec<f32>,
}

impl Contacts {
    /// The contacts of `scene` (validated): its colliders and its start
    /// positions. `OutOfMemory` names `scene`
    /// ([`Scene::out_of_memory`]).
    pub fn try_new(scene: &Scene) -> Result<Contacts, ClothError> {
        let rest_positions = memory::copied(&scene.positions).map_err(|_| scene.out_of_memory())?;
        let mut contacts = Contacts {
            rest_positions,
            ..Contacts::default()
        };
        for &shape in &scene.colliders {
            contacts.colliders.add(shape, 0.0)?;
        }
        Ok(contacts)
    }

    /// Whether contacts do work with parameters `p`.
    pub fn is_active(&self, p: &Params) -> bool {
        !self.colliders.is_empty() || (p.self_collision && self.self_collision.is_reserved())
    }

    /// The colliders.
    pub fn colliders(&self) -> &Colliders {
        &self.colliders
    }

    /// The colliders, to add, move, remove or replace them.
    pub fn colliders_mut(&mut self) -> &mut Colliders {
        &mut self.colliders
    }

    /// Reserves self-collision's buffers for `n` particles (before it is
    /// switched on); refused with `OutOfMemory` naming `selfCollision`.
    pub fn reserve_self_collision(&mut self, n: usize) -> Result<(), ClothError> {
        self.self_collision
            .try_reserve(n)
            .map_err(|_| ClothError::OutOfMemory {
                field: "selfCollision",
                what: format!("the spatial hash of {n} particles"),
            })
    }

    /// Bytes of memory its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        self.colliders.heap_bytes()
            + self.self_collision.heap_bytes()
            + memory::capacity_bytes(&self.rest_positions)
    }

    /// Before prediction of a substep of `h` seconds: the speed limit of the
    /// free particles (`inverse_mass > 0`), and a new search for
    /// self-collision's pairs to come. Nothing while contacts are off.
    pub fn begin_substep(
        &mut self,
        velocities: &mut [f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        if self.is_active(p) {
            speed_limit::limit_speeds(velocities, inverse_mass, p, h);
            self.self_collision.begin_substep();
        }
    }

    /// One pass over the contacts: particle pairs first, colliders last (they
    /// have the final word at the end of a substep). `previous` are the
    /// positions at the start of the substep (interleaved), for friction.
    pub fn solve<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        if !self.is_active(p) {
            return;
        }
        let (radius, friction) = (p.particle_radius as f32, p.friction as f32);
        if p.self_collision {
            let rest = &self.rest_positions;
            self.self_collision
                .solve(points, previous, inverse_mass, rest, radius, friction);
        }
        self.colliders
            .project(points, previous, inverse_mass, radius, friction, h as f32);
    }

    /// At the end of a step at simulated `time`: a collider the user stopped
    /// moving comes to rest.
    pub fn end_step(&mut self, time: f64) {
        self.colliders.track(time);
    }
}
