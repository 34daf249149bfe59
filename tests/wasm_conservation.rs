//! The conservation checks of `tests/conservation.rs` (in
//! `tests/common/conservation.rs`) run in the browser, on the wasm build, by
//! `cargo test --target wasm32-unknown-unknown --test wasm_conservation`;
//! and a scene's own masses kept through `Simulation`'s `mass` setter and
//! saved states, as JavaScript sees them.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use xpbd_cloth::wasm::Simulation;

wasm_bindgen_test_configure!(run_in_browser);

mod common {
    pub mod conservation;
}

use common::conservation as check;

#[wasm_bindgen_test]
fn presets_start_sound() {
    check::presets_start_sound();
}

#[wasm_bindgen_test]
fn momentum_is_kept_through_the_solve() {
    check::momentum_is_kept_through_the_solve();
}

#[wasm_bindgen_test]
fn energy_never_rises_in_any_preset() {
    check::energy_never_rises_in_any_preset();
}

#[wasm_bindgen_test]
fn a_dropped_cloth_gains_no_energy() {
    check::a_dropped_cloth_gains_no_energy();
}

#[wasm_bindgen_test]
fn a_collider_moved_into_a_resting_cloth_launches_nothing() {
    check::a_collider_moved_into_a_resting_cloth_launches_nothing();
}

#[wasm_bindgen_test]
fn a_radius_raised_on_the_ground_launches_nothing() {
    check::a_radius_raised_on_the_ground_launches_nothing();
}

#[wasm_bindgen_test]
fn the_soft_body_stays_on_the_ground() {
    check::the_soft_body_stays_on_the_ground();
}

#[wasm_bindgen_test]
fn resting_bodies_do_not_drift() {
    check::resting_bodies_do_not_drift();
}

#[wasm_bindgen_test]
fn dropped_bodies_come_to_rest_and_stay() {
    check::dropped_bodies_come_to_rest_and_stay();
}

#[wasm_bindgen_test]
fn contacts_keep_particles_out() {
    check::contacts_keep_particles_out();
}

/// A chain hanging from its pinned first particle, its free particles of
/// `masses` kg, as a `SceneSpec` object.
fn chain_spec(masses: [f64; 4]) -> JsValue {
    let numbers = |values: &[f64]| -> JsValue {
        values
            .iter()
            .map(|&v| JsValue::from_f64(v))
            .collect::<Array>()
            .into()
    };
    let spec = Object::new();
    let set = |name: &str, value: JsValue| {
        Reflect::set(&spec, &name.into(), &value).unwrap();
    };
    set(
        "positions",
        numbers(&[0.0, 0.0, 0.3, 0.0, 0.6, 0.0, 0.9, 0.0, 1.2, 0.0]),
    );
    set(
        "masses",
        numbers(&[0.0, masses[0], masses[1], masses[2], masses[3]]),
    );
    set(
        "distances",
        numbers(&[0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0]),
    );
    spec.into()
}

const MASSES: [f64; 4] = [0.3, 0.4, 0.5, 0.6];

fn positions(sim: &Simulation) -> Vec<f32> {
    sim.positions().to_vec()
}

fn swing(sim: &mut Simulation, steps: usize) -> Vec<f32> {
    for _ in 0..steps {
        sim.step();
    }
    positions(sim)
}

/// `sim.mass = sim.mass` on a scene with its own masses changes nothing (the
/// chain swings bit for bit as one left alone, not as one of equal masses);
/// another value scales the masses alike (the chain swings as one built with
/// them scaled); a saved state restores the weights it was saved with.
#[wasm_bindgen_test]
fn a_scenes_own_masses_are_kept_through_the_mass_setter_and_saved_states() {
    let mut alone = Simulation::from_scene(chain_spec(MASSES)).unwrap();
    let mut reset = Simulation::from_scene(chain_spec(MASSES)).unwrap();
    let mean = reset.parameter_value("mass").unwrap().as_f64().unwrap();
    assert!((mean - 0.45).abs() < 1e-6, "mass reads the mean: {mean}");
    reset
        .set_parameter_value("mass", JsValue::from_f64(mean))
        .unwrap();
    let expected = swing(&mut alone, 200);
    assert_eq!(swing(&mut reset, 200), expected);
    let mut equal = Simulation::from_scene(chain_spec([mean; 4])).unwrap();
    assert_ne!(
        swing(&mut equal, 200),
        expected,
        "the test needs masses that matter"
    );
    // twice the mean: as the chain of twice the masses
    let mut scaled = Simulation::from_scene(chain_spec(MASSES)).unwrap();
    scaled
        .set_parameter_value("mass", JsValue::from_f64(2.0 * mean))
        .unwrap();
    assert_eq!(
        scaled.parameter_value("mass").unwrap().as_f64(),
        Some(2.0 * mean)
    );
    let saved = scaled.save_state().unwrap();
    let mut doubled = Simulation::from_scene(chain_spec(MASSES.map(|m| 2.0 * m))).unwrap();
    let (got, want) = (swing(&mut scaled, 200), swing(&mut doubled, 200));
    let error = got
        .iter()
        .zip(&want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(error < 1e-4, "scaled {got:?}, built doubled {want:?}");
    // the state saved at twice the mean, restored into a fresh chain
    let mut restored = Simulation::from_scene(chain_spec(MASSES)).unwrap();
    restored.restore_state(saved).unwrap();
    assert_eq!(
        restored.parameter_value("mass").unwrap().as_f64(),
        Some(2.0 * mean)
    );
    let mut again = Simulation::from_scene(chain_spec(MASSES)).unwrap();
    again
        .set_parameter_value("mass", JsValue::from_f64(2.0 * mean))
        .unwrap();
    assert_eq!(swing(&mut restored, 100), swing(&mut again, 100));
}
