//! The contact velocity pass: a contact stops an approach, and does no other
//! work in the normal direction.
//!
//! Contacts with colliders ([`super::contact`]) and between particles
//! ([`super::self_collision`]) are position corrections, and the velocity
//! update `v = (x − x_prev) / h` turns every correction into velocity. A push
//! that undoes an overlap the substep's motion did not cause (a body that
//! starts inside a collider, a collider moved into the cloth, a particle
//! radius raised while the cloth lies on the ground) would leave the particle
//! with `depth / h` of outward speed: energy from nowhere. After the velocity
//! update this pass sets the normal velocity of every contact of the substep,
//! as Müller et al. do (M. Müller, M. Macklin, N. Chentanez, S. Jeschke,
//! T.-Y. Kim, "Detailed Rigid Body Simulation with Extended Position Based
//! Dynamics", Computer Graphics Forum 39(8), 2020, §3.5–3.6):
//!
//! * during the position pass each collider contact adds its push `d·n`
//!   (depth times the outward normal) to its particle's record, with the
//!   collider's velocity; each self-collision pair adds its depth to the
//!   pair's record;
//! * with restitution on, the velocity each particle starts its position
//!   solve with (gravity included) is kept when the substep begins: `ū_n`,
//!   the normal velocity *relative to the collider* (for a pair, of one
//!   particle relative to the other) before the solve, is the approach;
//! * after the velocity update, with `u_n` the relative normal velocity and
//!   `p` the push along `n`, `u_n ← max(u_n − p/h, −e·ū_n)`: `u_n − p/h` is
//!   what the particle would have had without the contact's pushes, and
//!   `−e·ū_n` (`e` the `restitution` parameter, only for an approach faster
//!   than `2|g|h`, so that resting contacts do not jitter; 0 otherwise) is the
//!   bounce. A contact thus stops an approach and gives back `e` times it,
//!   and never adds outward speed beyond that, however deep the overlap it
//!   undid. A pair's change is shared by inverse mass, so momentum is kept.
//!
//! The velocity pass stops the particles a contact touches; what a push
//! moves through the constraints (the rows above a body's bottom row) is
//! out of its reach. So an overlap a particle already had when its substep
//! began (it started inside, a collider was moved onto it, the radius grew)
//! is undone at most at [`MAX_DEPENETRATION_SPEED`] beyond the collider's own
//! approach speed ([`push_depth`]), as physics engines bound depenetration
//! (PhysX's `maxDepenetrationVelocity`): the body is lifted out at that speed
//! at most, and no faster than that does anything it drags along move. An
//! overlap the substep's own motion made is undone at once, as before.
//!
//! The tangential velocity is left as the position pass made it: friction
//! acts there, as Coulomb friction on the positions (a contact cancels up to
//! `μ` times the normal push of the substep so far of the tangential motion
//! since the substep began), which is both the static friction that holds a
//! resting body in place within the solve and, when the body slides, the
//! dynamic friction that the velocity update carries into the velocity. A
//! second, velocity-level friction here would count the same normal impulse
//! twice. Friction is measured against the push of the whole substep, not
//! the depth of one pass: the passes after the first find a resting contact
//! barely inside, while the tangential motion they cancel is that of the
//! whole substep.
//!
//! With no contact in a substep nothing changes, bit for bit.

use super::rigid::Movable;
use crate::memory;

/// Sweeps of the velocity pass over the contacts of rigid bodies (see
/// `super::rigid`), which share a body's velocity: with each sweep the
/// velocities come closer to stopping every contact of a body at once.
pub const RIGID_SWEEPS: usize = 4;

/// Fastest a contact undoes an overlap its particle already had when the
/// substep began, beyond the speed at which the collider approaches, m/s.
pub const MAX_DEPENETRATION_SPEED: f32 = 0.25;

/// How deep a contact of depth `depth` pushes in a substep of `h` seconds:
/// all of it, except that an overlap `overlap` the particle had when the
/// substep began shrinks by at most `(approach + MAX_DEPENETRATION_SPEED)·h`,
/// `approach` being how fast the collider comes towards the particle along
/// the normal (0 for a pair of particles). At most 0: no push.
#[inline(always)]
pub fn push_depth(depth: f32, overlap: f32, approach: f32, h: f32) -> f32 {
    let left = overlap - (approach.max(0.0) + MAX_DEPENETRATION_SPEED) * h;
    depth - left.max(0.0)
}

/// Appends `k` to `list`. Out of line: one copy for every loop of the
/// contacts that lists the particles or pairs it pushes (a first push in a
/// substep is rare among the pushes).
#[inline(never)]
pub fn append(list: &mut Vec<u32>, k: u32) {
    list.push(k);
}

/// What a substep's contacts need remembered for the velocity pass: each
/// touched particle's collider pushes, and (with restitution) the velocities
/// the position solve started from. Reserved once contacts can happen (a
/// collider or self-collision); empty until then. Its work is proportional to
/// the contacts, except for keeping the velocities, which only restitution
/// needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContactVelocities {
    /// Each particle's collider pushes of the substep, `Σ d·n`, interleaved,
    /// metres; `(0, 0)`: no collider contact.
    push: Vec<f32>,
    /// The velocity of the collider each particle touched last, interleaved, m/s.
    surface: Vec<f32>,
    /// The particles with a push this substep, each once (room for all).
    touched: Vec<u32>,
    /// Each particle's velocity when its position solve began (after
    /// gravity), interleaved, m/s: kept when `approaches` is set.
    before: Vec<f32>,
    /// `before` holds this substep's velocities (restitution is on).
    approaches: bool,
    /// The substep began with the records cleared: the pass may use them (a
    /// collider added part way through a substep waits for the next).
    armed: bool,
}

impl ContactVelocities {
    /// Reserves its buffers for `n` particles; nothing changes on failure.
    pub fn try_reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        if self.push.len() == 2 * n {
            return Ok(());
        }
        *self = ContactVelocities {
            push: memory::filled(2 * n, 0.0)?,
            surface: memory::filled(2 * n, 0.0)?,
            touched: memory::with_capacity(n)?,
            before: memory::filled(2 * n, 0.0)?,
            approaches: false,
            armed: false,
        };
        Ok(())
    }

    /// Reserves room for `n` particles (nothing changes but capacity), which
    /// [`ContactVelocities::resize`] takes.
    pub fn reserve_particles(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        memory::reserve_len(&mut self.push, 2 * n)?;
        memory::reserve_len(&mut self.surface, 2 * n)?;
        memory::reserve_len(&mut self.touched, n)?;
        memory::reserve_len(&mut self.before, 2 * n)
    }

    /// Records for `n` particles, in the room reserved for them (or fewer),
    /// none of them touched.
    pub fn resize(&mut self, n: usize) {
        for &k in &self.touched {
            let k = k as usize;
            if 2 * k + 1 < self.push.len() {
                self.push[2 * k] = 0.0;
                self.push[2 * k + 1] = 0.0;
            }
        }
        self.touched.clear();
        self.push.resize(2 * n, 0.0);
        self.surface.resize(2 * n, 0.0);
        self.before.resize(2 * n, 0.0);
        self.armed = false;
    }

    /// Whether its buffers are reserved.
    pub fn is_reserved(&self) -> bool {
        !self.push.is_empty()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> u64 {
        memory::capacity_bytes(&self.push)
            + memory::capacity_bytes(&self.surface)
            + memory::capacity_bytes(&self.touched)
            + memory::capacity_bytes(&self.before)
    }

    /// Before prediction of a substep of size `h` with `gravity`: clears the
    /// records, and with `restitution` above 0 keeps the velocity each free
    /// particle will start its solve with (what [`crate::solver::predict`]
    /// makes of `velocities`).
    pub fn begin_substep(
        &mut self,
        velocities: &[f32],
        inverse_mass: &[f32],
        (h, gravity): (f32, f32),
        restitution: f32,
    ) {
        if self.push.len() != velocities.len() {
            return;
        }
        for &k in &self.touched {
            let k = k as usize;
            self.push[2 * k..2 * k + 2].copy_from_slice(&[0.0, 0.0]);
        }
        self.touched.clear();
        self.approaches = restitution > 0.0;
        if self.approaches {
            let pull = h * gravity;
            // each particle's pair beside its inverse mass, with no bounds check
            let pairs = self
                .before
                .chunks_exact_mut(2)
                .zip(velocities.chunks_exact(2));
            for ((before, v), &w) in pairs.zip(inverse_mass) {
                before[0] = v[0];
                before[1] = if w == 0.0 { v[1] } else { v[1] + pull };
            }
        }
        self.armed = true;
    }

    /// Forgets the substep's records: a substep that began without contacts
    /// gets no velocity pass.
    pub fn disarm(&mut self) {
        self.armed = false;
    }

    /// Particle `k` was pushed `depth` along the unit `normal` out of a
    /// collider moving at `velocity`. Returns how far its collider contacts
    /// have pushed it along `normal` this substep, this push included (what
    /// friction may cancel `μ` times); `depth` when nothing is reserved.
    #[inline(always)]
    pub fn record(&mut self, k: usize, normal: [f32; 2], depth: f32, velocity: [f32; 2]) -> f32 {
        // room for every particle (not the capacity, which a clone of the
        // records does not keep)
        let room = self.push.len() / 2;
        let Some(push) = self.push.get_mut(2 * k..2 * k + 2) else {
            return depth;
        };
        // room for every particle once; a push that cancelled an earlier one
        // exactly may list a particle twice, never past the room
        if push[0] == 0.0 && push[1] == 0.0 && self.touched.len() < room {
            append(&mut self.touched, k as u32);
        }
        push[0] += normal[0] * depth;
        push[1] += normal[1] * depth;
        let along = push[0] * normal[0] + push[1] * normal[1];
        // one bounds check for both
        self.surface[2 * k..2 * k + 2].copy_from_slice(&velocity);
        along
    }

    /// The velocity pass (see the module documentation), after the velocity
    /// update of a substep of size `h`: the self-collision pairs pushed apart
    /// (`((a, b), summed depth)`) first, then the collider contacts, which
    /// have the last word as in the position pass. `restitution` is `e`,
    /// `gravity` sets the resting threshold. Nothing unless the substep began
    /// with the records cleared; nothing changes without a contact.
    pub fn apply<V: Movable + ?Sized>(
        &mut self,
        positions: &[f32],
        velocities: &mut V,
        inverse_mass: &[f32],
        pairs: impl Iterator<Item = ((u32, u32), f32)> + Clone,
        (restitution, gravity): (f32, f32),
        h: f32,
    ) {
        if !std::mem::take(&mut self.armed) || self.push.len() != 2 * inverse_mass.len() {
            return;
        }
        let rule = Rule {
            inverse_h: 1.0 / h,
            restitution,
            resting: 2.0 * gravity.abs() * h,
        };
        // without restitution the approach is not needed (no bounce)
        let before = if self.approaches {
            &self.before[..]
        } else {
            &[][..]
        };
        // the first sweep over every contact, then more over those of rigid
        // bodies: the contacts of one body share its velocity, so one sweep
        // of them leaves the first ones changed by the last ones
        let sweeps = if velocities.has_rigid() {
            RIGID_SWEEPS
        } else {
            1
        };
        for sweep in 0..sweeps {
            let rigid_only = sweep > 0;
            for (pair, depth) in pairs.clone() {
                let rigid =
                    velocities.is_rigid(pair.0 as usize) || velocities.is_rigid(pair.1 as usize);
                if rigid_only && !rigid {
                    continue;
                }
                apply_pair(
                    positions,
                    velocities,
                    inverse_mass,
                    before,
                    pair,
                    depth,
                    &rule,
                );
            }
            for &k in &self.touched {
                let k = k as usize;
                let [px, py] = xy(&self.push, k);
                if inverse_mass[k] == 0.0 || (px == 0.0 && py == 0.0) {
                    continue;
                }
                let rigid = velocities.is_rigid(k);
                if rigid_only && !rigid {
                    continue;
                }
                let push = (px * px + py * py).sqrt();
                let n = [px / push, py / push];
                let surface = xy(&self.surface, k);
                let along = |v: [f32; 2]| (v[0] - surface[0]) * n[0] + (v[1] - surface[1]) * n[1];
                let v = velocity(velocities, k);
                let approach = if before.is_empty() {
                    0.0
                } else {
                    along(xy(before, k))
                };
                let change = if rigid {
                    rule.rigid_change(along(v), approach)
                } else {
                    rule.normal_change(along(v), push, approach)
                };
                let v = (v[0] + n[0] * change, v[1] + n[1] * change);
                velocities.set_point(k, v);
            }
        }
    }
}

/// Particle `k`'s velocity in `velocities`.
#[inline(always)]
fn velocity<V: Movable + ?Sized>(velocities: &V, k: usize) -> [f32; 2] {
    let (x, y) = velocities.point(k);
    [x, y]
}

/// How the velocity pass sets a contact's normal velocity.
struct Rule {
    /// `1/h`, the substep's size inverted, 1/s.
    inverse_h: f32,
    /// `e`.
    restitution: f32,
    /// The slowest approach that bounces, `2·|g|·h`, m/s.
    resting: f32,
}

impl Rule {
    /// The change of a contact's relative normal velocity `u_n` after the
    /// velocity update for a push of `push` metres along the normal and an
    /// approach `approach` before the solve (see [`normal_change`]).
    #[inline(always)]
    fn normal_change(&self, u_n: f32, push: f32, approach: f32) -> f32 {
        let (pushed, e) = (push * self.inverse_h, self.restitution);
        normal_change(u_n, pushed, approach, e, self.resting)
    }

    /// The change of the relative normal velocity `u_n` of a contact of a
    /// rigid body's point: to the bounce exactly (see [`bounce`]). A push on
    /// a body moves all of it, so which part of `u_n` a contact's own pushes
    /// gave cannot be told apart; a contact of a rigid body is left neither
    /// approaching nor leaving faster than it bounces.
    #[inline(always)]
    fn rigid_change(&self, u_n: f32, approach: f32) -> f32 {
        bounce(approach, self.restitution, self.resting) - u_n
    }
}

/// The normal velocity a contact leaves with after an approach `approach`:
/// `-e·approach` for an approach faster than `resting`, else 0.
#[inline(always)]
fn bounce(approach: f32, restitution: f32, resting: f32) -> f32 {
    if approach < -resting {
        -restitution * approach
    } else {
        0.0
    }
}

/// The velocity pass of the pair `(a, b)` pushed apart `depth` in the
/// substep: the change of their relative normal velocity shared by inverse
/// mass, so their momentum is kept. `before` holds the velocities the solve
/// started from (empty: no restitution).
#[inline(always)]
fn apply_pair<V: Movable + ?Sized>(
    positions: &[f32],
    velocities: &mut V,
    inverse_mass: &[f32],
    before: &[f32],
    (a, b): (u32, u32),
    depth: f32,
    rule: &Rule,
) {
    let (a, b) = (a as usize, b as usize);
    let (pa, pb) = (xy(positions, a), xy(positions, b));
    let (dx, dy) = (pa[0] - pb[0], pa[1] - pb[1]);
    let dist = (dx * dx + dy * dy).sqrt();
    let (wa, wb) = (inverse_mass[a], inverse_mass[b]);
    if wa + wb == 0.0 || dist <= 1e-9 {
        return;
    }
    let n = [dx / dist, dy / dist];
    // a particle of a rigid body shows the body's inverse mass
    let wa = velocities.inverse_mass_along(a, n, wa);
    let wb = velocities.inverse_mass_along(b, n, wb);
    let w = wa + wb;
    if w == 0.0 {
        return;
    }
    let along = |va: [f32; 2], vb: [f32; 2]| (va[0] - vb[0]) * n[0] + (va[1] - vb[1]) * n[1];
    let (va, vb) = (velocity(velocities, a), velocity(velocities, b));
    let approach = if before.is_empty() {
        0.0
    } else {
        along(xy(before, a), xy(before, b))
    };
    let change = if velocities.is_rigid(a) || velocities.is_rigid(b) {
        rule.rigid_change(along(va, vb), approach)
    } else {
        rule.normal_change(along(va, vb), depth, approach)
    };
    if change != 0.0 {
        let (ca, cb) = (wa / w * change, wb / w * change);
        velocities.set_point(a, (va[0] + n[0] * ca, va[1] + n[1] * ca));
        let vb = velocity(velocities, b);
        velocities.set_point(b, (vb[0] - n[0] * cb, vb[1] - n[1] * cb));
    }
}

/// Particle `k`'s pair of `values` (interleaved).
#[inline(always)]
fn xy(values: &[f32], k: usize) -> [f32; 2] {
    let pair = &values[2 * k..2 * k + 2];
    [pair[0], pair[1]]
}

/// The change of a contact's relative normal velocity `u_n` after the velocity
/// update: to `max(u_n − pushed, −e·approach)`, where `pushed` is the speed the
/// contact's pushes gave (push over `h`), `approach` the normal velocity
/// before the solve and `e` the restitution, for approaches faster than
/// `resting` only.
#[inline(always)]
fn normal_change(u_n: f32, pushed: f32, approach: f32, restitution: f32, resting: f32) -> f32 {
    (u_n - pushed).max(bounce(approach, restitution, resting)) - u_n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_that_undoes_an_overlap_gives_no_speed() {
        // at rest, pushed 4 cm out in a substep of 1 ms: 40 m/s after the update
        assert_eq!(normal_change(40.0, 40.0, 0.0, 0.0, 0.02), -40.0);
        // with restitution, still nothing: there was no approach
        assert_eq!(normal_change(40.0, 40.0, 0.0, 1.0, 0.02), -40.0);
    }

    #[test]
    fn an_approach_is_stopped_or_given_back_times_e() {
        // falling at 3 m/s, stopped on the surface
        assert_eq!(normal_change(-0.5, 2.5, -3.0, 0.0, 0.02), 0.5);
        assert_eq!(normal_change(-0.5, 2.5, -3.0, 0.5, 0.02), 2.0);
        // a slow (resting) approach does not bounce
        assert_eq!(normal_change(0.0, 0.01, -0.01, 1.0, 0.02), 0.0);
    }

    #[test]
    fn a_particle_leaving_on_its_own_keeps_what_the_push_did_not_give() {
        // pulled away at 2 m/s by its neighbours, pushed 0.5 m/s by the contact
        assert_eq!(normal_change(2.5, 0.5, 0.0, 0.0, 0.02), -0.5);
    }

    #[test]
    fn a_pair_keeps_its_momentum_and_a_collider_contact_its_tangent() {
        let mut pass = ContactVelocities::default();
        pass.try_reserve(3).unwrap();
        let positions = [0.0, 0.0, 0.1, 0.0, 5.0, 0.0];
        let w = [1.0, 0.5, 2.0];
        pass.begin_substep(&[0.0; 6], &w, (0.001, 0.0), 0.0);
        pass.record(2, [0.0, 1.0], 0.04, [0.0, 0.0]);
        // the pair was pushed apart 0.02 m (each by its inverse mass), the
        // collider pushed particle 2 up 4 cm; the velocity update made speeds of that
        let mut velocities = [-40.0 / 3.0, 0.0, 20.0 / 3.0, 0.0, 3.0, 40.0];
        let momentum = |v: &[f32]| v[0] / w[0] + v[2] / w[1];
        let before = momentum(&velocities);
        pass.apply(
            &positions,
            &mut velocities[..],
            &w,
            [((0, 1), 0.02)].into_iter(),
            (0.0, 0.0),
            0.001,
        );
        assert!(
            (momentum(&velocities) - before).abs() < 1e-5,
            "{velocities:?}"
        );
        assert!(
            (velocities[0] - velocities[2]).abs() < 1e-5,
            "{velocities:?}"
        );
        assert!(velocities[0].abs() < 1e-5, "{velocities:?}");
        // the collider contact: its tangent kept, its launch gone
        assert_eq!(velocities[4], 3.0);
        assert!(velocities[5].abs() < 1e-4, "{velocities:?}");
        // used once: a second pass without a new substep does nothing
        let mut again = velocities;
        pass.apply(
            &positions,
            &mut again[..],
            &w,
            std::iter::empty(),
            (0.0, 0.0),
            0.001,
        );
        assert_eq!(again, velocities);
    }
}
