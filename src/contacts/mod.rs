//! Contacts: colliders and self-collision, the speed limit that keeps them
//! from being tunnelled through, and the velocity pass that keeps them from
//! doing work they should not.
//!
//! [`Contacts`] owns everything they need: the colliders ([`colliders`], how
//! a particle is pushed out of one in [`contact`]), the candidate pairs of
//! self-collision ([`self_collision`], found by [`pair_search`]), the
//! scene's start positions (the rest distances self-collision exempts) and
//! the records of a substep's pushes ([`velocity`]). A substep calls it at
//! four points (see `src/cloth/step.rs`):
//!
//! * [`Contacts::begin_substep`], before prediction: the speed limit
//!   ([`speed_limit`]), the records of the substep cleared (and, with
//!   restitution, the velocities approaches are measured from kept), and a
//!   new search for self-collision's pairs to come;
//! * [`Contacts::solve`], after each sweep and what the scene adds: one pass
//!   over the contacts, on whichever layout the sweep uses (see [`Points`]);
//! * [`Contacts::solve`] once more after the last sweep, before the velocity
//!   update, so no particle ends a substep inside a collider;
//! * [`Contacts::velocity_pass`], right after the velocity update: the
//!   normal velocity of every contact of the substep is set as Müller et al.
//!   2020 do ([`velocity`]), so a push that undoes an overlap launches
//!   nothing and restitution gives back `e` times an approach.
//!
//! With no collider and self-collision off ([`Contacts::is_active`] is false)
//! none of them does any work.

pub mod colliders;
pub mod contact;
pub mod pair_search;
pub mod self_collision;
pub mod speed_limit;
pub mod velocity;

pub use colliders::{Collider, Colliders, MAX_COLLIDERS};
pub use contact::TOLERANCE;
pub use speed_limit::{max_speed, MAX_TRAVEL};

use self_collision::SelfCollision;
use velocity::ContactVelocities;

use crate::error::ClothError;
use crate::memory;
use crate::model::{Scene, Shape};
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
    /// What the velocity pass remembers of a substep; reserved once contacts
    /// can happen (a collider, or self-collision switched on).
    velocities: ContactVelocities,
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
        let n = scene.num_particles();
        for &shape in &scene.colliders {
            contacts.add_collider(shape, 0.0, n, "scene")?;
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

    /// Adds a collider at simulated time `time` to a simulation of `n`
    /// particles (see [`Colliders::add`]), reserving the velocity pass's
    /// records first; returns its id. `OutOfMemory` names `field`.
    pub fn add_collider(
        &mut self,
        shape: Shape,
        time: f64,
        n: usize,
        field: &'static str,
    ) -> Result<u32, ClothError> {
        crate::model::shape::validate(&shape)?;
        self.reserve_velocity_pass(n, field)?;
        self.colliders.add(shape, time)
    }

    /// Reserves what the velocity pass keeps for `n` particles (before the
    /// first collider or self-collision); refused with `OutOfMemory` naming
    /// `field`.
    pub fn reserve_velocity_pass(
        &mut self,
        n: usize,
        field: &'static str,
    ) -> Result<(), ClothError> {
        self.velocities
            .try_reserve(n)
            .map_err(|_| ClothError::OutOfMemory {
                field,
                what: format!("the contact records of {n} particles"),
            })
    }

    /// Reserves self-collision's buffers for `n` particles (before it is
    /// switched on); refused with `OutOfMemory` naming `selfCollision`.
    pub fn reserve_self_collision(&mut self, n: usize) -> Result<(), ClothError> {
        self.reserve_velocity_pass(n, "selfCollision")?;
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
            + self.velocities.heap_bytes()
    }

    /// Before prediction of a substep of `h` seconds: the speed limit of the
    /// free particles (`inverse_mass > 0`), the velocity pass's records
    /// cleared (with restitution, the velocities the solve starts from kept),
    /// and a new search for self-collision's pairs to come. Nothing while
    /// contacts are off, and no velocity pass at the end of the substep.
    pub fn begin_substep(
        &mut self,
        velocities: &mut [f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        if !self.is_active(p) {
            self.velocities.disarm();
            return;
        }
        speed_limit::limit_speeds(velocities, inverse_mass, p, h);
        let step = (h as f32, p.gravity as f32);
        self.velocities
            .begin_substep(velocities, inverse_mass, step, p.restitution as f32);
        self.self_collision.begin_substep();
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
            let h = h as f32;
            self.self_collision
                .solve(points, previous, inverse_mass, rest, radius, friction, h);
        }
        let log = &mut self.velocities;
        self.colliders.project(
            points,
            previous,
            inverse_mass,
            radius,
            friction,
            h as f32,
            log,
        );
    }

    /// Right after the velocity update of a substep of `h` seconds: the
    /// velocity pass over the self-collision pairs pushed apart and the
    /// collider contacts of the substep ([`velocity`]). Nothing when the
    /// substep had no contacts.
    pub fn velocity_pass(
        &mut self,
        positions: &[f32],
        velocities: &mut [f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        if !self.is_active(p) {
            return;
        }
        let pairs = self
            .self_collision
            .pushed_pairs()
            .filter(|_| p.self_collision);
        let (restitution, gravity) = (p.restitution as f32, p.gravity as f32);
        self.velocities.apply(
            positions,
            velocities,
            inverse_mass,
            pairs,
            (restitution, gravity),
            h as f32,
        );
    }

    /// At the end of a step at simulated `time`: a collider the user stopped
    /// moving comes to rest.
    pub fn end_step(&mut self, time: f64) {
        self.colliders.track(time);
    }
}
