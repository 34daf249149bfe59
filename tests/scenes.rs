//! Scenes: validation that names the wrong entry, the grid rebuilt from its
//! own scene bit for bit, per-particle masses, per-constraint stiffness
//! against an independent reference, and every preset.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::model::grid;
use xpbd_cloth::model::presets;
use xpbd_cloth::model::{AreaSpec, Bending, DistanceStiffness, Scene, Shape};
use xpbd_cloth::params::Value;
use xpbd_cloth::{Cloth, ClothError, FixedPreset, GridSize, SolverOrder};

/// A valid small scene: a square of four particles (0 pinned) with its four
/// edges and a diagonal, one area over the square.
fn square() -> Scene {
    Scene {
        positions: vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0],
        masses: vec![0.0, 1.0, 1.0, 1.0],
        distances: vec![0, 1, 1, 2, 2, 3, 3, 0, 0, 2],
        distance_stiffness: DistanceStiffness::Uniform(1000.0),
        areas: vec![AreaSpec {
            particles: vec![0, 1, 2, 3],
            stiffness: 0.0,
            pressure: 1.0,
        }],
        colliders: vec![Shape::Ground { y: -1.0 }],
        ..Scene::default()
    }
}

fn refusal(scene: &Scene) -> ClothError {
    match Cloth::from_scene(scene) {
        Ok(_) => panic!("accepted {scene:?}"),
        Err(error) => error,
    }
}

#[test]
fn the_valid_square_builds() {
    let cloth = Cloth::from_scene(&square()).unwrap();
    assert_eq!(cloth.num_particles(), 4);
    assert_eq!(cloth.num_constraints(), 5);
    assert!(cloth.is_pinned(0).unwrap());
    assert!(!cloth.is_pinned(1).unwrap());
    assert_eq!(cloth.inverse_masses(), &[0.0, 1.0, 1.0, 1.0]);
}

#[test]
fn every_malformed_scene_names_the_wrong_entry() {
    type Break = fn(&mut Scene);
    let cases: &[(&str, Break, &str)] = &[
        (
            "odd positions",
            |s| s.positions.push(0.0),
            "invalid scene: positions has 9 numbers",
        ),
        (
            "no particles",
            |s| {
                s.positions.clear();
                s.masses.clear();
                s.distances.clear();
                s.areas.clear();
            },
            "invalid scene: positions is empty",
        ),
        (
            "NaN position",
            |s| s.positions[5] = f32::NAN,
            "invalid scene: positions[5] is NaN",
        ),
        (
            "masses short",
            |s| {
                s.masses.pop();
            },
            "invalid scene: masses has 3 entries, expected one per particle (4)",
        ),
        (
            "negative mass",
            |s| s.masses[2] = -1.0,
            "invalid scene: masses[2] is -1",
        ),
        (
            "NaN mass",
            |s| s.masses[3] = f32::NAN,
            "invalid scene: masses[3] is NaN",
        ),
        (
            "odd distances",
            |s| s.distances.push(1),
            "invalid scene: distances has 11 indices",
        ),
        (
            "index out of range",
            |s| s.distances[7] = 9,
            "invalid scene: distances[3] names particle 9, expected an index from 0 to 3",
        ),
        (
            "self pair",
            |s| s.distances[8] = 2,
            "invalid scene: distances[4] joins particle 2 to itself",
        ),
        (
            "zero rest length",
            |s| s.positions[2..4].copy_from_slice(&[0.0, 0.0]),
            "invalid scene: distances[0] joins particles 0 and 1, which start at the same place",
        ),
        (
            "given zero rest",
            |s| s.rest_lengths = Some(vec![1.0, 1.0, 0.0, 1.0, 1.0]),
            "invalid scene: restLengths[2] is 0",
        ),
        (
            "rest lengths short",
            |s| s.rest_lengths = Some(vec![1.0]),
            "invalid scene: restLengths has 1 entries",
        ),
        (
            "stiffness NaN",
            |s| s.distance_stiffness = DistanceStiffness::Uniform(f64::NAN),
            "invalid scene: distanceStiffness is NaN",
        ),
        (
            "stiffness per constraint short",
            |s| s.distance_stiffness = DistanceStiffness::PerConstraint(vec![1.0; 4]),
            "invalid scene: distanceStiffness has 4 entries",
        ),
        (
            "stiffness per constraint negative",
            |s| {
                s.distance_stiffness =
                    DistanceStiffness::PerConstraint(vec![1.0, 1.0, 1.0, -5.0, 1.0])
            },
            "invalid scene: distanceStiffness[3] is -5",
        ),
        (
            "colours short",
            |s| s.colors = Some(vec![0, 1]),
            "invalid scene: colors has 2 entries",
        ),
        (
            "colours clash",
            |s| s.colors = Some(vec![0, 0, 1, 2, 3]),
            "invalid scene: colors[1] is 0, which particle 1 has in another constraint",
        ),
        (
            "area of two",
            |s| s.areas[0].particles = vec![0, 1],
            "invalid scene: areas[0] has 2 particles, expected at least 3",
        ),
        (
            "area twice",
            |s| s.areas[0].particles = vec![0, 1, 2, 1],
            "invalid scene: areas[0] names particle 1 twice",
        ),
        (
            "area out of range",
            |s| s.areas[0].particles[2] = 4,
            "invalid scene: areas[0] names particle 4",
        ),
        (
            "area pressure 0",
            |s| s.areas[0].pressure = 0.0,
            "invalid scene: areas[0] has pressure 0",
        ),
        (
            "area stiffness",
            |s| s.areas[0].stiffness = f64::INFINITY,
            "invalid scene: areas[0] has stiffness Infinity",
        ),
        (
            "area in a line",
            |s| {
                s.positions = vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0];
                s.distances = vec![0, 1, 1, 2, 2, 3];
                s.areas[0].particles = vec![0, 1, 2];
            },
            "invalid scene: areas[0] encloses 0 m² at the start",
        ),
        (
            "bending self pair",
            |s| s.bending = Bending::Pairs(vec![0, 2, 3, 3]),
            "invalid scene: bending[1] joins particle 3 to itself",
        ),
        (
            "circle radius",
            |s| {
                s.colliders.push(Shape::Circle {
                    x: 0.0,
                    y: 0.0,
                    radius: -1.0,
                })
            },
            "invalid scene: colliders[1] has radius -1",
        ),
        (
            "box NaN",
            |s| {
                s.colliders.push(Shape::Box {
                    x: 0.0,
                    y: f32::NAN,
                    width: 1.0,
                    height: 1.0,
                })
            },
            "invalid scene: colliders[1] has y NaN",
        ),
    ];
    for (name, breaks, message) in cases {
        let mut scene = square();
        breaks(&mut scene);
        let error = refusal(&scene);
        assert_eq!(error.code(), "invalid_scene", "{name}: {error}");
        assert!(
            error.to_string().starts_with(message),
            "{name}: got {error:?}, expected it to start with {message:?}"
        );
        let field = message
            .trim_start_matches("invalid scene: ")
            .split(['[', ' '])
            .next()
            .unwrap();
        assert_eq!(error.field(), field, "{name}");
    }
}

/// A scene's colliders follow the rules `add_collider` applies: a size
/// `add_collider` accepts is accepted in a scene, one it refuses is refused
/// with the same bound in the message.
#[test]
fn scene_colliders_follow_the_add_collider_rules() {
    let big = Shape::Circle {
        x: 0.0,
        y: 0.0,
        radius: 1.5e6,
    };
    let mut direct = Cloth::from_scene(&square()).unwrap();
    direct.add_collider(big).unwrap();
    let mut scene = square();
    scene.colliders.push(big);
    let cloth = Cloth::from_scene(&scene).expect("a radius add_collider accepts");
    assert_eq!(cloth.colliders().len(), 2, "the ground and the circle");

    let too_big = Shape::Box {
        x: 0.0,
        y: 0.0,
        width: 1.0,
        height: 3e6,
    };
    let direct = Cloth::from_scene(&square()).unwrap().add_collider(too_big);
    let direct = direct.expect_err("a height above 2e6 m").to_string();
    let mut scene = square();
    scene.colliders.push(too_big);
    let error = refusal(&scene).to_string();
    assert!(
        error.starts_with("invalid scene: colliders[1] has height 3000000, expected"),
        "{error}"
    );
    assert!(
        error.contains("2000000 m"),
        "{error} (add_collider: {direct})"
    );
}

#[test]
fn too_many_particles_are_refused() {
    let n = xpbd_cloth::params::MAX_PARTICLES + 1;
    let scene = Scene {
        positions: vec![0.0; 2 * n],
        masses: vec![1.0; n],
        distances: Vec::new(),
        areas: Vec::new(),
        colliders: Vec::new(),
        ..square()
    };
    let error = refusal(&scene);
    assert_eq!(
        error.to_string(),
        "invalid scene: positions has 250001 particles, at most 250000 are allowed"
    );
}

#[test]
fn a_particle_in_too_many_constraints_is_refused_by_the_colouring() {
    // a fan: particle 0 joined to 300 others; only 256 colours
    let mut positions = vec![0.0, 0.0];
    let mut distances = Vec::new();
    for k in 1..=300u32 {
        let angle = k as f32 * 0.02;
        positions.extend([angle.cos(), angle.sin()]);
        distances.extend([0, k]);
    }
    let scene = Scene {
        masses: vec![1.0; 301],
        positions,
        distances,
        areas: Vec::new(),
        ..square()
    };
    let error = refusal(&scene);
    assert_eq!(error.code(), "invalid_scene");
    assert!(
        error
            .to_string()
            .starts_with("invalid scene: distances[256] joins particles 0 and 257"),
        "{error}"
    );
    // 200 fit
    let fewer = Scene {
        positions: scene.positions[..2 * 201].to_vec(),
        masses: vec![1.0; 201],
        distances: scene.distances[..400].to_vec(),
        ..scene
    };
    assert_eq!(Cloth::from_scene(&fewer).unwrap().num_constraints(), 200);
}

/// The grid's own scene, from the public pieces: its positions, its
/// constraints in creation order, 0 for the fixed corners, the default mass.
fn grid_scene(width: usize, height: usize, colors: bool) -> Scene {
    let size = GridSize { width, height };
    let built = grid::build(size, FixedPreset::Two);
    let mut masses = vec![0.5; width * height];
    for &k in &built.fixed {
        masses[k] = 0.0;
    }
    Scene {
        positions: built.positions,
        masses,
        distances: built.constraint_ids,
        distance_stiffness: DistanceStiffness::Uniform(1000.0),
        colors: colors.then_some(built.colors),
        ..Scene::default()
    }
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn the_grids_own_scene_steps_bit_for_bit_as_the_grid() {
    for order in [SolverOrder::Original, SolverOrder::Colored] {
        let mut grid = Cloth::new(
            GridSize {
                width: 12,
                height: 9,
            },
            FixedPreset::Two,
        );
        let mut scene = Cloth::from_scene(&grid_scene(12, 9, true)).unwrap();
        assert_eq!(scene.params(), grid.params());
        grid.set_solver_order(order).unwrap();
        scene.set_solver_order(order).unwrap();
        for step in 0..200 {
            grid.step();
            scene.step();
            assert!(
                same_bits(grid.positions(), scene.positions()),
                "{order:?}: step {step}"
            );
        }
        assert_eq!(grid.constraint_ids(), scene.constraint_ids());
        assert!(same_bits(grid.velocities(), scene.velocities()));
        // and it did move
        assert!(grid.kinetic_energy() > 0.0);
    }
}

#[test]
fn a_greedy_colouring_changes_only_the_colored_order() {
    let mut grid = Cloth::new(
        GridSize {
            width: 12,
            height: 9,
        },
        FixedPreset::Two,
    );
    let mut scene = Cloth::from_scene(&grid_scene(12, 9, false)).unwrap();
    grid.set_solver_order(SolverOrder::Original).unwrap();
    scene.set_solver_order(SolverOrder::Original).unwrap();
    grid.steps(200).unwrap();
    scene.steps(200).unwrap();
    assert!(same_bits(grid.positions(), scene.positions()));
    // coloured greedily, every colour still joins no particle twice
    // a different but equally valid sweep: it stretches the cloth as much
    let mut colored = Cloth::from_scene(&grid_scene(12, 9, false)).unwrap();
    let mut grid_colored = Cloth::new(
        GridSize {
            width: 12,
            height: 9,
        },
        FixedPreset::Two,
    );
    colored.steps(200).unwrap();
    grid_colored.steps(200).unwrap();
    assert!(colored.is_finite());
    assert!(!same_bits(colored.positions(), grid_colored.positions()));
    let (a, b) = (colored.max_stretch(), grid_colored.max_stretch());
    assert!((a - b).abs() < 0.1 * b, "greedy {a}, grid {b}");
}

/// Rope of `k.len() + 1` particles along x, 0 pinned, constraint `c` with
/// stiffness `k[c]`.
fn chain(k: &[f64]) -> Scene {
    let n = k.len() + 1;
    Scene {
        positions: (0..n).flat_map(|i| [0.3 * i as f32, 0.0]).collect(),
        masses: (0..n)
            .map(|i| if i == 0 { 0.0 } else { 0.2 + 0.1 * i as f32 })
            .collect(),
        distances: (1..n as u32).flat_map(|i| [i - 1, i]).collect(),
        distance_stiffness: DistanceStiffness::PerConstraint(k.to_vec()),
        ..Scene::default()
    }
}

/// An independent f64 XPBD step of a chain: prediction with gravity, the
/// constraints in order with their own compliance, velocity from the motion.
fn reference_chain(
    k: &[f64],
    masses: &[f64],
    steps: usize,
    dt: f64,
    iterations: usize,
) -> Vec<[f64; 2]> {
    let n = k.len() + 1;
    let mut x: Vec<[f64; 2]> = (0..n).map(|i| [0.3 * i as f64, 0.0]).collect();
    let mut v = vec![[0.0; 2]; n];
    let w: Vec<f64> = masses
        .iter()
        .map(|&m| if m == 0.0 { 0.0 } else { 1.0 / m })
        .collect();
    let rest: Vec<f64> = vec![0.3; k.len()];
    for _ in 0..steps {
        let old = x.clone();
        for i in 0..n {
            if w[i] > 0.0 {
                v[i][1] += dt * -9.81;
                x[i][0] += dt * v[i][0];
                x[i][1] += dt * v[i][1];
            }
        }
        let mut lambda = vec![0.0; k.len()];
        for _ in 0..iterations {
            for c in 0..k.len() {
                let (a, b) = (c, c + 1);
                let d = [x[a][0] - x[b][0], x[a][1] - x[b][1]];
                let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
                let alpha = if k[c] == 0.0 {
                    0.0
                } else {
                    1.0 / k[c] / (dt * dt)
                };
                let dl = -(len - rest[c] + alpha * lambda[c]) / (w[a] + w[b] + alpha);
                lambda[c] += dl;
                for (p, s) in [(a, w[a]), (b, -w[b])] {
                    x[p][0] += s * dl * d[0] / len;
                    x[p][1] += s * dl * d[1] / len;
                }
            }
        }
        for i in 0..n {
            if w[i] > 0.0 {
                v[i] = [(x[i][0] - old[i][0]) / dt, (x[i][1] - old[i][1]) / dt];
            }
        }
    }
    x
}

fn largest_gap(cloth: &Cloth, reference: &[[f64; 2]]) -> f64 {
    cloth
        .positions()
        .chunks_exact(2)
        .zip(reference)
        .map(|(p, r)| (p[0] as f64 - r[0]).hypot(p[1] as f64 - r[1]))
        .fold(0.0, f64::max)
}

#[test]
fn per_constraint_stiffness_matches_an_independent_reference() {
    let k = [50.0, 2000.0, 0.0, 300.0, 10.0];
    let scene = chain(&k);
    let masses: Vec<f64> = scene.masses.iter().map(|&m| m as f64).collect();
    let mut cloth = Cloth::from_scene(&scene).unwrap();
    cloth.set_solver_order(SolverOrder::Original).unwrap();
    cloth.steps(150).unwrap();
    let p = cloth.params();
    let reference = reference_chain(&k, &masses, 150, p.time_step, p.iterations as usize);
    let gap = largest_gap(&cloth, &reference);
    assert!(gap < 1e-3, "largest gap {gap} m");
    // the per-constraint values matter: one uniform stiffness is far off
    let uniform = reference_chain(
        &[300.0; 5],
        &masses,
        150,
        p.time_step,
        p.iterations as usize,
    );
    let off = largest_gap(&cloth, &uniform);
    assert!(
        off > 50.0 * gap.max(1e-4),
        "uniform differs by only {off} m"
    );
}

#[test]
fn per_constraint_stiffness_all_equal_is_the_uniform_stiffness_bit_for_bit() {
    let k = [700.0; 6];
    let mut each = Cloth::from_scene(&chain(&k)).unwrap();
    let mut all = Cloth::from_scene(&Scene {
        distance_stiffness: DistanceStiffness::Uniform(700.0),
        ..chain(&k)
    })
    .unwrap();
    for cloth in [&mut each, &mut all] {
        cloth.set_solver_order(SolverOrder::Original).unwrap();
        cloth.set_damping(5.0).unwrap();
        cloth.steps(100).unwrap();
    }
    assert!(same_bits(each.positions(), all.positions()));
    // the stiffness parameter does not reach per-constraint stiffness
    each.set_stiffness(1.0).unwrap();
    all.set_stiffness(1.0).unwrap();
    each.steps(50).unwrap();
    all.steps(50).unwrap();
    let (stiff, soft) = (each.max_stretch(), all.max_stretch());
    assert!(stiff < 0.1 && soft > 3.0 * stiff, "{stiff} {soft}");
}

#[test]
fn a_scene_keeps_its_own_masses_and_mass_scales_them() {
    let scene = chain(&[100.0; 4]);
    let mut cloth = Cloth::from_scene(&scene).unwrap();
    // masses 0.3, 0.4, 0.5, 0.6 (and the pinned 0): the mean free mass
    assert!((cloth.params().mass - 0.45).abs() < 1e-6);
    let inverse = |masses: &[f64], scale: f64| -> Vec<f32> {
        masses
            .iter()
            .map(|&m| {
                if m == 0.0 {
                    0.0
                } else {
                    (1.0 / (m * scale)) as f32
                }
            })
            .collect()
    };
    let scene_masses: Vec<f64> = scene.masses.iter().map(|&m| m as f64).collect();
    let built = inverse(&scene_masses, 1.0);
    assert_eq!(cloth.inverse_masses(), &built[..]);
    // setting the mean they have changes nothing, bit for bit
    cloth.set_mass(cloth.params().mass).unwrap();
    assert_eq!(cloth.inverse_masses(), &built[..]);
    let same = cloth.params();
    cloth.set_params(same).unwrap();
    assert_eq!(cloth.inverse_masses(), &built[..]);
    // another value scales them all alike: their mean becomes it
    let mean = cloth.params().mass;
    cloth.set_mass(0.9).unwrap();
    assert_eq!(cloth.params().mass, 0.9);
    assert_eq!(
        cloth.inverse_masses(),
        &inverse(&scene_masses, 0.9 / mean)[..]
    );
    let free: Vec<f64> = cloth.inverse_masses()[1..]
        .iter()
        .map(|&w| 1.0 / w as f64)
        .collect();
    let new_mean = free.iter().sum::<f64>() / 4.0;
    assert!((new_mean - 0.9).abs() < 1e-6, "mean {new_mean}");
    assert!(
        (free[3] / free[0] - 2.0).abs() < 1e-6,
        "ratios kept: {free:?}"
    );
    // and back: the scene's own masses again
    cloth.set_mass(mean).unwrap();
    assert_eq!(cloth.inverse_masses(), &built[..]);
    // a particle the scene pinned and the user frees takes the mass parameter
    cloth.set_pinned(0, false).unwrap();
    assert!((cloth.inverse_masses()[0] - 1.0 / 0.45).abs() < 1e-5);
    // and a scene of one mass sets the mass parameter
    let mut one = chain(&[100.0; 3]);
    one.masses = vec![0.0, 0.25, 0.25, 0.25];
    assert_eq!(Cloth::from_scene(&one).unwrap().params().mass, 0.25);
}

/// A saved state carries the `mass` parameter, and a cloth of the same scene
/// restored from it weighs its particles as the saved one did, whatever mass
/// it had before: it continues bit for bit.
#[test]
fn a_saved_state_keeps_a_scenes_masses() {
    let build = || Cloth::from_scene(&chain(&[100.0; 4])).unwrap();
    let mut saved = build();
    saved.set_mass(1.2).unwrap();
    saved.steps(20).unwrap();
    let state = saved.saved_state().unwrap();
    let mut restored = build();
    restored.set_mass(0.2).unwrap();
    restored.restore_state(&state).unwrap();
    assert_eq!(restored.inverse_masses(), saved.inverse_masses());
    saved.steps(50).unwrap();
    restored.steps(50).unwrap();
    assert_eq!(restored.positions(), saved.positions());
    // a state saved at the scene's own mean restores the scene's own masses
    let fresh = build();
    let mut back = build();
    back.set_mass(3.0).unwrap();
    back.restore_state(&fresh.saved_state().unwrap()).unwrap();
    assert_eq!(back.inverse_masses(), fresh.inverse_masses());
}

#[test]
fn pinning_grabbing_and_tearing_work_on_a_scene() {
    let mut cloth = Cloth::from_scene(&chain(&[0.0; 6])).unwrap();
    let end = [cloth.positions()[12], cloth.positions()[13]];
    cloth.set_pinned(6, true).unwrap();
    cloth.steps(100).unwrap();
    assert_eq!(cloth.positions()[12..14], end);
    cloth.grab(3).unwrap();
    cloth.drag(0.9, 3.0).unwrap();
    cloth.set_tear_stretch(1.5).unwrap();
    // the held particle follows the pointer through the grab's spring, so
    // the chain stretches over a few steps until a link beside it tears
    let mut steps = 0;
    while cloth.torn_count() == 0 && steps < 100 {
        cloth.step();
        steps += 1;
    }
    assert!(cloth.torn_count() >= 1, "nothing tore in {steps} steps");
    for _ in 0..100 {
        cloth.step();
    }
    let held = [cloth.positions()[6], cloth.positions()[7]];
    eprintln!("tore after {steps} steps; the held particle at {held:?}");
    assert!((held[0] - 0.9).hypot(held[1] - 3.0) < 0.2, "{held:?}");
    assert!(cloth.is_finite());
    assert_eq!(cloth.constraint_forces().len(), cloth.num_constraints());
}

#[test]
fn every_preset_builds_and_steps_300_steps_finite() {
    for name in presets::names() {
        let mut cloth = Cloth::from_preset(name, &[]).unwrap();
        let start = cloth.positions().to_vec();
        cloth.steps(300).unwrap();
        assert!(cloth.is_finite(), "{name}");
        assert!(cloth.positions().iter().all(|p| p.is_finite()), "{name}");
        assert!(
            cloth.positions() != &start[..],
            "{name}: nothing moved in 300 steps"
        );
    }
}

#[test]
fn presets_have_their_shapes() {
    let pendulum = presets::preset("double-pendulum", &[]).unwrap();
    assert_eq!(pendulum.scene.masses, vec![0.0, 1.0, 1.0]);
    assert_eq!(pendulum.scene.distances, vec![0, 1, 1, 2]);
    let cloth = Cloth::from_preset("double-pendulum", &[]).unwrap();
    assert_eq!(cloth.params().stiffness, 0.0);
    assert_eq!(cloth.params().substeps, 50);

    let grid = Cloth::from_preset("cloth", &[]).unwrap();
    assert_eq!(
        grid,
        Cloth::new(
            GridSize {
                width: 40,
                height: 30
            },
            FixedPreset::Two
        )
    );
    let options = [
        ("width", Value::Number(10.0)),
        ("height", Value::Number(8.0)),
        ("fixed", Value::Number(4.0)),
        ("stiffness", Value::Number(50.0)),
    ];
    let mut small = Cloth::from_preset("cloth", &options).unwrap();
    let mut expected = Cloth::new(
        GridSize {
            width: 10,
            height: 8,
        },
        FixedPreset::Four,
    );
    expected.set_stiffness(50.0).unwrap();
    assert_eq!(small, expected);
    small.steps(10).unwrap();

    let rope = presets::preset("rope", &[("width", Value::Number(12.0))]).unwrap();
    assert_eq!(rope.scene.masses.len(), 12);
    assert_eq!(rope.scene.masses[0], 0.0);

    let balloon = presets::preset("balloon", &[]).unwrap();
    assert_eq!(balloon.scene.areas.len(), 1);
    // it starts inflated: the area constraint holds the start area, and the
    // skin is stretched (its rest lengths shorter than its start lengths)
    assert_eq!(balloon.scene.areas[0].pressure, 1.0);
    let skin = Cloth::from_scene(&balloon.scene).unwrap();
    assert!(skin.max_stretch() > 0.2, "stretch {}", skin.max_stretch());
    assert_eq!(
        balloon.scene.areas[0].particles.len(),
        balloon.scene.masses.len()
    );

    let soft = presets::preset("soft-body", &[]).unwrap();
    assert!(soft.scene.areas.iter().all(|a| a.particles.len() == 3));
    assert!(soft.scene.colliders.contains(&Shape::Ground { y: 0.0 }));
    assert!(soft.scene.positions.chunks_exact(2).all(|p| p[1] > 0.0));

    let flag = presets::preset("flag", &[]).unwrap();
    assert_eq!(flag.scene.bending, Bending::Auto);
    let cloth = Cloth::from_preset("flag", &[]).unwrap();
    assert!(cloth.params().wind_x > 0.0);
    let pinned = (0..cloth.num_particles())
        .filter(|&k| cloth.is_pinned(k).unwrap())
        .count();
    assert_eq!(pinned, 14);

    let ball = presets::preset("cloth-over-ball", &[]).unwrap();
    assert!(matches!(ball.scene.colliders[0], Shape::Circle { .. }));
    assert!(ball.scene.masses.iter().all(|&m| m > 0.0));
}

#[test]
fn preset_names_and_options_are_checked() {
    let error = Cloth::from_preset("hammock", &[]).unwrap_err();
    assert_eq!(error.field(), "preset");
    assert!(error.to_string().contains("\"rope\""), "{error}");
    let error = Cloth::from_preset("rope", &[("fixed", Value::Number(2.0))]).unwrap_err();
    assert_eq!(error.field(), "options");
    assert!(error.to_string().contains("\"fixed\" = 2"), "{error}");
    let error = Cloth::from_preset("rope", &[("stiffness", Value::Number(-1.0))]).unwrap_err();
    assert_eq!(error.field(), "stiffness");
    let error = Cloth::from_preset("flag", &[("width", Value::Number(1.0))]).unwrap_err();
    assert_eq!(error.field(), "width");
    let error = Cloth::from_preset("flag", &[("tethers", Value::Number(1.0))]).unwrap_err();
    assert_eq!(error.field(), "tethers");
    assert!(error.to_string().contains("true or false"), "{error}");
    let mut order =
        Cloth::from_preset("rope", &[("solverOrder", Value::Word("original"))]).unwrap();
    assert_eq!(order.params().solver_order, SolverOrder::Original);
    order.step();
}

#[test]
fn a_long_ring_naming_a_particle_twice_is_refused() {
    let n = 100u32;
    let positions: Vec<f32> = (0..n)
        .flat_map(|k| {
            let angle = std::f32::consts::TAU * k as f32 / n as f32;
            [angle.cos(), angle.sin()]
        })
        .collect();
    let mut ring: Vec<u32> = (0..n).collect();
    let ok = Scene {
        positions,
        masses: vec![1.0; n as usize],
        distances: Vec::new(),
        areas: vec![AreaSpec {
            particles: ring.clone(),
            stiffness: 0.0,
            pressure: 1.5,
        }],
        ..square()
    };
    Cloth::from_scene(&ok).unwrap();
    ring[90] = 17;
    let twice = Scene {
        areas: vec![AreaSpec {
            particles: ring,
            stiffness: 0.0,
            pressure: 1.5,
        }],
        ..ok
    };
    assert_eq!(
        refusal(&twice).to_string(),
        "invalid scene: areas[0] names particle 17 twice"
    );
}

#[test]
fn a_scene_without_constraints_falls_freely_in_both_orders() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let scene = Scene {
            distances: Vec::new(),
            areas: Vec::new(),
            colliders: Vec::new(),
            ..square()
        };
        let mut cloth = Cloth::from_scene(&scene).unwrap();
        cloth.set_solver_order(order).unwrap();
        assert_eq!(cloth.num_constraints(), 0);
        cloth.steps(100).unwrap();
        // one second of free fall from y = 0: about -4.9 m (semi-implicit Euler: -4.95)
        let y = cloth.positions()[3];
        assert!((y + 4.95).abs() < 0.01, "{order:?}: y = {y}");
        assert_eq!(cloth.positions()[1], 0.0, "the pinned particle moved");
    }
}

/// Energy above the hanging rest of the double pendulum: kinetic plus
/// potential, measured from both links hanging straight down.
fn pendulum_energy_above_rest(cloth: &Cloth) -> f64 {
    let g = -cloth.params().gravity;
    // the two 1 kg particles hang 0.5 m and 1.0 m below the pivot at rest
    let rest = -(g * 0.5 + g * 1.0);
    cloth.kinetic_energy() + cloth.potential_energy() - rest
}

#[test]
fn every_preset_has_a_name_for_people_and_an_air_drag_of_its_own() {
    for name in presets::names() {
        let title = presets::title(name);
        assert_ne!(title, *name, "{name} has a name for people");
        assert!(title.starts_with(char::is_uppercase), "{title}");
        let preset = presets::preset(name, &[]).unwrap();
        let chooses = preset.params.iter().any(|(p, _)| *p == "velocityDamping");
        // the plain cloth is the original's, which has none
        assert_eq!(chooses, *name != "cloth", "{name} chooses its air drag");
    }
}

#[test]
fn the_double_pendulum_keeps_over_half_its_energy_through_ten_seconds_and_tumbles() {
    let mut cloth = Cloth::from_preset("double-pendulum", &[]).unwrap();
    let start = pendulum_energy_above_rest(&cloth);
    let steps = (10.0 / cloth.params().time_step).round() as u32;
    // steps of the second five seconds in which the outer particle is above the
    // inner one: the outer link is over the horizontal, tumbling, not swinging
    let mut over = 0;
    for k in 0..steps {
        cloth.steps(1).unwrap();
        let p = cloth.positions();
        if k >= steps / 2 && p[5] > p[3] {
            over += 1;
        }
    }
    let end = pendulum_energy_above_rest(&cloth);
    println!(
        "double pendulum: {start:.2} J above rest at 0 s, {end:.2} J at 10 s ({:.0} %); \
         outer link over the horizontal in {over} of the last {} steps",
        100.0 * end / start,
        steps - steps / 2
    );
    assert!(end >= 0.5 * start, "{end} J of {start} J");
    assert!(end <= start, "no energy is gained: {end} J of {start} J");
    assert!(
        over >= 10,
        "the outer link goes over the horizontal in the second five seconds"
    );
}

#[test]
fn the_rope_still_swings_after_ten_seconds_and_the_soft_body_lands() {
    let mut rope = Cloth::from_preset("rope", &[]).unwrap();
    let steps = (10.0 / rope.params().time_step).round() as u32;
    rope.steps(steps).unwrap();
    let mut end_speed: f32 = 0.0;
    for _ in 0..100 {
        rope.steps(1).unwrap();
        let v = rope.velocities();
        let n = v.len() / 2;
        end_speed = end_speed.max(v[2 * n - 2].hypot(v[2 * n - 1]));
    }
    println!("rope: its end's top speed over 10-11 s is {end_speed:.2} m/s");
    assert!(end_speed > 1.0, "{end_speed} m/s");

    let mut body = Cloth::from_preset("soft-body", &[]).unwrap();
    let lowest = |c: &Cloth| {
        c.positions()
            .chunks_exact(2)
            .map(|p| p[1])
            .fold(f32::MAX, f32::min)
    };
    let radius = body.params().particle_radius as f32;
    assert!(
        lowest(&body) > 1.0,
        "it starts in the air: {}",
        lowest(&body)
    );
    body.steps(300).unwrap();
    assert!(
        (lowest(&body) - radius).abs() < 0.02,
        "it lies on the ground after 3 s: {}",
        lowest(&body)
    );
}
