//! Refusals that come first and name the right thing: checks that can be
//! made from counts come before the work they guard (deriving bending pairs
//! around a particle of many edges); ranges are compared on the value given,
//! not on its `f32` rounding (a mass of 1e-6 kg, the documented minimum);
//! values of the wrong type are `wrong_type` naming the parameter; a preset
//! past its size limits names the size the user gave.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::kinds::bending::{auto_comparisons, MAX_AUTO_COMPARISONS};
use xpbd_cloth::model::shape::validate_size;
use xpbd_cloth::model::{Bending, DistanceStiffness, Scene};
use xpbd_cloth::params::{Params, Value};
use xpbd_cloth::{Cloth, ClothError};

/// The mass rule's documented bounds, kg.
const MIN_MASS: f64 = 1e-6;
const MAX_MASS: f64 = 1e6;

/// `n` particles on a circle of radius `n` m, each joined to the `reach`
/// next ones around it (every particle has `2 · reach` edges).
fn circulant(n: usize, reach: usize, bending: Bending) -> Scene {
    let mut positions = Vec::new();
    for k in 0..n {
        let angle = std::f64::consts::TAU * k as f64 / n as f64;
        positions.extend([
            (n as f64 * angle.cos()) as f32,
            (n as f64 * angle.sin()) as f32,
        ]);
    }
    let mut distances = Vec::new();
    for k in 0..n {
        for d in 1..=reach {
            distances.extend([k as u32, ((k + d) % n) as u32]);
        }
    }
    Scene {
        positions,
        masses: vec![1.0; n],
        distances,
        distance_stiffness: DistanceStiffness::Uniform(1000.0),
        bending,
        ..Scene::default()
    }
}

/// A hub joined to `spokes` particles around it.
fn hub(spokes: usize) -> Scene {
    let mut scene = circulant(spokes + 1, 0, Bending::Auto);
    scene.positions[0] = 0.0;
    scene.positions[1] = 0.0;
    for k in 1..=spokes as u32 {
        scene.distances.extend([0, k]);
    }
    scene
}

fn refusal(result: Result<Cloth, ClothError>) -> ClothError {
    match result {
        Ok(_) => panic!("accepted"),
        Err(error) => error,
    }
}

#[test]
fn the_comparisons_of_bending_auto_are_counted_from_the_degrees() {
    // each particle of a circulant graph has 2 · reach edges
    for (n, reach) in [(10, 1), (50, 4), (300, 20)] {
        let scene = circulant(n, reach, Bending::Auto);
        let d = 2 * reach as u64;
        assert_eq!(
            auto_comparisons(&scene.distances, n).unwrap(),
            n as u64 * d * (d - 1) / 2,
            "{n} particles, {d} edges each"
        );
    }
    // the hub's edges, and one each of the rim
    assert_eq!(
        auto_comparisons(&hub(1000).distances, 1001).unwrap(),
        1000 * 999 / 2
    );
}

#[test]
fn a_particle_of_many_edges_is_refused_before_its_bending_pairs_are_derived() {
    // 200 000 edges at one particle: deriving around it would compare 2e10
    // pairs of edges; the colouring refuses it from its constraints first
    let error = refusal(Cloth::from_scene(&hub(200_000)));
    assert_eq!(
        (error.code(), error.field()),
        ("invalid_scene", "distances"),
        "{error}"
    );
    // every particle within the colours, but too many comparisons in all
    let crowded = circulant(4000, 60, Bending::Auto);
    let comparisons = auto_comparisons(&crowded.distances, 4000).unwrap();
    assert!(comparisons > MAX_AUTO_COMPARISONS, "{comparisons}");
    let error = refusal(Cloth::from_scene(&crowded));
    assert_eq!(
        (error.code(), error.field()),
        ("invalid_scene", "bending"),
        "{error}"
    );
    assert!(
        error.to_string().contains(&comparisons.to_string()),
        "{error}"
    );
    // the same scene without bending, and a smaller one with it, build
    Cloth::from_scene(&circulant(4000, 60, Bending::None)).unwrap();
    let fewer = circulant(1000, 60, Bending::Auto);
    assert!(auto_comparisons(&fewer.distances, 1000).unwrap() <= MAX_AUTO_COMPARISONS);
    Cloth::from_scene(&fewer).unwrap();
}

#[test]
fn the_largest_grid_with_both_diagonals_stays_within_the_comparisons() {
    // a 500 × 500 grid, every cell with both diagonals: 8 edges a particle
    let (w, h) = (500u32, 500u32);
    let mut distances = Vec::new();
    for i in 0..h {
        for j in 0..w {
            let k = i * w + j;
            if j + 1 < w {
                distances.extend([k, k + 1]);
            }
            if i + 1 < h {
                distances.extend([k, k + w]);
                if j + 1 < w {
                    distances.extend([k, k + w + 1, k + 1, k + w]);
                }
            }
        }
    }
    let comparisons = auto_comparisons(&distances, (w * h) as usize).unwrap();
    assert!(comparisons <= MAX_AUTO_COMPARISONS, "{comparisons}");
}

#[test]
fn masses_at_their_documented_bounds_are_accepted_everywhere() {
    // a scene's masses (f32): 1e-6 is stored just below 1e-6
    let mut scene = circulant(3, 1, Bending::None);
    scene.masses = vec![MIN_MASS as f32, MAX_MASS as f32, 0.0];
    Cloth::from_scene(&scene).unwrap();
    // just outside is still refused
    for outside in [MIN_MASS as f32 * 0.99, MAX_MASS as f32 * 1.01] {
        scene.masses[0] = outside;
        let error = refusal(Cloth::from_scene(&scene));
        assert_eq!(
            (error.code(), error.field()),
            ("invalid_scene", "masses"),
            "{error}"
        );
    }
    // the mass parameter, through a preset's options, a setter and a state
    for mass in [MIN_MASS, MAX_MASS] {
        let cloth = Cloth::from_preset("cloth", &[("mass", Value::Number(mass))]).unwrap();
        assert_eq!(cloth.params().mass, mass);
        let mut p = Params::default();
        p.set_named("mass", Value::Number(mass)).unwrap();
    }
}

#[test]
fn a_collider_size_that_becomes_0_as_f32_is_refused() {
    // above 0 as given, 0 once stored
    let error = validate_size("radius", 1e-50).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("invalid_value", "radius"),
        "{error}"
    );
    assert!(validate_size("radius", 1e-30).is_ok());
}

#[test]
fn options_and_state_parameters_of_the_wrong_type_are_wrong_type_naming_the_parameter() {
    for (name, value) in [
        ("width", Value::Flag(true)),
        ("stiffness", Value::Flag(true)),
        ("substeps", Value::Word("colored")),
        ("selfCollision", Value::Number(1.0)),
        ("particleRadius", Value::Flag(false)),
    ] {
        let error = refusal(Cloth::from_preset("soft-body", &[(name, value)]));
        assert_eq!(
            (error.code(), error.field()),
            ("wrong_type", name),
            "{error}"
        );
        if name != "width" {
            let error = Params::default().set_named(name, value).unwrap_err();
            assert_eq!(
                (error.code(), error.field()),
                ("wrong_type", name),
                "{error}"
            );
        }
    }
}

#[test]
fn a_preset_past_its_size_limits_names_the_size_given() {
    for (name, width, height) in [
        ("soft-body", 500.0, 500.0),
        ("soft-body", 1000.0, 200.0),
        ("cloth", 1000.0, 1000.0),
        ("flag", 600.0, 600.0),
        ("cloth-over-ball", 1000.0, 251.0),
        // accepted sizes whose step is too much work with the preset's own
        // substeps: refused naming the width, not the substeps
        ("soft-body", 400.0, 400.0),
    ] {
        let options = [
            ("width", Value::Number(width)),
            ("height", Value::Number(height)),
        ];
        let error = refusal(Cloth::from_preset(name, &options));
        assert_eq!(
            (error.code(), error.field()),
            ("invalid_value", "width"),
            "{name} {width} × {height}: {error}"
        );
    }
    // the message names the preset, quoted, and the work limit it passed
    let options = [
        ("width", Value::Number(400.0)),
        ("height", Value::Number(400.0)),
    ];
    let message = refusal(Cloth::from_preset("soft-body", &options)).to_string();
    assert!(
        message.contains("400 (160000 particles)")
            && message.contains("a smaller \"soft-body\" preset: at this size "),
        "{message}"
    );
    // at the largest accepted sizes, each builds
    for (name, width, height) in [("soft-body", 100.0, 100.0), ("flag", 500.0, 500.0)] {
        let options = [
            ("width", Value::Number(width)),
            ("height", Value::Number(height)),
        ];
        Cloth::from_preset(name, &options).unwrap();
    }
}
