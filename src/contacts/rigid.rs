//! Rigid bodies as the contacts see them: a push on one particle of a rigid
//! body moves the body.
//!
//! A rigid body ([`crate::kinds::bodies`] at compliance 0) is held in shape by
//! its shape-matching pass, which fits the body to where its particles are,
//! each weighed by its mass. A contact that pushes one particle of a body of
//! `N` particles out of the ground would then move the body by only about
//! `1/N` of the push per pass (and a corner even less), leaving it sunk into
//! the ground and squeezed, which the following passes turn into motion:
//! energy from nowhere. So a contact treats a particle of a rigid body as the
//! body's point it is, as XPBD treats rigid bodies (Müller et al. 2020, §3.3):
//!
//! * a push along the unit normal `n` sees the body's generalized inverse
//!   mass at the particle, `w = 1/M + (p × n)² / I` (`p` the particle's
//!   offset from the body's centre `c`, `M` the body's mass and `I` its
//!   moment of inertia about `c`), instead of the particle's own;
//! * the contact's move of the particle, `δ`, is made by the impulse along
//!   `δ` that moves that point of the body by `|δ|` along it, `J = |δ| / w ·
//!   δ/|δ|` with `w` the inverse mass along `δ`: the body translates by
//!   `J/M` and turns by `(p × J)/I` (a scalar XPBD correction whose gradient
//!   is the direction of `δ`).
//!
//! A body with one pinned (or held) particle turns about it (no translation,
//! `c` the pinned particle, `I` about it, and a push moves the point only
//! across its lever arm); with two or more it does not move. Moves are kept
//! per body during a pass ([`Motion`]: a translation and a turn about `c`),
//! applied to every particle it reads and written to all the body's
//! particles when the pass ends, so a pass costs its contacts plus one visit
//! of each particle of a rigid body.
//!
//! The velocity pass sees a free rigid body the same way: the particles'
//! velocities are first replaced by their rigid part (the body's velocity
//! `v_c` and spin `ω = L/I`, the projection that keeps momentum and angular
//! momentum and never adds kinetic energy), then each contact's change of a
//! particle's velocity is the impulse that changes that point's velocity so,
//! and at the end every particle gets the body's velocity at its place.

use std::collections::TryReserveError;

use super::points::ContactPoints;
use crate::kinds::Positions;
use crate::memory;
use crate::model::BodySpec;
use crate::solver::Points;

/// What a contact needs to know of a particle besides its position: how hard
/// it is to push along a direction.
pub trait Movable: Points {
    /// The inverse mass particle `k`, of inverse mass `w`, shows to a push
    /// along the unit `n`.
    #[inline(always)]
    fn inverse_mass_along(&self, _k: usize, _n: [f32; 2], w: f32) -> f32 {
        w
    }

    /// Whether particle `k` moves with a rigid body (in the velocity pass).
    #[inline(always)]
    fn is_rigid(&self, _k: usize) -> bool {
        false
    }

    /// Whether any particle moves with a rigid body (in the velocity pass).
    #[inline(always)]
    fn has_rigid(&self) -> bool {
        false
    }
}

impl Movable for [f32] {}

impl Movable for crate::solver::Split<'_> {}

/// The rigid bodies among the particles: which particle is in which, and
/// each body's particles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RigidBodies {
    /// Each particle's rigid body, counted from 1 (0: in none); empty
    /// without rigid bodies.
    of: Vec<u32>,
    /// Each body's particles, body after body.
    particles: Vec<u32>,
    /// Body `b`'s particles are `particles[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    /// Each body's motion in the pass under way.
    motions: Vec<Motion>,
}

/// A rigid body's motion during one pass of the contacts: its centre, how
/// it responds to impulses, and how far it has moved since the pass began.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Motion {
    /// The centre it turns about when the pass began: its centre of mass, or
    /// its one pinned particle.
    c: [f64; 2],
    /// `1/M` (0 when pinned), `1/I` (0 when pinned at two particles or more).
    inverse_mass: f64,
    inverse_inertia: f64,
    /// Translation since the pass began (a velocity in the velocity pass).
    d: [f64; 2],
    /// Turn about `c` since the pass began (a spin in the velocity pass), and
    /// its cosine and sine.
    turn: f64,
    cos: f64,
    sin: f64,
}

impl Motion {
    /// Where the point that was at `x` when the pass began is now.
    #[inline(always)]
    fn place(&self, x: [f64; 2]) -> [f64; 2] {
        let p = [x[0] - self.c[0], x[1] - self.c[1]];
        [
            self.c[0] + self.d[0] + self.cos * p[0] - self.sin * p[1],
            self.c[1] + self.d[1] + self.sin * p[0] + self.cos * p[1],
        ]
    }

    /// The offset of the point now at `x` from the centre now (in the
    /// position pass, where the body has moved by `d`).
    #[inline(always)]
    fn arm(&self, x: [f64; 2]) -> [f64; 2] {
        [x[0] - self.c[0] - self.d[0], x[1] - self.c[1] - self.d[1]]
    }

    /// The offset of the point at `x` from the centre (in the velocity pass,
    /// where the body stays where it is).
    #[inline(always)]
    fn offset(&self, x: [f64; 2]) -> [f64; 2] {
        [x[0] - self.c[0], x[1] - self.c[1]]
    }

    /// The inverse mass the point at offset `p` shows along the unit `n`.
    #[inline(always)]
    fn inverse_mass_along(&self, p: [f64; 2], n: [f64; 2]) -> f64 {
        let lever = p[0] * n[1] - p[1] * n[0];
        self.inverse_mass + self.inverse_inertia * lever * lever
    }

    /// The impulse along `delta` that moves the point at offset `p` by
    /// `delta` along that direction (a scalar correction, as XPBD makes one
    /// with the gradient `delta / |delta|`), applied: translation `J/M`, turn
    /// `(p × J)/I`. `rotate`: the turn is a rotation (positions), not a spin
    /// (velocities).
    #[inline(always)]
    fn push(&mut self, p: [f64; 2], delta: [f64; 2], rotate: bool) {
        let length = (delta[0] * delta[0] + delta[1] * delta[1]).sqrt();
        if length.is_nan() || length <= 0.0 {
            return;
        }
        let u = [delta[0] / length, delta[1] / length];
        let w = self.inverse_mass_along(p, u);
        if w.is_nan() || w <= 0.0 {
            return;
        }
        let j = [u[0] * length / w, u[1] * length / w];
        self.d[0] += self.inverse_mass * j[0];
        self.d[1] += self.inverse_mass * j[1];
        self.turn += self.inverse_inertia * (p[0] * j[1] - p[1] * j[0]);
        if rotate {
            (self.sin, self.cos) = crate::model::circle::sin_cos_f64(self.turn);
        }
    }
}

impl RigidBodies {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.starts.len() <= 1
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.of) + bytes(&self.particles) + bytes(&self.starts) + bytes(&self.motions)
    }

    /// Reserves room for the rigid ones of `bodies` on a simulation of `n`
    /// particles (nothing changes but capacity).
    pub fn reserve(&mut self, bodies: &[BodySpec], n: usize) -> Result<(), TryReserveError> {
        let rigid = bodies.iter().filter(|b| b.compliance == 0.0);
        let (count, slots) = rigid.fold((0, 0), |(c, s), b| (c + 1, s + b.particles.len()));
        if count == 0 {
            return Ok(());
        }
        self.of.try_reserve_exact(n.saturating_sub(self.of.len()))?;
        self.particles.try_reserve_exact(slots)?;
        self.starts.try_reserve_exact(count + 1)?;
        self.motions.try_reserve_exact(count)?;
        Ok(())
    }

    /// Adds the rigid ones of `bodies` (checked, in reserved room) to a
    /// simulation of `n` particles.
    pub fn add(&mut self, bodies: &[BodySpec], n: usize) {
        if !bodies.iter().any(|b| b.compliance == 0.0) {
            if !self.of.is_empty() {
                self.of.resize(n, 0);
            }
            return;
        }
        self.of.resize(n, 0);
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for body in bodies.iter().filter(|b| b.compliance == 0.0) {
            let b = self.motions.len() as u32 + 1;
            for &k in &body.particles {
                self.of[k as usize] = b;
                self.particles.push(k);
            }
            self.starts.push(self.particles.len() as u32);
            self.motions.push(Motion::default());
        }
    }

    /// Back to the first `n` particles and the bodies among them (what was
    /// there before bodies were added to them).
    pub fn truncate(&mut self, n: usize) {
        if self.of.is_empty() {
            return;
        }
        while self.starts.len() > 1 {
            let last = self.starts[self.starts.len() - 2] as usize;
            if (self.particles[last] as usize) < n {
                break;
            }
            self.starts.pop();
            self.particles.truncate(last);
            self.motions.pop();
        }
        self.of.truncate(n);
        if self.starts.len() <= 1 {
            *self = RigidBodies::default();
        }
    }

    /// Begins a pass on `points`: each body's centre and response from where
    /// its particles are and their inverse masses, and no motion yet.
    pub fn begin(&mut self, points: &ContactPoints, inverse_mass: &[f32]) {
        for (body, ends) in self.motions.iter_mut().zip(self.starts.windows(2)) {
            let slots = ends[0] as usize..ends[1] as usize;
            *body = motion(&self.particles[slots], points, inverse_mass);
        }
    }

    /// Ends a pass: every particle of a body that moved where the body put it.
    pub fn finish<P: Points + ?Sized>(&self, points: &mut P) {
        for (motion, ends) in self.motions.iter().zip(self.starts.windows(2)) {
            if motion.d == [0.0, 0.0] && motion.turn == 0.0 {
                continue;
            }
            for &k in &self.particles[ends[0] as usize..ends[1] as usize] {
                let (x, y) = points.point(k as usize);
                let [x, y] = motion.place([f64::from(x), f64::from(y)]);
                points.set_point(k as usize, (x as f32, y as f32));
            }
        }
    }

    /// The view of `points` in which pushes on particles of rigid bodies move
    /// the bodies.
    pub fn view<'a, P: Points + ?Sized>(&'a mut self, points: &'a mut P) -> RigidPoints<'a, P> {
        RigidPoints {
            points,
            rigid: self,
        }
    }

    /// Begins the velocity pass: the velocities of every free rigid body's
    /// particles (at `positions`, interleaved) replaced by their rigid part.
    /// The bodies with a pinned particle keep their particles' own velocities
    /// and are left out of the pass (their motions have no response).
    pub fn begin_velocities(
        &mut self,
        positions: &mut [f32],
        velocities: &mut [f32],
        inverse_mass: &[f32],
    ) {
        for (body, ends) in self.motions.iter_mut().zip(self.starts.windows(2)) {
            let slots = &self.particles[ends[0] as usize..ends[1] as usize];
            // read as the position pass reads them, so both share one `motion`
            let mut layout = Positions::Interleaved(positions);
            let mut motion = motion(slots, &ContactPoints::of(&mut layout), inverse_mass);
            let positions = &*positions;
            if motion.inverse_mass == 0.0 {
                *body = Motion::default();
                continue;
            }
            // v_c, and ω = L/I about c
            let (mut mass, mut v) = (0.0, [0.0, 0.0]);
            for &k in slots {
                let m = 1.0 / f64::from(inverse_mass[k as usize]);
                let u = point(velocities, k);
                mass += m;
                v = [v[0] + m * u[0], v[1] + m * u[1]];
            }
            v = [v[0] / mass, v[1] / mass];
            let mut spin = 0.0;
            for &k in slots {
                let m = 1.0 / f64::from(inverse_mass[k as usize]);
                let (p, u) = (motion.offset(point(positions, k)), point(velocities, k));
                spin += m * (p[0] * (u[1] - v[1]) - p[1] * (u[0] - v[0]));
            }
            motion.d = v;
            motion.turn = spin * motion.inverse_inertia;
            *body = motion;
            set_velocities(slots, &motion, positions, velocities);
        }
    }

    /// Ends the velocity pass: every particle of a free rigid body gets the
    /// body's velocity at its place.
    pub fn finish_velocities(&self, positions: &[f32], velocities: &mut [f32]) {
        for (motion, ends) in self.motions.iter().zip(self.starts.windows(2)) {
            if motion.inverse_mass == 0.0 {
                continue;
            }
            let slots = &self.particles[ends[0] as usize..ends[1] as usize];
            set_velocities(slots, motion, positions, velocities);
        }
    }

    /// The view of `velocities` (of particles at `positions`) in which a
    /// change of a free rigid body's particle's velocity is an impulse on
    /// the body.
    pub fn velocity_view<'a>(
        &'a mut self,
        positions: &'a [f32],
        velocities: &'a mut [f32],
    ) -> RigidVelocities<'a> {
        RigidVelocities {
            positions,
            velocities,
            rigid: self,
        }
    }
}

/// Particle `k`'s pair of `values` (interleaved), in `f64`.
#[inline(always)]
fn point(values: &[f32], k: u32) -> [f64; 2] {
    let k = k as usize;
    let value = &values[2 * k..2 * k + 2];
    [f64::from(value[0]), f64::from(value[1])]
}

/// Sets the velocity of every particle of `slots` (at `positions`) to that
/// of the body moving as `motion` says (`d` its velocity, `turn` its spin).
fn set_velocities(slots: &[u32], motion: &Motion, positions: &[f32], velocities: &mut [f32]) {
    for &k in slots {
        let p = motion.offset(point(positions, k));
        let k = k as usize;
        let v = &mut velocities[2 * k..2 * k + 2];
        v[0] = (motion.d[0] - motion.turn * p[1]) as f32;
        v[1] = (motion.d[1] + motion.turn * p[0]) as f32;
    }
}

/// The centre and response of the body of `particles` (at `points`, inverse
/// masses `inverse_mass`), with no motion. Out of line: one copy for the
/// position and the velocity pass (once per body and pass).
#[inline(never)]
fn motion(particles: &[u32], points: &ContactPoints, inverse_mass: &[f32]) -> Motion {
    let at = |k: u32| {
        let (x, y) = points.point(k as usize);
        [f64::from(x), f64::from(y)]
    };
    let (mut mass, mut c) = (0.0, [0.0, 0.0]);
    let (mut pinned, mut pin) = (0, [0.0, 0.0]);
    for &k in particles {
        let x = at(k);
        let w = inverse_mass[k as usize];
        if w == 0.0 {
            pinned += 1;
            pin = x;
            continue;
        }
        let m = 1.0 / f64::from(w);
        mass += m;
        c = [c[0] + m * x[0], c[1] + m * x[1]];
    }
    let mut motion = Motion {
        cos: 1.0,
        ..Motion::default()
    };
    if mass == 0.0 || pinned > 1 {
        return motion;
    }
    motion.c = if pinned == 1 {
        pin
    } else {
        motion.inverse_mass = 1.0 / mass;
        [c[0] / mass, c[1] / mass]
    };
    let mut inertia = 0.0;
    for &k in particles {
        let w = inverse_mass[k as usize];
        if w > 0.0 {
            let p = motion.arm(at(k));
            inertia += (p[0] * p[0] + p[1] * p[1]) / f64::from(w);
        }
    }
    if inertia > 0.0 {
        motion.inverse_inertia = 1.0 / inertia;
    }
    motion
}

/// Positions in which a push on a particle of a rigid body moves the body
/// (see the module documentation).
pub struct RigidPoints<'a, P: Points + ?Sized> {
    points: &'a mut P,
    rigid: &'a mut RigidBodies,
}

impl<P: Points + ?Sized> RigidPoints<'_, P> {
    /// The motion of particle `k`'s body, if it is in a rigid one.
    #[inline(always)]
    fn motion(&self, k: usize) -> Option<&Motion> {
        match self.rigid.of.get(k) {
            Some(&b) if b > 0 => Some(&self.rigid.motions[b as usize - 1]),
            _ => None,
        }
    }
}

// Out of line: the contact pass over these positions is compiled once more,
// and its many accesses inlined would make that copy twice the size of the
// others' (a call per access costs only scenes with rigid bodies).
impl<P: Points + ?Sized> Points for RigidPoints<'_, P> {
    #[inline(never)]
    fn point(&self, k: usize) -> (f32, f32) {
        let (x, y) = self.points.point(k);
        match self.motion(k) {
            Some(motion) => {
                let [x, y] = motion.place([f64::from(x), f64::from(y)]);
                (x as f32, y as f32)
            }
            None => (x, y),
        }
    }

    #[inline(never)]
    fn set_point(&mut self, k: usize, p: (f32, f32)) {
        let b = match self.rigid.of.get(k) {
            Some(&b) if b > 0 => b as usize - 1,
            _ => return self.points.set_point(k, p),
        };
        let (x, y) = self.points.point(k);
        let motion = &mut self.rigid.motions[b];
        let now = motion.place([f64::from(x), f64::from(y)]);
        let delta = [f64::from(p.0) - now[0], f64::from(p.1) - now[1]];
        motion.push(motion.arm(now), delta, true);
    }
}

impl<P: Points + ?Sized> Movable for RigidPoints<'_, P> {
    #[inline(never)]
    fn inverse_mass_along(&self, k: usize, n: [f32; 2], w: f32) -> f32 {
        match self.motion(k) {
            Some(motion) if w > 0.0 => {
                let (x, y) = self.point(k);
                let p = motion.arm([f64::from(x), f64::from(y)]);
                motion.inverse_mass_along(p, [f64::from(n[0]), f64::from(n[1])]) as f32
            }
            _ => w,
        }
    }
}

/// Velocities in which a change of a free rigid body's particle's velocity
/// is an impulse on the body (see the module documentation).
pub struct RigidVelocities<'a> {
    positions: &'a [f32],
    velocities: &'a mut [f32],
    rigid: &'a mut RigidBodies,
}

impl RigidVelocities<'_> {
    /// The motion of particle `k`'s body, if it is in a free rigid one.
    #[inline(always)]
    fn motion(&self, k: usize) -> Option<&Motion> {
        match self.rigid.of.get(k) {
            Some(&b) if b > 0 => {
                let motion = &self.rigid.motions[b as usize - 1];
                (motion.inverse_mass > 0.0).then_some(motion)
            }
            _ => None,
        }
    }
}

// Out of line, as `RigidPoints`' accesses are.
impl Points for RigidVelocities<'_> {
    #[inline(never)]
    fn point(&self, k: usize) -> (f32, f32) {
        match self.motion(k) {
            Some(motion) => {
                let p = motion.offset(point(self.positions, k as u32));
                (
                    (motion.d[0] - motion.turn * p[1]) as f32,
                    (motion.d[1] + motion.turn * p[0]) as f32,
                )
            }
            None => {
                let v = &self.velocities[2 * k..2 * k + 2];
                (v[0], v[1])
            }
        }
    }

    #[inline(never)]
    fn set_point(&mut self, k: usize, v: (f32, f32)) {
        let Some(b) = self.motion(k).map(|_| self.rigid.of[k] as usize - 1) else {
            self.velocities[2 * k..2 * k + 2].copy_from_slice(&[v.0, v.1]);
            return;
        };
        let (ux, uy) = self.point(k);
        let motion = &mut self.rigid.motions[b];
        let p = motion.offset(point(self.positions, k as u32));
        let delta = [f64::from(v.0 - ux), f64::from(v.1 - uy)];
        motion.push(p, delta, false);
    }
}

impl Movable for RigidVelocities<'_> {
    #[inline(never)]
    fn is_rigid(&self, k: usize) -> bool {
        self.motion(k).is_some()
    }

    fn has_rigid(&self) -> bool {
        self.rigid.motions.iter().any(|m| m.inverse_mass > 0.0)
    }

    #[inline(never)]
    fn inverse_mass_along(&self, k: usize, n: [f32; 2], w: f32) -> f32 {
        match self.motion(k) {
            Some(motion) if w > 0.0 => {
                let p = motion.offset(point(self.positions, k as u32));
                motion.inverse_mass_along(p, [f64::from(n[0]), f64::from(n[1])]) as f32
            }
            _ => w,
        }
    }
}
