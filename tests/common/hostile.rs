//! Hostile values for the fuzz and property tests, and their fixed seed.

use proptest::prelude::*;

/// The seed of a random test: `XPBD_FUZZ_SEED` when set, else a fixed one, so a
/// run in CI is repeatable; printed with `what` either way.
pub fn fixed_seed(what: &str) -> u64 {
    let seed = std::env::var("XPBD_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_261_124);
    println!("{what}: seed {seed} (XPBD_FUZZ_SEED={seed} repeats this run)");
    seed
}

/// Numbers as hostile as a user or a caller can make them.
pub fn hostile_number() -> impl Strategy<Value = f64> {
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
pub fn hostile_count() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => any::<u32>(),
        3 => 0..1100u32,
        2 => prop::sample::select(vec![0, 1, 4, 5, 100, 101, 1000, 1001, 10_000, 10_001, u32::MAX]),
    ]
}

/// Particle indices and grid sides, as hostile as a Rust caller can make them.
pub fn hostile_index() -> impl Strategy<Value = usize> {
    prop_oneof![
        2 => any::<usize>(),
        3 => 0..1100usize,
        1 => prop::sample::select(vec![0, 1, 2, 4, 1000, 1001, u32::MAX as usize, usize::MAX]),
    ]
}
