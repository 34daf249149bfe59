//! `Cloth::set_state`: a cloth continues exactly from a state computed elsewhere,
//! and refuses a state that is not one, changing nothing.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::params::MAX_TIME;

#[test]
fn a_cloth_given_anothers_state_steps_as_the_other_does() {
    let mut original = grid_cloth(12, 9);
    original.steps(37).unwrap();
    let mut copy = grid_cloth(12, 9);
    copy.set_state(original.positions(), original.velocities(), original.time())
        .unwrap();
    assert_eq!(copy.positions(), original.positions());
    assert_eq!(copy.time(), original.time());
    original.steps(25).unwrap();
    copy.steps(25).unwrap();
    assert_eq!(copy.positions(), original.positions());
    assert_eq!(copy.velocities(), original.velocities());
}

#[test]
fn a_state_that_is_not_one_is_refused_and_changes_nothing() {
    let mut cloth = grid_cloth(5, 4);
    cloth.steps(3).unwrap();
    let before = cloth.clone();
    let good = cloth.positions().to_vec();
    let still = vec![0.0; good.len()];
    let mut far = good.clone();
    far[7] = 2e6;
    let mut nan = good.clone();
    nan[0] = f32::NAN;
    for (positions, velocities, time, field) in [
        (&good[..4], &still[..], 0.0, "positions"),
        (&far[..], &still[..], 0.0, "positions"),
        (&nan[..], &still[..], 0.0, "positions"),
        (&good[..], &nan[..], 0.0, "velocities"),
        (&good[..], &still[..], -1.0, "time"),
        (&good[..], &still[..], f64::INFINITY, "time"),
        (&good[..], &still[..], 1e21, "time"),
        (&good[..], &still[..], MAX_TIME * 1.000_001, "time"),
    ] {
        let error = cloth.set_state(positions, velocities, time).unwrap_err();
        assert_eq!(error.field(), field, "{error}");
        assert_eq!(error.code(), "invalid_value");
        assert_eq!(cloth, before, "{error}");
    }
}

#[test]
fn a_step_in_progress_is_abandoned() {
    let mut cloth = grid_cloth(20, 20);
    let start = cloth.positions().to_vec();
    cloth.advance(1, 10);
    assert!(cloth.step_in_progress());
    let velocities = vec![0.5; start.len()];
    cloth.set_state(&start, &velocities, 2.0).unwrap();
    assert!(!cloth.step_in_progress());
    assert_eq!(cloth.positions(), &start[..]);
    assert_eq!(cloth.time(), 2.0);
}

#[test]
fn at_the_latest_time_a_state_may_have_the_smallest_step_still_moves_the_clock() {
    let mut cloth = grid_cloth(5, 4);
    cloth.set_time_step(1e-6).unwrap();
    let (positions, velocities) = (cloth.positions().to_vec(), cloth.velocities().to_vec());
    cloth.set_state(&positions, &velocities, MAX_TIME).unwrap();
    let mut saved = cloth.saved_state().unwrap();
    cloth.step();
    assert!(
        cloth.time() > MAX_TIME,
        "the clock stands at {}",
        cloth.time()
    );
    // a saved state at the same time restores; beyond it, it is refused by name
    cloth.restore_state(&saved).unwrap();
    saved.time = MAX_TIME * 1.000_001;
    let error = cloth.restore_state(&saved).unwrap_err();
    assert_eq!(error.field(), "time", "{error}");
}
