//! An `f32` as it was typed: `0.05`, not `0.05000000074505806`.
//!
//! A scene's masses arrive as `f32`; when every free particle has one mass,
//! that mass becomes the `mass` parameter, an `f64`, and should read as the
//! number the user wrote. That number is the one with the fewest significant
//! digits that reads back as the same `f32` (what JavaScript and Rust's `{}`
//! show). It is found here on decimal grids from coarse to fine, with
//! nothing but `f64` arithmetic: no shortest-digits formatting of `f32` in
//! the module (ryu's `f32` tables and code, 2.5 KB of it).

/// The finest and the coarsest decimal grid searched: `10^±22`, the powers of
/// ten an `f64` holds exactly.
const MAX_SCALE: i32 = 22;

/// `10^k` for `0 <= k <= 22`, exact.
fn power_of_ten(k: i32) -> f64 {
    (0..k).fold(1.0, |p, _| p * 10.0)
}

/// The `f64` nearest the number with the fewest significant digits that
/// reads back as `value`; `value` itself when it is not finite, is zero, or
/// needs a grid finer or coarser than `10^±22` (about 1e-13 and 1e19 and
/// beyond; the masses a scene may have, 1e-6 to 1e6 kg, need at most
/// `10^-15` and `10^-8`). Out of line: called once per
/// scene, it need not be copied into the building of a cloth.
#[inline(never)]
pub fn as_typed(value: f32) -> f64 {
    let v = f64::from(value);
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    // the grid of spacing 10^-scale: the first (coarsest) with a point that
    // reads back as `value` gives the fewest digits; of its points, the
    // nearest. The search starts at a grid coarser than v's leading digit
    // (10^lead <= |v| < 10^(lead + 2) from its binary exponent).
    let binary_exponent = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let lead = (f64::from(binary_exponent) * std::f64::consts::LOG10_2).floor() as i32;
    let coarsest = -lead - 2;
    if coarsest < -MAX_SCALE {
        return v;
    }
    let (target, magnitude) = (value.abs(), v.abs());
    for scale in coarsest..=MAX_SCALE {
        let power = power_of_ten(scale.abs());
        let fine = scale >= 0;
        // |v| in grid steps: exact when |v| is halfway between two points
        let steps = if fine {
            magnitude * power
        } else {
            magnitude / power
        };
        let nearest = steps.round();
        // (distance in steps, point): ascending, so that of two points
        // equally near the larger wins, as `{}` rounds a tie
        let mut typed: Option<(f64, f64)> = None;
        for m in [nearest - 1.0, nearest, nearest + 1.0] {
            let point = if fine { m / power } else { m * power };
            let distance = (m - steps).abs();
            if point as f32 == target && typed.is_none_or(|(d, _)| distance <= d) {
                typed = Some((distance, point));
            }
        }
        if let Some((_, point)) = typed {
            return point.copysign(v);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masses_read_as_typed() {
        assert_eq!(as_typed(0.05), 0.05);
        assert_eq!(as_typed(1.0), 1.0);
        assert_eq!(as_typed(-3.25e-5), -3.25e-5);
        assert_eq!(as_typed(1e-6), 1e-6);
        assert_eq!(as_typed(123_456.79), 123_456.79);
        assert_eq!(as_typed(0.0), 0.0);
        // 0.423828125 is halfway between two 8-digit forms: the larger, as `{}`
        assert_eq!(as_typed(217.0 / 512.0), 0.423_828_13);
        assert_eq!(as_typed(-217.0 / 512.0), -0.423_828_13);
        assert_eq!(as_typed(1e30), 1e30f32 as f64, "beyond the grids: as it is");
        let fine = 1.234_567_8e-20f32;
        assert_eq!(
            as_typed(fine),
            f64::from(fine),
            "finer than the grids: as it is"
        );
    }

    /// Arbitrary inputs (proptest runs natively only), against std's `{}`,
    /// which writes an `f32` in its shortest digits.
    #[cfg(not(target_arch = "wasm32"))]
    mod arbitrary {
        use super::*;
        use proptest::prelude::*;

        /// `read` is what `{}` shows of `v`, read as an `f64`.
        fn as_std_types(v: f32, read: f64) -> bool {
            read == format!("{v}").parse::<f64>().unwrap()
        }

        proptest! {
            #[test]
            fn every_f32_within_the_grids_reads_as_std_types_it(
                exponent in -43i32..=62,
                mantissa in 0u32..1 << 23,
                negative in any::<bool>(),
            ) {
                // 2^-43 to 2^63: about 1.1e-13 to 9.2e18
                let bits = u32::from(negative) << 31 | ((exponent + 127) as u32) << 23 | mantissa;
                let v = f32::from_bits(bits);
                let read = as_typed(v);
                prop_assert!(as_std_types(v, read), "{} read as {}", v, read);
            }

            #[test]
            fn every_mass_a_scene_may_have_reads_as_std_types_it(v in 1e-6f32..=1e6) {
                prop_assert!(as_std_types(v, as_typed(v)), "{} read as {}", v, as_typed(v));
            }
        }

        #[test]
        fn powers_of_two_read_as_std_types_them() {
            // the rounding interval of a power of two is narrower below it
            for e in -40..60 {
                let v = 2f32.powi(e);
                assert!(
                    as_std_types(v, as_typed(v)),
                    "2^{e} read as {}",
                    as_typed(v)
                );
            }
        }
    }
}
