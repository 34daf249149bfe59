//! Tests of the exported JavaScript API, run in headless Chromium by
//! `cargo test --target wasm32-unknown-unknown` (see `.cargo/config.toml`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use xpbd_cloth::Simulation;

wasm_bindgen_test_configure!(run_in_browser);

fn num(v: f64) -> JsValue {
    JsValue::from_f64(v)
}

fn sim(w: f64, h: f64, fixed: f64) -> Simulation {
    Simulation::new(num(w), num(h), num(fixed)).expect("valid grid")
}

#[wasm_bindgen_test]
fn construction_counts() {
    let s = sim(40.0, 30.0, 2.0);
    assert_eq!(s.num_particles(), 1200);
    assert_eq!(s.num_constraints(), 4592);
    assert_eq!(s.positions().length(), 2400);
    assert_eq!(s.constraints().length(), 2 * 4592);
}
