//! Fuzzing the core's public API with random operation sequences.
//!
//! `cargo fuzz` needs a nightly toolchain, which this project does not assume;
//! this is the same idea with proptest: arbitrary values (NaN, infinities, zero,
//! negative, huge) for every parameter and argument, in arbitrary order, on
//! arbitrary grids. After every operation the invariants below must hold.
//!
//! `scripts/test.sh` runs a short pass. For a long one:
//!
//! ```text
//! XPBD_FUZZ_CASES=200000 cargo test --release --test fuzz -- --nocapture
//! ```
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

/// Numbers as hostile as a user or a caller can make them.
fn hostile_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<f64>(),
        3 => -1e3..1e3f64,
        2 => prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, 4.0, 100.0, 1000.0, 1001.0, 1e-6, 1e-7, 1e6, 1e7,
            1e9, 1e12, 1e15, 1e16, 1e300, -1e300, f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
            f64::MIN_POSITIVE, f64::MAX, f64::MIN, f64::EPSILON,
        ]),
    ]
}

/// Counts as hostile as a Rust caller can make them (JavaScript's fractions,
/// negatives and NaN never reach the core: tests/wasm_api.rs).
fn hostile_count() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => any::<u32>(),
        3 => 0..1100u32,
        2 => prop::sample::select(vec![0, 1, 4, 5, 100, 101, 1000, 1001, 10_000, 10_001, u32::MAX]),
    ]
}

/// Particle indices and grid sides, as hostile as a Rust caller can make them.
fn hostile_index() -> impl Strategy<Value = usize> {
    prop_oneof![
        2 => any::<usize>(),
        3 => 0..1100usize,
        1 => prop::sample::select(vec![0, 1, 2, 4, 1000, 1001, u32::MAX as usize, usize::MAX]),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Step,
    Steps(u32),
    Set(u8, f64),
    Count(bool, u32),
    Order(bool),
    Pick(f64, f64, f64),
    Grab(usize),
    Drag(f64, f64),
    Release,
    Pin(usize, bool),
    Forces,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Step),
        2 => hostile_count().prop_map(Op::Steps),
        5 => (0u8..7, hostile_number()).prop_map(|(field, v)| Op::Set(field, v)),
        2 => (any::<bool>(), hostile_count()).prop_map(|(iterations, n)| Op::Count(iterations, n)),
        1 => any::<bool>().prop_map(Op::Order),
        1 => (hostile_number(), hostile_number(), hostile_number()).prop_map(|(x, y, r)| Op::Pick(x, y, r)),
        2 => hostile_index().prop_map(Op::Grab),
        3 => (hostile_number(), hostile_number()).prop_map(|(x, y)| Op::Drag(x, y)),
        1 => Just(Op::Release),
        1 => (hostile_index(), any::<bool>()).prop_map(|(i, p)| Op::Pin(i, p)),
        1 => Just(Op::Forces),
    ]
}

fn apply(cloth: &mut Cloth, op: &Op) -> Result<(), xpbd_cloth::ClothError> {
    match *op {
        Op::Step => {
            cloth.step();
            Ok(())
        }
        // more than a few steps per op only makes the run slow, not more thorough
        Op::Steps(n) => cloth.steps(if n > 5 && n <= 10_000 { 5 } else { n }),
        Op::Set(field, v) => match field {
            0 => cloth.set_time_step(v),
            1 => cloth.set_stiffness(v),
            2 => cloth.set_gravity(v),
            3 => cloth.set_mass(v),
            4 => cloth.set_damping(v),
            5 => cloth.set_velocity_damping(v),
            _ => cloth.set_tear_stretch(v),
        },
        Op::Count(true, n) => cloth.set_iterations(if n > 20 && n <= 1000 { 20 } else { n }),
        Op::Count(false, n) => cloth.set_substeps(if n > 4 && n <= 100 { 4 } else { n }),
        Op::Order(colored) => {
            let order = if colored {
                SolverOrder::Colored
            } else {
                SolverOrder::Original
            };
            cloth.set_solver_order(order)
        }
        Op::Pick(x, y, r) => cloth.pick(x, y, r).map(|_| ()),
        Op::Grab(i) => cloth.grab(i),
        Op::Drag(x, y) => cloth.drag(x, y),
        Op::Release => {
            cloth.release();
            Ok(())
        }
        Op::Pin(i, p) => cloth.set_pinned(i, p),
        Op::Forces => {
            let all_finite = cloth.constraint_forces().iter().all(|f| f.is_finite());
            assert!(
                all_finite || !cloth.is_finite(),
                "non-finite force on a finite cloth"
            );
            Ok(())
        }
    }
}

fn check_invariants(cloth: &Cloth, built_with: usize, op: &Op) {
    assert!(
        cloth.positions().iter().all(|p| p.is_finite()),
        "non-finite position after {op:?}"
    );
    assert!(
        cloth.params().validate().is_ok(),
        "accepted an invalid parameter: {op:?}"
    );
    assert!(cloth.time().is_finite() && cloth.time() >= 0.0);
    assert_eq!(cloth.num_constraints() + cloth.torn_count(), built_with);
    assert_eq!(cloth.constraint_ids().len(), 2 * cloth.num_constraints());
    assert!(cloth.max_stretch().is_finite());
    assert!(cloth.kinetic_energy().is_finite() || !cloth.is_finite());
}

#[test]
fn hostile_operation_sequences_keep_every_invariant() {
    let cases = std::env::var("XPBD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let grids = (hostile_index(), hostile_index(), hostile_index());
    let small_grids = (2..30usize, 2..30usize, prop::sample::select(vec![1, 2, 4]));
    let strategy = (
        prop_oneof![1 => grids, 4 => small_grids],
        prop::collection::vec(op(), 1..80),
    );
    runner
        .run(&strategy, |((width, height, fixed), ops)| {
            let built = GridSize::new(width, height)
                .and_then(|size| Cloth::try_new(size, FixedPreset::from_count(fixed)?));
            let Ok(mut cloth) = built else {
                return Ok(()); // refused grids are checked in tests/validation.rs
            };
            if cloth.num_particles() > 2000 {
                return Ok(()); // keep a case fast; big grids run in tests/physics.rs
            }
            let built_with = cloth.num_constraints();
            for op in &ops {
                let before = cloth.clone();
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    apply(&mut cloth, op)
                }));
                let result = result.map_err(|_| TestCaseError::fail(format!("panic in {op:?}")))?;
                if let Err(error) = result {
                    prop_assert!(
                        cloth == before,
                        "{op:?} refused ({error}) but changed the cloth"
                    );
                }
                let checked = std::panic::catch_unwind(|| check_invariants(&cloth, built_with, op));
                prop_assert!(checked.is_ok(), "invariant broken after {op:?}");
            }
            Ok(())
        })
        .unwrap();
    println!("fuzz: {cases} cases passed");
}
