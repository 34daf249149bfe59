//! Soft step: Erin Catto's solver from Solver2D (2024), the one Box2D v3 uses.
//!
//! # The theory, once
//!
//! A soft constraint is a spring and damper given by a **frequency** `f` (Hz)
//! and a **damping ratio** `ζ`, independent of the masses: for a constraint
//! of effective mass `m_eff = 1 / w_sum` it is the spring `k = m_eff ω²` and
//! the damper `c = 2 m_eff ζ ω`, `ω = 2π f`. Solved implicitly over a
//! substep `h` (Catto, "Soft Constraints", GDC 2011), its velocity impulse is
//!
//! ```text
//! P = -mass_scale m_eff (Ċ + bias_rate C) - impulse_scale P_acc
//! bias_rate     = ω / (2ζ + hω)
//! mass_scale    = hω (2ζ + hω) / (1 + hω (2ζ + hω))
//! impulse_scale = 1 / (1 + hω (2ζ + hω))
//! ```
//!
//! with `P_acc` the impulse accumulated so far. Each substep of a soft step is
//!
//! ```text
//! v += h g                          integrate velocities
//! v += W Jᵀ P_acc                   warm start: last substep's impulses
//! repeat: P as above, P_acc += P    solve, with the soft bias
//! x += h v                          integrate positions
//! P = -m_eff Ċ, P_acc += P          relax: remove the velocity the bias added
//! ```
//!
//! `C` and the direction `n` of the solve are taken at the positions the
//! substep starts from; the relax pass takes `n` at the integrated positions.
//!
//! # In this project's arrays
//!
//! The step keeps positions, not velocities, during its sweeps: `x = x_prev +
//! h v`, so `h Ċ = n·((x_a - x_prev_a) - (x_b - x_prev_b))` and an impulse `P`
//! moves `x_a` by `h w_a P n`. With the multiplier `λ = h P` (XPBD's units,
//! so `-λ / h²` is the constraint's force either way) a solve is
//!
//! ```text
//! delta_lambda = -mass_scale (h Ċ + h bias_rate C) / w_sum - impulse_scale λ
//! x_a += w_a delta_lambda n,   x_b -= w_b delta_lambda n
//! ```
//!
//! the XPBD correction with another `delta_lambda`. The prediction (`v += h g;
//! x += h v`) then the sweeps are the first four lines; the relax pass runs on
//! the velocities once the step has made them, `v = (x - x_prev) / h`. As the
//! frequency grows (`hω → ∞`) the solve becomes PBD's linearised rigid
//! constraint: `delta_lambda = -(C + h Ċ) / w_sum`.

use super::distance::{correct_pair, separation, Constraints, MIN_SOLVE_LENGTH};

/// The three coefficients of a soft constraint over one substep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Softness {
    /// `ω / (2ζ + hω)`, 1/s: the fraction of the error removed per second.
    pub bias_rate: f32,
    /// `hω (2ζ + hω) / (1 + hω (2ζ + hω))`: the share of the effective mass.
    pub mass_scale: f32,
    /// `1 / (1 + hω (2ζ + hω))`: how much of the accumulated impulse is relaxed.
    pub impulse_scale: f32,
}

impl Softness {
    /// The soft constraint of frequency `hertz` (above 0) and damping ratio
    /// `zeta` (0 or more) over a substep `h`.
    pub fn new(hertz: f64, zeta: f64, h: f64) -> Softness {
        let omega = 2.0 * std::f64::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: (omega / a1) as f32,
            mass_scale: (a2 * a3) as f32,
            impulse_scale: a3 as f32,
        }
    }
}

/// The warm start: every constraint's impulse of the last substep, `λ`, applied
/// again to the predicted `positions` along its direction at `previous`.
pub fn warm_start(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    mut constraints: Constraints,
) {
    for (pair, lambda) in constraints.pairs_mut() {
        let (dx, dy, distance) = separation(previous, pair.a, pair.b);
        if *lambda == 0.0 || distance <= MIN_SOLVE_LENGTH {
            continue;
        }
        let (w_a, w_b) = (inverse_mass[pair.a], inverse_mass[pair.b]);
        let scale = *lambda / distance;
        correct_pair(positions, (pair.a, w_a), (pair.b, w_b), scale, (dx, dy));
    }
}

/// One sweep of soft solves with the bias, in order, over the substep `h`.
#[inline(never)]
pub fn solve_sweep_soft(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    mut constraints: Constraints,
    softness: Softness,
    h: f32,
) {
    let Softness {
        bias_rate,
        mass_scale,
        impulse_scale,
    } = softness;
    for (pair, lambda) in constraints.pairs_mut() {
        let (a, b) = (pair.a, pair.b);
        let (dx, dy, distance) = separation(previous, a, b);
        let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
        let w_sum = w_a + w_b;
        if distance <= MIN_SOLVE_LENGTH || w_sum == 0.0 {
            continue;
        }
        let constraint = distance - pair.rest_length;
        // h Ċ: the stretching of the substep so far, along n
        let (pa, pb) = (&positions[2 * a..2 * a + 2], &positions[2 * b..2 * b + 2]);
        let moved_x = (pa[0] - previous[2 * a]) - (pb[0] - previous[2 * b]);
        let moved_y = (pa[1] - previous[2 * a + 1]) - (pb[1] - previous[2 * b + 1]);
        let stretching = (dx * moved_x + dy * moved_y) / distance;
        let delta_lambda = -mass_scale * (stretching + h * bias_rate * constraint) / w_sum
            - impulse_scale * *lambda;
        *lambda += delta_lambda;
        correct_pair(
            positions,
            (a, w_a),
            (b, w_b),
            delta_lambda / distance,
            (dx, dy),
        );
    }
}

/// The relax pass: one sweep of rigid velocity solves without bias
/// (`P = -m_eff Ċ`), along each constraint's direction at `positions`, over
/// the substep `h`. Moves only `velocities`.
#[inline(never)]
pub fn relax_sweep(
    velocities: &mut [f32],
    positions: &[f32],
    inverse_mass: &[f32],
    mut constraints: Constraints,
    h: f32,
) {
    for (pair, lambda) in constraints.pairs_mut() {
        let (a, b) = (pair.a, pair.b);
        let (dx, dy, distance) = separation(positions, a, b);
        let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
        let w_sum = w_a + w_b;
        if distance <= MIN_SOLVE_LENGTH || w_sum == 0.0 {
            continue;
        }
        let (va, vb) = (&velocities[2 * a..2 * a + 2], &velocities[2 * b..2 * b + 2]);
        let rate = (dx * (va[0] - vb[0]) + dy * (va[1] - vb[1])) / distance;
        let impulse = -rate / w_sum;
        *lambda += h * impulse;
        correct_pair(velocities, (a, w_a), (b, w_b), impulse / distance, (dx, dy));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stiff_limit_is_the_linearised_rigid_constraint() {
        let s = Softness::new(1e9, 1.0, 0.01);
        assert!((s.mass_scale - 1.0).abs() < 1e-6);
        assert!(s.impulse_scale < 1e-6);
        assert!((s.bias_rate * 0.01 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_zero_impulse_warm_start_moves_nothing() {
        let previous = vec![0.0, 0.0, 0.3, 0.0];
        let mut positions = vec![0.0, -0.1, 0.3, -0.1];
        let ids = [0u32, 1];
        let mut lambdas = [0.0f32];
        let constraints = Constraints {
            ids: &ids,
            rest_lengths: &[0.2],
            lambdas: &mut lambdas,
        };
        warm_start(&mut positions, &previous, &[1.0, 1.0], constraints);
        assert_eq!(positions, vec![0.0, -0.1, 0.3, -0.1]);
    }
}
