//! Property tests: random parameters and random sequences of operations.
//!
//! Whatever a caller does, the cloth never panics, never shows a non-finite
//! position, and a refused call leaves it exactly as it was.
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

#[derive(Debug, Clone)]
enum Op {
    Step,
    Steps(f64),
    Pick(f64, f64, f64),
    Grab(f64),
    Drag(f64, f64),
    Release,
    Pin(f64, bool),
    TimeStep(f64),
    Iterations(f64),
    Stiffness(f64),
    Gravity(f64),
    Mass(f64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Step),
        1 => (0.0..5.0f64).prop_map(|n| Op::Steps(n.floor())),
        1 => any_number().prop_map(Op::Steps),
        1 => (any_number(), any_number(), any_number()).prop_map(|(x, y, r)| Op::Pick(x, y, r)),
        2 => any_number().prop_map(|i| Op::Grab(i.abs().floor())),
        1 => any_number().prop_map(Op::Grab),
        2 => (any_number(), any_number()).prop_map(|(x, y)| Op::Drag(x, y)),
        1 => Just(Op::Release),
        1 => (any_number(), any::<bool>()).prop_map(|(i, p)| Op::Pin(i.abs().floor(), p)),
        1 => any_number().prop_map(Op::TimeStep),
        1 => any_number().prop_map(Op::Iterations),
        1 => any_number().prop_map(Op::Stiffness),
        1 => any_number().prop_map(Op::Gravity),
        1 => any_number().prop_map(Op::Mass),
    ]
}

/// Applies one operation; `Err` means it was refused.
fn apply(cloth: &mut Cloth, op: &Op) -> Result<(), xpbd_cloth::ClothError> {
    match *op {
        Op::Step => {
            cloth.step();
            Ok(())
        }
        Op::Steps(n) => cloth.steps(n),
        Op::Pick(x, y, r) => cloth.pick(x, y, r).map(|_| ()),
        Op::Grab(i) => cloth.grab(i),
        Op::Drag(x, y) => cloth.drag(x, y),
        Op::Release => {
            cloth.release();
            Ok(())
        }
        Op::Pin(i, p) => cloth.set_pinned(i, p),
        Op::TimeStep(v) => cloth.set_time_step(v),
        Op::Iterations(v) => cloth.set_iterations(v.min(50.0)),
        Op::Stiffness(v) => cloth.set_stiffness(v),
        Op::Gravity(v) => cloth.set_gravity(v),
        Op::Mass(v) => cloth.set_mass(v),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_operations_never_panic_and_refusals_change_nothing(
        width in 2.0..9.0f64,
        height in 2.0..9.0f64,
        fixed in prop::sample::select(vec![1.0, 2.0, 4.0]),
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let mut cloth = Cloth::from_numbers(width.floor(), height.floor(), fixed).unwrap();
        for op in &ops {
            let before = cloth.clone();
            if let Err(error) = apply(&mut cloth, op) {
                prop_assert!(cloth == before, "{op:?} was refused ({error}) but changed the cloth");
                prop_assert!(!error.to_string().is_empty());
            }
            prop_assert!(cloth.positions().iter().all(|p| p.is_finite()), "after {op:?}");
            prop_assert!(cloth.max_stretch().is_finite());
            prop_assert!(cloth.time().is_finite());
        }
    }

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
