//! The cost model behind the work limits: every kind of work a step does is
//! counted (a torn-up cloth still moves its particles, the scalar paths cost
//! more per solve than the coloured one, tearing and damping cost their checks),
//! every setter that adds work is refused past the limit, and `steps(n)` is
//! bounded by the same model. Measured times are printed by
//! `cargo bench --bench limits` and `node scripts/bench-browser.mjs --worst-case`;
//! these tests check the structure, not the clock.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod search;
    pub mod torn;
}

use common::search::largest_accepted;
use common::torn::tear_all;
use xpbd_cloth::params::{work, MAX_WORK_PER_CALL, MAX_WORK_PER_STEP};
use xpbd_cloth::{Cloth, ClothError, FixedPreset, GridSize, Params, SolverKind, SolverOrder};

type Setter = fn(&mut Cloth, f64) -> Result<(), ClothError>;

fn grid(width: usize, height: usize) -> GridSize {
    GridSize { width, height }
}

fn cloth(width: usize, height: usize) -> Cloth {
    Cloth::new(grid(width, height), FixedPreset::Two)
}

#[test]
fn a_cloth_whose_constraints_all_tore_still_costs_its_particles_every_substep() {
    // work per particle and substep, from the difference between 1 and 100 substeps
    let per_particle_substep = |cloth: &mut Cloth| {
        cloth.set_substeps(1).unwrap();
        let one = cloth.work_per_step();
        cloth.set_substeps(100).unwrap();
        let hundred = cloth.work_per_step();
        assert!(hundred > one);
        (hundred - one) as f64 / (99.0 * cloth.num_particles() as f64)
    };
    let mut small = cloth(60, 50);
    let mut big = cloth(120, 100);
    tear_all(&mut small, grid(60, 50));
    tear_all(&mut big, grid(120, 100));
    let (a, b) = (
        per_particle_substep(&mut small),
        per_particle_substep(&mut big),
    );
    let particle_substep = (work::PREDICT + work::VELOCITY_UPDATE) as f64;
    assert!(a >= particle_substep, "{a} units per particle and substep");
    // proportional to particles × substeps: the same per particle and substep
    // at 3000 and at 12000 particles (up to the fixed cost of a substep)
    assert!((a - b).abs() < 0.2, "{a} vs {b}");

    // so steps(n) is bounded on such a cloth: the old count (constraints ×
    // substeps × iterations) was 0 here and allowed 10000 steps of 100 substeps
    // of 250 000 particles, minutes of work in one call
    let mut torn = cloth(500, 500);
    tear_all(&mut torn, grid(500, 500));
    torn.set_substeps(100).unwrap();
    let time = torn.time();
    let per_step = torn.work_per_step();
    assert!(per_step >= 100 * 250_000 * (work::PREDICT + work::VELOCITY_UPDATE));
    assert_eq!(
        torn.max_steps_per_call() as u64,
        MAX_WORK_PER_CALL / per_step
    );
    assert!(torn.max_steps_per_call() < 100);
    let message = torn.steps(10_000).unwrap_err().to_string();
    assert!(
        message.contains("steps") && message.contains(&MAX_WORK_PER_CALL.to_string()),
        "{message}"
    );
    assert_eq!(torn.time(), time, "a refused call does no step");
}

#[test]
fn each_switch_that_slows_a_step_raises_its_work() {
    let mut c = cloth(40, 30);
    let colored = c.work_per_step();
    c.set_solver_order(SolverOrder::Original).unwrap();
    let original = c.work_per_step();
    assert!(
        original > 2 * colored,
        "the scalar original sweep: {original} vs {colored}"
    );
    c.set_damping(1.0).unwrap();
    let damped = c.work_per_step();
    assert!(
        damped > original,
        "damping forces the scalar damped sweep: {damped} vs {original}"
    );
    c.set_solver_order(SolverOrder::Colored).unwrap();
    assert_eq!(c.work_per_step(), damped, "damped in either order");
    c.set_damping(0.0).unwrap();
    assert_eq!(c.work_per_step(), colored);
    c.set_tear_stretch(5.0).unwrap();
    let tearing = c.work_per_step();
    assert!(tearing >= colored + c.num_constraints() as u64 * work::TEAR_CHECK);
    c.set_tear_stretch(0.0).unwrap();
    c.set_velocity_damping(1.0).unwrap();
    assert!(c.work_per_step() >= colored + c.num_particles() as u64 * work::VELOCITY_DAMPING);
    c.set_velocity_damping(0.0).unwrap();
    // iterations multiply the sweeps, substeps the whole substep
    c.set_iterations(10).unwrap();
    let ten = c.work_per_step();
    assert!(ten > 3 * colored / 2, "{ten} vs {colored}");
    c.set_substeps(2).unwrap();
    assert!(c.work_per_step() > 2 * ten - 2 * (work::STEP + 1200 * work::PARTICLE_STEP));
    // values that do not change the path do not change the work
    let before = c.work_per_step();
    c.set_stiffness(5.0).unwrap();
    c.set_mass(3.0).unwrap();
    c.set_gravity(1.0).unwrap();
    c.set_time_step(0.002).unwrap();
    c.set_damping(0.0).unwrap();
    assert_eq!(c.work_per_step(), before);
}

#[test]
fn a_step_does_the_work_the_model_counts() {
    let configs = [
        Params::default(),
        Params {
            solver_order: SolverOrder::Original,
            substeps: 3,
            ..Params::default()
        },
        Params {
            damping: 20.0,
            velocity_damping: 1.0,
            iterations: 7,
            substeps: 2,
            ..Params::default()
        },
        Params {
            tear_stretch: 1000.0,
            substeps: 4,
            ..Params::default()
        },
        Params {
            bending_stiffness: 100.0,
            tethers: true,
            tear_stretch: 1.5,
            substeps: 2,
            ..Params::default()
        },
        Params {
            bending_stiffness: 100.0,
            solver_order: SolverOrder::Original,
            ..Params::default()
        },
    ];
    for params in configs {
        let mut c = cloth(23, 17);
        c.set_params(params).unwrap();
        for _ in 0..3 {
            let expected = c.work_per_step();
            let done_before = c.work_done();
            assert_eq!(c.advance(1, u64::MAX), (1, expected), "{params:?}");
            assert_eq!(c.work_done() - done_before, expected);
        }
    }
}

#[test]
fn the_largest_cloths_are_accepted_with_default_settings() {
    for (width, height) in [(500, 500), (1000, 250)] {
        let mut c = cloth(width, height);
        assert!(c.work_per_step() <= MAX_WORK_PER_STEP);
        c.set_params(Params::default()).unwrap();
        // a page's frame of 8 steps fits in one call too
        assert!(c.max_steps_per_call() >= 8, "{}", c.max_steps_per_call());
        c.steps(2).unwrap();
        assert!(c.is_finite());
    }
}

fn set_order(c: &mut Cloth, colored: f64) -> Result<(), ClothError> {
    let order = if colored == 1.0 {
        SolverOrder::Colored
    } else {
        SolverOrder::Original
    };
    c.set_solver_order(order)
}

#[test]
fn every_setter_that_adds_work_is_refused_past_the_limit() {
    let mut c = cloth(500, 500);
    let limit = MAX_WORK_PER_STEP.to_string();
    // the most substeps of one sweep: the margin left is less than one substep,
    // and every switch below adds at least a check per particle to each substep
    c.set_iterations(1).unwrap();
    let most = largest_accepted(&mut c, Cloth::set_substeps, 1, 100);
    assert!(
        most < 100,
        "100 substeps × 1 sweep is too much for 500 × 500"
    );
    let switches: [(&str, Setter, f64, f64, &str); 6] = [
        ("damping", Cloth::set_damping, 0.0, 1.0, "got 1,"),
        (
            "velocityDamping",
            Cloth::set_velocity_damping,
            0.0,
            0.5,
            "got 0.5,",
        ),
        (
            "tearStretch",
            Cloth::set_tear_stretch,
            0.0,
            1000.0,
            "got 1000,",
        ),
        ("solverOrder", set_order, 1.0, 0.0, "got \"original\","),
        // the wind starts blowing (its drag is on by default)
        ("windX", Cloth::set_wind_x, 0.0, 2.0, "got 2,"),
        ("windY", Cloth::set_wind_y, 0.0, -1.0, "got -1,"),
    ];
    for (field, set, off, on, value) in switches {
        let before = c.clone();
        let message = set(&mut c, on).unwrap_err().to_string();
        assert!(c == before, "{field}: a refused value changes nothing");
        assert!(
            message.starts_with(&format!("invalid {field}: {value}")),
            "{message}"
        );
        assert!(
            message.contains(&limit) && message.contains("work units"),
            "{message}"
        );
        // with the switch on, fewer substeps fit
        c.set_substeps(1).unwrap();
        set(&mut c, on).unwrap();
        let fewer = largest_accepted(&mut c, Cloth::set_substeps, 1, 100);
        assert!(
            fewer < most,
            "{field}: {fewer} substeps with it, {most} without"
        );
        c.set_substeps(1).unwrap();
        set(&mut c, off).unwrap();
        c.set_substeps(most).unwrap();
    }
    let message = c.set_substeps(most + 1).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!("invalid substeps: got {}", most + 1)),
        "{message}"
    );
    assert!(message.contains(&limit), "{message}");
    c.set_substeps(1).unwrap();
    let most = largest_accepted(&mut c, Cloth::set_iterations, 1, 1000);
    let message = c.set_iterations(most + 1).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!("invalid iterations: got {}", most + 1)),
        "{message}"
    );
    assert!(message.contains(&limit), "{message}");
    // set_params checks the whole set
    let heavy = Params {
        iterations: most,
        solver_order: SolverOrder::Original,
        ..Params::default()
    };
    let before = c.clone();
    assert!(c.set_params(heavy).is_err());
    assert!(c == before);
}

#[test]
fn steps_per_call_is_the_call_limit_over_the_work_of_a_step() {
    let mut c = cloth(160, 160);
    c.set_iterations(150).unwrap();
    let per_step = c.work_per_step();
    let most = (MAX_WORK_PER_CALL / per_step) as u32;
    assert!(most < 10_000);
    assert_eq!(c.max_steps_per_call(), most);
    let message = c.steps(most + 1).unwrap_err().to_string();
    assert!(
        message.contains(&format!("from 0 to {most}")) && message.contains(&per_step.to_string()),
        "{message}"
    );
    assert_eq!(c.time(), 0.0);
    // a light cloth keeps the full 10000
    assert_eq!(cloth(10, 10).max_steps_per_call(), 10_000);
}

#[test]
fn tethers_with_tearing_count_finding_the_anchors_again() {
    let mut c = cloth(500, 500);
    c.set_tear_stretch(1.3).unwrap();
    c.set_substeps(4).unwrap();
    let without = c.work_per_step();
    assert!(without <= MAX_WORK_PER_STEP);
    // each substep may tear and search the whole cloth again: refused
    let error = c.set_tethers(true).unwrap_err();
    assert_eq!(error.field(), "tethers");
    assert!(error.to_string().contains("tethers on"), "{error}");
    assert!(!c.params().tethers);
    assert_eq!(c.work_per_step(), without);
    // without tearing the anchors never move and tethers are cheap
    c.set_tear_stretch(0.0).unwrap();
    let before = c.work_per_step();
    c.set_tethers(true).unwrap();
    let n = c.num_particles() as u64;
    let passes = 4 * c.params().iterations as u64;
    assert_eq!(
        c.work_per_step(),
        before + passes * n * xpbd_cloth::kinds::tethers::TETHER_SOLVE
    );
}

/// Cloths with every constraint kind and every sweep: the presets (areas,
/// wind, colliders, bending), self-collision, gusts, tethers, damping in both
/// orders, plain PBD with a coefficient below 1, a scene whose constraints
/// each have their own stiffness, and tearing that checks without tearing.
fn every_kind_and_sweep() -> Vec<(String, Cloth)> {
    use xpbd_cloth::model::{DistanceStiffness, Scene};
    use xpbd_cloth::params::Value;
    let mut out = Vec::new();
    for name in [
        "rope",
        "double-pendulum",
        "balloon",
        "soft-body",
        "flag",
        "cloth-over-ball",
        "trampoline",
        "rope-bridge",
        "wrecking-ball",
        "box-stack",
        "plastic-can",
    ] {
        let tearing = [("tearStretch", Value::Number(1000.0))];
        out.push((name.to_string(), Cloth::from_preset(name, &[]).unwrap()));
        let cloth = Cloth::from_preset(name, &tearing).unwrap();
        out.push((format!("{name}, tearing"), cloth));
    }
    let settings: [(&str, Params); 6] = [
        (
            "self-collision, gusts, bending, tethers, tearing",
            Params {
                self_collision: true,
                wind_x: 3.0,
                wind_gust: 1.0,
                wind_turbulence: 0.5,
                bending_stiffness: 50.0,
                tethers: true,
                tear_stretch: 1000.0,
                substeps: 2,
                ..Params::default()
            },
        ),
        (
            "damped, original",
            Params {
                damping: 3.0,
                solver_order: SolverOrder::Original,
                velocity_damping: 0.5,
                ..Params::default()
            },
        ),
        (
            "damped, colored",
            Params {
                damping: 3.0,
                ..Params::default()
            },
        ),
        (
            "plain PBD, coefficient 0.5",
            Params {
                stiffness: 0.0,
                pbd_coefficient: 0.5,
                ..Params::default()
            },
        ),
        (
            "bending without tearing, original",
            Params {
                bending_stiffness: 50.0,
                solver_order: SolverOrder::Original,
                ..Params::default()
            },
        ),
        (
            "soft step, bending, tethers, 2 substeps",
            Params {
                solver: SolverKind::SoftStep,
                bending_stiffness: 50.0,
                tethers: true,
                substeps: 2,
                ..Params::default()
            },
        ),
    ];
    for (name, params) in settings {
        let mut c = cloth(17, 13);
        c.set_params(params).unwrap();
        out.push((name.to_string(), c));
    }
    let g = xpbd_cloth::model::grid::build(grid(9, 7), FixedPreset::Two);
    let stiffness = (0..g.rest_lengths.len())
        .map(|c| 100.0 + c as f64)
        .collect();
    let mut masses = vec![0.5; 63];
    (masses[0], masses[8]) = (0.0, 0.0);
    let scene = Scene {
        positions: g.positions,
        masses,
        distances: g.constraint_ids,
        distance_stiffness: DistanceStiffness::PerConstraint(stiffness),
        ..Scene::default()
    };
    let own = Cloth::from_scene(&scene).unwrap();
    out.push(("each constraint its own stiffness".into(), own));
    out
}

#[test]
fn every_kind_and_sweep_is_charged_what_work_per_step_predicts() {
    for (name, mut c) in every_kind_and_sweep() {
        for _ in 0..3 {
            let expected = c.work_per_step();
            assert_eq!(c.advance(1, u64::MAX), (1, expected), "{name}");
        }
        assert_eq!(c.torn_count(), 0, "{name}: nothing tears");
    }
}

#[test]
fn a_sliced_step_is_charged_the_whole_step_and_its_extra_splits() {
    for (name, mut c) in every_kind_and_sweep() {
        let whole = c.work_per_step();
        let (mut work, mut calls) = (0, 0);
        while calls == 0 || c.step_in_progress() {
            work += c.advance(1, whole / 7).1;
            calls += 1;
        }
        // a call that stops within a substep's sweeps splits the positions
        // again when the next one goes on (the coloured path only)
        let split = c.num_particles() as u64 * work::SPLIT_MERGE;
        assert!(
            work >= whole && work <= whole + calls * split,
            "{name}: {work} vs {whole}"
        );
        assert!(calls > 3, "{name}: {calls} calls");
    }
}
