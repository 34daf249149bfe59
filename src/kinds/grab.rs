//! The user's hand: the particle held by the pointer follows it through an
//! XPBD attachment, a zero-length spring to the pointer's point `t`,
//!
//! ```text
//! C(x) = |x − t|,   ∇C = n = (x − t) / |x − t|,   α = 1 / k,   k = m ω²
//! Δλ = (−C − α̃ λ) / (w + α̃),   λ ← λ + Δλ,   x ← x + w Δλ n,   α̃ = α / h²
//! ```
//!
//! solved after each sweep of the distance constraints, its multiplier back to
//! 0 every substep, like every other constraint. Its stiffness `k` is the held
//! particle's mass `m` times `ω²`, with `ω = 2π ·` [`GRAB_FREQUENCY`]: a
//! particle held alone would follow the pointer as a mass on a spring of that
//! natural frequency, whatever its mass, so a heavy cloth and a light one
//! both follow the hand. Because the spring is finite, a hard pull does not
//! put the particle at the pointer in one step (which overstretches only its
//! own constraints and plucks it out): the particle lags, and the pull
//! reaches the cloth around it as a force of `k` times the lag, which
//! stretches, and with tearing on tears, the cloth along the line that
//! carries it. The held particle's own distance constraints do not tear while
//! it is held (the hand holds the cloth there; see `Cloth::tear`): a pull rips
//! the cloth around the grip instead of plucking the one particle out.
//!
//! A pinned particle has no mass to pull (inverse mass 0): held, it is put
//! exactly at the pointer (see `Cloth::drag`), and this pass leaves it.

use super::{on_points, ConstraintKind, Cost, Now, Positions, Sizes};
use crate::error::ClothError;
use crate::model::Scene;
use crate::params::Params;
use crate::solver::Points;

/// The natural frequency, in hertz, of a held particle on its own at the end
/// of the grab's spring: its stiffness is `m (2π f)²` N/m for a particle of
/// mass `m` kg: about 31 600 N/m for the default 0.5 kg, 3 160 N/m for the
/// 0.05 kg of the page's "Try tearing". Softer, a held corner of the default
/// cloth trails the pointer by more than a few pixels; stiffer, a pull of the
/// tearing cloth shreds it instead of ripping a line.
pub const GRAB_FREQUENCY: f64 = 40.0;

/// Work units of one pass of the attachment (one particle).
pub const GRAB_PASS: u64 = 20;

/// `α̃ = α / h²` of the attachment of a particle of inverse mass `w` in a
/// substep of `h` seconds: `α = 1 / (m ω²) = w / ω²`. The WebGPU backend
/// runs the same attachment with this value (`grabAlphaTilde` of the wasm
/// module).
pub fn alpha_tilde(w: f32, h: f64) -> f32 {
    let omega = 2.0 * std::f64::consts::PI * GRAB_FREQUENCY;
    (w as f64 / (omega * omega * h * h)) as f32
}

/// The attachment of the held particle to the pointer, if one is held.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Grab {
    held: Option<Attachment>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Attachment {
    /// The held particle.
    index: usize,
    /// Where the pointer holds it, metres.
    target: [f32; 2],
    /// The multiplier of this substep, N·s².
    lambda: f32,
}

impl Grab {
    /// Attaches particle `index` to the pointer at `target` (a particle held
    /// before is let go).
    pub fn hold(&mut self, index: usize, target: [f32; 2]) {
        self.held = Some(Attachment {
            index,
            target,
            lambda: 0.0,
        });
    }

    /// Moves the pointer's end of the attachment to `target`.
    pub fn move_to(&mut self, target: [f32; 2]) {
        if let Some(held) = self.held.as_mut() {
            held.target = target;
        }
    }

    /// Lets go.
    pub fn let_go(&mut self) {
        self.held = None;
    }

    /// Where the pointer holds the held particle, if one is held.
    pub fn target(&self) -> Option<[f32; 2]> {
        self.held.map(|held| held.target)
    }

    /// One Gauss–Seidel solve of the attachment on `points`, substep size `h`.
    fn pass<P: Points + ?Sized>(&mut self, points: &mut P, inverse_mass: &[f32], h: f64) {
        let Some(held) = self.held.as_mut() else {
            return;
        };
        let w = inverse_mass[held.index];
        if w == 0.0 {
            return;
        }
        let (x, y) = points.point(held.index);
        let (dx, dy) = (x - held.target[0], y - held.target[1]);
        let c = (dx * dx + dy * dy).sqrt();
        if c == 0.0 {
            return;
        }
        let alpha_tilde = alpha_tilde(w, h);
        let delta_lambda = (-c - alpha_tilde * held.lambda) / (w + alpha_tilde);
        held.lambda += delta_lambda;
        let scale = w * delta_lambda / c;
        points.set_point(held.index, (x + scale * dx, y + scale * dy));
    }
}

impl ConstraintKind for Grab {
    fn from_scene(_scene: &Scene) -> Result<Grab, ClothError> {
        Ok(Grab::default())
    }

    /// On while a particle is held.
    fn is_on(&self, _p: &Params) -> bool {
        self.held.is_some()
    }

    fn cost(&self, _p: &Params, _sizes: Sizes) -> Cost {
        Cost {
            pass: GRAB_PASS,
            ..Cost::default()
        }
    }

    fn heap_bytes(&self) -> u64 {
        0
    }

    fn begin_substep(&mut self, _particles: &mut super::Particles, _now: &Now) {
        if let Some(held) = self.held.as_mut() {
            held.lambda = 0.0;
        }
    }

    fn solve(&mut self, positions: Positions, _previous: &[f32], inverse_mass: &[f32], now: &Now) {
        on_points!(positions, |points| self.pass(points, inverse_mass, now.h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_particle_closes_the_implicit_springs_share_of_its_lag_in_a_substep() {
        // one particle, w = 2 (0.5 kg), 1 m from the pointer: the substep's
        // converged XPBD answer is the implicit spring's, a share
        // ω²h² / (1 + ω²h²) of the lag, whatever the iterations
        let h = 0.01;
        let mut grab = Grab::default();
        grab.hold(0, [1.0, 0.0]);
        let mut points = [0.0f32, 0.0];
        for _ in 0..10 {
            grab.pass(&mut points[..], &[2.0], h);
        }
        let omega2h2 = (2.0 * std::f64::consts::PI * GRAB_FREQUENCY * h).powi(2);
        let expected = omega2h2 / (1.0 + omega2h2);
        assert!(
            (points[0] as f64 - expected).abs() < 1e-5,
            "{} against {expected}",
            points[0]
        );
        assert_eq!(points[1], 0.0);
    }

    #[test]
    fn a_pinned_particle_is_left_where_it_is() {
        let mut grab = Grab::default();
        grab.hold(0, [1.0, 1.0]);
        let mut points = vec![0.0f32, 0.0];
        grab.pass(&mut points[..], &[0.0], 0.01);
        assert_eq!(points, [0.0, 0.0]);
    }
}
