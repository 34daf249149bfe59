//! The coloured four-wide kernels against the scalar solver, natively (the
//! browser run of the same check is in `tests/wasm_api.rs`).
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod lanes_check;
}

#[test]
fn the_lane_kernels_match_the_scalar_sweep_bit_for_bit() {
    common::lanes_check::assert_lanes_match_the_scalar_sweep();
}
