//! Contacts: colliders and self-collision, the speed limit that keeps them
//! from being tunnelled through, and the velocity pass that keeps them from
//! doing work they should not.
//!
//! [`Contacts`] owns everything they need: the colliders ([`colliders`], how
//! a particle is pushed out of one in [`contact`]), the candidate pairs of
//! self-collision ([`self_collision`], found by [`pair_search`]), the
//! scene's start positions (the rest distances self-collision exempts) and
//! the records of a substep's pushes ([`velocity`]). It is a constraint kind
//! ([`ConstraintKind`]), the last of the list (it has the final word), and
//! joins a substep at four points (see `src/cloth/step.rs`):
//!
//! * `begin_substep`, before prediction: the speed limit ([`speed_limit`]),
//!   the records of the substep cleared (and, with restitution, the
//!   velocities approaches are measured from kept), and a new search for
//!   self-collision's pairs to come;
//! * `solve`, after each sweep and the other kinds' passes: one pass over the
//!   contacts, on whichever layout the sweep uses (see [`Positions`]);
//! * `end_substep`, after the last sweep, before the velocity update: the
//!   pass once more, so no particle ends a substep inside a collider;
//! * `after_velocities`, right after the velocity update: the normal
//!   velocity of every contact of the substep is set as Müller et al. 2020 do
//!   ([`velocity`]), so a push that undoes an overlap launches nothing and
//!   restitution gives back `e` times an approach.
//!
//! With no collider and self-collision off it is off and does no work.

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

use std::collections::TryReserveError;

use crate::error::ClothError;
use crate::kinds::{on_points, ConstraintKind, Cost, Now, Particles, Positions, Sizes, Topology};
use crate::memory;
use crate::model::validate::shape_problem;
use crate::model::{Scene, Shape};
use crate::params::Params;
use crate::solver::Points;

/// Work units per particle per collider per contact pass (a pass after each
/// sweep and one at the end of the substep; see [`crate::params::work`]). Its
/// worst case, every particle inside every collider (64 grounds, circles and
/// boxes around the whole cloth: two depth tests, the push, friction and its
/// record each time), measured 23 to 26 ns in V8's wasm, against under 3 ns
/// for a particle outside (`node scripts/bench-browser.mjs --worst-case`).
pub const COLLIDER_CONTACT: u64 = 28;
/// Work units per particle per substep while any contact is on: the speed
/// limit.
pub const MAX_SPEED: u64 = 1;
/// Work units per particle per substep while any contact is on: the contact
/// velocity pass (clearing its records, keeping the velocities the solve
/// starts from with restitution, and the pass over the substep's contacts
/// after the velocity update; a self-collision pair's share is in
/// [`SELF_COLLISION_SEARCH`]).
pub const CONTACT_VELOCITY: u64 = 2;
/// Work units per particle per substep with self-collision on: sorting the
/// particles into cells and the neighbour search, which compares each
/// particle with at most [`pair_search::MAX_CANDIDATES`] others whatever the
/// positions (a crumpled cloth, cells far from the origin or sharing a
/// bucket). Measured natively with every particle at that bound: about 200 ns
/// per particle and substep; native and wasm run at about the same speed here.
pub const SELF_COLLISION_SEARCH: u64 = 400;
/// Work units of one candidate pair of self-collision, per contact pass: the
/// distance check, and the push with friction when the pair is too close.
/// Measured natively on a crumpled cloth whose pairs fill their room: 10 to
/// 15 ns.
pub const SELF_COLLISION_PAIR: u64 = 20;
/// Work units per particle per contact pass with self-collision on: the room
/// for its candidate pairs ([`pair_search::PAIRS_PER_PARTICLE`], all of which
/// a crumpled cloth fills), each a [`SELF_COLLISION_PAIR`].
pub const SELF_COLLISION_PASS: u64 = pair_search::PAIRS_PER_PARTICLE as u64 * SELF_COLLISION_PAIR;

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
    /// The contacts of `scene` (its colliders checked): its colliders and its
    /// start positions. `OutOfMemory` names `scene`
    /// ([`Scene::out_of_memory`]).
    fn try_new(scene: &Scene) -> Result<Contacts, ClothError> {
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
}

impl Contacts {
    /// One pass over the contacts: particle pairs first, colliders last (they
    /// have the final word at the end of a substep). `previous` are the
    /// positions at the start of the substep (interleaved), for friction.
    fn pass<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        now: &Now,
    ) {
        let p = &now.p;
        let (radius, friction, h) = (p.particle_radius as f32, p.friction as f32, now.h as f32);
        if p.self_collision {
            let rest = &self.rest_positions;
            self.self_collision
                .solve(points, previous, inverse_mass, rest, radius, friction, h);
        }
        let log = &mut self.velocities;
        let colliders = &self.colliders;
        colliders.project(points, previous, inverse_mass, radius, friction, h, log);
    }
}

impl ConstraintKind for Contacts {
    /// The scene's colliders, each checked as `addCollider` checks one (the
    /// refusal names `colliders` and the entry), and its start positions.
    fn from_scene(scene: &Scene) -> Result<Contacts, ClothError> {
        for (i, shape) in scene.colliders.iter().enumerate() {
            crate::model::shape::validate(shape).map_err(|error| ClothError::InvalidScene {
                field: "colliders",
                index: Some(i),
                problem: shape_problem(error),
            })?;
        }
        Contacts::try_new(scene)
    }

    /// On with any collider, or with `selfCollision`.
    fn is_on(&self, p: &Params) -> bool {
        !self.colliders.is_empty() || p.self_collision
    }

    /// The speed limit and (with self-collision) the search for pairs at the
    /// start of a substep; each collider and the room for pairs per particle
    /// in every pass, one more at the end, and the velocity pass.
    fn cost(&self, p: &Params, sizes: Sizes) -> Cost {
        let n = sizes.particles as u64;
        let mut pass = n * self.colliders.len() as u64 * COLLIDER_CONTACT;
        let mut begin = n * MAX_SPEED;
        if p.self_collision {
            begin += n * SELF_COLLISION_SEARCH;
            pass += n * SELF_COLLISION_PASS;
        }
        Cost {
            begin,
            pass,
            end: pass + n * CONTACT_VELOCITY,
            tear: 0,
        }
    }

    fn heap_bytes(&self) -> u64 {
        self.colliders.heap_bytes()
            + self.self_collision.heap_bytes()
            + memory::capacity_bytes(&self.rest_positions)
            + self.velocities.heap_bytes()
    }

    fn switch(&self) -> &'static str {
        "selfCollision"
    }

    /// Self-collision's buffers, when it is switched on.
    fn prepare(&mut self, p: &Params, topology: &Topology) -> Result<(), TryReserveError> {
        if p.self_collision {
            let n = topology.pinned.len();
            self.velocities.try_reserve(n)?;
            self.self_collision.try_reserve(n)?;
        }
        Ok(())
    }

    /// The speed limit of the free particles, the velocity pass's records
    /// cleared (with restitution, the velocities the solve starts from kept),
    /// and a new search for self-collision's pairs to come.
    fn begin_substep(&mut self, particles: &mut Particles, now: &Now) {
        let (p, h) = (&now.p, now.h);
        let (velocities, inverse_mass) = (&mut *particles.velocities, particles.inverse_mass);
        speed_limit::limit_speeds(velocities, inverse_mass, p, h);
        let step = (h as f32, p.gravity as f32);
        self.velocities
            .begin_substep(velocities, inverse_mass, step, p.restitution as f32);
        self.self_collision.begin_substep();
    }

    fn solve(&mut self, positions: Positions, previous: &[f32], inverse_mass: &[f32], now: &Now) {
        on_points!(positions, |points| self.pass(
            points,
            previous,
            inverse_mass,
            now
        ))
    }

    /// The pass once more, so no particle ends the substep inside a collider.
    fn end_substep(&mut self, particles: &mut Particles, now: &Now) {
        let positions = Positions::Interleaved(particles.positions);
        self.solve(positions, particles.previous, particles.inverse_mass, now);
    }

    /// The velocity pass over the self-collision pairs pushed apart and the
    /// collider contacts of the substep ([`velocity`]).
    fn after_velocities(&mut self, particles: &mut Particles, now: &Now) {
        let p = &now.p;
        let pairs = self
            .self_collision
            .pushed_pairs()
            .filter(|_| p.self_collision);
        let (restitution, gravity) = (p.restitution as f32, p.gravity as f32);
        self.velocities.apply(
            particles.positions,
            particles.velocities,
            particles.inverse_mass,
            pairs,
            (restitution, gravity),
            now.h as f32,
        );
    }

    /// A collider the user stopped moving comes to rest.
    fn end_step(&mut self, time: f64) {
        self.colliders.track(time);
    }
}
