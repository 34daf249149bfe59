//! Contacts and wind: colliders (ground, circle, box) with friction and
//! motion, self-collision, and wind on the edges.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod conservation;
}

use xpbd_cloth::contacts::velocity::{ContactVelocities, MAX_DEPENETRATION_SPEED};
use xpbd_cloth::contacts::{self, Colliders, TOLERANCE};
use xpbd_cloth::model::Shape;
use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

const ORDERS: [SolverOrder; 2] = [SolverOrder::Original, SolverOrder::Colored];

/// A `width × height` grid (particle `i·width + j` at `(0.2 j, -0.2 i)`)
/// with no particle pinned.
fn free_cloth(width: usize, height: usize) -> Cloth {
    let mut cloth = Cloth::try_new(GridSize { width, height }, FixedPreset::Two).unwrap();
    for k in 0..cloth.num_particles() {
        cloth.set_pinned(k, false).unwrap();
    }
    cloth
}

fn point(cloth: &Cloth, k: usize) -> [f64; 2] {
    let p = cloth.positions();
    [p[2 * k] as f64, p[2 * k + 1] as f64]
}

fn centroid(cloth: &Cloth) -> [f64; 2] {
    let n = cloth.num_particles();
    let mut c = [0.0, 0.0];
    for k in 0..n {
        let p = point(cloth, k);
        c[0] += p[0] / n as f64;
        c[1] += p[1] / n as f64;
    }
    c
}

/// The deepest any particle is inside `shape` grown by `radius` (negative:
/// the smallest clearance).
fn deepest(cloth: &Cloth, shape: Shape, radius: f64) -> f64 {
    (0..cloth.num_particles())
        .map(|k| common::conservation::depth(shape, radius, point(cloth, k)))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn a_cloth_dropped_onto_a_circle_the_ground_or_a_box_never_ends_a_step_inside() {
    // each starts clear of the cloth (its lowest row at -2.8 m, the particle
    // radius 0.05 m): what the fall pushes in is pushed out within the substep
    let shapes = [
        Shape::Circle {
            x: 1.4,
            y: -3.7,
            radius: 0.8,
        },
        Shape::Ground { y: -3.0 },
        Shape::Box {
            x: 1.4,
            y: -3.5,
            width: 1.6,
            height: 0.6,
        },
    ];
    for order in ORDERS {
        for shape in shapes {
            let mut cloth = free_cloth(15, 15);
            cloth.set_solver_order(order).unwrap();
            cloth.set_substeps(4).unwrap();
            let radius = cloth.params().particle_radius;
            let id = cloth.add_collider(shape).unwrap();
            assert_eq!(id, 1);
            let mut worst = f64::NEG_INFINITY;
            for step in 0..400 {
                cloth.step();
                let depth = deepest(&cloth, shape, radius);
                worst = worst.max(depth);
                assert!(
                    depth <= TOLERANCE as f64,
                    "{order:?} {shape:?}: step {step}: a particle is {depth} m inside \
                     (tolerance {TOLERANCE} m)"
                );
            }
            assert!(cloth.is_finite());
            // it did land: the deepest particle touches the surface
            assert!(
                worst > -1e-3,
                "{order:?} {shape:?}: the cloth never reached the collider (closest {worst} m)"
            );
        }
    }
}

/// The smallest distance between two particles whose rest distance is at
/// least `2r`, as a fraction of `2r`.
fn closest_pair_fraction(cloth: &Cloth, radius: f64) -> f64 {
    let n = cloth.num_particles();
    let mut closest = f64::INFINITY;
    for a in 0..n {
        for b in a + 1..n {
            let (pa, pb) = (point(cloth, a), point(cloth, b));
            let d = ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt();
            closest = closest.min(d);
        }
    }
    closest / (2.0 * radius)
}

/// The fraction of twice the radius no two particles may end a step closer
/// than with self-collision on.
const SELF_COLLISION_FRACTION: f64 = 0.5;

fn fold_onto_ground(self_collision: bool, order: SolverOrder) -> f64 {
    // a soft cloth pinned by one corner, dropped onto the ground: it piles up
    let mut cloth = free_cloth(10, 10);
    cloth.set_solver_order(order).unwrap();
    cloth.set_substeps(4).unwrap();
    cloth.set_stiffness(100.0).unwrap();
    cloth.set_particle_radius(0.08).unwrap();
    cloth.set_self_collision(self_collision).unwrap();
    cloth.add_collider(Shape::Ground { y: -2.5 }).unwrap();
    let mut worst = f64::INFINITY;
    for _ in 0..400 {
        cloth.step();
        worst = worst.min(closest_pair_fraction(&cloth, 0.08));
    }
    assert!(cloth.is_finite());
    worst
}

#[test]
fn with_self_collision_no_two_particles_end_a_step_too_close() {
    for order in ORDERS {
        let without = fold_onto_ground(false, order);
        let with = fold_onto_ground(true, order);
        println!("{order:?}: closest pair / 2r: without {without:.3}, with {with:.3}");
        assert!(
            without < SELF_COLLISION_FRACTION,
            "{order:?}: the test needs a cloth that overlaps without self-collision \
             (closest {without:.3} of 2r)"
        );
        assert!(
            with >= SELF_COLLISION_FRACTION,
            "{order:?}: with self-collision two particles came to {with:.3} of 2r, \
             at least {SELF_COLLISION_FRACTION} expected"
        );
    }
}

/// How far a cloth lying on the ground slides after a flick, metres.
fn slide(friction: f64) -> f64 {
    let mut cloth = free_cloth(3, 2);
    cloth.set_friction(friction).unwrap();
    cloth.set_substeps(4).unwrap();
    let radius = cloth.params().particle_radius as f32;
    // the bottom row (y = -0.2) rests on the ground
    cloth
        .add_collider(Shape::Ground { y: -0.2 - radius })
        .unwrap();
    for _ in 0..50 {
        cloth.step();
    }
    // pull it along at 1.5 m/s for a while, then let go
    cloth.grab(0).unwrap();
    let [mut x, y] = point(&cloth, 0);
    for _ in 0..20 {
        x += 0.015;
        cloth.drag(x, y).unwrap();
        cloth.step();
    }
    cloth.release();
    let start = centroid(&cloth)[0];
    for _ in 0..300 {
        cloth.step();
    }
    centroid(&cloth)[0] - start
}

#[test]
fn a_cloth_sliding_on_the_ground_stops_sooner_with_more_friction() {
    let distances: Vec<f64> = [0.05, 0.2, 0.8].into_iter().map(slide).collect();
    println!("slide after the flick for friction 0.05, 0.2, 0.8: {distances:?} m");
    assert!(
        distances[0] > distances[1] && distances[1] > distances[2],
        "more friction must slide less: {distances:?} m"
    );
    assert!(distances[0] > 0.05, "the flick must slide: {distances:?} m");
}

/// How far a cloth lying on a box moves while the box moves 1 m to the right.
fn carried(friction: f64) -> (f64, f64) {
    let mut cloth = free_cloth(4, 2);
    cloth.set_friction(friction).unwrap();
    cloth.set_substeps(4).unwrap();
    let radius = cloth.params().particle_radius as f32;
    let top = -0.2 - radius;
    let id = cloth
        .add_collider(Shape::Box {
            x: 0.3,
            y: top - 0.5,
            width: 2.0,
            height: 1.0,
        })
        .unwrap();
    for _ in 0..50 {
        cloth.step();
    }
    let start = centroid(&cloth)[0];
    // 200 steps of 0.01 s at 0.5 m/s
    for s in 1..=200 {
        cloth
            .move_collider(id, 0.3 + 0.005 * s as f64, (top - 0.5) as f64)
            .unwrap();
        cloth.step();
    }
    let moved = centroid(&cloth)[0] - start;
    let lowest = (0..cloth.num_particles())
        .map(|k| point(&cloth, k)[1])
        .fold(f64::INFINITY, f64::min);
    (moved, lowest)
}

#[test]
fn a_moving_box_carries_a_cloth_lying_on_it() {
    let (with_friction, lowest) = carried(0.8);
    let (without, _) = carried(0.0);
    println!("box moved 1 m: cloth moved {with_friction:.3} m (μ 0.8), {without:.3} m (μ 0)");
    assert!(
        (0.8..=1.05).contains(&with_friction),
        "with friction 0.8 the cloth must move with the box (1 m): moved {with_friction} m"
    );
    assert!(
        without.abs() < 0.1,
        "without friction the box slides under the cloth: moved {without} m"
    );
    assert!(
        lowest > -0.3,
        "the cloth stays on the box: lowest particle at {lowest} m"
    );
}

/// A flag: an 8 × 4 strip pinned along its left column, left to hang for
/// 10 s, then given wind `wind_x` for 1 s. Returns the centroid's x and the
/// largest distance a particle moved during that second.
fn flag(wind_x: f64) -> (f64, f64) {
    let (w, h) = (8, 4);
    let mut cloth = free_cloth(w, h);
    for i in 0..h {
        cloth.set_pinned(i * w, true).unwrap();
    }
    cloth.set_substeps(4).unwrap();
    cloth.set_velocity_damping(2.0).unwrap();
    cloth.set_wind_drag(1.0).unwrap();
    for _ in 0..1000 {
        cloth.step();
    }
    cloth.set_wind_x(wind_x).unwrap();
    let before = cloth.positions().to_vec();
    let mut moved: f64 = 0.0;
    for _ in 0..100 {
        cloth.step();
        for k in 0..cloth.num_particles() {
            let [x, y] = point(&cloth, k);
            let d = ((x - before[2 * k] as f64).powi(2) + (y - before[2 * k + 1] as f64).powi(2))
                .sqrt();
            moved = moved.max(d);
        }
    }
    assert!(cloth.is_finite());
    (centroid(&cloth)[0], moved)
}

#[test]
fn a_flag_moves_in_wind_and_hangs_still_without() {
    let (still_x, still_moved) = flag(0.0);
    let (windy_x, windy_moved) = flag(10.0);
    println!(
        "flag centroid x after 1 s: {still_x:.3} m still, {windy_x:.3} m in 10 m/s wind; \
         largest motion in that second: {still_moved:.4} m still, {windy_moved:.4} m windy"
    );
    assert!(
        still_moved < 0.01,
        "without wind the flag must hang still: moved {still_moved} m"
    );
    assert!(
        windy_moved > 0.3,
        "the flag must move in wind: moved {windy_moved} m"
    );
    assert!(
        windy_x > still_x + 0.2,
        "wind must blow the flag out: centroid x {windy_x} m, {still_x} m without"
    );
}

/// Independent reference in plain f64 for one contact with friction.
fn reference_contact(
    p: [f64; 2],
    before: [f64; 2],
    normal: [f64; 2],
    depth: f64,
    velocity: [f64; 2],
    friction: f64,
    h: f64,
) -> [f64; 2] {
    let q = [p[0] + normal[0] * depth, p[1] + normal[1] * depth];
    let motion = [
        q[0] - before[0] - velocity[0] * h,
        q[1] - before[1] - velocity[1] * h,
    ];
    let tangent = [-normal[1], normal[0]];
    let slide = motion[0] * tangent[0] + motion[1] * tangent[1];
    let kept = if slide.abs() <= friction * depth {
        0.0
    } else {
        slide - friction * depth * slide.signum()
    };
    let removed = slide - kept;
    [q[0] - removed * tangent[0], q[1] - removed * tangent[1]]
}

#[test]
fn one_contact_matches_an_independent_reference() {
    let radius = 0.05;
    let h = 0.0025;
    let circle: (f64, f64, f64) = (0.3, -1.0, 0.5);
    // (point, where it was at the substep's start, collider velocity, friction);
    // the first three began the substep inside the circle (8 cm deep), the
    // last two outside
    let cases = [
        ([0.6, -0.65], [0.55, -0.6], [0.0, 0.0], 0.3),
        ([0.6, -0.65], [0.55, -0.6], [0.0, 0.0], 0.0),
        ([0.6, -0.65], [0.55, -0.6], [0.0, 0.0], 5.0),
        ([0.1, -0.5], [0.2, -0.45], [2.0, -1.0], 0.5),
        ([0.35, -0.49], [0.33, -0.45], [0.0, 1.0], 0.1),
    ];
    for (p, before, velocity, friction) in cases {
        let mut list = Colliders::default();
        let id = list
            .add(
                Shape::Circle {
                    x: circle.0 as f32,
                    y: circle.1 as f32,
                    radius: circle.2 as f32,
                },
                0.0,
            )
            .unwrap();
        // give the collider `velocity` by moving it over 0.1 s and back to its place
        list.move_to(id, circle.0 as f32, circle.1 as f32, 0.0)
            .unwrap();
        list.move_to(
            id,
            (circle.0 - velocity[0] * 0.1) as f32,
            (circle.1 - velocity[1] * 0.1) as f32,
            0.1,
        )
        .unwrap();
        list.move_to(id, circle.0 as f32, circle.1 as f32, 0.2)
            .unwrap();
        let mut points = [p[0] as f32, p[1] as f32];
        let previous = [before[0] as f32, before[1] as f32];
        let mut log = ContactVelocities::default();
        log.try_reserve(1).unwrap();
        list.project(
            &mut points[..],
            &previous,
            &[1.0],
            radius as f32,
            friction as f32,
            h as f32,
            &mut log,
        );
        let (dx, dy) = (p[0] - circle.0, p[1] - circle.1);
        let dist = (dx * dx + dy * dy).sqrt();
        let depth = circle.2 + radius - dist;
        assert!(depth > 0.0, "case {p:?} must be a contact");
        // an overlap it began the substep with goes down by at most the
        // collider's approach plus the depenetration speed, times h
        let normal = [dx / dist, dy / dist];
        let (bx, by) = (before[0] - circle.0, before[1] - circle.1);
        let overlap = circle.2 + radius - (bx * bx + by * by).sqrt();
        let approach = (velocity[0] * normal[0] + velocity[1] * normal[1]).max(0.0);
        let reach = (approach + MAX_DEPENETRATION_SPEED as f64) * h;
        let pushed = depth - (overlap - reach).max(0.0);
        assert!(pushed > 0.0, "case {p:?} must push");
        let expected = reference_contact(p, before, normal, pushed, velocity, friction, h);
        let error = ((points[0] as f64 - expected[0]).powi(2)
            + (points[1] as f64 - expected[1]).powi(2))
        .sqrt();
        assert!(
            error < 1e-5,
            "{p:?} from {before:?}, collider at {velocity:?} m/s, μ {friction}: \
             got {points:?}, reference {expected:?} (error {error} m)"
        );
    }
}

#[test]
fn colliders_are_validated_and_ids_are_never_reused() {
    let mut cloth = free_cloth(3, 3);
    let bad = [
        (
            Shape::Circle {
                x: f32::NAN,
                y: 0.0,
                radius: 1.0,
            },
            "x",
        ),
        (
            Shape::Circle {
                x: 0.0,
                y: 0.0,
                radius: 0.0,
            },
            "radius",
        ),
        (
            Shape::Box {
                x: 0.0,
                y: 0.0,
                width: -1.0,
                height: 1.0,
            },
            "width",
        ),
        (
            Shape::Box {
                x: 0.0,
                y: 0.0,
                width: 1.0,
                height: f32::INFINITY,
            },
            "height",
        ),
        (Shape::Ground { y: 2e6 }, "y"),
    ];
    for (shape, field) in bad {
        let error = cloth.add_collider(shape).unwrap_err();
        assert_eq!(error.field(), field, "{shape:?}: {error}");
    }
    assert!(cloth.colliders().is_empty());
    let a = cloth.add_collider(Shape::Ground { y: -5.0 }).unwrap();
    let b = cloth
        .add_collider(Shape::Box {
            x: 0.0,
            y: -1.0,
            width: 1.0,
            height: 1.0,
        })
        .unwrap();
    assert_eq!((a, b), (1, 2));
    // topmost first: the box is above the ground line only where it is
    assert_eq!(cloth.pick_collider(0.2, -1.2).unwrap(), Some(2));
    assert_eq!(cloth.pick_collider(3.0, -6.0).unwrap(), Some(1));
    assert_eq!(cloth.pick_collider(3.0, 0.0).unwrap(), None);
    cloth.remove_collider(b).unwrap();
    assert_eq!(cloth.remove_collider(b).unwrap_err().field(), "id");
    assert_eq!(cloth.move_collider(7, 0.0, 0.0).unwrap_err().field(), "id");
    assert_eq!(
        cloth.move_collider(a, f64::NAN, 0.0).unwrap_err().field(),
        "x"
    );
    cloth.move_collider(a, 3.0, -4.0).unwrap();
    assert_eq!(cloth.colliders()[0].shape, Shape::Ground { y: -4.0 });
    let c = cloth.add_collider(Shape::Ground { y: -5.0 }).unwrap();
    assert_eq!(c, 3, "ids are never reused");
    while cloth.colliders().len() < contacts::MAX_COLLIDERS {
        cloth.add_collider(Shape::Ground { y: -5.0 }).unwrap();
    }
    let error = cloth.add_collider(Shape::Ground { y: -5.0 }).unwrap_err();
    assert_eq!(error.field(), "shape", "{error}");
}

#[test]
fn the_speed_limit_bounds_every_free_particle_with_contacts_on() {
    let mut cloth = free_cloth(5, 5);
    cloth.set_gravity(-100.0).unwrap();
    cloth.add_collider(Shape::Ground { y: -100.0 }).unwrap();
    let p = cloth.params();
    let limit = xpbd_cloth::contacts::max_speed(&p, p.time_step / p.substeps as f64);
    let mut fastest: f64 = 0.0;
    for _ in 0..20 {
        let before = cloth.positions().to_vec();
        cloth.step();
        for k in 0..cloth.num_particles() {
            let [x, y] = point(&cloth, k);
            let d = ((x - before[2 * k] as f64).powi(2) + (y - before[2 * k + 1] as f64).powi(2))
                .sqrt();
            fastest = fastest.max(d / p.time_step);
        }
    }
    // a free fall: the constraints add next to nothing
    assert!(
        fastest <= limit * 1.01 && fastest > 0.9 * limit,
        "fastest particle {fastest} m/s, limit {limit} m/s"
    );
}

#[test]
fn contacts_and_wind_count_in_the_work_of_a_step_and_respect_its_limit() {
    use xpbd_cloth::params::MAX_WORK_PER_STEP;
    let mut cloth = free_cloth(100, 100);
    let n = cloth.num_particles() as u64;
    let m = cloth.num_constraints() as u64;
    let passes = cloth.params().iterations as u64 + 1;
    let plain = cloth.work_per_step();
    cloth.add_collider(Shape::Ground { y: -30.0 }).unwrap();
    let one = cloth.work_per_step();
    assert_eq!(
        one - plain,
        n * (contacts::MAX_SPEED + contacts::CONTACT_VELOCITY)
            + passes * n * contacts::COLLIDER_CONTACT,
        "the first collider's work"
    );
    cloth.set_wind_x(3.0).unwrap();
    assert_eq!(
        cloth.work_per_step() - one,
        m * xpbd_cloth::kinds::wind::WIND_EDGE,
        "wind's work"
    );
    let windy = cloth.work_per_step();
    cloth.set_self_collision(true).unwrap();
    assert_eq!(
        cloth.work_per_step() - windy,
        n * contacts::SELF_COLLISION_SEARCH + passes * n * contacts::SELF_COLLISION_PASS,
        "self-collision's work"
    );
    // with many sweeps, colliders run into the limit before the 64 allowed
    cloth.set_self_collision(false).unwrap();
    cloth.set_iterations(1000).unwrap();
    let refused = loop {
        match cloth.add_collider(Shape::Ground { y: -30.0 }) {
            Ok(_) => assert!(cloth.work_per_step() <= MAX_WORK_PER_STEP),
            Err(error) => break error,
        }
        assert!(
            cloth.colliders().len() <= contacts::MAX_COLLIDERS,
            "{} colliders accepted, more than the limit",
            cloth.colliders().len()
        );
    };
    assert_eq!(refused.field(), "shape", "{refused}");
    assert!(
        cloth.colliders().len() < contacts::MAX_COLLIDERS,
        "{} colliders accepted",
        cloth.colliders().len()
    );
}

#[test]
fn contacts_and_wind_in_slices_give_whole_steps_bit_for_bit() {
    for order in ORDERS {
        let build = || {
            let mut cloth = free_cloth(12, 10);
            cloth.set_solver_order(order).unwrap();
            cloth.set_substeps(3).unwrap();
            cloth.set_stiffness(200.0).unwrap();
            cloth.set_self_collision(true).unwrap();
            cloth.set_wind_x(4.0).unwrap();
            cloth.add_collider(Shape::Ground { y: -2.5 }).unwrap();
            cloth
                .add_collider(Shape::Box {
                    x: 1.0,
                    y: -1.5,
                    width: 0.6,
                    height: 0.4,
                })
                .unwrap();
            cloth
        };
        let (mut whole, mut sliced) = (build(), build());
        for step in 0..120 {
            whole.step();
            let mut slices = 0;
            while sliced.advance(1, 700).0 == 0 {
                slices += 1;
                assert!(slices < 100_000, "{order:?}: step {step} never ends");
            }
            assert!(
                whole.positions() == sliced.positions(),
                "{order:?}: step {step}: sliced positions differ"
            );
        }
    }
}

/// The highest a lone particle dropped from 1 m above the ground rises after
/// its first bounce, with restitution `e`, metres above where it touches.
fn rebound(e: f64) -> f64 {
    let scene = xpbd_cloth::model::Scene {
        positions: vec![0.0, 1.05],
        masses: vec![0.1],
        distances: Vec::new(),
        distance_stiffness: xpbd_cloth::model::DistanceStiffness::Uniform(0.0),
        colliders: vec![Shape::Ground { y: 0.0 }],
        ..xpbd_cloth::model::Scene::default()
    };
    let mut cloth = Cloth::from_scene(&scene).unwrap();
    cloth.set_substeps(20).unwrap();
    cloth.set_restitution(e).unwrap();
    let radius = cloth.params().particle_radius;
    let (mut landed, mut top) = (false, 0.0f64);
    for _ in 0..300 {
        cloth.step();
        let y = point(&cloth, 0)[1] - radius;
        landed |= y < 1e-3;
        if landed {
            top = top.max(y);
        }
    }
    top
}

#[test]
fn restitution_gives_back_e_times_the_approach_speed() {
    // v' = e v: the rebound height is e² times the drop
    for e in [0.0, 0.5, 0.9] {
        let height = rebound(e);
        println!("restitution {e}: rebound {height:.4} m from a 1 m drop");
        assert!(
            (height - e * e).abs() < 0.03,
            "restitution {e}: rebound {height} m, about {} m expected",
            e * e
        );
    }
}
