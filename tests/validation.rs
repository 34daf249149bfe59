//! Every invalid input is refused with a message naming the field, and leaves the
//! running cloth exactly as it was.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::error::Number;
use xpbd_cloth::params::{FixedPreset, GridSize};
use xpbd_cloth::{Cloth, ClothError};

type Setter = fn(&mut Cloth, f64) -> Result<(), ClothError>;

fn running_cloth() -> Cloth {
    let mut cloth = grid_cloth(12, 9);
    cloth.steps(30).unwrap();
    cloth.grab(50).unwrap();
    cloth
}

#[test]
fn invalid_parameters_are_refused_and_change_nothing() {
    let cases: [(&str, Setter, &[f64]); 4] = [
        (
            "timeStepSize",
            Cloth::set_time_step,
            &[0.0, -1.0, 1e-9, 2.0, f64::NAN, f64::INFINITY],
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
            let message = refused(field, setter, bad);
            assert!(message.contains(field), "{message}");
            assert!(
                message.contains(&format!("got {}", Number(bad))),
                "{message}"
            );
            assert!(message.contains("expected"), "{message}");
        }
    }
}

/// The message of `setter(bad)` on a running cloth, which must refuse it and
/// stay exactly as it was.
fn refused<T: Copy + std::fmt::Display>(
    field: &str,
    setter: fn(&mut Cloth, T) -> Result<(), ClothError>,
    bad: T,
) -> String {
    let mut cloth = running_cloth();
    let before = cloth.clone();
    let message = setter(&mut cloth, bad)
        .expect_err(&format!("{field} = {bad} must be refused"))
        .to_string();
    assert!(cloth == before, "{field} = {bad} changed the cloth");
    message
}

#[test]
fn valid_parameters_are_accepted_at_the_edges() {
    let mut cloth = running_cloth();
    cloth.set_time_step(1e-6).unwrap();
    cloth.set_time_step(1.0).unwrap();
    cloth.set_iterations(1).unwrap();
    cloth.set_iterations(1000).unwrap();
    cloth.set_stiffness(0.0).unwrap();
    cloth.set_stiffness(1e15).unwrap();
    cloth.set_gravity(-1e6).unwrap();
    cloth.set_mass(1e-6).unwrap();
    cloth.set_mass(1e6).unwrap();
    assert_eq!(cloth.params().iterations, 1000);
}

#[test]
fn invalid_counts_are_refused_and_change_nothing() {
    // what JavaScript could pass beyond these (2.5, -3, NaN) never becomes a
    // u32: the wasm layer refuses it (tests/wasm_api.rs)
    type Count = fn(&mut Cloth, u32) -> Result<(), ClothError>;
    let cases: [(&str, Count, &[u32]); 2] = [
        ("iterations", Cloth::set_iterations, &[0, 1001, u32::MAX]),
        ("substeps", Cloth::set_substeps, &[0, 101, u32::MAX]),
    ];
    for (field, setter, bad_values) in cases {
        for &bad in bad_values {
            let message = refused(field, setter, bad);
            assert!(
                message.starts_with(&format!(
                    "invalid {field}: got {bad}, expected a whole number from 1 to"
                )),
                "{message}"
            );
        }
    }
}

#[test]
fn invalid_grids_are_refused_with_the_argument_named() {
    for (w, h, fixed, field) in [
        (0, 30, 2, "invalid width: got 0,"),
        (1, 30, 2, "invalid width: got 1,"),
        (100000, 30, 2, "invalid width: got 100000,"),
        (40, 1001, 2, "invalid height: got 1001,"),
        (40, usize::MAX, 2, "invalid height:"),
        (600, 600, 2, "invalid width:"),
        (40, 30, 3, "invalid fixed: got 3,"),
        (40, 30, 0, "invalid fixed: got 0,"),
    ] {
        let message = GridSize::new(w, h)
            .and_then(|size| Cloth::try_new(size, FixedPreset::from_count(fixed)?))
            .unwrap_err()
            .to_string();
        assert!(message.starts_with(field), "{w}×{h}/{fixed}: {message}");
    }
}

#[test]
fn invalid_indices_and_points_are_refused_and_change_nothing() {
    let mut cloth = running_cloth();
    let before = cloth.clone();
    for bad in [108, 109, 1_000_000_000, usize::MAX] {
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
    for bad in [10_001, u32::MAX] {
        let message = cloth.steps(bad).unwrap_err().to_string();
        assert_eq!(
            message,
            format!("invalid steps: got {bad}, expected a whole number from 0 to 10000")
        );
        assert!(cloth.advance_checked(bad, 0).is_err());
    }
    let message = cloth
        .advance_checked(1, 1_500_000_001)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("invalid workBudget: got 1500000001,"),
        "{message}"
    );
    assert!(cloth == before);
    let message = cloth.grab(108).unwrap_err().to_string();
    assert_eq!(
        message,
        "invalid particle index: got 108, expected a whole number from 0 to 107"
    );
    assert_eq!(cloth.is_pinned(107), Ok(false));
    cloth.steps(10_000).unwrap();
}

#[test]
fn messages_show_numbers_as_javascript_would() {
    let small = grid_cloth(10, 10);
    // messages show numbers as JavaScript would
    let message = small
        .clone()
        .drag(f64::INFINITY, 0.0)
        .unwrap_err()
        .to_string();
    assert!(message.contains("got Infinity"), "{message}");
}
