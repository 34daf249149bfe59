//! Scenes that obey physics: what the solve conserves, what contacts must not
//! create, presets that start sound and bodies that stay at rest (the checks
//! are in `tests/common/conservation.rs`; `tests/wasm_conservation.rs` runs
//! them in the browser).
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod conservation;
}

use common::conservation as check;

#[test]
fn presets_start_sound() {
    check::presets_start_sound();
}

#[test]
fn momentum_is_kept_through_the_solve() {
    check::momentum_is_kept_through_the_solve();
}

#[test]
fn energy_never_rises_in_any_preset() {
    check::energy_never_rises_in_any_preset();
}

#[test]
fn a_dropped_cloth_gains_no_energy() {
    check::a_dropped_cloth_gains_no_energy();
}

#[test]
fn a_collider_moved_into_a_resting_cloth_launches_nothing() {
    check::a_collider_moved_into_a_resting_cloth_launches_nothing();
}

#[test]
fn a_radius_raised_on_the_ground_launches_nothing() {
    check::a_radius_raised_on_the_ground_launches_nothing();
}

#[test]
fn the_soft_body_stays_on_the_ground() {
    check::the_soft_body_stays_on_the_ground();
}

#[test]
fn resting_bodies_do_not_drift() {
    check::resting_bodies_do_not_drift();
}

#[test]
fn dropped_bodies_come_to_rest_and_stay() {
    check::dropped_bodies_come_to_rest_and_stay();
}

#[test]
fn contacts_keep_particles_out() {
    check::contacts_keep_particles_out();
}
