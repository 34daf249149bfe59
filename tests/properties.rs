//! Property tests: random valid parameters always step; construction accepts
//! exactly the documented grids. (Random operation sequences with hostile
//! values are in `tests/fuzz.rs`.)
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverOrder};

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
        let mut cloth = grid_cloth(6, 5);
        let solver_order = if colored { SolverOrder::Colored } else { SolverOrder::Original };
        let params = Params {
            time_step, iterations, stiffness, gravity, mass,
            substeps, damping, velocity_damping, tear_stretch, solver_order,
            ..Params::default()
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
        width in prop_oneof![0..1100usize, any::<usize>()],
        height in prop_oneof![0..1100usize, any::<usize>()],
        fixed in prop_oneof![0..6usize, any::<usize>()],
    ) {
        let valid_side = |v: usize| (2..=1000).contains(&v);
        let expected = valid_side(width) && valid_side(height)
            && width * height <= 250_000
            && [1, 2, 4].contains(&fixed);
        let result = GridSize::new(width, height)
            .and_then(|size| Cloth::try_new(size, FixedPreset::from_count(fixed)?));
        prop_assert_eq!(result.is_ok(), expected, "{} {} {}", width, height, fixed);
    }
}
