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
//!   contacts, on whichever layout the sweep uses (see [`Positions`]), read
//!   and written through one type for both ([`points`]);
//! * `end_substep`, after the last sweep, before the velocity update: the
//!   pass once more, so no particle ends a substep inside a collider;
//! * `after_velocities`, right after the velocity update: the normal
//!   velocity of every contact of the substep is set as Müller et al. 2020 do
//!   ([`velocity`]), so a push that undoes an overlap launches nothing and
//!   restitution gives back `e` times an approach.
//!
//! Bodies ([`crate::kinds::bodies`]) meet everything else through the same
//! particle contacts: in a simulation with bodies the pairs are searched
//! whether or not self-collision is on, and a pair is two particles of
//! different bodies, or of a body and of none (two of no body only with
//! self-collision on; see [`pair_search::PairRules`]).
//!
//! With no collider, no body and self-collision off it is off and does no work.

pub mod colliders;
pub mod contact;
pub mod pair_search;
pub mod points;
pub mod rigid;
pub mod self_collision;
pub mod speed_limit;
pub mod velocity;

pub use colliders::{Collider, Colliders, MAX_COLLIDERS};
pub use contact::TOLERANCE;
pub use speed_limit::{max_speed, MAX_TRAVEL};

use points::ContactPoints;
use rigid::{Movable, RigidBodies};
use self_collision::SelfCollision;
use velocity::ContactVelocities;

use std::collections::TryReserveError;

use crate::error::ClothError;
use crate::kinds::{Addition, ConstraintKind, Cost, Now, Particles, Positions, Sizes, Topology};
use crate::memory;
use crate::model::validate::shape_problem;
use crate::model::{BodySpec, Scene, Shape};
use crate::params::Params;
use pair_search::PairRules;

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
    /// can happen (a collider, a body, or self-collision switched on).
    velocities: ContactVelocities,
    /// Each particle's body, counted from 1 (0: in none); empty without bodies.
    groups: Vec<u32>,
    /// The rigid bodies, which contacts push as bodies ([`rigid`]).
    rigid: RigidBodies,
    /// The pair search and the velocity pass were reserved by the addition
    /// under way (see [`ConstraintKind::finish_addition`]).
    grown: [bool; 2],
}

impl Contacts {
    /// The contacts of `scene` (its colliders checked): its colliders and its
    /// start positions. `OutOfMemory` names `scene`
    /// ([`Scene::out_of_memory`]).
    fn try_new(scene: &Scene) -> Result<Contacts, ClothError> {
        let rest_positions = memory::copied(&scene.positions).map_err(|_| scene.out_of_memory())?;
        let n = scene.num_particles();
        let mut contacts = Contacts {
            rest_positions,
            ..Contacts::default()
        };
        if !scene.bodies.is_empty() {
            contacts.groups = memory::filled(n, 0).map_err(|_| scene.out_of_memory())?;
            mark_groups(&mut contacts.groups, &scene.bodies, 0);
            contacts
                .rigid
                .reserve(&scene.bodies, n)
                .map_err(|_| scene.out_of_memory())?;
            contacts.rigid.add(&scene.bodies, n);
            contacts.reserve_pairs(n, "bodies")?;
        }
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

    /// Whether the simulation has bodies (whose particles meet the others
    /// whether or not self-collision is on).
    pub fn has_bodies(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Reserves the pair search and the velocity pass for `n` particles;
    /// refused with `OutOfMemory` naming `field`.
    fn reserve_pairs(&mut self, n: usize, field: &'static str) -> Result<(), ClothError> {
        self.reserve_velocity_pass(n, field)?;
        self.self_collision
            .try_reserve(n)
            .map_err(|_| ClothError::OutOfMemory {
                field,
                what: format!("the particle contacts of {n} particles"),
            })
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
    /// One pass over the contacts with rigid bodies (see
    /// [`Contacts::pass_on`]): a push on a particle of a rigid body moves the
    /// body ([`rigid`]).
    fn pass_rigid(
        &mut self,
        points: &mut ContactPoints,
        previous: &[f32],
        inverse_mass: &[f32],
        now: &Now,
    ) {
        let mut rigid = std::mem::take(&mut self.rigid);
        rigid.begin(points, inverse_mass);
        self.pass_on(&mut rigid.view(points), previous, inverse_mass, now);
        rigid.finish(points);
        self.rigid = rigid;
    }

    /// One pass over the contacts: particle pairs first, colliders last (they
    /// have the final word at the end of a substep). `previous` are the
    /// positions at the start of the substep (interleaved), for friction.
    fn pass_on<P: Movable + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        now: &Now,
    ) {
        let p = &now.p;
        let (radius, friction, h) = (p.particle_radius as f32, p.friction as f32, now.h as f32);
        if p.self_collision || self.has_bodies() {
            let rules = PairRules {
                rest: &self.rest_positions,
                groups: &self.groups,
                cloth_pairs: p.self_collision,
            };
            self.self_collision
                .solve(points, previous, inverse_mass, rules, radius, friction, h);
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

    /// On with any collider or body, or with `selfCollision`.
    fn is_on(&self, p: &Params) -> bool {
        !self.colliders.is_empty() || p.self_collision || self.has_bodies()
    }

    /// The speed limit and (with self-collision or bodies) the search for
    /// pairs at the start of a substep; each collider and the room for pairs
    /// per particle in every pass, one more at the end, and the velocity pass.
    fn cost(&self, p: &Params, sizes: Sizes) -> Cost {
        let n = sizes.particles as u64;
        let mut pass = n * self.colliders.len() as u64 * COLLIDER_CONTACT;
        let mut begin = n * MAX_SPEED;
        if p.self_collision || self.has_bodies() {
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
            + memory::capacity_bytes(&self.groups)
            + self.rigid.heap_bytes()
    }

    fn switch(&self) -> &'static str {
        "selfCollision"
    }

    /// Self-collision's buffers, when it is switched on.
    fn prepare(&mut self, p: &Params, topology: &Topology) -> Result<(), TryReserveError> {
        if p.self_collision || self.has_bodies() {
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
        // the substep's number, from the clock (what a saved state keeps)
        let odd = (now.time / h).round() as u64 % 2 == 1;
        self.self_collision.begin_substep(odd);
    }

    /// One pass over the contacts, compiled once for both layouts
    /// ([`ContactPoints`]) and once more for rigid bodies ([`rigid`]).
    fn solve(
        &mut self,
        mut positions: Positions,
        previous: &[f32],
        inverse_mass: &[f32],
        now: &Now,
    ) {
        let mut points = ContactPoints::of(&mut positions);
        if !self.rigid.is_empty() {
            return self.pass_rigid(&mut points, previous, inverse_mass, now);
        }
        self.pass_on(&mut points, previous, inverse_mass, now)
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
        let pairs_on = p.self_collision || self.has_bodies();
        let pairs = self.self_collision.pushed_pairs().filter(|_| pairs_on);
        let (restitution, gravity) = (p.restitution as f32, p.gravity as f32);
        let rule = (restitution, gravity);
        let w = particles.inverse_mass;
        if self.rigid.is_empty() {
            let (positions, velocities) = (&*particles.positions, &mut *particles.velocities);
            self.velocities
                .apply(positions, velocities, w, pairs, rule, now.h as f32);
            return;
        }
        let rigid = &mut self.rigid;
        rigid.begin_velocities(particles.positions, particles.velocities, w);
        let positions = &*particles.positions;

        let mut view = rigid.velocity_view(positions, particles.velocities);
        self.velocities
            .apply(positions, &mut view, w, pairs, rule, now.h as f32);
        self.rigid
            .finish_velocities(positions, particles.velocities);
    }

    /// A collider the user stopped moving comes to rest.
    fn end_step(&mut self, time: f64) {
        self.colliders.track(time);
    }

    /// Room for the added particles among the rest positions and groups, in
    /// the rigid bodies, and in the pair search and the velocity pass where
    /// they are reserved or the addition brings the first bodies.
    fn reserve_addition(&mut self, addition: &Addition) -> Result<(), TryReserveError> {
        let (added, n) = (addition.masses.len(), addition.particles_after());
        self.rest_positions.try_reserve_exact(2 * added)?;
        let bodies = self.has_bodies() || !addition.bodies.is_empty();
        if bodies {
            memory::reserve_len(&mut self.groups, n)?;
        }
        self.rigid.reserve(addition.bodies, n)?;
        if bodies || self.self_collision.is_reserved() {
            self.self_collision.reserve_particles(n)?;
        }
        if bodies || self.velocities.is_reserved() {
            self.velocities.reserve_particles(n)?;
        }
        Ok(())
    }

    /// The added particles, with no rest distance to any other particle
    /// (their rest positions are NaN) and in their bodies.
    fn add(&mut self, addition: &Addition) {
        let (n_before, n) = (addition.first, addition.particles_after());
        self.rest_positions.resize(2 * n, f32::NAN);
        let bodies = self.has_bodies() || !addition.bodies.is_empty();
        if bodies {
            let first_group = self.groups.iter().copied().max().unwrap_or(0);
            self.groups.resize(n_before, 0);
            self.groups.resize(n, 0);
            mark_groups(&mut self.groups, addition.bodies, first_group);
        }
        self.rigid.add(addition.bodies, n);
        self.grown = self.unreserved();
        if bodies || self.self_collision.is_reserved() {
            self.self_collision.resize(n);
        }
        if bodies || self.velocities.is_reserved() {
            self.velocities.resize(n);
        }
    }

    /// Not kept: the added particles go, and what was reserved for them.
    fn finish_addition(&mut self, addition: &Addition, kept: bool) {
        let grown = std::mem::take(&mut self.grown);
        if !kept {
            self.take_out(addition.first, grown);
        }
    }
}

impl Contacts {
    /// Which of the pair search and the velocity pass are not reserved yet
    /// (an addition with bodies reserves them).
    pub fn unreserved(&self) -> [bool; 2] {
        [
            !self.self_collision.is_reserved(),
            !self.velocities.is_reserved(),
        ]
    }

    /// Back to the particles before `first` and the bodies among them,
    /// after additions; `grown`: [`Contacts::unreserved`] before them (what
    /// they reserved goes again).
    pub fn take_out(&mut self, first: usize, grown: [bool; 2]) {
        self.rest_positions.truncate(2 * first);
        self.groups.truncate(first);
        if self.groups.iter().all(|&g| g == 0) {
            self.groups.clear();
        }
        self.rigid.truncate(first);
        if grown[0] {
            self.self_collision = SelfCollision::default();
        } else if self.self_collision.is_reserved() {
            self.self_collision.resize(first);
        }
        if grown[1] {
            self.velocities = ContactVelocities::default();
        } else if self.velocities.is_reserved() {
            self.velocities.resize(first);
        }
    }
}

/// Marks the particles of `bodies` in `groups` with their body, counted from
/// `after + 1`.
fn mark_groups(groups: &mut [u32], bodies: &[BodySpec], after: u32) {
    for (b, body) in bodies.iter().enumerate() {
        for &k in &body.particles {
            groups[k as usize] = after + 1 + b as u32;
        }
    }
}
