//! The real solver against an independent reference.
//!
//! `Reference` below is a deliberately plain, f64, object-per-particle transcription
//! of the original demo's step (docs/ORIGINAL.md, "One time step"). It shares no code with
//! the crate: it builds its own grid and runs its own loops. Stepping both side by
//! side and comparing positions checks the grid order, the inverse masses, the
//! multiplier reset and the update formulas all at once.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverOrder};

#[derive(Clone, Copy)]
struct Particle {
    x: [f64; 2],
    x_old: [f64; 2],
    v: [f64; 2],
    w: f64,
}

struct Constraint {
    a: usize,
    b: usize,
    rest: f64,
    lambda: f64,
}

struct Reference {
    particles: Vec<Particle>,
    constraints: Vec<Constraint>,
    dt: f64,
    iterations: usize,
    stiffness: f64,
    gravity: f64,
}

impl Reference {
    fn new(width: usize, height: usize, fixed: usize, p: Params) -> Reference {
        let mut particles = Vec::new();
        for i in 0..height {
            for j in 0..width {
                let x = [0.2 * j as f64, -0.2 * i as f64];
                particles.push(Particle {
                    x,
                    x_old: x,
                    v: [0.0; 2],
                    w: 1.0 / p.mass,
                });
            }
        }
        let fixed_ids: Vec<usize> = match fixed {
            1 => vec![0],
            2 => vec![0, width - 1],
            _ => vec![0, width - 1, (height - 1) * width, height * width - 1],
        };
        for k in fixed_ids {
            particles[k].w = 0.0;
        }
        let mut constraints = Vec::new();
        let mut add = |a, b, rest| {
            constraints.push(Constraint {
                a,
                b,
                rest,
                lambda: 0.0,
            })
        };
        for i in 0..height {
            for j in 0..width - 1 {
                add(i * width + j, i * width + j + 1, 0.2);
            }
        }
        for i in 0..height - 1 {
            for j in 0..width {
                add(i * width + j, (i + 1) * width + j, 0.2);
            }
        }
        for i in 0..height - 1 {
            for j in 0..width - 1 {
                let k = i * width + j;
                add(k, k + width + 1, 0.1 * 8f64.sqrt());
                add(k + 1, k + width, 0.1 * 8f64.sqrt());
            }
        }
        Reference {
            particles,
            constraints,
            dt: p.time_step,
            iterations: p.iterations as usize,
            stiffness: p.stiffness,
            gravity: p.gravity,
        }
    }

    fn step(&mut self) {
        let dt = self.dt;
        for p in self.particles.iter_mut().filter(|p| p.w > 0.0) {
            p.x_old = p.x;
            p.v[1] += dt * self.gravity;
            p.x[0] += dt * p.v[0];
            p.x[1] += dt * p.v[1];
        }
        for c in &mut self.constraints {
            c.lambda = 0.0;
        }
        let alpha = if self.stiffness == 0.0 {
            0.0
        } else {
            1.0 / self.stiffness
        };
        let alpha_tilde = alpha / (dt * dt);
        for _ in 0..self.iterations {
            for c in &mut self.constraints {
                let (pa, pb) = (self.particles[c.a], self.particles[c.b]);
                let diff = [pa.x[0] - pb.x[0], pa.x[1] - pb.x[1]];
                let d = (diff[0] * diff[0] + diff[1] * diff[1]).sqrt();
                if d <= 0.001 {
                    continue;
                }
                let n = [diff[0] / d, diff[1] / d];
                let denominator = pa.w + pb.w + alpha_tilde;
                if denominator == 0.0 {
                    continue;
                }
                let dl = -((d - c.rest) + alpha_tilde * c.lambda) / denominator;
                c.lambda += dl;
                for (axis, n_axis) in n.iter().enumerate() {
                    self.particles[c.a].x[axis] += pa.w * dl * n_axis;
                    self.particles[c.b].x[axis] -= pb.w * dl * n_axis;
                }
            }
        }
        for p in self.particles.iter_mut().filter(|p| p.w > 0.0) {
            p.v = [(p.x[0] - p.x_old[0]) / dt, (p.x[1] - p.x_old[1]) / dt];
        }
    }
}

/// Steps both implementations `steps` times and returns the largest position gap.
fn largest_gap(fixed: usize, params: Params, steps: usize) -> f64 {
    let (width, height) = (40, 30);
    let mut reference = Reference::new(width, height, fixed, params);
    let preset = FixedPreset::from_count(fixed).unwrap();
    let mut cloth = Cloth::new(GridSize { width, height }, preset);
    // the reference sweeps in creation order: so must the cloth
    cloth
        .set_params(Params {
            solver_order: SolverOrder::Original,
            ..params
        })
        .unwrap();
    for _ in 0..steps {
        reference.step();
        cloth.step();
    }
    assert!(cloth.is_finite());
    let mut gap: f64 = 0.0;
    for (k, p) in reference.particles.iter().enumerate() {
        let x = cloth.positions()[2 * k] as f64;
        let y = cloth.positions()[2 * k + 1] as f64;
        gap = gap.max((x - p.x[0]).abs()).max((y - p.x[1]).abs());
    }
    gap
}

fn assert_agrees(name: &str, fixed: usize, params: Params) {
    let gap = largest_gap(fixed, params, 100);
    println!("{name}: largest gap after 100 steps = {gap:.2e} m");
    assert!(
        gap < 1e-3,
        "{name}: positions differ by {gap} m after 100 steps"
    );
}

#[test]
fn agrees_with_reference_at_defaults() {
    assert_agrees("defaults", 2, Params::default());
}

#[test]
fn agrees_with_reference_with_one_fixed_particle() {
    assert_agrees("1 fixed", 1, Params::default());
}

#[test]
fn agrees_with_reference_with_four_fixed_particles() {
    assert_agrees("4 fixed", 4, Params::default());
}

#[test]
fn agrees_with_reference_in_pbd_mode() {
    let params = Params {
        stiffness: 0.0,
        ..Params::default()
    };
    assert_agrees("stiffness 0", 2, params);
}

#[test]
fn agrees_with_reference_with_20_iterations() {
    let params = Params {
        iterations: 20,
        ..Params::default()
    };
    assert_agrees("20 iterations", 2, params);
}

#[test]
fn agrees_with_reference_with_half_time_step() {
    let params = Params {
        time_step: 0.005,
        ..Params::default()
    };
    assert_agrees("dt 0.005", 2, params);
}

#[test]
fn the_comparison_can_fail() {
    // A reference run with a different stiffness must not agree: the gap metric
    // is sensitive enough to catch a wrong formula.
    let (width, height) = (40, 30);
    let mut reference = Reference::new(width, height, 2, Params::default());
    reference.stiffness = 500.0;
    let mut cloth = Cloth::new(GridSize { width, height }, Default::default());
    cloth.set_solver_order(SolverOrder::Original).unwrap();
    for _ in 0..100 {
        reference.step();
        cloth.step();
    }
    let gap = reference
        .particles
        .iter()
        .enumerate()
        .map(|(k, p)| (cloth.positions()[2 * k + 1] as f64 - p.x[1]).abs())
        .fold(0.0, f64::max);
    assert!(gap > 1e-2, "stiffness 500 vs 1000 should differ, gap {gap}");
}
