//! Property tests: random valid parameters always step; construction accepts
//! exactly the documented grids. (Random operation sequences with hostile
//! values are in `tests/fuzz.rs`.)
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use xpbd_cloth::{Cloth, Params, SolverOrder};

/// Any number a user might type: ordinary values, edge values and garbage.
fn any_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -20.0..20.0f64,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.0, 2.0, 4.0, -1.0, 1e-7, 1e-6, 1.0, 1000.0, 1e6, 1e12, 1e15, 1e16,
            -1e6, -1e7, 1e300, -1e300, 0.5, 2.5,
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, f64::MAX,
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_parameters_step_without_panic(
        time_step in 1e-6..1.0f64,
        iterations in 1u32..30,
        stiffness in prop_oneof![Just(0.0), 0.0..1e15f64],
        gravity in -1e6..1e6f64,
        mass in 1e-6..1e6f64,
        substeps in 1u32..5,
        damping in prop_oneof![Just(0.0), 0.0..1e9f64],
        velocity_damping in prop_oneof![Just(0.0), 0.0..1000.0f64],
        tear_stretch in prop_oneof![Just(0.0), 1.0001..1000.0f64],
        colored in any::<bool>(),
        steps in 1usize..40,
    ) {
        let mut cloth = Cloth::from_numbers(6.0, 5.0, 2.0).unwrap();
        let solver_order = if colored { SolverOrder::Colored } else { SolverOrder::Original };
        let params = Params {
            time_step, iterations, stiffness, gravity, mass,
            substeps, damping, velocity_damping, tear_stretch, solver_order,
        };
        cloth.set_params(params).unwrap();
        prop_assert_eq!(cloth.params(), params);
        for _ in 0..steps {
            cloth.step();
        }
        // either it simulated, or it said it diverged; positions are finite either way
        prop_assert!(cloth.positions().iter().all(|p| p.is_finite()));
        if cloth.is_finite() {
            prop_assert!(cloth.time() > 0.0);
        }
    }

    #[test]
    fn construction_accepts_exactly_the_documented_grids(
        width in any_number(),
        height in any_number(),
        fixed in any_number(),
    ) {
        let valid_side = |v: f64| v.is_finite() && v.fract() == 0.0 && (2.0..=1000.0).contains(&v);
        let expected = valid_side(width) && valid_side(height)
            && width * height <= 250_000.0
            && [1.0, 2.0, 4.0].contains(&fixed);
        let result = Cloth::from_numbers(width, height, fixed);
        prop_assert_eq!(result.is_ok(), expected, "{} {} {}", width, height, fixed);
    }
}
