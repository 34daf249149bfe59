//! The soft step (Catto's Solver2D, `src/solver/soft.rs`) against its own
//! independent f64 reference (`tests/common/soft_f64.rs`) and against physics:
//! a soft constraint is a spring of `m_eff ω²`, and with damping it never
//! gains energy.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    #[path = "../common/reference_f64.rs"]
    pub mod reference_f64;
    #[path = "../common/soft_f64.rs"]
    pub mod soft_f64;
}

use common::reference_f64::{Reference, Settings};
use common::soft_f64::{soft_energy, soft_step};
use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverKind, SolverOrder};

const WIDTH: usize = 8;
const HEIGHT: usize = 6;

fn soft_params(
    hertz: f64,
    zeta: f64,
    substeps: u32,
    iterations: u32,
    order: SolverOrder,
) -> Params {
    Params {
        solver: SolverKind::SoftStep,
        soft_frequency: hertz,
        soft_damping_ratio: zeta,
        substeps,
        iterations,
        time_step: 1.0 / 60.0,
        solver_order: order,
        ..Params::default()
    }
}

/// The cloth and its reference, side by side, from the same grid.
fn pair(p: Params) -> (Cloth, Reference) {
    let mut cloth = Cloth::new(
        GridSize {
            width: WIDTH,
            height: HEIGHT,
        },
        FixedPreset::Two,
    );
    cloth.set_params(p).unwrap();
    let settings = Settings {
        dt: p.time_step,
        substeps: p.substeps as usize,
        iterations: p.iterations as usize,
        gravity: p.gravity,
        coloured: p.solver_order == SolverOrder::Colored,
        ..Settings::default()
    };
    let reference = Reference::grid(WIDTH, HEIGHT, 2, p.mass, settings);
    (cloth, reference)
}

/// Largest distance between a particle of the cloth and of the reference, m.
fn largest_gap(cloth: &Cloth, reference: &Reference) -> f64 {
    let x = cloth.positions();
    reference
        .particles
        .iter()
        .enumerate()
        .map(|(k, p)| (x[2 * k] as f64 - p.x[0]).hypot(x[2 * k + 1] as f64 - p.x[1]))
        .fold(0.0, f64::max)
}

/// Two seconds of a falling cloth, in both orders and at frequencies from
/// soft to stiff: the f32 solver stays within 1 mm of the f64 reference (the
/// cloth moves about a metre), and within 1 % of how far it moved.
#[test]
fn the_soft_step_matches_its_f64_reference() {
    for order in [SolverOrder::Original, SolverOrder::Colored] {
        for (hertz, zeta, substeps, iterations) in
            [(5.0, 0.5, 4, 1), (30.0, 1.0, 4, 2), (120.0, 2.0, 8, 1)]
        {
            let (mut cloth, mut reference) =
                pair(soft_params(hertz, zeta, substeps, iterations, order));
            let start = reference.particles.clone();
            let mut worst: f64 = 0.0;
            for _ in 0..120 {
                cloth.step();
                soft_step(&mut reference, hertz, zeta);
                worst = worst.max(largest_gap(&cloth, &reference));
            }
            let moved = reference
                .particles
                .iter()
                .zip(&start)
                .map(|(p, q)| (p.x[0] - q.x[0]).hypot(p.x[1] - q.x[1]))
                .fold(0.0, f64::max);
            assert!(
                worst < 1e-3 && worst < 0.01 * moved,
                "{order:?} {hertz} Hz ζ {zeta}: {worst} m from the reference (moved {moved} m)"
            );
        }
    }
}

/// A particle hanging from a pin on one soft constraint settles where the
/// spring `k = m ω²` holds its weight: stretched by `g / ω²`, whatever its
/// mass, the substeps and the iterations.
#[test]
fn a_soft_constraint_is_a_spring_of_its_frequency() {
    for (hertz, mass, substeps, iterations) in
        [(5.0, 1.0, 1, 1), (10.0, 0.1, 4, 3), (20.0, 3.0, 10, 1)]
    {
        let mut cloth = Cloth::new(
            GridSize {
                width: 2,
                height: 2,
            },
            FixedPreset::Two,
        );
        let p = Params {
            mass,
            velocity_damping: 0.0,
            ..soft_params(hertz, 1.0, substeps, iterations, SolverOrder::Original)
        };
        cloth.set_params(p).unwrap();
        for _ in 0..600 {
            cloth.step();
        }
        // each bottom particle hangs on its vertical and its diagonal link:
        // the stretch of the vertical one, compared with its own f64 equilibrium
        let mut reference = Reference::grid(
            2,
            2,
            2,
            mass,
            Settings {
                dt: p.time_step,
                substeps: substeps as usize,
                iterations: iterations as usize,
                gravity: p.gravity,
                coloured: false,
                ..Settings::default()
            },
        );
        for _ in 0..600 {
            soft_step(&mut reference, hertz, 1.0);
        }
        let x = cloth.positions();
        let sag = -(x[5] as f64) - 0.2;
        let reference_sag = -reference.particles[2].x[1] - 0.2;
        assert!(
            sag > 0.0 && (sag - reference_sag).abs() < 0.01 * reference_sag,
            "{sag} against {reference_sag}"
        );
    }
}

/// One particle below a pin on one soft constraint (a two-particle chain):
/// at rest it is stretched by exactly `g / ω²`.
#[test]
fn a_hanging_particle_stretches_by_g_over_omega_squared() {
    for (hertz, mass, substeps, iterations) in
        [(5.0, 1.0, 1, 1), (10.0, 0.1, 4, 3), (20.0, 3.0, 10, 1)]
    {
        let settings = Settings {
            dt: 1.0 / 60.0,
            substeps,
            iterations,
            coloured: false,
            ..Settings::default()
        };
        let mut chain = Reference::chain(&[[0.0, 0.0], [0.0, -0.2]], &[0.0, mass], 0.2, settings);
        for _ in 0..900 {
            soft_step(&mut chain, hertz, 1.0);
        }
        let omega = 2.0 * std::f64::consts::PI * hertz;
        let stretch = -chain.particles[1].x[1] - 0.2;
        let expected = 9.81 / (omega * omega);
        assert!(
            (stretch - expected).abs() < 1e-3 * expected,
            "{stretch} against {expected}"
        );
    }
}

/// The cloth's energy with its links as the soft step's springs: kinetic,
/// gravitational and `½ m_eff ω² C²` per link, J.
fn energy(cloth: &Cloth) -> f64 {
    let omega = 2.0 * std::f64::consts::PI * cloth.params().soft_frequency;
    let (x, w, ids) = (
        cloth.positions(),
        cloth.inverse_masses(),
        cloth.constraint_ids(),
    );
    let springs: f64 = cloth
        .rest_lengths()
        .iter()
        .enumerate()
        .map(|(c, &rest)| {
            let (a, b) = (ids[2 * c] as usize, ids[2 * c + 1] as usize);
            let w_sum = (w[a] + w[b]) as f64;
            let dx = (x[2 * a] - x[2 * b]) as f64;
            let dy = (x[2 * a + 1] - x[2 * b + 1]) as f64;
            let error = dx.hypot(dy) - rest as f64;
            if w_sum > 0.0 {
                0.5 * omega * omega * error * error / w_sum
            } else {
                0.0
            }
        })
        .sum();
    cloth.kinetic_energy() + cloth.potential_energy() + springs
}

/// With damping (ζ > 0) a released cloth only loses energy: at no step does
/// its energy exceed where it started by more than a thousandth of what it
/// can release, in the f32 solver and in the f64 reference; and once it
/// hangs at rest, ten more seconds add none (no creep, no jitter).
#[test]
fn a_damped_soft_step_gains_no_energy() {
    for (hertz, zeta, substeps, iterations) in
        [(5.0, 0.5, 4, 1), (30.0, 1.0, 4, 2), (60.0, 2.0, 8, 1)]
    {
        let (mut cloth, mut reference) = pair(soft_params(
            hertz,
            zeta,
            substeps,
            iterations,
            SolverOrder::Colored,
        ));
        let (start, reference_start) = (energy(&cloth), soft_energy(&reference, hertz));
        let (mut highest, mut reference_highest) = (f64::MIN, f64::MIN);
        let (mut lowest, mut reference_lowest) = (f64::MAX, f64::MAX);
        for _ in 0..600 {
            cloth.step();
            soft_step(&mut reference, hertz, zeta);
            highest = highest.max(energy(&cloth));
            lowest = lowest.min(energy(&cloth));
            reference_highest = reference_highest.max(soft_energy(&reference, hertz));
            reference_lowest = reference_lowest.min(soft_energy(&reference, hertz));
        }
        let released = start - lowest;
        assert!(released > 0.0, "{hertz} Hz: nothing released");
        assert!(
            highest - start <= 1e-3 * released,
            "{hertz} Hz: rose {} J of {released}",
            highest - start
        );
        let reference_released = reference_start - reference_lowest;
        assert!(
            reference_highest - reference_start <= 1e-3 * reference_released,
            "{hertz} Hz: the reference rose {} J",
            reference_highest - reference_start
        );
        // at rest: ten more seconds
        let resting = energy(&cloth);
        let mut rise: f64 = 0.0;
        for _ in 0..600 {
            cloth.step();
            rise = rise.max(energy(&cloth) - resting);
        }
        assert!(
            rise <= 1e-4 * released,
            "{hertz} Hz at rest: rose {rise} J of {released}"
        );
        eprintln!(
            "{hertz} Hz: released {released} J, rise at rest {rise} J, rise {} J",
            highest - start
        );
    }
}
