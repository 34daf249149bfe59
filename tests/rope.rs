//! Ropes added to a running simulation (`Cloth::add_rope`): the particles
//! and distance constraints it adds, refusals that change nothing, a rope
//! that falls freely and keeps its length, and saved states that carry it bit for bit.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::{assert_step_alike, grid_cloth};
use xpbd_cloth::cloth::{RopeSpec, MAX_ROPE_PARTICLES};
use xpbd_cloth::model::Scene;
use xpbd_cloth::{Cloth, SolverOrder};

fn rope(points: &[f64], spacing: f64) -> RopeSpec {
    RopeSpec {
        points: points.to_vec(),
        spacing: Some(spacing),
        mass: None,
    }
}

/// The constraints as sorted pairs (any solve order).
fn pairs(sim: &Cloth) -> Vec<(u32, u32)> {
    let ids = sim.constraint_ids();
    let mut pairs: Vec<_> = ids.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    pairs.sort_unstable();
    pairs
}

/// The rope's length: its constraints' lengths from particle `first` on, summed in f64.
fn length(sim: &Cloth, first: usize, count: usize) -> f64 {
    let x = sim.positions();
    (first..first + count - 1)
        .map(|k| {
            let dx = f64::from(x[2 * k + 2]) - f64::from(x[2 * k]);
            let dy = f64::from(x[2 * k + 3]) - f64::from(x[2 * k + 1]);
            (dx * dx + dy * dy).sqrt()
        })
        .sum()
}

#[test]
fn a_rope_adds_evenly_spaced_particles_joined_in_a_chain_in_both_orders() {
    for order in [SolverOrder::Original, SolverOrder::Colored] {
        let mut sim = grid_cloth(10, 8);
        sim.set_solver_order(order).unwrap();
        let (n, before) = (sim.num_particles(), pairs(&sim));
        // an L, 1.0 m then 0.5 m: 15 pieces of 0.1 m
        let first = sim
            .add_rope(&rope(&[20.0, 0.0, 21.0, 0.0, 21.0, -0.5], 0.1))
            .unwrap();
        assert_eq!(first, n);
        assert_eq!(sim.num_particles(), n + 16, "{order:?}");
        let mut expected = before.clone();
        expected.extend((0..15).map(|k| ((n + k) as u32, (n + k + 1) as u32)));
        expected.sort_unstable();
        assert_eq!(pairs(&sim), expected, "{order:?}");
        let x = sim.positions();
        let end = |k: usize| (x[2 * k], x[2 * k + 1]);
        assert_eq!(end(n), (20.0, 0.0));
        assert_eq!(end(n + 15), (21.0, -0.5));
        // the corner is a particle: 10 pieces along the first leg
        assert!((end(n + 10).0 - 21.0).abs() < 1e-5 && end(n + 10).1.abs() < 1e-5);
        let ids = sim.constraint_ids();
        for (c, &r) in sim.rest_lengths().iter().enumerate() {
            if ids[2 * c] as usize >= n {
                assert!((r - 0.1).abs() < 1e-5, "rest length {r}");
            }
        }
        // it steps in the order it was given, and sets the other order
        sim.step();
        let other = match order {
            SolverOrder::Original => SolverOrder::Colored,
            _ => SolverOrder::Original,
        };
        sim.set_solver_order(other).unwrap();
        sim.step();
        assert_eq!(sim.num_constraints(), expected.len());
    }
}

#[test]
fn refused_ropes_change_nothing_and_name_the_field() {
    let mut sim = grid_cloth(10, 8);
    for _ in 0..5 {
        sim.step();
    }
    let too_long = (MAX_ROPE_PARTICLES as f64) * 0.01;
    let cases: Vec<(&str, RopeSpec, &str)> = vec![
        ("one point", rope(&[0.0, 0.0], 0.1), "points"),
        ("odd numbers", rope(&[0.0, 0.0, 1.0], 0.1), "points"),
        ("NaN", rope(&[0.0, f64::NAN, 1.0, 0.0], 0.1), "points"),
        (
            "infinite",
            rope(&[0.0, 0.0, f64::INFINITY, 0.0], 0.1),
            "points",
        ),
        ("beyond 1e6", rope(&[0.0, 0.0, 2e6, 0.0], 0.1), "points"),
        ("length 0", rope(&[1.0, 1.0, 1.0, 1.0], 0.1), "points"),
        ("too long", rope(&[0.0, 0.0, too_long, 0.0], 0.01), "points"),
        ("spacing 0", rope(&[0.0, 0.0, 1.0, 0.0], 0.0), "spacing"),
        (
            "spacing NaN",
            rope(&[0.0, 0.0, 1.0, 0.0], f64::NAN),
            "spacing",
        ),
        (
            "mass -1",
            RopeSpec {
                mass: Some(-1.0),
                ..rope(&[0.0, 0.0, 1.0, 0.0], 0.1)
            },
            "mass",
        ),
    ];
    for (what, spec, field) in cases {
        let before = sim.clone();
        let error = sim.add_rope(&spec).expect_err(what);
        assert_eq!(error.field(), field, "{what}: {error}");
        assert_eq!(error.code(), "invalid_value", "{what}: {error}");
        assert!(sim == before, "{what}: changed the simulation");
    }
    // the longest rope at its spacing is taken
    let longest = (MAX_ROPE_PARTICLES - 1) as f64 * 0.01;
    let mut taken = sim.clone();
    taken
        .add_rope(&rope(&[0.0, 5.0, longest, 5.0], 0.01))
        .unwrap();
    assert_eq!(
        taken.num_particles(),
        sim.num_particles() + MAX_ROPE_PARTICLES
    );
    // the work limit: a large cloth at many substeps takes no long rope
    let mut large = grid_cloth(300, 300);
    // 76 substeps: within the limit by less than the rope's particles take
    large.set_substeps(76).unwrap();
    let before = large.clone();
    let error = large
        .add_rope(&rope(&[0.0, 5.0, longest, 5.0], 0.01))
        .expect_err("over the work limit");
    assert_eq!(error.field(), "rope", "{error}");
    assert!(large == before, "the work limit: changed the simulation");
    // bodies come without distances
    let mut chain = Scene::default();
    chain.add_particle(0.0, 0.0, 0.1);
    chain.add_particle(0.1, 0.0, 0.1);
    chain.distances = vec![0, 1];
    let error = sim.add_bodies(&chain).expect_err("distances in add_bodies");
    assert_eq!(error.field(), "distances");
}

#[test]
fn a_rope_hanging_from_nothing_falls_freely_and_keeps_its_length() {
    let mut sim = grid_cloth(10, 8);
    // a V far from the cloth, 2.0 m of rope in 0.1 m pieces
    let first = sim
        .add_rope(&rope(&[50.0, 0.0, 51.0, -1.0, 52.0, 0.0], 0.1))
        .unwrap();
    let count = sim.num_particles() - first;
    let start = length(&sim, first, count);
    let mean_y = |sim: &Cloth| {
        let x = sim.positions();
        (first..first + count)
            .map(|k| f64::from(x[2 * k + 1]))
            .sum::<f64>()
            / count as f64
    };
    let y0 = mean_y(&sim);
    let dt = sim.params().time_step;
    let steps = (0.5 / dt).round() as usize;
    let mut longest: f64 = 0.0;
    for _ in 0..steps {
        sim.step();
        let change = (length(&sim, first, count) - start).abs() / start;
        longest = longest.max(change);
    }
    let t = steps as f64 * dt;
    let fall = y0 - mean_y(&sim);
    // the free fall of semi-implicit Euler in substeps of h: ½ g t (t + h)
    let h = dt / f64::from(sim.params().substeps);
    let free = 0.5 * -sim.params().gravity * t * (t + h);
    println!(
        "fall {fall:.5} m in {t} s (free fall {free:.5} m), length change at most {longest:.2e}"
    );
    assert!(
        (fall - free).abs() < 0.005 * free,
        "fell {fall} m, free fall {free} m"
    );
    // falling freely, nothing stretches it: within 0.1 % of its length
    assert!(longest < 1e-3, "length changed by {longest}");
}

#[test]
fn a_saved_state_carries_the_rope_bit_for_bit() {
    for order in [SolverOrder::Original, SolverOrder::Colored] {
        let make = || {
            let mut sim = grid_cloth(10, 8);
            sim.set_solver_order(order).unwrap();
            sim
        };
        let mut sim = make();
        for _ in 0..10 {
            sim.step();
        }
        let line = rope(&[0.1, 0.3, 0.5, 0.6, 0.9, 0.2], 0.05);
        sim.add_rope(&line).unwrap();
        for _ in 0..30 {
            sim.step();
        }
        let state = sim.saved_state().unwrap();
        assert_eq!(state.added.len(), 1);
        // a fresh cloth built the same way takes the rope from the state
        let mut copy = make();
        copy.restore_state(&state).unwrap();
        assert_eq!(copy.num_particles(), sim.num_particles());
        assert_eq!(copy.num_constraints(), sim.num_constraints());
        assert_step_alike(&mut sim, &mut copy, 60, &format!("{order:?}"));
        // a state whose rope is no chain is refused, the cloth unchanged
        let mut wrong = state.clone();
        wrong.added[0].scene.distances.swap(0, 1);
        let mut target = make();
        let before = target.clone();
        assert_eq!(target.restore_state(&wrong).unwrap_err().field(), "added");
        assert!(target == before);
    }
}
