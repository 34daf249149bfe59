//! Every invalid input is refused with a message naming the field, and leaves the
//! running cloth exactly as it was.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::params::Number;
use xpbd_cloth::{Cloth, ClothError};

type Setter = fn(&mut Cloth, f64) -> Result<(), ClothError>;

fn running_cloth() -> Cloth {
    let mut cloth = Cloth::from_numbers(12.0, 9.0, 2.0).unwrap();
    cloth.steps(30.0).unwrap();
    cloth.grab(50.0).unwrap();
    cloth
}

#[test]
fn invalid_parameters_are_refused_and_change_nothing() {
    let cases: [(&str, Setter, &[f64]); 5] = [
        (
            "timeStepSize",
            Cloth::set_time_step,
            &[0.0, -1.0, 1e-9, 2.0, f64::NAN, f64::INFINITY],
        ),
        (
            "iterations",
            Cloth::set_iterations,
            &[0.0, -3.0, 2.5, 1001.0, f64::NAN],
        ),
        (
            "stiffness",
            Cloth::set_stiffness,
            &[-1.0, 1e16, f64::NAN, f64::INFINITY],
        ),
        (
            "gravity",
            Cloth::set_gravity,
            &[f64::NAN, f64::NEG_INFINITY, 1e7, -1e7],
        ),
        (
            "mass",
            Cloth::set_mass,
            &[0.0, -0.5, 1e-7, 1e7, f64::NAN, f64::INFINITY],
        ),
    ];
    for (field, setter, bad_values) in cases {
        for &bad in bad_values {
            let mut cloth = running_cloth();
            let before = cloth.clone();
            let message = setter(&mut cloth, bad)
                .expect_err(&format!("{field} = {bad} must be refused"))
                .to_string();
            assert!(message.contains(field), "{message}");
            assert!(
                message.contains(&format!("got {}", Number(bad))),
                "{message}"
            );
            assert!(message.contains("expected"), "{message}");
            assert!(cloth == before, "{field} = {bad} changed the cloth");
        }
    }
}

#[test]
fn valid_parameters_are_accepted_at_the_edges() {
    let mut cloth = running_cloth();
    cloth.set_time_step(1e-6).unwrap();
    cloth.set_time_step(1.0).unwrap();
    cloth.set_iterations(1.0).unwrap();
    cloth.set_iterations(1000.0).unwrap();
    cloth.set_stiffness(0.0).unwrap();
    cloth.set_stiffness(1e15).unwrap();
    cloth.set_gravity(-1e6).unwrap();
    cloth.set_mass(1e-6).unwrap();
    cloth.set_mass(1e6).unwrap();
    assert_eq!(cloth.params().iterations, 1000);
}

#[test]
fn invalid_grids_are_refused_with_the_argument_named() {
    for (w, h, fixed, field) in [
        (0.0, 30.0, 2.0, "width"),
        (1.0, 30.0, 2.0, "width"),
        (100000.0, 30.0, 2.0, "width"),
        (40.5, 30.0, 2.0, "width"),
        (40.0, f64::NAN, 2.0, "height"),
        (40.0, 1001.0, 2.0, "height"),
        (600.0, 600.0, 2.0, "width"),
        (40.0, 30.0, 3.0, "invalid fixed:"),
        (40.0, 30.0, 0.0, "invalid fixed:"),
    ] {
        let message = Cloth::from_numbers(w, h, fixed).unwrap_err().to_string();
        assert!(message.contains(field), "{w}×{h}/{fixed}: {message}");
    }
}

#[test]
fn invalid_indices_and_points_are_refused_and_change_nothing() {
    let mut cloth = running_cloth();
    let before = cloth.clone();
    for bad in [-1.0, 108.0, 1e9, 0.5, f64::NAN] {
        assert!(cloth.grab(bad).is_err(), "grab({bad})");
        assert!(cloth.set_pinned(bad, true).is_err(), "setPinned({bad})");
        assert!(cloth.is_pinned(bad).is_err(), "isPinned({bad})");
    }
    assert!(cloth.drag(f64::NAN, 0.0).is_err());
    assert!(cloth.drag(0.0, f64::INFINITY).is_err());
    // beyond ±1e6 m a cloth counts as diverged, so nothing may be dragged there
    assert!(cloth
        .drag(2e6, 0.0)
        .unwrap_err()
        .to_string()
        .contains("1000000"));
    assert!(cloth.steps(-1.0).is_err());
    assert!(cloth.steps(1.5).is_err());
    assert!(cloth.steps(1e9).is_err());
    assert!(cloth == before);
    let message = cloth.grab(108.0).unwrap_err().to_string();
    assert!(
        message.contains("108") && message.contains("0 to 107"),
        "{message}"
    );
}

#[test]
fn messages_show_numbers_as_javascript_would() {
    let small = Cloth::from_numbers(10.0, 10.0, 2.0).unwrap();
    // messages show numbers as JavaScript would
    let message = small
        .clone()
        .drag(f64::INFINITY, 0.0)
        .unwrap_err()
        .to_string();
    assert!(message.contains("got Infinity"), "{message}");
}
