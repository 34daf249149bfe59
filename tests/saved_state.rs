//! Saving and restoring a cloth's whole state (`Cloth::saved_state`,
//! `Cloth::restore_state`): a restored cloth continues bit for
//! bit as the saved one does, and a state that does not fit is refused with
//! an error naming the field, the cloth unchanged.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::cloth::ClothState;
use xpbd_cloth::model::Shape;
use xpbd_cloth::{Cloth, ClothError, Params, SolverOrder};

/// A 20 × 15 cloth in `order` that has torn, been pinned and unpinned, with
/// bending and a collider, saved between steps.
fn worked_cloth(order: SolverOrder) -> Cloth {
    let mut c = grid_cloth(20, 15);
    c.set_params(Params {
        tear_stretch: 1.3,
        solver_order: order,
        bending_stiffness: 0.5,
        ..Params::default()
    })
    .unwrap();
    c.add_collider(Shape::Circle {
        x: 0.5,
        y: -1.5,
        radius: 0.3,
    })
    .unwrap();
    c.grab(150).unwrap();
    c.drag(2.0, -8.0).unwrap();
    c.steps(20).unwrap();
    c.release();
    c.set_pinned(7, true).unwrap();
    c.set_pinned(0, false).unwrap();
    c.steps(5).unwrap();
    assert!(c.torn_count() > 0, "{order:?}: nothing tore");
    c
}

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

fn assert_same_motion(a: &mut Cloth, b: &mut Cloth, what: &str) {
    for round in 0..4 {
        a.steps(10).unwrap();
        b.steps(10).unwrap();
        assert_eq!(
            bits(a.positions()),
            bits(b.positions()),
            "{what}: positions, round {round}"
        );
        assert_eq!(
            bits(a.velocities()),
            bits(b.velocities()),
            "{what}: velocities, round {round}"
        );
        assert_eq!(
            a.torn_count(),
            b.torn_count(),
            "{what}: torn, round {round}"
        );
        assert_eq!(a.time().to_bits(), b.time().to_bits(), "{what}: time");
        assert_eq!(
            a.constraint_ids(),
            b.constraint_ids(),
            "{what}: constraint order"
        );
    }
}

#[test]
fn a_restored_cloth_continues_bit_for_bit_like_the_saved_one() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let mut original = worked_cloth(order);
        let state = original.saved_state().unwrap();
        assert_eq!(state.torn.len(), original.torn_count());
        assert!(state.pinned.contains(&7) && !state.pinned.contains(&0));
        let mut restored = grid_cloth(20, 15);
        restored.restore_state(&state).unwrap();
        assert_eq!(
            restored.saved_state().unwrap(),
            state,
            "{order:?}: state read back"
        );
        assert_same_motion(&mut original, &mut restored, &format!("{order:?}"));
    }
}

#[test]
fn a_state_saved_in_one_order_restores_into_a_cloth_in_the_other() {
    let mut original = worked_cloth(SolverOrder::Colored);
    let state = original.saved_state().unwrap();
    let mut restored = worked_cloth(SolverOrder::Original);
    restored.steps(3).unwrap();
    restored.restore_state(&state).unwrap();
    assert_same_motion(&mut original, &mut restored, "colored into original");
}

#[test]
fn restoring_brings_torn_constraints_back_and_tears_them() {
    // a fresh cloth's state restored into a torn one mends it
    let fresh = grid_cloth(20, 15);
    let mut torn = worked_cloth(SolverOrder::Colored);
    torn.restore_state(&fresh.saved_state().unwrap()).unwrap();
    assert_eq!(torn.torn_count(), 0);
    assert_eq!(torn.num_constraints(), fresh.num_constraints());
    let mut fresh = fresh;
    assert_same_motion(&mut fresh, &mut torn, "mended");
}

#[test]
fn saving_is_refused_while_a_step_is_in_progress() {
    let mut c = grid_cloth(20, 15);
    c.advance(1, 1);
    assert!(c.step_in_progress());
    let error = c.saved_state().unwrap_err();
    assert_eq!(error.field(), "step");
    c.advance(1, u64::MAX);
    assert!(c.saved_state().is_ok());
}

/// Each way of breaking a good state, with the field its error must name.
fn broken_states(good: &ClothState) -> Vec<(&'static str, &'static str, ClothState)> {
    let mut cases = Vec::new();
    let mut add = |what, field, change: &dyn Fn(&mut ClothState)| {
        let mut s = good.clone();
        change(&mut s);
        cases.push((what, field, s));
    };
    add("positions short", "positions", &|s| {
        s.positions.pop();
    });
    add("positions long", "positions", &|s| {
        s.positions.extend([0.0, 0.0])
    });
    add("velocities short", "velocities", &|s| {
        s.velocities.truncate(4)
    });
    add("NaN position", "positions", &|s| s.positions[5] = f32::NAN);
    add("infinite velocity", "velocities", &|s| {
        s.velocities[3] = f32::INFINITY
    });
    add("position beyond 1e6", "positions", &|s| {
        s.positions[0] = 2e6
    });
    add("NaN time", "time", &|s| s.time = f64::NAN);
    add("negative time", "time", &|s| s.time = -1.0);
    add("pin out of range", "pinned", &|s| s.pinned.push(300));
    add("pins not ascending", "pinned", &|s| s.pinned.reverse());
    add("pin twice", "pinned", &|s| {
        let first = s.pinned[0];
        s.pinned.insert(0, first);
    });
    add("torn out of range", "torn", &|s| {
        s.constraints.pop();
        s.torn.push(1_000_000);
    });
    add("torn not ascending", "torn", &|s| s.torn.reverse());
    add("torn list one short", "torn", &|s| {
        s.torn.pop();
    });
    add("torn list one long", "torn", &|s| {
        let c = s.constraints[0];
        s.torn.insert(0, c);
    });
    add("torn and live both", "constraints", &|s| {
        let t = s.torn[0];
        s.constraints.pop();
        s.constraints.push(t);
    });
    add("live twice", "constraints", &|s| {
        let c = s.constraints[1];
        let last = s.constraints.len() - 1;
        s.constraints[last] = c;
    });
    add("live out of range", "constraints", &|s| {
        let last = s.constraints.len() - 1;
        s.constraints[last] = u32::MAX;
    });
    add("live out of order", "constraints", &|s| {
        s.constraints.swap(0, 1)
    });
    add("mass out of range", "mass", &|s| s.params.mass = -1.0);
    add("substeps out of range", "substeps", &|s| {
        s.params.substeps = 1000
    });
    add("collider id 0", "colliders", &|s| s.colliders[0].0 = 0);
    add("collider of radius 0", "radius", &|s| {
        s.colliders[0].1 = Shape::Circle {
            x: 0.0,
            y: 0.0,
            radius: 0.0,
        }
    });
    add("colliders twice", "colliders", &|s| {
        let c = s.colliders[0];
        s.colliders.push(c);
    });
    add("numbers for a kind that keeps none", "kinds", &|s| {
        s.kinds.push(("bending".into(), vec![1.0]))
    });
    add("a kind this cloth has not", "kinds", &|s| {
        s.kinds.push(("springs".into(), Vec::new()))
    });
    add("a kind named twice", "kinds", &|s| {
        s.kinds.push(("wind".into(), Vec::new()));
        s.kinds.push(("wind".into(), Vec::new()));
    });
    add("numbers for the last kind", "kinds", &|s| {
        s.kinds.push(("contacts".into(), vec![1.0, 2.0]))
    });
    cases
}

#[test]
fn a_state_that_does_not_fit_is_refused_naming_the_field_and_nothing_changes() {
    let saved = worked_cloth(SolverOrder::Original);
    let good = saved.saved_state().unwrap();
    let cases = broken_states(&good);
    assert!(cases.len() >= 20);
    for (what, field, state) in cases {
        let mut target = worked_cloth(SolverOrder::Colored);
        target.steps(2).unwrap();
        let before = target.clone();
        let error = target
            .restore_state(&state)
            .expect_err(&format!("{what}: accepted"));
        assert_eq!(error.field(), field, "{what}: {error}");
        if let ClothError::InvalidState { .. } = error {
            assert!(error.to_string().contains(field), "{what}: {error}");
        }
        assert!(target == before, "{what}: the cloth changed");
    }
    // the good state itself is accepted by the same target
    let mut target = worked_cloth(SolverOrder::Colored);
    target.restore_state(&good).unwrap();
}

#[test]
fn a_state_of_another_size_of_cloth_is_refused() {
    let small = grid_cloth(5, 5).saved_state().unwrap();
    let mut c = grid_cloth(20, 15);
    let before = c.clone();
    let error = c.restore_state(&small).unwrap_err();
    assert_eq!(error.field(), "positions");
    assert!(error.to_string().contains("expected 600"), "{error}");
    assert!(c == before);
}

/// The whole message of every refusal of [`broken_states`], and of a state
/// with too many colliders.
const MESSAGES: [(&str, &str); 28] = [
    (
        "positions short",
        "invalid state: positions has 599 entries, expected 600 (this cloth's)",
    ),
    (
        "positions long",
        "invalid state: positions has 602 entries, expected 600 (this cloth's)",
    ),
    (
        "velocities short",
        "invalid state: velocities has 4 entries, expected 600 (this cloth's)",
    ),
    (
        "NaN position",
        "invalid state: positions[5] is NaN, expected a finite number from -1e6 to 1e6",
    ),
    (
        "infinite velocity",
        "invalid state: velocities[3] is Infinity, expected a finite number from -1e6 to 1e6",
    ),
    (
        "position beyond 1e6",
        "invalid state: positions[0] is 2000000, expected a finite number from -1e6 to 1e6",
    ),
    (
        "NaN time",
        "invalid state: time is NaN, expected a number from 0 to 1000000000",
    ),
    (
        "negative time",
        "invalid state: time is -1, expected a number from 0 to 1000000000",
    ),
    (
        "pin out of range",
        "invalid state: pinned[2] is 300, expected an index from 0 to 299",
    ),
    (
        "pins not ascending",
        "invalid state: pinned[1] is 7, expected indices in ascending order, each once",
    ),
    (
        "pin twice",
        "invalid state: pinned[1] is 7, expected indices in ascending order, each once",
    ),
    (
        "torn out of range",
        "invalid state: torn[64] is 1000000, expected an index from 0 to 1096",
    ),
    (
        "torn not ascending",
        "invalid state: torn[1] is 890, expected indices in ascending order, each once",
    ),
    (
        "torn list one short",
        "invalid state: torn has 63 entries and constraints 1033: together they must be the 1097 constraints of this cloth",
    ),
    (
        "torn list one long",
        "invalid state: torn has 65 entries and constraints 1033: together they must be the 1097 constraints of this cloth",
    ),
    (
        "torn and live both",
        "invalid state: constraints[1032] is 18, which is torn or listed before",
    ),
    (
        "live twice",
        "invalid state: constraints[1032] is 1, which is torn or listed before",
    ),
    (
        "live out of range",
        "invalid state: constraints[1032] is 4294967295, expected a constraint index from 0 to 1096",
    ),
    (
        "live out of order",
        "invalid state: constraints[1] is 0 after 1: not in original order",
    ),
    (
        "mass out of range",
        "invalid mass: got -1, expected a mass greater than 0, from 0.000001 to 1000000 kg",
    ),
    (
        "substeps out of range",
        "invalid substeps: got 1000, expected a whole number from 1 to 100",
    ),
    (
        "collider id 0",
        "invalid state: colliders[0] has id 0, expected a whole number from 1, each once",
    ),
    (
        "collider of radius 0",
        "invalid radius: got 0, expected a finite number above 0 and at most 2000000 m",
    ),
    (
        "colliders twice",
        "invalid state: colliders[1] has id 1, expected a whole number from 1, each once",
    ),
    (
        "numbers for a kind that keeps none",
        "invalid state: kinds bending: has 1 numbers, expected none",
    ),
    (
        "a kind this cloth has not",
        "invalid state: kinds names springs, which is no kind of this cloth",
    ),
    ("a kind named twice", "invalid state: kinds names wind twice"),
    (
        "numbers for the last kind",
        "invalid state: kinds contacts: has 2 numbers, expected none",
    ),
];

#[test]
fn each_refusal_of_a_state_has_its_own_whole_message() {
    let good = worked_cloth(SolverOrder::Original).saved_state().unwrap();
    let cases = broken_states(&good);
    assert_eq!(cases.len(), MESSAGES.len());
    for ((what, _, state), (named, message)) in cases.into_iter().zip(MESSAGES) {
        assert_eq!(what, named);
        let mut target = worked_cloth(SolverOrder::Colored);
        let error = target.restore_state(&state).unwrap_err();
        assert_eq!(error.to_string(), message, "{what}");
    }
    let mut many = good.clone();
    many.colliders = (1..=70).map(|id| (id, good.colliders[0].1)).collect();
    let error = worked_cloth(SolverOrder::Colored)
        .restore_state(&many)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid state: colliders has 70 entries, expected at most 64"
    );
}

/// A state saved with a kind switched on by a parameter (tethers,
/// self-collision, wind, bending) and with a body added restores into a
/// fresh cloth that never had that kind on: the additions are replayed with
/// the kind's room reserved, and the restored cloth continues bit for bit.
#[test]
fn additions_replay_into_a_cloth_whose_kinds_were_never_switched_on() {
    use xpbd_cloth::cloth::BodyOutline;
    type Switch = fn(&mut Params);
    let switches: [(&str, Switch); 4] = [
        ("tethers", |p| p.tethers = true),
        ("selfCollision", |p| p.self_collision = true),
        ("wind", |p| {
            p.wind_drag = 0.5;
            p.wind_x = 2.0;
        }),
        ("bending", |p| p.bending_stiffness = 0.5),
    ];
    for (what, switch) in switches {
        let fresh = Cloth::from_preset("cloth", &[]).unwrap();
        let mut saved = fresh.clone();
        let mut p = saved.params();
        switch(&mut p);
        saved.set_params(p).unwrap();
        let outline = vec![0.1, 0.2, 0.5, 0.2, 0.5, 0.6, 0.1, 0.6];
        saved
            .add_body(&BodyOutline {
                outline,
                spacing: Some(0.1),
                density: None,
                compliance: 0.0,
                plastic: None,
            })
            .unwrap();
        saved.steps(3).unwrap();
        let state = saved.saved_state().unwrap();
        let mut restored = fresh.clone();
        restored.restore_state(&state).unwrap();
        assert_same_motion(&mut saved, &mut restored, what);
        // refused after the additions were replayed: the cloth goes on as
        // one that was never asked
        let mut broken = state.clone();
        let last = broken.positions.len() - 1;
        broken.positions[last] = f32::NAN;
        let (mut refused, mut untouched) = (fresh.clone(), fresh.clone());
        assert!(refused.restore_state(&broken).is_err(), "{what}: NaN taken");
        assert_same_motion(&mut refused, &mut untouched, what);
    }
}
