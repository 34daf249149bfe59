//! Cloths the tests build again and again.

// Each test file uses some of these, not all.
#![allow(dead_code)]

use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params};

/// A `width × height` grid with its two top corners fixed and default parameters.
pub fn grid_cloth(width: usize, height: usize) -> Cloth {
    Cloth::new(GridSize { width, height }, FixedPreset::Two)
}

/// Accepted values that drive any cloth past the divergence limit within a few
/// steps: one-second steps, strong gravity, feather-light particles and
/// constraints far too soft to hold them.
pub fn diverging_params() -> Params {
    Params {
        time_step: 1.0,
        gravity: -1e6,
        stiffness: 1e-3,
        iterations: 1,
        mass: 1e-6,
        ..Params::default()
    }
}

/// The bits of a cloth's positions: two cloths that stepped alike have the same.
pub fn position_bits(cloth: &Cloth) -> Vec<u32> {
    cloth.positions().iter().map(|v| v.to_bits()).collect()
}

/// Steps both cloths `steps` times, then asserts their positions are the same
/// bit for bit (`what` names the case in the failure).
pub fn assert_step_alike(a: &mut Cloth, b: &mut Cloth, steps: usize, what: &str) {
    for _ in 0..steps {
        a.step();
        b.step();
    }
    assert_eq!(position_bits(a), position_bits(b), "{what}");
}
