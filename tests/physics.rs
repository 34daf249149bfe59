//! Physical behaviour of the cloth: what XPBD promises, fixed particles, rest,
//! interaction and divergence.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::diverging_params;
use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverOrder};

const ORDERS: [SolverOrder; 2] = [SolverOrder::Original, SolverOrder::Colored];

fn cloth(width: usize, height: usize, fixed: usize) -> Cloth {
    let preset = FixedPreset::from_count(fixed).expect("1, 2 or 4 fixed");
    Cloth::new(GridSize { width, height }, preset)
}

fn position(cloth: &Cloth, k: usize) -> [f32; 2] {
    [cloth.positions()[2 * k], cloth.positions()[2 * k + 1]]
}

#[test]
fn fixed_particles_never_move() {
    for (fixed, ids, order) in [
        (1, vec![0], ORDERS[0]),
        (2, vec![0, 39], ORDERS[0]),
        (4, vec![0, 39, 1160, 1199], ORDERS[0]),
        (1, vec![0], ORDERS[1]),
        (2, vec![0, 39], ORDERS[1]),
        (4, vec![0, 39, 1160, 1199], ORDERS[1]),
    ] {
        let mut c = cloth(40, 30, fixed);
        c.set_solver_order(order).unwrap();
        let before: Vec<_> = ids.iter().map(|&k| position(&c, k)).collect();
        for _ in 0..200 {
            c.step();
        }
        let after: Vec<_> = ids.iter().map(|&k| position(&c, k)).collect();
        assert_eq!(before, after, "fixed {fixed}");
        // and the rest of the cloth did move
        assert!(position(&c, 20 * 40 + 20)[1] < -4.0 - 0.1);
    }
}

#[test]
fn without_gravity_a_cloth_at_rest_stays_exactly_at_rest() {
    let mut c = cloth(40, 30, 2);
    c.set_gravity(0.0).unwrap();
    let before = c.positions().to_vec();
    for _ in 0..100 {
        c.step();
    }
    let moved = before
        .iter()
        .zip(c.positions())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(moved, 0, "{moved} coordinates moved");
    assert_eq!(c.kinetic_energy(), 0.0);
    assert_eq!(c.max_stretch(), 0.0);
    assert!((c.time() - 1.0).abs() < 1e-9);
}

/// Average of the largest stretch over the last 100 of 400 steps of a hanging
/// 20 × 15 cloth.
fn hanging_stretch(order: SolverOrder, stiffness: f64, iterations: u32) -> f64 {
    let mut c = cloth(20, 15, 2);
    c.set_params(Params {
        stiffness,
        iterations,
        solver_order: order,
        ..Params::default()
    })
    .unwrap();
    let mut sum = 0.0;
    for step in 0..400 {
        c.step();
        if step >= 300 {
            sum += c.max_stretch();
        }
    }
    sum / 100.0
}

#[test]
fn xpbd_stretch_converges_while_pbd_keeps_stiffening() {
    for order in ORDERS {
        assert_xpbd_converges(order);
    }
}

fn assert_xpbd_converges(order: SolverOrder) {
    let xpbd_10 = hanging_stretch(order, 1000.0, 10);
    let xpbd_50 = hanging_stretch(order, 1000.0, 50);
    let xpbd_100 = hanging_stretch(order, 1000.0, 100);
    let pbd_10 = hanging_stretch(order, 0.0, 10);
    let pbd_50 = hanging_stretch(order, 0.0, 50);
    let pbd_100 = hanging_stretch(order, 0.0, 100);
    let name = order.name();
    println!("{name} XPBD k=1000: stretch {xpbd_10:.5} (10 it), {xpbd_50:.5} (50 it), {xpbd_100:.5} (100 it)");
    println!(
        "{name} PBD  k=0: stretch {pbd_10:.5} (10 it), {pbd_50:.5} (50 it), {pbd_100:.5} (100 it)"
    );

    // XPBD: the stiffness set is the stiffness seen; doubling the iterations
    // from 50 to 100 changes the stretch by well under 1 %.
    let xpbd_change = (xpbd_100 - xpbd_50).abs() / xpbd_50;
    assert!(xpbd_change < 0.01, "XPBD stretch moved {xpbd_change:.4}");
    assert!(xpbd_50 > 0.1, "a soft cloth stretches visibly");

    // PBD: every doubling of iterations makes the cloth markedly stiffer.
    assert!(pbd_50 < 0.6 * pbd_10, "{pbd_50} vs {pbd_10}");
    assert!(pbd_100 < 0.6 * pbd_50, "{pbd_100} vs {pbd_50}");
}

#[test]
fn a_grabbed_particle_follows_the_pointer_through_the_grab_spring_and_the_cloth_follows() {
    let mut c = cloth(40, 30, 2);
    for _ in 0..50 {
        c.step();
    }
    let k = c
        .pick(3.9, -5.8, 0.3)
        .unwrap()
        .expect("a particle near (3.9, -5.8)");
    let neighbour = k + 1;
    let neighbour_before = position(&c, neighbour);
    c.grab(k).unwrap();
    assert_eq!(c.grabbed(), Some(k));
    assert_eq!(c.inverse_masses()[k], 2.0, "held, it keeps its mass");
    c.drag(6.0, -2.0).unwrap();
    assert_ne!(
        position(&c, k),
        [6.0, -2.0],
        "the spring pulls it there as the cloth steps"
    );
    for _ in 0..40 {
        c.step();
        c.drag(6.0, -2.0).unwrap();
    }
    let [x, y] = position(&c, k);
    let lag = (x - 6.0).hypot(y + 2.0);
    assert!(lag < 0.2, "it follows the pointer: {lag} m behind");
    let neighbour_after = position(&c, neighbour);
    assert!(
        (neighbour_after[0] - neighbour_before[0]).abs() > 0.5,
        "the neighbour follows: {neighbour_before:?} -> {neighbour_after:?}"
    );
    c.release();
    assert_eq!(c.grabbed(), None);
    assert_eq!(c.inverse_masses()[k], 2.0);
    // a pinned particle held is put at the pointer at once
    c.set_pinned(0, true).unwrap();
    c.grab(0).unwrap();
    c.drag(-1.0, 1.0).unwrap();
    assert_eq!(position(&c, 0), [-1.0, 1.0]);
    c.step();
    assert_eq!(position(&c, 0), [-1.0, 1.0]);
}

#[test]
fn a_released_particle_keeps_the_drag_velocity() {
    let mut c = cloth(10, 10, 2);
    c.set_gravity(0.0).unwrap();
    let k = 55;
    c.grab(k).unwrap();
    let start = position(&c, k);
    // drag at 2 m/s to the right, one pointer event per 8 steps as on the page
    for frame in 1..=20 {
        c.drag(
            (start[0] + 2.0 * 0.08 * frame as f32) as f64,
            start[1] as f64,
        )
        .unwrap();
        c.steps(8).unwrap();
    }
    // a twin of the cloth whose particle is let go without velocity
    let mut still = c.clone();
    still.set_pinned(k, true).unwrap();
    still.release();
    still.set_pinned(k, false).unwrap();
    c.release();
    let vx = c.velocities()[2 * k];
    assert!(
        (vx - 2.0).abs() < 0.1,
        "flick velocity {vx} m/s, expected 2"
    );
    c.step();
    still.step();
    let ahead = position(&c, k)[0] - position(&still, k)[0];
    assert!(
        ahead > 0.005,
        "the flicked particle runs ahead by {ahead} m"
    );
}

#[test]
fn a_held_still_particle_is_released_without_velocity() {
    let mut c = cloth(10, 10, 2);
    c.set_gravity(0.0).unwrap();
    c.grab(55).unwrap();
    c.drag(3.0, -1.0).unwrap();
    c.steps(100).unwrap();
    c.release();
    assert!(c.velocities()[110].abs() < 1e-3 && c.velocities()[111].abs() < 1e-3);
}

#[test]
fn pinning_any_particle_holds_it_and_unpinning_frees_it() {
    let mut c = cloth(10, 10, 2);
    let k = 95;
    c.set_pinned(k, true).unwrap();
    assert!(c.is_pinned(k).unwrap());
    let before = position(&c, k);
    c.steps(100).unwrap();
    assert_eq!(position(&c, k), before);
    c.set_pinned(k, false).unwrap();
    assert!(!c.is_pinned(k).unwrap());
    c.steps(20).unwrap();
    assert!(
        position(&c, k)[1] < before[1] - 0.01,
        "free again, it falls"
    );
    // unpinning a preset corner lets it fall too
    c.set_pinned(0, false).unwrap();
    let corner = position(&c, 0);
    c.steps(20).unwrap();
    assert!(position(&c, 0)[1] < corner[1]);
}

#[test]
fn pick_finds_the_nearest_particle_within_the_radius() {
    let c = cloth(5, 5, 2);
    assert_eq!(c.pick(0.41, -0.19, 0.1).unwrap(), Some(7));
    assert_eq!(c.pick(0.5, -0.1, 0.05).unwrap(), None);
    assert_eq!(c.pick(10.0, 10.0, 1.0).unwrap(), None);
    assert!(c.pick(f64::NAN, 0.0, 1.0).is_err());
    assert!(c.pick(0.0, 0.0, -1.0).is_err());
}

#[test]
fn a_diverging_cloth_stops_with_finite_positions() {
    let mut c = cloth(10, 10, 1);
    c.set_params(diverging_params()).unwrap();
    let mut steps = 0;
    while c.is_finite() && steps < 1000 {
        c.step();
        steps += 1;
    }
    assert!(!c.is_finite(), "this cloth flies off within 1000 steps");
    assert!(c.positions().iter().all(|p| p.is_finite()));
    let frozen = c.positions().to_vec();
    let time = c.time();
    c.step();
    assert_eq!(frozen, c.positions(), "a diverged cloth no longer steps");
    assert_eq!(time, c.time());
}

#[test]
fn mass_changes_inverse_mass_of_free_particles_only() {
    let mut c = cloth(4, 4, 2);
    c.set_mass(2.0).unwrap();
    assert_eq!(c.inverse_masses()[0], 0.0);
    assert_eq!(c.inverse_masses()[3], 0.0);
    assert_eq!(c.inverse_masses()[5], 0.5);
}

/// A cloth left to settle (velocity damping takes the swing out), in `order`.
fn settled(order: SolverOrder, stiffness: f64) -> Cloth {
    let mut c = cloth(20, 15, 2);
    c.set_params(Params {
        stiffness,
        velocity_damping: 3.0,
        solver_order: order,
        ..Params::default()
    })
    .unwrap();
    c.steps(1500).unwrap();
    c
}

#[test]
fn both_sweep_orders_settle_to_the_same_hanging_shape() {
    for stiffness in [1000.0, 0.0] {
        let original = settled(SolverOrder::Original, stiffness);
        let colored = settled(SolverOrder::Colored, stiffness);
        let gap = original
            .positions()
            .iter()
            .zip(colored.positions())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        let depth = -original
            .positions()
            .iter()
            .skip(1)
            .step_by(2)
            .fold(0.0f32, |m, &y| m.min(y));
        println!(
            "stiffness {stiffness}: orders differ by {gap:.2e} m on a cloth {depth:.2} m deep"
        );
        assert!(gap < 0.01 * depth, "rest shapes differ by {gap} m");
        assert!(
            original.kinetic_energy() < 1e-3 && colored.kinetic_energy() < 1e-3,
            "settled"
        );
    }
}
