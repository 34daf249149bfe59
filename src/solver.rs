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
//! A step is: [`predict`], reset the multipliers, `iterations` sweeps
//! ([`solve_sweep`] in creation order, or [`solve_run`] over each colour),
//! then [`update_velocities`]; with substeps, all of it `substeps` times with
//! `h = dt / substeps`. Positions are interleaved `[x0, y0, x1, y1, ...]`.
//!
//! **Damping** (optional) adds the XPBD paper's term `γ = α β / h` for a
//! damping coefficient `β`: `delta_lambda = -(C + alpha_tilde λ + γ ∇C·(x - x_prev))
//! / ((1 + γ) w_sum + alpha_tilde)`, which resists the stretching velocity.

use std::ops::Range;

use crate::constraints::{Run, RunLayout};
use crate::lanes::F4;

/// Constraints shorter than this (metres) are skipped: their direction is undefined.
pub const MIN_SOLVE_LENGTH: f32 = 0.001;

/// The largest `alpha_tilde` used. Stiffness near 0 with a tiny `dt` would give a
/// compliance beyond `f32`; past this value a constraint does nothing anyway.
const MAX_ALPHA_TILDE: f64 = 1e30;

/// `alpha_tilde = α / h²` for compliance `α` (m/N) and (sub)step `h` (s).
pub fn alpha_tilde(compliance: f64, h: f64) -> f32 {
    (compliance / (h * h)).min(MAX_ALPHA_TILDE) as f32
}

/// The damping factor `γ = α β / h` for compliance `α`, damping `β` (N·s/m) and
/// (sub)step `h`; 0 without damping or in PBD mode.
pub fn gamma(compliance: f64, damping: f64, h: f64) -> f32 {
    (compliance * damping / h).min(MAX_ALPHA_TILDE) as f32
}

/// Prediction: every particle remembers where it was; every free one gains
/// `h * gravity` of vertical velocity and moves along its velocity.
pub fn predict(
    positions: &mut [f32],
    previous: &mut [f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
    gravity: f32,
) {
    previous.copy_from_slice(positions);
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[y] += h * gravity;
        positions[x] += h * velocities[x];
        positions[y] += h * velocities[y];
    }
}

/// One Gauss–Seidel sweep in the given order: each constraint sees the
/// corrections of those before it. Without damping (`gamma == 0`) this is the
/// original demo's loop exactly.
#[allow(clippy::too_many_arguments)]
pub fn solve_sweep(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    constraint_ids: &[u32],
    rest_lengths: &[f32],
    lambdas: &mut [f32],
    alpha_tilde: f32,
    gamma: f32,
) {
    let pairs = constraint_ids.chunks_exact(2).zip(rest_lengths);
    for ((ids, &rest_length), lambda) in pairs.zip(lambdas.iter_mut()) {
        let (a, b) = (ids[0] as usize, ids[1] as usize);
        *lambda += if gamma == 0.0 {
            solve_distance(
                positions,
                inverse_mass,
                a,
                b,
                rest_length,
                *lambda,
                alpha_tilde,
            )
        } else {
            let pair = Pair { a, b, rest_length };
            solve_damped_distance(
                positions,
                previous,
                inverse_mass,
                pair,
                *lambda,
                alpha_tilde,
                gamma,
            )
        };
    }
}

/// `x_a - x_b` as `(dx, dy)` and its length.
#[inline(always)]
fn separation(positions: &[f32], a: usize, b: usize) -> (f32, f32, f32) {
    let dx = positions[2 * a] - positions[2 * b];
    let dy = positions[2 * a + 1] - positions[2 * b + 1];
    (dx, dy, (dx * dx + dy * dy).sqrt())
}

/// The symmetric pair of corrections: `x_a += w_a s d`, `x_b -= w_b s d` for the
/// separation `d = (dx, dy)` and `s = delta_lambda / distance` (so `s d` is
/// `delta_lambda` times the unit gradient `n`).
#[inline(always)]
fn correct_pair(
    positions: &mut [f32],
    (a, w_a): (usize, f32),
    (b, w_b): (usize, f32),
    s: f32,
    (dx, dy): (f32, f32),
) {
    positions[2 * a] += w_a * s * dx;
    positions[2 * a + 1] += w_a * s * dy;
    positions[2 * b] -= w_b * s * dx;
    positions[2 * b + 1] -= w_b * s * dy;
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
    let (dx, dy, distance) = separation(positions, a, b);
    if distance <= MIN_SOLVE_LENGTH {
        return 0.0;
    }
    let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
    let w_sum = w_a + w_b;
    let denominator = w_sum + alpha_tilde;
    if denominator == 0.0 {
        return 0.0;
    }
    let constraint = distance - rest_length;
    let delta_lambda = -(constraint + alpha_tilde * lambda) / denominator;
    correct_pair(
        positions,
        (a, w_a),
        (b, w_b),
        delta_lambda / distance,
        (dx, dy),
    );
    delta_lambda
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

/// [`solve_distance`] with XPBD damping `gamma`: also resists the relative
/// velocity of the endpoints along the constraint during this (sub)step.
#[inline]
pub fn solve_damped_distance(
    positions: &mut [f32],
    previous: &[f32],
    inverse_mass: &[f32],
    Pair { a, b, rest_length }: Pair,
    lambda: f32,
    alpha_tilde: f32,
    gamma: f32,
) -> f32 {
    let (dx, dy, distance) = separation(positions, a, b);
    if distance <= MIN_SOLVE_LENGTH {
        return 0.0;
    }
    let (w_a, w_b) = (inverse_mass[a], inverse_mass[b]);
    let w_sum = w_a + w_b;
    let denominator = (1.0 + gamma) * w_sum + alpha_tilde;
    if denominator == 0.0 {
        return 0.0;
    }
    // ∇C·(x - x_prev): how fast the constraint is stretching, times h
    let moved_x = (positions[2 * a] - previous[2 * a]) - (positions[2 * b] - previous[2 * b]);
    let moved_y =
        (positions[2 * a + 1] - previous[2 * a + 1]) - (positions[2 * b + 1] - previous[2 * b + 1]);
    let stretching = (dx * moved_x + dy * moved_y) / distance;
    let constraint = distance - rest_length;
    let delta_lambda = -(constraint + alpha_tilde * lambda + gamma * stretching) / denominator;
    correct_pair(
        positions,
        (a, w_a),
        (b, w_b),
        delta_lambda / distance,
        (dx, dy),
    );
    delta_lambda
}

/// The particles of four constraints, one per lane.
#[derive(Clone, Copy)]
struct Lanes {
    xa: F4,
    ya: F4,
    xb: F4,
    yb: F4,
    w_a: F4,
    w_b: F4,
}

/// The XPBD distance solve of [`solve_distance`], four constraints at once:
/// moves the lanes' particles and returns the new multipliers. Each active lane
/// does exactly the scalar operations, in the same order. The two skips become
/// arithmetic, with no branch and no select: a skipped lane divides by safe
/// stand-ins (`pmax` with a tiny positive value, equal to the real value in
/// every active lane) and its `delta_lambda` is multiplied by 0.
#[inline(always)]
fn solve_lanes(p: &mut Lanes, rest_length: F4, lambda: F4, alpha_tilde: F4) -> F4 {
    let dx = p.xa.sub(p.xb);
    let dy = p.ya.sub(p.yb);
    let distance = dx.mul(dx).add(dy.mul(dy)).sqrt();
    let w_sum = p.w_a.add(p.w_b);
    let denominator = w_sum.add(alpha_tilde);
    // α̃ >= 1e-15 when positive (stiffness <= 1e15, dt <= 1), so a denominator is
    // either 0 or far above the stand-in 1e-20, which keeps even a skipped lane's
    // quotient finite (|C| <= 2e6 m)
    let active = distance
        .gt(F4::splat(MIN_SOLVE_LENGTH))
        .and(denominator.gt(F4::splat(0.0)))
        .to_unit();
    let distance = distance.pmax(F4::splat(MIN_SOLVE_LENGTH));
    let denominator = denominator.pmax(F4::splat(1e-20));
    let constraint = distance.sub(rest_length);
    let delta_lambda = constraint
        .add(alpha_tilde.mul(lambda))
        .neg()
        .div(denominator)
        .mul(active);
    let scale = delta_lambda.div(distance);
    p.xa = p.xa.add(p.w_a.mul(scale).mul(dx));
    p.ya = p.ya.add(p.w_a.mul(scale).mul(dy));
    p.xb = p.xb.sub(p.w_b.mul(scale).mul(dx));
    p.yb = p.yb.sub(p.w_b.mul(scale).mul(dy));
    lambda.add(delta_lambda)
}

/// Splits `[x0, y0, x1, y1, x2, y2, x3, y3]` into `(x0..x3, y0..y3)`.
#[inline(always)]
fn load_points(s: &[f32]) -> (F4, F4) {
    let (lo, hi) = (F4::load(&s[0..4]), F4::load(&s[4..8]));
    (
        F4::shuffle::<0, 2, 4, 6>(lo, hi),
        F4::shuffle::<1, 3, 5, 7>(lo, hi),
    )
}

/// The inverse of [`load_points`].
#[inline(always)]
fn store_points(s: &mut [f32], x: F4, y: F4) {
    F4::shuffle::<0, 4, 1, 5>(x, y).store(&mut s[0..4]);
    F4::shuffle::<2, 6, 3, 7>(x, y).store(&mut s[4..8]);
}

/// The constraint arrays of the grouped part of a run (a multiple of four).
struct Chunks<'a> {
    rest_lengths: &'a [f32],
    lambdas: &'a mut [f32],
}

/// Constraints `(a0 + i, a0 + i + offset)`: the `a` ends are consecutive
/// particles, and so are the `b` ends, in a separate stretch of memory. Four at
/// a time, both ends load and store as vectors; the slices are cut once, so the
/// loop runs without bounds checks.
fn solve_consecutive(
    positions: &mut [f32],
    inverse_mass: &[f32],
    a0: usize,
    offset: usize,
    constraints: Chunks,
    alpha_tilde: F4,
) {
    let count = constraints.rest_lengths.len();
    let b0 = a0 + offset;
    let (front, back) = positions.split_at_mut(2 * b0);
    let a_points = &mut front[2 * a0..2 * (a0 + count)];
    let b_points = &mut back[..2 * count];
    let w_a = &inverse_mass[a0..a0 + count];
    let w_b = &inverse_mass[b0..b0 + count];
    let per_constraint = constraints
        .rest_lengths
        .chunks_exact(4)
        .zip(constraints.lambdas.chunks_exact_mut(4));
    let groups = a_points
        .chunks_exact_mut(8)
        .zip(b_points.chunks_exact_mut(8))
        .zip(w_a.chunks_exact(4).zip(w_b.chunks_exact(4)))
        .zip(per_constraint);
    for (((pa, pb), (wa, wb)), (rest, lambda)) in groups {
        let (xa, ya) = load_points(pa);
        let (xb, yb) = load_points(pb);
        let (w_a, w_b) = (F4::load(wa), F4::load(wb));
        let mut p = Lanes {
            xa,
            ya,
            xb,
            yb,
            w_a,
            w_b,
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        store_points(pa, p.xa, p.ya);
        store_points(pb, p.xb, p.yb);
    }
}

/// Constraints `(a0 + 2i, a0 + 2i + 1)`: eight consecutive particles
/// `a, b, a, b, ...` per four constraints, transposed into lanes and back.
fn solve_alternating(
    positions: &mut [f32],
    inverse_mass: &[f32],
    a0: usize,
    constraints: Chunks,
    alpha_tilde: F4,
) {
    let count = constraints.rest_lengths.len();
    let points = &mut positions[2 * a0..2 * (a0 + 2 * count)];
    let masses = &inverse_mass[a0..a0 + 2 * count];
    let per_constraint = constraints
        .rest_lengths
        .chunks_exact(4)
        .zip(constraints.lambdas.chunks_exact_mut(4));
    let groups = points
        .chunks_exact_mut(16)
        .zip(masses.chunks_exact(8))
        .zip(per_constraint);
    for ((s, w), (rest, lambda)) in groups {
        // each v holds (x_a, y_a, x_b, y_b) of one constraint
        let (v0, v1) = (F4::load(&s[0..4]), F4::load(&s[4..8]));
        let (v2, v3) = (F4::load(&s[8..12]), F4::load(&s[12..16]));
        let (t0, t1) = (
            F4::shuffle::<0, 4, 1, 5>(v0, v1),
            F4::shuffle::<2, 6, 3, 7>(v0, v1),
        );
        let (t2, t3) = (
            F4::shuffle::<0, 4, 1, 5>(v2, v3),
            F4::shuffle::<2, 6, 3, 7>(v2, v3),
        );
        let (w_a, w_b) = load_points(w);
        let mut p = Lanes {
            xa: F4::shuffle::<0, 1, 4, 5>(t0, t2),
            ya: F4::shuffle::<2, 3, 6, 7>(t0, t2),
            xb: F4::shuffle::<0, 1, 4, 5>(t1, t3),
            yb: F4::shuffle::<2, 3, 6, 7>(t1, t3),
            w_a,
            w_b,
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        let (t0, t2) = (
            F4::shuffle::<0, 1, 4, 5>(p.xa, p.ya),
            F4::shuffle::<2, 3, 6, 7>(p.xa, p.ya),
        );
        let (t1, t3) = (
            F4::shuffle::<0, 1, 4, 5>(p.xb, p.yb),
            F4::shuffle::<2, 3, 6, 7>(p.xb, p.yb),
        );
        F4::shuffle::<0, 2, 4, 6>(t0, t1).store(&mut s[0..4]);
        F4::shuffle::<1, 3, 5, 7>(t0, t1).store(&mut s[4..8]);
        F4::shuffle::<0, 2, 4, 6>(t2, t3).store(&mut s[8..12]);
        F4::shuffle::<1, 3, 5, 7>(t2, t3).store(&mut s[12..16]);
    }
}

/// Constraints anywhere, four at a time: particles gathered and scattered one
/// by one.
fn solve_scattered(
    positions: &mut [f32],
    inverse_mass: &[f32],
    ids: &[u32],
    constraints: Chunks,
    alpha_tilde: F4,
) {
    let per_constraint = constraints
        .rest_lengths
        .chunks_exact(4)
        .zip(constraints.lambdas.chunks_exact_mut(4));
    for (ids, (rest, lambda)) in ids.chunks_exact(8).zip(per_constraint) {
        let a = [ids[0], ids[2], ids[4], ids[6]].map(|i| i as usize);
        let b = [ids[1], ids[3], ids[5], ids[7]].map(|i| i as usize);
        let gather = |values: &[f32], stride: usize, offset: usize, k: [usize; 4]| {
            F4::new(
                values[stride * k[0] + offset],
                values[stride * k[1] + offset],
                values[stride * k[2] + offset],
                values[stride * k[3] + offset],
            )
        };
        let mut p = Lanes {
            xa: gather(positions, 2, 0, a),
            ya: gather(positions, 2, 1, a),
            xb: gather(positions, 2, 0, b),
            yb: gather(positions, 2, 1, b),
            w_a: gather(inverse_mass, 1, 0, a),
            w_b: gather(inverse_mass, 1, 0, b),
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        let (xa, ya, xb, yb) = (
            p.xa.to_array(),
            p.ya.to_array(),
            p.xb.to_array(),
            p.yb.to_array(),
        );
        for lane in 0..4 {
            positions[2 * a[lane]] = xa[lane];
            positions[2 * a[lane] + 1] = ya[lane];
            positions[2 * b[lane]] = xb[lane];
            positions[2 * b[lane] + 1] = yb[lane];
        }
    }
}

/// Solves one [`Run`] of constraints that share no particle, four at a time
/// in SIMD lanes (the last one to three one by one). `ids`, `rest_lengths`
/// and `lambdas` are the whole solver-order arrays.
pub fn solve_run(
    positions: &mut [f32],
    inverse_mass: &[f32],
    run: &Run,
    ids: &[u32],
    rest_lengths: &[f32],
    lambdas: &mut [f32],
    alpha_tilde: f32,
) {
    let alpha = F4::splat(alpha_tilde);
    let Range { start, end } = run.range;
    let full_end = start + (end - start) / 4 * 4;
    let grouped = Chunks {
        rest_lengths: &rest_lengths[start..full_end],
        lambdas: &mut lambdas[start..full_end],
    };
    match run.layout {
        RunLayout::Consecutive { a0, offset } => {
            let (a0, offset) = (a0 as usize, offset as usize);
            solve_consecutive(positions, inverse_mass, a0, offset, grouped, alpha);
        }
        RunLayout::Alternating { a0 } => {
            solve_alternating(positions, inverse_mass, a0 as usize, grouped, alpha);
        }
        RunLayout::Scattered => {
            let ids = &ids[2 * start..2 * full_end];
            solve_scattered(positions, inverse_mass, ids, grouped, alpha);
        }
    }
    for c in full_end..end {
        let (a, b) = (ids[2 * c] as usize, ids[2 * c + 1] as usize);
        lambdas[c] += solve_distance(
            positions,
            inverse_mass,
            a,
            b,
            rest_lengths[c],
            lambdas[c],
            alpha_tilde,
        );
    }
}

/// Velocity update: every free particle's velocity becomes the distance it
/// really moved this (sub)step divided by `h`, so the corrections feed back
/// into the motion.
pub fn update_velocities(
    positions: &[f32],
    previous: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
) {
    let inverse_h = 1.0 / h;
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[x] = (positions[x] - previous[x]) * inverse_h;
        velocities[y] = (positions[y] - previous[y]) * inverse_h;
    }
}

/// Global velocity damping: scales every velocity by `max(0, 1 - rate h)`.
pub fn damp_velocities(velocities: &mut [f32], rate: f64, h: f64) {
    let factor = (1.0 - rate * h).max(0.0) as f32;
    for v in velocities {
        *v *= factor;
    }
}

/// Relative stretch `(length - rest_length) / rest_length` of constraint `c`.
#[inline]
pub fn stretch(positions: &[f32], constraint_ids: &[u32], rest_lengths: &[f32], c: usize) -> f32 {
    let (a, b) = (
        constraint_ids[2 * c] as usize,
        constraint_ids[2 * c + 1] as usize,
    );
    let dx = positions[2 * a] - positions[2 * b];
    let dy = positions[2 * a + 1] - positions[2 * b + 1];
    ((dx * dx + dy * dy).sqrt() - rest_lengths[c]) / rest_lengths[c]
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lanes::SIMD;

    #[test]
    fn the_lane_kernels_match_the_scalar_sweep_bit_for_bit() {
        use crate::constraints::ConstraintSet;
        use crate::grid;
        use crate::params::{FixedPreset, GridSize, SolverOrder};
        for (width, height) in [(2, 2), (5, 4), (9, 7), (40, 30)] {
            let size = GridSize { width, height };
            let g = grid::build(size, FixedPreset::Two);
            let mut set = ConstraintSet::new(
                g.constraint_ids,
                g.rest_lengths,
                g.colors,
                SolverOrder::Colored,
            );
            // a crumpled cloth with some pinned particles
            let mut positions = g.positions.clone();
            for (i, p) in positions.iter_mut().enumerate() {
                *p += 0.08 * ((i as f32) * 1.7).sin();
            }
            let inverse_mass: Vec<f32> = (0..size.num_particles())
                .map(|k| if k % 7 == 0 { 0.0 } else { 2.0 })
                .collect();
            let mut scalar = positions.clone();
            let mut scalar_lambdas = vec![0.0; set.len()];
            for _ in 0..3 {
                solve_sweep(
                    &mut scalar,
                    &g.positions,
                    &inverse_mass,
                    set.ids(),
                    set.rest_lengths(),
                    &mut scalar_lambdas,
                    0.3,
                    0.0,
                );
                for run in set.runs().to_vec() {
                    let (ids, rest, lambdas) = set.parts_mut();
                    solve_run(&mut positions, &inverse_mass, &run, ids, rest, lambdas, 0.3);
                }
            }
            assert!(
                positions == scalar,
                "{width}x{height}: lanes differ from scalar (simd: {SIMD})"
            );
            assert!(set.lambdas() == scalar_lambdas.as_slice());
        }
    }

    #[test]
    fn zero_damping_is_the_undamped_solve_exactly() {
        let start = vec![0.0, 0.0, 0.31, 0.05];
        let previous = vec![0.0, 0.0, 0.2, 0.0];
        let mut plain = start.clone();
        let mut damped = start.clone();
        let pair = Pair {
            a: 0,
            b: 1,
            rest_length: 0.2,
        };
        let d1 = solve_distance(&mut plain, &[1.0, 1.0], 0, 1, 0.2, 0.0, 3.0);
        let d2 = solve_damped_distance(&mut damped, &previous, &[1.0, 1.0], pair, 0.0, 3.0, 0.0);
        assert_eq!(plain, damped);
        assert_eq!(d1, d2);
        // with damping the stretching motion is resisted more
        let mut more = start.clone();
        solve_damped_distance(&mut more, &previous, &[1.0, 1.0], pair, 0.0, 3.0, 5.0);
        let length = |p: &[f32]| ((p[2] - p[0]).powi(2) + (p[3] - p[1]).powi(2)).sqrt();
        assert!(length(&more) < length(&plain));
    }

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
