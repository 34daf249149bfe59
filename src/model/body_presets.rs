//! The presets with bodies (see [`crate::kinds::bodies`]): a trampoline, a
//! rope bridge of rigid planks, a wrecking ball swung into a curtain, a
//! stack of boxes and a plastic can. Each is built of particles the default
//! particle radius (0.05 m) apart, [`SPACING`], so that every body and cloth
//! is solid to the others' particles, and starts in motion or about to move.

use super::body_shapes::rigid;
use super::scene::{BodySpec, DistanceStiffness, Plasticity, Scene};
use super::shape::Shape;
use crate::params::Value;

/// The particles' spacing in these presets: twice the default particle
/// radius, m.
pub const SPACING: f32 = 0.1;

/// A preset's scene and its parameter choices, by table name.
pub type Choices = (Scene, &'static [(&'static str, Value)]);

/// A trampoline: a cloth strip 4 m long and three particles deep, pinned at
/// both ends (10 000 N/m, 0.05 kg a particle), with two boxes and a ball
/// falling onto it from different heights; a ground 1.5 m below catches what
/// falls off.
pub fn trampoline() -> Choices {
    let mut scene = Scene::default();
    let (columns, rows) = (41, 3);
    let left = -SPACING * (columns - 1) as f32 / 2.0;
    for i in 0..rows {
        for j in 0..columns {
            let end = j == 0 || j == columns - 1;
            let mass = if end { 0.0 } else { 0.05 };
            scene.add_particle(left + SPACING * j as f32, -SPACING * i as f32, mass);
        }
    }
    let at = |i: usize, j: usize| (i * columns + j) as u32;
    for i in 0..rows {
        for j in 0..columns {
            if j + 1 < columns {
                scene.add_distance(at(i, j), at(i, j + 1));
            }
            if i + 1 < rows {
                scene.add_distance(at(i, j), at(i + 1, j));
                if j + 1 < columns {
                    scene.add_distance(at(i, j), at(i + 1, j + 1));
                    scene.add_distance(at(i, j + 1), at(i + 1, j));
                }
            }
        }
    }
    scene.distance_stiffness = DistanceStiffness::Uniform(10_000.0);
    scene.add_box((-1.0, 1.0), (4, 4), (SPACING, 0.15, 0.3), rigid());
    scene.add_box((0.9, 1.8), (3, 3), (SPACING, 0.15, -0.2), rigid());
    scene.add_ball((0.0, 2.6), 0.2, (SPACING, 0.15), rigid());
    scene.colliders.push(Shape::Ground { y: -1.5 });
    let choices = &[
        ("substeps", Value::Number(10.0)),
        ("iterations", Value::Number(4.0)),
        ("friction", Value::Number(0.5)),
        ("velocityDamping", Value::Number(0.3)),
    ];
    (scene, choices)
}

/// A rope bridge: six rigid planks (6 × 2 particles, 0.5 m × 0.1 m, 0.2 kg a
/// particle) hinged to each other at their top corners by rope links and to
/// two pinned posts, laid straight so it sags and swings as it starts, and a
/// box falling onto its middle. The links are rigid (stiffness 0).
pub fn rope_bridge() -> Choices {
    let mut scene = Scene::default();
    let planks = 6;
    let plank = 6;
    // a post, a gap, the planks with a gap after each, the other post
    let span = SPACING * ((planks * plank) as f32 + (planks + 1) as f32);
    let left = -span / 2.0;
    let mut last = scene.add_particle(left, 0.0, 0.0);
    let mut x = left + SPACING;
    for _ in 0..planks {
        let centre = x + SPACING * (plank - 1) as f32 / 2.0;
        let ids = scene.add_box(
            (centre, -SPACING / 2.0),
            (plank, 2),
            (SPACING, 0.2, 0.0),
            rigid(),
        );
        // the top row is the second: its first and last are the hinges
        let (first, end) = (ids[plank], ids[2 * plank - 1]);
        scene.add_distance(last, first);
        last = end;
        x += SPACING * (plank + 1) as f32;
    }
    let post = scene.add_particle(x, 0.0, 0.0);
    scene.add_distance(last, post);
    scene.distance_stiffness = DistanceStiffness::Uniform(0.0);
    scene.add_box((0.0, 1.5), (3, 3), (SPACING, 0.3, 0.4), rigid());
    let choices = &[
        ("substeps", Value::Number(20.0)),
        ("iterations", Value::Number(2.0)),
        ("friction", Value::Number(0.6)),
        ("velocityDamping", Value::Number(0.3)),
    ];
    (scene, choices)
}

/// A wrecking ball: a rigid disc of radius 0.25 m (19 particles of 2 kg) on
/// a rope of eight 0.15 m links from a pinned pivot, held out level to the
/// left, so it swings down into a curtain (14 × 12 particles, 0.3 kg each,
/// 3000 N/m) hanging from its top row, which tears where it is stretched by
/// 30 %. The rope's links are rigid (stiffness 0) and hardly stretch; what
/// tears is the curtain the ball goes through.
pub fn wrecking_ball() -> Choices {
    let mut scene = Scene::default();
    let pivot = scene.add_particle(0.0, 3.0, 0.0);
    let (links, link) = (8, 0.15f32);
    let mut last = pivot;
    for k in 1..links {
        let particle = scene.add_particle(-link * k as f32, 3.0, 0.3);
        scene.add_distance(last, particle);
        last = particle;
    }
    let radius = 0.25;
    let centre = (-link * links as f32 - radius, 3.0);
    let ball = scene.add_ball(centre, radius, (SPACING, 2.0), rigid());
    // tied to the ball's particle nearest the pivot (its rightmost)
    let nearest = *ball
        .iter()
        .max_by(|&&a, &&b| {
            scene.positions[2 * a as usize].total_cmp(&scene.positions[2 * b as usize])
        })
        .unwrap_or(&last);
    scene.add_distance(last, nearest);
    let rope = scene.num_distances();
    let (columns, rows) = (14, 12);
    let (left, top) = (0.35, 2.2);
    let first = scene.num_particles() as u32;
    for i in 0..rows {
        for j in 0..columns {
            let mass = if i == 0 { 0.0 } else { 0.3 };
            scene.add_particle(left + SPACING * j as f32, top - SPACING * i as f32, mass);
        }
    }
    let at = |i: usize, j: usize| first + (i * columns + j) as u32;
    for i in 0..rows {
        for j in 0..columns {
            if j + 1 < columns {
                scene.add_distance(at(i, j), at(i, j + 1));
            }
            if i + 1 < rows {
                scene.add_distance(at(i, j), at(i + 1, j));
            }
        }
    }
    let curtain = scene.num_distances() - rope;
    let mut stiffness = vec![0.0; rope];
    stiffness.extend(std::iter::repeat_n(3000.0, curtain));
    scene.distance_stiffness = DistanceStiffness::PerConstraint(stiffness);
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let choices = &[
        ("substeps", Value::Number(20.0)),
        ("iterations", Value::Number(2.0)),
        ("tearStretch", Value::Number(1.3)),
        ("velocityDamping", Value::Number(0.05)),
    ];
    (scene, choices)
}

/// How far above its resting place each box of the stack starts, m: they
/// fall into place as it starts.
pub const STACK_GAP: f32 = 0.01;

/// A stack of five boxes (4 × 4 particles, 0.5 kg each) on the ground, each
/// offset by half a spacing from the one below so its bottom row rests in the
/// grooves of the top row below, each starting [`STACK_GAP`] above its
/// resting place. It needs 10 substeps of 2 iterations to stand (see
/// docs/physics.md, "Shape matching").
pub fn box_stack() -> Choices {
    let mut scene = Scene::default();
    let r = SPACING / 2.0;
    // a row resting in the grooves of the one below sits √3 r above it
    let nest = 3f32.sqrt() * r;
    for b in 0..5 {
        let offset = if b % 2 == 1 { r } else { 0.0 };
        let bottom = r + b as f32 * (3.0 * SPACING + nest) + (b + 1) as f32 * STACK_GAP;
        let centre = (offset, bottom + 1.5 * SPACING);
        scene.add_box(centre, (4, 4), (SPACING, 0.5, 0.0), rigid());
    }
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let choices = &[
        ("substeps", Value::Number(10.0)),
        ("iterations", Value::Number(2.0)),
        ("friction", Value::Number(0.5)),
        ("velocityDamping", Value::Number(0.3)),
    ];
    (scene, choices)
}

/// The plastic can's plasticity (see [`Plasticity`]): it springs back from a
/// deformation of up to 3 % of its RMS radius; beyond that its rest shape
/// takes on 40 times the excess a second (all of it within a few substeps),
/// each particle's up to a quarter of the RMS radius from where it started.
pub const CAN_PLASTICITY: Plasticity = Plasticity {
    yield_strain: 0.03,
    creep: 40.0,
    max: 0.25,
};

/// A plastic can: the wall of a 0.6 m × 0.8 m rectangle of particles (0.1
/// kg each) joined along it (5000 N/m), a soft plastic body (compliance
/// 1e-4 s², [`CAN_PLASTICITY`]) standing on the ground, and a rigid ball of
/// radius 0.2 m (0.5 kg a particle) falling 0.75 m onto its top, off its
/// middle so that it rolls off, leaving a dent of about 0.1 m.
pub fn plastic_can() -> Choices {
    let mut scene = Scene::default();
    let (columns, rows) = (7usize, 9usize);
    let (left, bottom) = (-SPACING * (columns - 1) as f32 / 2.0, SPACING / 2.0);
    // the wall counter-clockwise from the bottom left corner
    let mut wall = Vec::new();
    let corners = [
        (1, 0, columns - 1),
        (0, 1, rows - 1),
        (-1, 0, columns - 1),
        (0, -1, rows - 1),
    ];
    let (mut i, mut j) = (0i32, 0i32);
    for (dj, di, count) in corners {
        for _ in 0..count {
            let x = left + SPACING * j as f32;
            let y = bottom + SPACING * i as f32;
            wall.push(scene.add_particle(x, y, 0.1));
            (i, j) = (i + di, j + dj);
        }
    }
    for k in 0..wall.len() {
        scene.add_distance(wall[k], wall[(k + 1) % wall.len()]);
    }
    scene.distance_stiffness = DistanceStiffness::Uniform(5000.0);
    scene.bodies.push(BodySpec {
        particles: wall,
        compliance: 1e-4,
        plastic: Some(CAN_PLASTICITY),
    });
    scene.add_ball((0.12, 1.6), 0.2, (SPACING, 0.5), rigid());
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let choices = &[
        ("substeps", Value::Number(20.0)),
        ("iterations", Value::Number(2.0)),
        ("friction", Value::Number(0.4)),
        ("velocityDamping", Value::Number(0.3)),
    ];
    (scene, choices)
}
