//! Sine and cosine of an angle within a few turns, for the presets that lay
//! particles on a circle.
//!
//! `f32::sin` and `f32::cos` in wasm are the `libm` of Rust's compiler
//! builtins, which reduces any argument up to `f32::MAX` and carries for that a
//! table-driven reduction (`rem_pio2_large`) and two kernels: about 5 KB of a
//! module that only ever asks for angles of at most one turn. Here the angle
//! is reduced to `[-π/4, π/4]` by the nearest multiple of `π/2` (that
//! multiple in two parts, so the reduction is exact to double precision for
//! any angle this takes), and the Taylor series of both run there in `f64`:
//! their error (the first term left out, `(π/4)^19/19!` < 1e-18) is far below
//! an `f32`'s half ulp, so the result is `sin` and `cos` of the `f32` angle
//! rounded to `f32`, as the libm's are.

/// The largest angle, in radians either way, [`sin_cos`] takes: two turns.
pub const MAX_ANGLE: f32 = 4.0 * std::f32::consts::PI;

/// `π/2` as the sum of two `f64`: the first has 33 significant bits, so its
/// product with a quadrant count below 2^20 is exact.
const HALF_PI_HIGH: f64 = 1.570_796_326_734_125_6;
const HALF_PI_LOW: f64 = 6.077_100_506_506_192e-11;

/// `(sin x, cos x)` of `x` within [`MAX_ANGLE`] either way, each rounded to
/// `f32` from a double-precision value (so equal to `x.sin()`, `x.cos()` of a
/// correctly rounded libm).
pub fn sin_cos(x: f32) -> (f32, f32) {
    debug_assert!(x.abs() <= MAX_ANGLE, "angle {x} beyond two turns");
    let (sin, cos) = sin_cos_f64(f64::from(x));
    (sin as f32, cos as f32)
}

/// `(sin x, cos x)` in `f64`, for `|x|` below about a million turns (the
/// turn of a body in one pass of the contacts, say), to double precision
/// within a few turns.
pub fn sin_cos_f64(x: f64) -> (f64, f64) {
    let quadrant = (x / (HALF_PI_HIGH + HALF_PI_LOW)).round();
    let r = (x - quadrant * HALF_PI_HIGH) - quadrant * HALF_PI_LOW;
    let (s, c) = (sin_series(r), cos_series(r));
    let (sin, cos) = match (quadrant as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    };
    (sin, cos)
}

/// `sin r` for `|r| <= π/4`: its Taylor series up to `r^17`, Horner's rule.
fn sin_series(r: f64) -> f64 {
    let r2 = r * r;
    let mut sum = 0.0;
    // the odd terms r^(2k+1)/(2k+1)! from the last, k = 8 down to 0
    for k in (1..=8).rev() {
        let n = f64::from(2 * k);
        sum = r2 / (n * (n + 1.0)) * (1.0 - sum);
    }
    r * (1.0 - sum)
}

/// `cos r` for `|r| <= π/4`: its Taylor series up to `r^18`, Horner's rule.
fn cos_series(r: f64) -> f64 {
    let r2 = r * r;
    let mut sum = 0.0;
    for k in (1..=9).rev() {
        let n = f64::from(2 * k);
        sum = r2 / ((n - 1.0) * n) * (1.0 - sum);
    }
    1.0 - sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every angle a ring preset of up to 1000 particles asks for, and the
    /// `f32` angles within two turns at random, agree with `f64`'s own sine
    /// and cosine rounded to `f32`.
    #[test]
    fn agrees_with_double_precision_rounded() {
        let check = |x: f32| {
            let (s, c) = sin_cos(x);
            let wide = f64::from(x);
            assert_eq!(s, wide.sin() as f32, "sin {x}");
            assert_eq!(c, wide.cos() as f32, "cos {x}");
        };
        for count in 1..=1000u32 {
            check(std::f32::consts::PI / count as f32);
            for k in 0..count {
                check(std::f32::consts::TAU * k as f32 / count as f32);
            }
        }
        let mut bits = 0x2545_f491_u32;
        for _ in 0..200_000 {
            // xorshift: arbitrary f32 in [-MAX_ANGLE, MAX_ANGLE]
            bits ^= bits << 13;
            bits ^= bits >> 17;
            bits ^= bits << 5;
            check((bits as f32 / u32::MAX as f32 * 2.0 - 1.0) * MAX_ANGLE);
        }
        check(MAX_ANGLE);
        check(-MAX_ANGLE);
        check(0.0);
    }
}
