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
