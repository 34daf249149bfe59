//! The XPBD solver: one time step of a cloth made of distance constraints.
//!
//! # The textbook in five lines
//!
//! * **Constraint.** Each edge `(a, b)` wants its endpoints at its rest length:
//!   `C(x) = |x_a - x_b| - rest_length`.
//! * **Gradient.** `∇_a C = n`, `∇_b C = -n`, with the unit direction
//!   `n = (x_a - x_b) / |x_a - x_b|`.
//! * **Compliance.** A constraint of stiffness `k` has compliance `α = 1/k`;
//!   scaled by the step it becomes `alpha_tilde = α / dt²`. `α = 0` is plain PBD.
//! * **Multiplier.** Each constraint carries a Lagrange multiplier `λ`, reset to 0
//!   once per step. A solve computes
//!   `delta_lambda = -(C + alpha_tilde λ) / (w_sum + alpha_tilde)` with
//!   `w_sum = w_a + w_b` (inverse masses) and adds it to `λ`.
//! * **Correction.** `x_a += w_a delta_lambda n`, `x_b -= w_b delta_lambda n`:
//!   symmetric, so momentum is conserved, and a particle with `w = 0` never moves.
//!
//! Because `λ` accumulates over the iterations of a step, the result converges
//! to the same stiffness however many iterations are used; plain PBD instead gets
//! stiffer with every extra iteration. That is the "X" in XPBD.
//!
//! A step is: [`predict`], [`reset_multipliers`], `iterations` × [`solve_sweep`],
//! then [`update_velocities`]. Positions are interleaved `[x0, y0, x1, y1, ...]`.

/// Constraints shorter than this (metres) are skipped: their direction is undefined.
pub const MIN_SOLVE_LENGTH: f32 = 0.001;

/// The largest `alpha_tilde` used. Stiffness near 0 with a tiny `dt` would give a
/// compliance beyond `f32`; past this value a constraint does nothing anyway.
const MAX_ALPHA_TILDE: f64 = 1e30;

/// `alpha_tilde = α / dt²` for compliance `α` (m/N) and time step `dt` (s).
pub fn alpha_tilde(compliance: f64, dt: f64) -> f32 {
    (compliance / (dt * dt)).min(MAX_ALPHA_TILDE) as f32
}

/// Step 1, prediction: every free particle remembers where it was, gains
/// `dt * gravity` of vertical velocity and moves along its velocity.
pub fn predict(
    positions: &mut [f32],
    previous: &mut [f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    dt: f32,
    gravity: f32,
) {
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        previous[x] = positions[x];
        previous[y] = positions[y];
        velocities[y] += dt * gravity;
        positions[x] += dt * velocities[x];
        positions[y] += dt * velocities[y];
    }
}

/// Step 2: every multiplier starts the step at 0 (once per step, not per sweep).
pub fn reset_multipliers(lambdas: &mut [f32]) {
    lambdas.fill(0.0);
}

/// Step 3, one Gauss–Seidel sweep: solves the constraints one after the other in
/// the order given, each seeing the corrections of those before it.
pub fn solve_sweep(
    positions: &mut [f32],
    inverse_mass: &[f32],
    constraint_ids: &[u32],
    rest_lengths: &[f32],
    lambdas: &mut [f32],
    alpha_tilde: f32,
) {
    for (c, (ids, &rest_length)) in constraint_ids.chunks_exact(2).zip(rest_lengths).enumerate() {
        let (a, b) = (ids[0] as usize, ids[1] as usize);
        lambdas[c] += solve_distance(
            positions,
            inverse_mass,
            a,
            b,
            rest_length,
            lambdas[c],
            alpha_tilde,
        );
    }
}

/// Solves one distance constraint between particles `a` and `b`, moves them, and
/// returns `delta_lambda` (0 when the constraint is skipped).
#[inline(always)]
pub fn solve_distance(
    positions: &mut [f32],
    inverse_mass: &[f32],
    a: usize,
    b: usize,
    rest_length: f32,
    lambda: f32,
    alpha_tilde: f32,
) -> f32 {
    let dx = positions[2 * a] - positions[2 * b];
    let dy = positions[2 * a + 1] - positions[2 * b + 1];
    let distance = (dx * dx + dy * dy).sqrt();
    if distance <= MIN_SOLVE_LENGTH {
        return 0.0;
    }
    let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
    let denominator = w_a + w_b + alpha_tilde;
    if denominator == 0.0 {
        return 0.0;
    }
    let constraint = distance - rest_length;
    let delta_lambda = -(constraint + alpha_tilde * lambda) / denominator;
    // gradient n = (x_a - x_b) / distance, folded into the correction scale
    let scale = delta_lambda / distance;
    positions[2 * a] += w_a * scale * dx;
    positions[2 * a + 1] += w_a * scale * dy;
    positions[2 * b] -= w_b * scale * dx;
    positions[2 * b + 1] -= w_b * scale * dy;
    delta_lambda
}

/// Step 4: every free particle's velocity becomes the distance it really moved
/// this step divided by `dt`, so the corrections feed back into the motion.
pub fn update_velocities(
    positions: &[f32],
    previous: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    dt: f32,
) {
    let inverse_dt = 1.0 / dt;
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[x] = (positions[x] - previous[x]) * inverse_dt;
        velocities[y] = (positions[y] - previous[y]) * inverse_dt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretched_pair_moves_symmetrically_to_rest_length_in_pbd() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        let inverse_mass = [1.0, 1.0];
        let delta = solve_distance(&mut positions, &inverse_mass, 0, 1, 0.2, 0.0, 0.0);
        assert!((positions[0] - 0.05).abs() < 1e-6, "{positions:?}");
        assert!((positions[2] - 0.25).abs() < 1e-6, "{positions:?}");
        // C = 0.1, w_sum = 2: delta_lambda = -0.05
        assert!((delta + 0.05).abs() < 1e-6);
    }

    #[test]
    fn a_fixed_endpoint_does_not_move() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        solve_distance(&mut positions, &[0.0, 2.0], 0, 1, 0.2, 0.0, 0.0);
        assert_eq!(&positions[..2], &[0.0, 0.0]);
        assert!((positions[2] - 0.2).abs() < 1e-6);
    }

    #[test]
    fn compliance_leaves_part_of_the_error() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        // alpha_tilde = w_sum: half of the PBD correction
        solve_distance(&mut positions, &[1.0, 1.0], 0, 1, 0.2, 0.0, 2.0);
        assert!((positions[2] - positions[0] - 0.25).abs() < 1e-6);
    }

    #[test]
    fn coincident_particles_are_skipped() {
        let mut positions = vec![1.0, 1.0, 1.0, 1.0005];
        assert_eq!(
            solve_distance(&mut positions, &[1.0, 1.0], 0, 1, 0.2, 0.0, 0.0),
            0.0
        );
        assert_eq!(positions, vec![1.0, 1.0, 1.0, 1.0005]);
    }

    #[test]
    fn alpha_tilde_is_compliance_over_dt_squared_and_bounded() {
        assert!((alpha_tilde(1e-3, 0.01) - 10.0).abs() < 1e-5);
        assert_eq!(alpha_tilde(0.0, 0.01), 0.0);
        assert!(alpha_tilde(1e40, 1e-6).is_finite());
    }
}
