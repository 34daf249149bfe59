//! Integration: the prediction that starts a (sub)step and the velocity
//! update that ends it, and the optional global velocity damping.
//!
//! Each loop over the particles is a function of its own, called every
//! substep (`#[inline(never)]` here, and `scripts/build.sh` keeps every
//! function of the solver out of line in the shipped module): V8 first runs a
//! wasm function unoptimised and uses its optimised code from the next call
//! on, never within a call already running, so a loop inlined into the
//! stepping loop would run unoptimised for the whole of a first long
//! `steps(n)` call (about three times slower).

use super::lanes::{F4, FOUR_WIDE};

/// Prediction: every particle remembers where it was; every free one gains
/// `h * gravity` of vertical velocity and moves along its velocity. Four
/// particles at a time in SIMD lanes (two per `F4`: `x, y, x, y`), each
/// lane the scalar arithmetic of the rest, which go one by one (all of them
/// in the wasm build without SIMD, see `FOUR_WIDE`).
#[inline(never)]
pub fn predict(
    positions: &mut [f32],
    previous: &mut [f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
    gravity: f32,
) {
    let (n, hg) = (inverse_mass.len(), h * gravity);
    let fours = if FOUR_WIDE { n / 4 * 4 } else { 0 };
    // adding -0.0 leaves every x velocity as it is, bit for bit
    let (fall, step, zero) = (F4::new(-0.0, hg, -0.0, hg), F4::splat(h), F4::splat(0.0));
    let quads = (positions[..2 * fours].chunks_exact_mut(8))
        .zip(previous[..2 * fours].chunks_exact_mut(8))
        .zip(velocities[..2 * fours].chunks_exact_mut(8))
        .zip(inverse_mass[..fours].chunks_exact(4));
    for (((x, x_prev), v), w) in quads {
        let free = F4::load(w).gt(zero);
        for (k, free) in [
            (0, free.shuffle::<0, 0, 1, 1>()),
            (4, free.shuffle::<2, 2, 3, 3>()),
        ] {
            let (xk, vk) = (F4::load(&x[k..]), F4::load(&v[k..]));
            xk.store(&mut x_prev[k..]);
            let moved = vk + fall;
            free.select(moved, vk).store(&mut v[k..]);
            free.select(xk + step * moved, xk).store(&mut x[k..]);
        }
    }
    previous[2 * fours..].copy_from_slice(&positions[2 * fours..]);
    for (i, &w) in inverse_mass.iter().enumerate().skip(fours) {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[y] += hg;
        positions[x] += h * velocities[x];
        positions[y] += h * velocities[y];
    }
}

/// Velocity update: every free particle's velocity becomes the distance it
/// really moved this (sub)step divided by `h`, so the corrections feed back
/// into the motion. Four particles at a time, as [`predict`].
#[inline(never)]
pub fn update_velocities(
    positions: &[f32],
    previous: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
) {
    let inverse_h = 1.0 / h;
    let (n, per_h, zero) = (inverse_mass.len(), F4::splat(inverse_h), F4::splat(0.0));
    let fours = if FOUR_WIDE { n / 4 * 4 } else { 0 };
    let quads = (positions[..2 * fours].chunks_exact(8))
        .zip(previous[..2 * fours].chunks_exact(8))
        .zip(velocities[..2 * fours].chunks_exact_mut(8))
        .zip(inverse_mass[..fours].chunks_exact(4));
    for (((x, x_prev), v), w) in quads {
        let free = F4::load(w).gt(zero);
        for (k, free) in [
            (0, free.shuffle::<0, 0, 1, 1>()),
            (4, free.shuffle::<2, 2, 3, 3>()),
        ] {
            let moved = (F4::load(&x[k..]) - F4::load(&x_prev[k..])) * per_h;
            free.select(moved, F4::load(&v[k..])).store(&mut v[k..]);
        }
    }
    for (i, &w) in inverse_mass.iter().enumerate().skip(fours) {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[x] = (positions[x] - previous[x]) * inverse_h;
        velocities[y] = (positions[y] - previous[y]) * inverse_h;
    }
}

/// Global velocity damping: scales every velocity by `max(0, 1 - rate h)`,
/// four at a time in SIMD lanes (one by one without SIMD, see `FOUR_WIDE`).
#[inline(never)]
pub fn damp_velocities(velocities: &mut [f32], rate: f64, h: f64) {
    let factor = (1.0 - rate * h).max(0.0) as f32;
    let wide = if FOUR_WIDE {
        velocities.len() / 4 * 4
    } else {
        0
    };
    let (fours, rest) = velocities.split_at_mut(wide);
    for v in fours.chunks_exact_mut(4) {
        (F4::load(v) * F4::splat(factor)).store(v);
    }
    for v in rest {
        *v *= factor;
    }
}

/// Whether every one of `positions` is finite and within `limit` (one
/// comparison does both: it is false for infinities and NaN).
#[inline(never)]
pub fn in_bounds(positions: &[f32], limit: f32) -> bool {
    let fours = positions.chunks_exact(4);
    let rest = fours.remainder();
    let most = F4::splat(limit);
    fours.into_iter().all(|p| F4::load(p).abs().le(most).all())
        && rest.iter().all(|p| p.abs() <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions, velocities and inverse masses of `n` particles, every
    /// third pinned, some velocities -0.0.
    fn particles(n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let value = |k: usize| ((k * 37 % 23) as f32 - 11.0) * 0.37;
        let positions = (0..2 * n).map(value).collect();
        let velocities = (0..2 * n)
            .map(|k| if k % 5 == 0 { -0.0 } else { value(k + 7) })
            .collect();
        let w = (0..n)
            .map(|k| if k % 3 == 0 { 0.0 } else { 0.5 + k as f32 })
            .collect();
        (positions, velocities, w)
    }

    fn bits(values: &[f32]) -> Vec<u32> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn predict_and_update_are_the_scalar_arithmetic_bit_for_bit() {
        for n in 0..13 {
            let (positions, velocities, w) = particles(n);
            let (h, g) = (0.013f32, -9.81f32);
            let (mut x, mut v, mut previous) =
                (positions.clone(), velocities.clone(), vec![7.0; 2 * n]);
            predict(&mut x, &mut previous, &mut v, &w, h, g);
            let (mut x_ref, mut v_ref) = (positions.clone(), velocities.clone());
            for i in 0..n {
                if w[i] != 0.0 {
                    v_ref[2 * i + 1] += h * g;
                    x_ref[2 * i] += h * v_ref[2 * i];
                    x_ref[2 * i + 1] += h * v_ref[2 * i + 1];
                }
            }
            assert_eq!(bits(&previous), bits(&positions), "{n}");
            assert_eq!((bits(&x), bits(&v)), (bits(&x_ref), bits(&v_ref)), "{n}");
            let mut u = velocities.clone();
            update_velocities(&x, &positions, &mut u, &w, h);
            for i in 0..n {
                if w[i] != 0.0 {
                    for c in [2 * i, 2 * i + 1] {
                        v_ref[c] = (x[c] - positions[c]) * (1.0 / h);
                    }
                } else {
                    (v_ref[2 * i], v_ref[2 * i + 1]) = (velocities[2 * i], velocities[2 * i + 1]);
                }
            }
            assert_eq!(bits(&u), bits(&v_ref), "{n}");
        }
    }

    #[test]
    fn in_bounds_is_false_for_any_value_out_of_bounds_or_not_finite() {
        for n in 0..11 {
            let (positions, _, _) = particles(n);
            assert!(in_bounds(&positions, 5.0));
            for k in 0..positions.len() {
                for bad in [5.5, -6.0, f32::NAN, f32::INFINITY] {
                    let mut p = positions.clone();
                    p[k] = bad;
                    assert!(!in_bounds(&p, 5.0), "{n} {k} {bad}");
                }
            }
        }
    }
}
