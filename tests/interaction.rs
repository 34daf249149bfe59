//! Grabbing, letting go and pinning cost O(1) whatever the cloth's size, and the
//! kinetic energy counts the held particle.
#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::{Cloth, Params};

/// `Σ ½ m |v|²` over the particles that move (free or held), computed here.
fn expected_kinetic_energy(c: &Cloth) -> f64 {
    let mass = c.params().mass;
    (0..c.num_particles())
        .filter(|&k| c.inverse_masses()[k] != 0.0 || c.grabbed() == Some(k))
        .map(|k| {
            let (vx, vy) = (
                c.velocities()[2 * k] as f64,
                c.velocities()[2 * k + 1] as f64,
            );
            0.5 * mass * (vx * vx + vy * vy)
        })
        .sum()
}

#[test]
fn grabbing_and_pinning_every_particle_of_the_largest_cloth_in_turn() {
    let mut c = grid_cloth(500, 500);
    let n = c.num_particles();
    let started = Instant::now();
    // 250 000 grabs (each releasing the one before) and 500 000 pin changes: with
    // O(particles) each this is 2e11 operations, minutes; with O(1), milliseconds
    for k in 0..n {
        c.grab(k).unwrap();
        assert_eq!(c.grabbed(), Some(k));
    }
    c.release();
    for k in 0..n {
        c.set_pinned(k, true).unwrap();
    }
    assert!(c.inverse_masses().iter().all(|&w| w == 0.0));
    for k in 0..n {
        c.set_pinned(k, false).unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "250 000 grabs and 500 000 pin changes on 500 × 500: {:.3} s",
        elapsed
    );
    // the time is printed, not asserted (the machine may be loaded): O(particles)
    // per call would show as minutes
    assert!(
        c.inverse_masses().iter().all(|&w| w == 2.0),
        "every particle is free again"
    );
}

#[test]
fn kinetic_energy_counts_a_held_pinned_particle_at_the_drag_velocity() {
    let mut c = grid_cloth(12, 9);
    c.set_params(Params {
        gravity: 0.0,
        ..Params::default()
    })
    .unwrap();
    let k = 4 * 12 + 5;
    c.set_pinned(k, true).unwrap();
    c.grab(k).unwrap();
    c.step();
    // 0.1 m in one step of 0.01 s: 10 m/s, ½ · 0.5 kg · 100 m²/s² = 25 J
    let x = c.positions()[2 * k] as f64;
    c.drag(x + 0.1, c.positions()[2 * k + 1] as f64).unwrap();
    c.step();
    assert!((c.velocities()[2 * k] - 10.0).abs() < 1e-3);
    let energy = c.kinetic_energy();
    assert!(
        energy >= 25.0 - 1e-3,
        "the held particle's 25 J are counted: {energy}"
    );
    assert!((energy - expected_kinetic_energy(&c)).abs() <= 1e-12 * energy);
    // pinned particles do not count, even if one had a velocity before pinning
    c.set_pinned(0, true).unwrap();
    assert!((c.kinetic_energy() - expected_kinetic_energy(&c)).abs() <= 1e-12 * energy);
    // let go, the pinned particle stays where it was put
    c.release();
    assert_eq!(c.velocities()[2 * k], 0.0);
    assert!((c.kinetic_energy() - expected_kinetic_energy(&c)).abs() <= 1e-12 * energy.max(1.0));
}
