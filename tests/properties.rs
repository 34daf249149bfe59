//! Property tests: random valid parameters always step, every parameter of the
//! table (bending, tethers, contacts, wind, ...) takes every value its rule
//! allows; construction accepts exactly the documented grids; every preset with
//! valid options builds and steps; a saved state restores to itself, colliders
//! and all. (Random operation sequences with hostile values are in
//! `tests/fuzz.rs`.) The seed is fixed and printed (`XPBD_FUZZ_SEED` explores
//! others).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
mod common {
    pub mod cloths;
    #[allow(dead_code)] // the hostile values are the fuzz's
    pub mod hostile;
}

use common::cloths::grid_cloth;
use common::hostile::fixed_seed;
use xpbd_cloth::model::{presets, Shape};
use xpbd_cloth::params::{Applies, Rule, Value, PARAMETERS};
use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverOrder};

/// A value `rule` accepts, drawn from `unit` (0..1) and `pick` (an index).
fn valid_value(rule: Rule, unit: f64, pick: usize) -> Value {
    let between = |min: f64, max: f64| {
        // log-uniform across wide ranges, so small values come up too
        if min > 0.0 && max / min > 1e3 {
            min * (max / min).powf(unit)
        } else {
            min + (max - min) * unit
        }
    };
    match rule {
        Rule::Range { min, max } | Rule::Positive { min, max, .. } => {
            Value::Number(between(min, max))
        }
        Rule::Whole { min, max } => Value::Number(between(min, max).round().clamp(min, max)),
        Rule::OffOrAbove { .. } if pick % 3 == 0 => Value::Number(0.0),
        Rule::OffOrAbove { above, max } => {
            Value::Number(between(above, max).max(above * (1.0 + 1e-9) + 1e-12))
        }
        Rule::Numbers(allowed) => Value::Number(allowed[pick % allowed.len()]),
        Rule::Words(words) => Value::Word(words[pick % words.len()]),
        Rule::Flag => Value::Flag(pick % 2 == 1),
    }
}

/// Whether `error` is the work limit's refusal (a valid value may be refused
/// only for that: with it a step would need too much work).
fn work_limit(error: &xpbd_cloth::ClothError) -> bool {
    error.to_string().contains("within the work limit")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: RngSeed::Fixed(fixed_seed("properties")),
        failure_persistence: None, // the seed is printed; no regressions file in the tree
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_valid_parameters_step_without_panic(
        time_step in 1e-6..1.0f64,
        iterations in 1u32..30,
        stiffness in prop_oneof![Just(0.0), 0.0..1e15f64],
        gravity in -1e6..1e6f64,
        mass in 1e-6..1e6f64,
        substeps in 1u32..5,
        damping in prop_oneof![Just(0.0), 0.0..1e9f64],
        velocity_damping in prop_oneof![Just(0.0), 0.0..1000.0f64],
        tear_stretch in prop_oneof![Just(0.0), 1.0001..1000.0f64],
        colored in any::<bool>(),
        steps in 1usize..40,
    ) {
        let mut cloth = grid_cloth(6, 5);
        let solver_order = if colored { SolverOrder::Colored } else { SolverOrder::Original };
        let params = Params {
            time_step, iterations, stiffness, gravity, mass,
            substeps, damping, velocity_damping, tear_stretch, solver_order,
            ..Params::default()
        };
        cloth.set_params(params).unwrap();
        prop_assert_eq!(cloth.params(), params);
        for _ in 0..steps {
            cloth.step();
        }
        // either it simulated, or it said it diverged; positions are finite either way
        prop_assert!(cloth.positions().iter().all(|p| p.is_finite()));
        if cloth.is_finite() {
            prop_assert!(cloth.time() > 0.0);
        }
    }

    #[test]
    fn construction_accepts_exactly_the_documented_grids(
        width in prop_oneof![0..1100usize, any::<usize>()],
        height in prop_oneof![0..1100usize, any::<usize>()],
        fixed in prop_oneof![0..6usize, any::<usize>()],
    ) {
        let valid_side = |v: usize| (2..=1000).contains(&v);
        let expected = valid_side(width) && valid_side(height)
            && width * height <= 250_000
            && [1, 2, 4].contains(&fixed);
        let result = GridSize::new(width, height)
            .and_then(|size| Cloth::try_new(size, FixedPreset::from_count(fixed)?));
        prop_assert_eq!(result.is_ok(), expected, "{} {} {}", width, height, fixed);
    }

    #[test]
    fn every_parameter_takes_every_value_its_rule_allows_and_the_cloth_steps(
        settings in prop::collection::vec((0..PARAMETERS.len(), 0.0..1.0f64, any::<usize>()), 1..12),
        grid in prop::bool::ANY,
        steps in 1u32..6,
    ) {
        let mut cloth = if grid { grid_cloth(8, 6) } else { Cloth::from_preset("flag", &[]).unwrap() };
        let mut applied = Vec::new();
        for (i, unit, pick) in settings {
            let parameter = &PARAMETERS[i];
            let value = valid_value(parameter.rule, unit, pick);
            match cloth.set_parameter(parameter.name, value) {
                Ok(()) => applied.push((parameter.name, value)),
                // the table's other entries shape the cloth or the frame loop
                Err(error) if error.field() == "name" => {}
                Err(error) => prop_assert!(work_limit(&error), "{} = {value:?} refused: {error}", parameter.name),
            }
        }
        // bounded in work: a valid setting may make a step dear
        cloth.advance(steps, 20_000_000);
        prop_assert!(cloth.positions().iter().all(|p| p.is_finite()), "after {applied:?}");
    }

    #[test]
    fn every_preset_builds_with_valid_options_and_steps(
        which in any::<usize>(),
        settings in prop::collection::vec((0..PARAMETERS.len(), 0.0..1.0f64, any::<usize>()), 0..4),
    ) {
        let names = presets::names();
        let name = names[which % names.len()];
        let options: Vec<(&str, Value)> = settings
            .into_iter()
            .map(|(i, unit, pick)| (PARAMETERS[i].name, valid_value(PARAMETERS[i].rule, unit.min(0.05), pick)))
            .filter(|(n, _)| PARAMETERS.iter().any(|p| p.name == *n && p.applies == Applies::Simulation))
            .collect();
        match Cloth::from_preset(name, &options) {
            Ok(mut cloth) => {
                cloth.advance(2, 2_000_000);
                prop_assert!(cloth.positions().iter().all(|p| p.is_finite()), "{name} {options:?}");
            }
            // a valid option may still make a cloth too large or too much work
            Err(error) => prop_assert!(
                work_limit(&error) || error.to_string().contains("at most"),
                "{name} {options:?} refused: {error}"
            ),
        }
    }

    #[test]
    fn a_saved_state_restores_to_itself_colliders_and_all(
        steps in 0u32..20,
        pins in prop::collection::vec(0usize..48, 0..4),
        circles in prop::collection::vec((-2.0..2.0f32, -3.0..0.0f32, 0.1..1.0f32), 0..3),
        moved in prop::option::of((-2.0..2.0f64, -3.0..0.0f64)),
    ) {
        let mut cloth = grid_cloth(8, 6);
        cloth.set_self_collision(true).unwrap();
        for (x, y, radius) in circles {
            cloth.add_collider(Shape::Circle { x, y, radius }).unwrap();
        }
        if let (Some((x, y)), Some(first)) = (moved, cloth.colliders().first().map(|c| c.id)) {
            cloth.move_collider(first, x, y).unwrap();
        }
        for k in pins {
            cloth.set_pinned(k, true).unwrap();
        }
        cloth.steps(steps).unwrap();
        let state = cloth.saved_state().unwrap();
        let mut other = grid_cloth(8, 6);
        other.restore_state(&state).unwrap();
        prop_assert!(other.saved_state().unwrap() == state, "the restored cloth saves what it was given");
        cloth.steps(3).unwrap();
        other.steps(3).unwrap();
        prop_assert_eq!(cloth.positions(), other.positions(), "and continues bit for bit");
    }
}
