//! The coloured sweep: constraints that share no particle, solved four at a time.
//!
//! Within one colour (see [`super::order`]) the order of the solves does
//! not matter, so four of them can run side by side in SIMD lanes: each lane does
//! exactly what [`distance::solve_distance`] does for one constraint. What costs
//! time is moving particles in and out of lanes, so the sweep works on positions
//! split into `xs` and `ys` (copied from and back to the cloth's interleaved
//! array once per substep, not per iteration) and on [`Run`]s whose particles are
//! neighbours in memory:
//!
//! * [`RunLayout::Consecutive`], `(a0 + i, a0 + i + offset)`: four `a`s are one
//!   vector load from `xs` and one from `ys`, the same for the `b`s;
//! * [`RunLayout::Alternating`], `(a0 + 2i, a0 + 2i + 1)`: eight consecutive
//!   particles `a, b, a, b, ...`, two loads and two shuffles per coordinate;
//! * [`RunLayout::Scattered`]: anything else, gathered lane by lane.
//!
//! `tests/lanes.rs` and `tests/wasm_api.rs` check that the result equals a
//! scalar sweep in the same order, bit for bit, natively and in the browser.

use super::distance::{self, Constraints, MIN_SOLVE_LENGTH};
use super::lanes::{F4, FOUR_WIDE};
use super::points::Split;
use super::runs::{Run, RunLayout};

/// Copies interleaved `[x0, y0, x1, y1, ...]` into `xs` and `ys`. Out of
/// line, like the loops of `integrate.rs` (see there).
#[inline(never)]
pub fn split(positions: &[f32], xs: &mut Vec<f32>, ys: &mut Vec<f32>) {
    let n = positions.len() / 2;
    if xs.len() != n || ys.len() != n {
        // within the capacity reserved for them: no allocation
        xs.clear();
        ys.clear();
        xs.resize(n, 0.0);
        ys.resize(n, 0.0);
    }
    let wide = if FOUR_WIDE { n / 4 * 4 } else { 0 };
    let fours = (positions[..2 * wide].chunks_exact(8))
        .zip(xs.chunks_exact_mut(4))
        .zip(ys.chunks_exact_mut(4));
    for ((p, x), y) in fours {
        let (lo, hi) = (F4::load(&p[0..4]), F4::load(&p[4..8]));
        F4::shuffle::<0, 2, 4, 6>(lo, hi).store(x);
        F4::shuffle::<1, 3, 5, 7>(lo, hi).store(y);
    }
    for k in wide..n {
        (xs[k], ys[k]) = (positions[2 * k], positions[2 * k + 1]);
    }
}

/// Copies `xs` and `ys` back into interleaved `positions`, four particles
/// at a time where `FOUR_WIDE` (the shuffles that undo [`split`]'s). Out of line.
#[inline(never)]
pub fn merge(xs: &[f32], ys: &[f32], positions: &mut [f32]) {
    let n = xs.len().min(ys.len()).min(positions.len() / 2);
    let wide = if FOUR_WIDE { n / 4 * 4 } else { 0 };
    let fours = (positions[..2 * wide].chunks_exact_mut(8))
        .zip(xs.chunks_exact(4))
        .zip(ys.chunks_exact(4));
    for ((p, x), y) in fours {
        let (x, y) = (F4::load(x), F4::load(y));
        F4::shuffle::<0, 4, 1, 5>(x, y).store(&mut p[0..4]);
        F4::shuffle::<2, 6, 3, 7>(x, y).store(&mut p[4..8]);
    }
    for k in wide..n {
        (positions[2 * k], positions[2 * k + 1]) = (xs[k], ys[k]);
    }
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

/// [`distance::solve_distance`] four times at once: moves the lanes' particles and
/// returns the new multipliers. Each active lane does exactly the scalar
/// operations, in the same order. The two skips become arithmetic, with no
/// branch and no select: a skipped lane divides by stand-ins (`pmax` with a tiny
/// positive value, equal to the real value in every active lane) and its
/// `delta_lambda` is multiplied by 0.
#[inline(always)]
fn solve_lanes(p: &mut Lanes, rest_length: F4, lambda: F4, alpha_tilde: F4) -> F4 {
    let dx = p.xa - p.xb;
    let dy = p.ya - p.yb;
    let distance = (dx * dx + dy * dy).sqrt();
    let w_sum = p.w_a + p.w_b;
    let denominator = w_sum + alpha_tilde;
    let active = distance
        .gt(F4::splat(MIN_SOLVE_LENGTH))
        .and(denominator.gt(F4::splat(0.0)))
        .to_unit();
    // alpha_tilde >= 1e-15 when positive (stiffness <= 1e15, dt <= 1), so a
    // denominator is either 0 or far above the stand-in 1e-20, which keeps even a
    // skipped lane's quotient finite (|C| <= 2e6 m)
    let distance = distance.pmax(F4::splat(MIN_SOLVE_LENGTH));
    let denominator = denominator.pmax(F4::splat(1e-20));
    let constraint = distance - rest_length;
    let residual = constraint + alpha_tilde * lambda;
    let delta_lambda = -residual / denominator * active;
    let scale = delta_lambda / distance;
    p.xa = p.xa + p.w_a * scale * dx;
    p.ya = p.ya + p.w_a * scale * dy;
    p.xb = p.xb - p.w_b * scale * dx;
    p.yb = p.yb - p.w_b * scale * dy;
    lambda + delta_lambda
}

/// Splits `[a0, b0, a1, b1, a2, b2, a3, b3]` into `(a0..a3, b0..b3)`.
#[inline(always)]
fn load_pairs(s: &[f32]) -> (F4, F4) {
    let (lo, hi) = (F4::load(&s[0..4]), F4::load(&s[4..8]));
    (
        F4::shuffle::<0, 2, 4, 6>(lo, hi),
        F4::shuffle::<1, 3, 5, 7>(lo, hi),
    )
}

/// The inverse of [`load_pairs`].
#[inline(always)]
fn store_pairs(s: &mut [f32], a: F4, b: F4) {
    F4::shuffle::<0, 4, 1, 5>(a, b).store(&mut s[0..4]);
    F4::shuffle::<2, 6, 3, 7>(a, b).store(&mut s[4..8]);
}

/// `(rest lengths, multipliers)` of each group of four of `constraints` (the
/// grouped part of a run, a multiple of four).
#[inline(always)]
fn groups<'a>(
    constraints: &'a mut Constraints,
) -> impl Iterator<Item = (&'a [f32], &'a mut [f32])> {
    let rest_lengths = constraints.rest_lengths.chunks_exact(4);
    rest_lengths.zip(constraints.lambdas.chunks_exact_mut(4))
}

/// The `a` stretch `[a0, a0 + count)` and the `b` stretch `[b0, b0 + count)` of
/// one array, as two slices (`b0 >= a0 + count`).
#[inline(always)]
fn two_stretches(
    values: &mut [f32],
    a0: usize,
    b0: usize,
    count: usize,
) -> (&mut [f32], &mut [f32]) {
    let (front, back) = values.split_at_mut(b0);
    (&mut front[a0..a0 + count], &mut back[..count])
}

/// Constraints `(a0 + i, a0 + i + offset)`: every load and store is a vector.
fn solve_consecutive(
    points: &mut Split,
    inverse_mass: &[f32],
    a0: usize,
    offset: usize,
    mut constraints: Constraints,
    alpha_tilde: F4,
) {
    let count = constraints.len();
    let b0 = a0 + offset;
    let (xa, xb) = two_stretches(points.xs, a0, b0, count);
    let (ya, yb) = two_stretches(points.ys, a0, b0, count);
    let (w_a, w_b) = (&inverse_mass[a0..a0 + count], &inverse_mass[b0..b0 + count]);
    let a_ends = xa
        .chunks_exact_mut(4)
        .zip(ya.chunks_exact_mut(4))
        .zip(w_a.chunks_exact(4));
    let b_ends = xb
        .chunks_exact_mut(4)
        .zip(yb.chunks_exact_mut(4))
        .zip(w_b.chunks_exact(4));
    for (((xa, ya), wa), (((xb, yb), wb), (rest, lambda))) in
        a_ends.zip(b_ends.zip(groups(&mut constraints)))
    {
        let mut p = Lanes {
            xa: F4::load(xa),
            ya: F4::load(ya),
            xb: F4::load(xb),
            yb: F4::load(yb),
            w_a: F4::load(wa),
            w_b: F4::load(wb),
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        p.xa.store(xa);
        p.ya.store(ya);
        p.xb.store(xb);
        p.yb.store(yb);
    }
}

/// Constraints `(a0 + 2i, a0 + 2i + 1)`: eight consecutive particles `a, b, a,
/// b, ...` per four constraints, unzipped into lanes and zipped back.
fn solve_alternating(
    points: &mut Split,
    inverse_mass: &[f32],
    a0: usize,
    mut constraints: Constraints,
    alpha_tilde: F4,
) {
    let end = a0 + 2 * constraints.len();
    let (xs, ys) = (&mut points.xs[a0..end], &mut points.ys[a0..end]);
    let ends = xs
        .chunks_exact_mut(8)
        .zip(ys.chunks_exact_mut(8))
        .zip(inverse_mass[a0..end].chunks_exact(8));
    for (((x, y), w), (rest, lambda)) in ends.zip(groups(&mut constraints)) {
        let ((xa, xb), (ya, yb), (w_a, w_b)) = (load_pairs(x), load_pairs(y), load_pairs(w));
        let mut p = Lanes {
            xa,
            ya,
            xb,
            yb,
            w_a,
            w_b,
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        store_pairs(x, p.xa, p.xb);
        store_pairs(y, p.ya, p.yb);
    }
}

/// Constraints anywhere, four at a time: particles gathered and scattered one
/// by one.
fn solve_scattered(
    points: &mut Split,
    inverse_mass: &[f32],
    mut constraints: Constraints,
    alpha_tilde: F4,
) {
    let ids = constraints.ids;
    for (ids, (rest, lambda)) in ids.chunks_exact(8).zip(groups(&mut constraints)) {
        let a = [ids[0], ids[2], ids[4], ids[6]].map(|i| i as usize);
        let b = [ids[1], ids[3], ids[5], ids[7]].map(|i| i as usize);
        let gather = |values: &[f32], k: [usize; 4]| {
            F4::new(values[k[0]], values[k[1]], values[k[2]], values[k[3]])
        };
        let mut p = Lanes {
            xa: gather(points.xs, a),
            ya: gather(points.ys, a),
            xb: gather(points.xs, b),
            yb: gather(points.ys, b),
            w_a: gather(inverse_mass, a),
            w_b: gather(inverse_mass, b),
        };
        solve_lanes(&mut p, F4::load(rest), F4::load(lambda), alpha_tilde).store(lambda);
        let (xa, ya, xb, yb) = (
            p.xa.to_array(),
            p.ya.to_array(),
            p.xb.to_array(),
            p.yb.to_array(),
        );
        for lane in 0..4 {
            (points.xs[a[lane]], points.ys[a[lane]]) = (xa[lane], ya[lane]);
            (points.xs[b[lane]], points.ys[b[lane]]) = (xb[lane], yb[lane]);
        }
    }
}

/// Solves one [`Run`] of constraints that share no particle: four at a time in
/// SIMD lanes, the last one to three one by one. `constraints` are the whole
/// solver-order arrays the run's range indexes.
pub fn solve_run(
    points: &mut Split,
    inverse_mass: &[f32],
    run: &Run,
    constraints: &mut Constraints,
    alpha_tilde: f32,
) {
    let alpha = F4::splat(alpha_tilde);
    let (start, end) = (run.range.start, run.range.end);
    let grouped_end = start + (end - start) / 4 * 4;
    let grouped = constraints.slice(start..grouped_end);
    match run.layout {
        RunLayout::Consecutive { a0, offset } => solve_consecutive(
            points,
            inverse_mass,
            a0 as usize,
            offset as usize,
            grouped,
            alpha,
        ),
        RunLayout::Alternating { a0 } => {
            solve_alternating(points, inverse_mass, a0 as usize, grouped, alpha)
        }
        RunLayout::Scattered => solve_scattered(points, inverse_mass, grouped, alpha),
    }
    for (pair, lambda) in constraints.slice(grouped_end..end).pairs_mut() {
        *lambda += distance::solve_distance(points, inverse_mass, pair, *lambda, alpha_tilde);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_merge_round_trip() {
        let positions = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        split(&positions, &mut xs, &mut ys);
        assert_eq!(
            (xs.as_slice(), ys.as_slice()),
            (&[1.0, 3.0, 5.0][..], &[2.0, 4.0, 6.0][..])
        );
        let mut back = vec![0.0; 6];
        merge(&xs, &ys, &mut back);
        assert_eq!(back, positions);
    }
}
