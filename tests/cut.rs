//! The Cut tool's core: a segment cuts every live constraint it crosses, as a
//! tear removes it, checked against an independent count in `f64`.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::Cloth;

/// The live constraints of `c` whose segment crosses the horizontal line at
/// height `y` between `x0` and `x1`: one end strictly above, the other
/// strictly below, and the crossing point inside the range (in `f64`).
fn crossing_horizontal(c: &Cloth, y: f64, x0: f64, x1: f64) -> usize {
    let p = c.positions();
    let point = |k: u32| (p[2 * k as usize] as f64, p[2 * k as usize + 1] as f64);
    c.constraint_ids()
        .chunks_exact(2)
        .filter(|pair| {
            let ((ax, ay), (bx, by)) = (point(pair[0]), point(pair[1]));
            if (ay - y) * (by - y) >= 0.0 {
                return false;
            }
            let x = ax + (bx - ax) * (y - ay) / (by - ay);
            x0 <= x && x <= x1
        })
        .count()
}

#[test]
fn a_stroke_across_the_cloth_cuts_every_constraint_it_crosses_and_no_other() {
    let mut c = grid_cloth(12, 10);
    for _ in 0..30 {
        c.step();
    }
    // between rows 4 and 5 of the hanging cloth, across its whole width and
    // beyond, then a short stroke that crosses only part of it
    let row = |c: &Cloth, i: usize| -> f64 {
        let p = c.positions();
        (0..12).map(|j| p[2 * (i * 12 + j) + 1] as f64).sum::<f64>() / 12.0
    };
    let y = (row(&c, 4) + row(&c, 5)) / 2.0;
    let expected = crossing_horizontal(&c, y, -100.0, 100.0);
    let (before, torn_before) = (c.num_constraints(), c.torn_count());
    assert!(expected >= 12, "the line crosses every column: {expected}");
    let cut = c.cut(-100.0, y, 100.0, y).unwrap();
    assert_eq!(cut, expected);
    assert_eq!(c.num_constraints(), before - cut);
    assert_eq!(c.torn_count(), torn_before + cut, "a cut counts as torn");
    assert_eq!(crossing_horizontal(&c, y, -100.0, 100.0), 0);
    // the cloth below the cut falls away from the pins
    let bottom = row(&c, 9);
    for _ in 0..100 {
        c.step();
    }
    assert!(row(&c, 9) < bottom - 1.0, "the cut-off part falls");
}

#[test]
fn a_cut_is_kept_by_a_saved_state_and_refused_input_changes_nothing() {
    let mut c = grid_cloth(8, 6);
    c.step();
    let p = c.positions().to_vec();
    let (ax, ay) = (p[2 * 9] as f64, p[2 * 9 + 1] as f64); // particle (1, 1)
    let (bx, by) = (p[2 * 10] as f64, p[2 * 10 + 1] as f64); // particle (2, 1)
                                                             // a short vertical stroke between particles (1, 1) and (2, 1)
    let x = (ax + bx) / 2.0;
    let cut = c.cut(x, ay + 0.05, x, by - 0.05).unwrap();
    assert!(cut >= 1, "it cuts the constraint joining them: {cut}");
    let untouched = c.clone();
    for (field, args) in [
        ("x0", [f64::NAN, 0.0, 1.0, 1.0]),
        ("y0", [0.0, f64::INFINITY, 1.0, 1.0]),
        ("x1", [0.0, 0.0, 2e6, 1.0]),
        ("y1", [0.0, 0.0, 1.0, -f64::NAN]),
    ] {
        let error = c.cut(args[0], args[1], args[2], args[3]).unwrap_err();
        assert_eq!(error.field(), field);
        assert!(c == untouched, "a refused cut changes nothing");
    }
    assert_eq!(
        c.cut(0.0, 0.0, 0.0, 0.0).unwrap(),
        0,
        "a point cuts nothing"
    );
    let saved = c.saved_state().unwrap();
    let mut restored = grid_cloth(8, 6);
    restored.restore_state(&saved).unwrap();
    assert_eq!(restored.constraint_ids(), c.constraint_ids());
    assert_eq!(restored.torn_count(), c.torn_count());
}

#[test]
fn a_cut_during_a_sliced_step_finishes_the_step_first() {
    let mut sliced = grid_cloth(10, 8);
    let mut whole = sliced.clone();
    sliced.advance(1, 500);
    assert!(sliced.step_in_progress());
    whole.step();
    let cut_sliced = sliced.cut(-10.0, -0.5, 10.0, -0.5).unwrap();
    let cut_whole = whole.cut(-10.0, -0.5, 10.0, -0.5).unwrap();
    assert!(!sliced.step_in_progress());
    assert_eq!(cut_sliced, cut_whole);
    assert!(
        sliced == whole,
        "bit for bit the cloth cut after a whole step"
    );
}
