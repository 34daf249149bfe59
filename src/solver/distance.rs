//! The distance constraint: one solve in the symbols of the theory (see
//! [`super`]), and the scalar Gauss–Seidel sweep over many.

use std::ops::Range;

use super::points::Points;
use super::{alpha_tilde, gamma};

/// Constraints shorter than this (metres) are skipped: their direction is undefined.
pub const MIN_SOLVE_LENGTH: f32 = 0.001;

/// The constraint arrays a sweep works on, all in solver order: constraint `c`
/// joins particles `ids[2c]` and `ids[2c + 1]`, has rest length
/// `rest_lengths[c]` and multiplier `lambdas[c]`.
pub struct Constraints<'a> {
    /// `[a0, b0, a1, b1, ...]`.
    pub ids: &'a [u32],
    /// Rest length of each constraint, metres.
    pub rest_lengths: &'a [f32],
    /// Lagrange multiplier `λ` of each constraint, accumulated over one (sub)step.
    pub lambdas: &'a mut [f32],
}

impl Constraints<'_> {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.rest_lengths.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rest_lengths.is_empty()
    }

    /// Constraints `range` of these, as a view of their own.
    #[inline(always)]
    pub fn slice(&mut self, range: Range<usize>) -> Constraints<'_> {
        Constraints {
            ids: &self.ids[2 * range.start..2 * range.end],
            rest_lengths: &self.rest_lengths[range.clone()],
            lambdas: &mut self.lambdas[range],
        }
    }

    /// Each constraint's endpoints and rest length with its multiplier, in order.
    #[inline(always)]
    pub fn pairs_mut(&mut self) -> impl Iterator<Item = (Pair, &mut f32)> {
        let pairs = self.ids.chunks_exact(2).zip(self.rest_lengths);
        pairs
            .zip(self.lambdas.iter_mut())
            .map(|((ids, &rest_length), lambda)| {
                let (a, b) = (ids[0] as usize, ids[1] as usize);
                (Pair { a, b, rest_length }, lambda)
            })
    }
}

/// One Gauss–Seidel sweep over `constraints` in their order: each constraint
/// sees the corrections of those before it. Without damping (`gamma == 0`) this
/// is the original demo's loop exactly. Out of line: the loop compiles on
/// its own, whatever the caller around it (measured: inlined into the step
/// beside [`solve_sweep_compliances`] it ran about 3% more instructions).
#[inline(never)]
pub fn solve_sweep(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    constraints: Constraints,
    alpha_tilde: f32,
    gamma: f32,
) {
    let each = std::iter::repeat((alpha_tilde, gamma, 1.0));
    sweep(positions, previous, inverse_mass, constraints, each);
}

/// [`solve_sweep`] of rigid constraints in plain PBD with stiffness
/// coefficient `k` (0 < k <= 1): each correction is scaled by `k`, so `n`
/// sweeps close `1 - (1 - k)^n` of a lone constraint's error.
#[inline(never)]
pub fn solve_sweep_pbd(
    positions: &mut [f32],
    inverse_mass: &[f32],
    constraints: Constraints,
    k: f32,
) {
    let each = std::iter::repeat((0.0, 0.0, k));
    sweep(positions, &[], inverse_mass, constraints, each);
}

/// Each constraint's own compliance, for [`solve_sweep_compliances`].
pub struct Compliances<'a> {
    /// Compliance in m/N (0 = rigid) by creation index.
    pub of_created: &'a [f64],
    /// The creation index of each constraint swept, in solver order.
    pub creation: &'a [u32],
    /// The (sub)step size, seconds.
    pub h: f64,
    /// Constraint damping coefficient, N·s/m (0: none).
    pub damping: f64,
    /// Plain PBD's stiffness coefficient for the rigid ones (compliance 0).
    pub pbd_coefficient: f64,
}

/// [`solve_sweep`] with each constraint's own compliance (and damping
/// factor) instead of one for all.
pub fn solve_sweep_compliances(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    constraints: Constraints,
    compliances: Compliances,
) {
    let Compliances {
        of_created,
        creation,
        h,
        damping,
        pbd_coefficient,
    } = compliances;
    let each = creation.iter().map(|&created| {
        let compliance = of_created[created as usize];
        let k = if compliance == 0.0 {
            pbd_coefficient
        } else {
            1.0
        };
        let (alpha, gamma) = (alpha_tilde(compliance, h), gamma(compliance, damping, h));
        (alpha, gamma, k as f32)
    });
    sweep(positions, previous, inverse_mass, constraints, each);
}

/// The scalar sweep: each of `constraints` in order, solved with its
/// `(alpha_tilde, gamma, k)` from `each` (`k` scales the correction: plain
/// PBD's coefficient, 1 otherwise; `gamma` is 0 wherever `k` is below 1).
#[inline(always)]
fn sweep(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    constraints: Constraints,
    each: impl Iterator<Item = (f32, f32, f32)>,
) {
    let Constraints {
        ids,
        rest_lengths,
        lambdas,
    } = constraints;
    let pairs = ids.chunks_exact(2).zip(rest_lengths);
    for (((ids, &rest_length), lambda), (alpha_tilde, gamma, k)) in
        pairs.zip(lambdas.iter_mut()).zip(each)
    {
        let (a, b) = (ids[0] as usize, ids[1] as usize);
        let pair = Pair { a, b, rest_length };
        // the undamped solve exactly when `gamma` is 0: the original loop
        *lambda += if gamma == 0.0 {
            solve_pair(positions, inverse_mass, pair, *lambda, alpha_tilde, None, k)
        } else {
            solve_damped_distance(
                positions,
                inverse_mass,
                pair,
                *lambda,
                alpha_tilde,
                previous,
                gamma,
            )
        };
    }
}

/// `x_a - x_b` as `(dx, dy)` and its length.
#[inline(always)]
pub(super) fn separation<P: Points + ?Sized>(positions: &P, a: usize, b: usize) -> (f32, f32, f32) {
    let (pa, pb) = (positions.point(a), positions.point(b));
    let (dx, dy) = (pa.0 - pb.0, pa.1 - pb.1);
    (dx, dy, (dx * dx + dy * dy).sqrt())
}

/// The symmetric pair of corrections: `x_a += w_a scale d`, `x_b -= w_b scale d`
/// for the separation `d = (dx, dy)` and `scale = delta_lambda / distance` (so
/// `scale d` is `delta_lambda` times the unit gradient `n`).
#[inline(always)]
pub(super) fn correct_pair<P: Points + ?Sized>(
    positions: &mut P,
    (a, w_a): (usize, f32),
    (b, w_b): (usize, f32),
    scale: f32,
    (dx, dy): (f32, f32),
) {
    let (pa, pb) = (positions.point(a), positions.point(b));
    positions.set_point(a, (pa.0 + w_a * scale * dx, pa.1 + w_a * scale * dy));
    positions.set_point(b, (pb.0 - w_b * scale * dx, pb.1 - w_b * scale * dy));
}

/// The endpoints and rest length of one constraint.
#[derive(Clone, Copy)]
pub struct Pair {
    /// First particle.
    pub a: usize,
    /// Second particle.
    pub b: usize,
    /// Rest length, metres.
    pub rest_length: f32,
}

/// Solves one distance constraint with multiplier `lambda`, moves its
/// endpoints, and returns `delta_lambda` (0 when the constraint is skipped).
#[inline(always)]
pub fn solve_distance<P: Points + ?Sized>(
    positions: &mut P,
    inverse_mass: &[f32],
    pair: Pair,
    lambda: f32,
    alpha_tilde: f32,
) -> f32 {
    solve_pair(
        positions,
        inverse_mass,
        pair,
        lambda,
        alpha_tilde,
        None,
        1.0,
    )
}

/// [`solve_distance`] with XPBD damping `gamma`: also resists the relative
/// velocity of the endpoints along the constraint since `previous`, the
/// positions at the start of this (sub)step.
#[inline(always)]
pub fn solve_damped_distance(
    positions: &mut [f32],
    inverse_mass: &[f32],
    pair: Pair,
    lambda: f32,
    alpha_tilde: f32,
    previous: &[f32],
    gamma: f32,
) -> f32 {
    let damping = Some((previous, gamma));
    solve_pair(
        positions,
        inverse_mass,
        pair,
        lambda,
        alpha_tilde,
        damping,
        1.0,
    )
}

/// The one distance solve behind [`solve_distance`] and
/// [`solve_damped_distance`]; `damping` is the positions at the start of the
/// (sub)step and `gamma`. Without it the arithmetic is exactly the undamped
/// textbook form (no `1 + 0` or `+ 0` terms), so both sweep paths agree bit for bit.
#[inline(always)]
fn solve_pair<P: Points + ?Sized>(
    positions: &mut P,
    inverse_mass: &[f32],
    Pair { a, b, rest_length }: Pair,
    lambda: f32,
    alpha_tilde: f32,
    damping: Option<(&[f32], f32)>,
    k: f32,
) -> f32 {
    let (dx, dy, distance) = separation(positions, a, b);
    if distance <= MIN_SOLVE_LENGTH {
        return 0.0;
    }
    let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
    let w_sum = w_a + w_b;
    let damped_w_sum = match damping {
        None => w_sum,
        Some((_, gamma)) => (1.0 + gamma) * w_sum,
    };
    let denominator = damped_w_sum + alpha_tilde;
    if denominator == 0.0 {
        return 0.0;
    }
    let constraint = distance - rest_length;
    let mut residual = constraint + alpha_tilde * lambda;
    if let Some((previous, gamma)) = damping {
        // ∇C·(x - x_prev): how fast the constraint is stretching, times h
        let (pa, pb) = (positions.point(a), positions.point(b));
        let (qa, qb) = (previous.point(a), previous.point(b));
        let moved_x = (pa.0 - qa.0) - (pb.0 - qb.0);
        let moved_y = (pa.1 - qa.1) - (pb.1 - qb.1);
        let stretching = (dx * moved_x + dy * moved_y) / distance;
        residual += gamma * stretching;
    }
    // `k` is 1 but in plain PBD with a softer coefficient (x * 1 is x exactly)
    let delta_lambda = -residual / denominator * k;
    let scale = delta_lambda / distance;
    correct_pair(positions, (a, w_a), (b, w_b), scale, (dx, dy));
    delta_lambda
}

/// Relative stretch `(length - rest_length) / rest_length` of constraint `c`.
#[inline]
pub fn stretch(positions: &[f32], constraint_ids: &[u32], rest_lengths: &[f32], c: usize) -> f32 {
    let (a, b) = (constraint_ids[2 * c], constraint_ids[2 * c + 1]);
    pair_stretch(positions, a, b, rest_lengths[c])
}

/// Relative stretch `(length - rest_length) / rest_length` of the pair `(a, b)`.
#[inline]
pub fn pair_stretch(positions: &[f32], a: u32, b: u32, rest_length: f32) -> f32 {
    let (a, b) = (a as usize, b as usize);
    let dx = positions[2 * a] - positions[2 * b];
    let dy = positions[2 * a + 1] - positions[2 * b + 1];
    ((dx * dx + dy * dy).sqrt() - rest_length) / rest_length
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Particles 0 and 1, 0.2 m apart at rest.
    const PAIR: Pair = Pair {
        a: 0,
        b: 1,
        rest_length: 0.2,
    };

    #[test]
    fn zero_damping_is_the_undamped_solve_exactly() {
        let start = vec![0.0, 0.0, 0.31, 0.05];
        let previous = vec![0.0, 0.0, 0.2, 0.0];
        let mut plain = start.clone();
        let mut damped = start.clone();
        let w = [1.0, 1.0];
        let d1 = solve_distance(plain.as_mut_slice(), &w, PAIR, 0.0, 3.0);
        let d2 = solve_damped_distance(&mut damped, &w, PAIR, 0.0, 3.0, &previous, 0.0);
        assert_eq!(plain, damped);
        assert_eq!(d1, d2);
        // with damping the stretching motion is resisted more
        let mut more = start.clone();
        solve_damped_distance(&mut more, &w, PAIR, 0.0, 3.0, &previous, 5.0);
        let length = |p: &[f32]| ((p[2] - p[0]).powi(2) + (p[3] - p[1]).powi(2)).sqrt();
        assert!(length(&more) < length(&plain));
    }

    #[test]
    fn a_stretched_pair_moves_symmetrically_to_rest_length_in_pbd() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        let inverse_mass = [1.0, 1.0];
        let delta = solve_distance(positions.as_mut_slice(), &inverse_mass, PAIR, 0.0, 0.0);
        assert!((positions[0] - 0.05).abs() < 1e-6, "{positions:?}");
        assert!((positions[2] - 0.25).abs() < 1e-6, "{positions:?}");
        // C = 0.1, w_sum = 2: delta_lambda = -0.05
        assert!((delta + 0.05).abs() < 1e-6);
    }

    #[test]
    fn a_fixed_endpoint_does_not_move() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        solve_distance(positions.as_mut_slice(), &[0.0, 2.0], PAIR, 0.0, 0.0);
        assert_eq!(&positions[..2], &[0.0, 0.0]);
        assert!((positions[2] - 0.2).abs() < 1e-6);
    }

    #[test]
    fn compliance_leaves_part_of_the_error() {
        let mut positions = vec![0.0, 0.0, 0.3, 0.0];
        // alpha_tilde = w_sum: half of the PBD correction
        solve_distance(positions.as_mut_slice(), &[1.0, 1.0], PAIR, 0.0, 2.0);
        assert!((positions[2] - positions[0] - 0.25).abs() < 1e-6);
    }

    #[test]
    fn coincident_particles_are_skipped() {
        let mut positions = vec![1.0, 1.0, 1.0, 1.0005];
        assert_eq!(
            solve_distance(positions.as_mut_slice(), &[1.0, 1.0], PAIR, 0.0, 0.0),
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
