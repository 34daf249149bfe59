//! Bodies (shape matching, `src/kinds/bodies.rs`) against physics, each check
//! against a reference written here in `f64` from the equations (none of the
//! crate's solver code): one pass against a transcription of the formulas of
//! docs/physics.md, "Shape matching"; a spinning body in free flight against
//! the exact rigid motion; a rigid bar on a pin against the physical
//! pendulum, integrated here; energy that contacts never add; a stack that
//! stands; plastic dents against their closed form.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::{assert_step_alike, position_bits};
use xpbd_cloth::cloth::Kinds;
use xpbd_cloth::cloth::{BodyOutline, DEFAULT_DENSITY};
use xpbd_cloth::kinds::{Now, Particles, Positions};
use xpbd_cloth::model::body_presets::STACK_GAP;
use xpbd_cloth::model::body_shapes::rigid;
use xpbd_cloth::model::{BodySpec, DistanceStiffness, Plasticity, Scene, Shape};
use xpbd_cloth::{Cloth, Params};

/// A fixed pseudo-random number in `[-1, 1)` for `k`.
fn jitter(k: usize) -> f64 {
    let x = (k as u64 + 7).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    x as f64 / (1u64 << 23) as f64 - 1.0
}

fn point(values: &[f32], k: usize) -> [f64; 2] {
    [f64::from(values[2 * k]), f64::from(values[2 * k + 1])]
}

/// Total energy of a simulation in `f64`: kinetic, gravitational and the
/// elastic energy of its distance constraints of stiffness `k` (0: none).
fn energy(sim: &Cloth, k: f64) -> f64 {
    let (x, v, w) = (sim.positions(), sim.velocities(), sim.inverse_masses());
    let g = -sim.params().gravity;
    let mut e = 0.0;
    for (i, &wi) in w.iter().enumerate() {
        if wi > 0.0 {
            let m = 1.0 / f64::from(wi);
            let [vx, vy] = point(v, i);
            e += 0.5 * m * (vx * vx + vy * vy) + m * g * point(x, i)[1];
        }
    }
    if k > 0.0 {
        let (ids, rest) = (sim.constraint_ids(), sim.rest_lengths());
        for (c, &r) in rest.iter().enumerate() {
            let (a, b) = (
                point(x, ids[2 * c] as usize),
                point(x, ids[2 * c + 1] as usize),
            );
            let length = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
            e += 0.5 * k * (length - f64::from(r)).powi(2);
        }
    }
    e
}

// ---------------------------------------------------------------------------
// One pass against the formulas

/// The shape-matching pass of docs/physics.md in `f64`: centres (of the
/// pinned particles when there are any, each then weighing the body's mean
/// mass), the rotation `θ = atan2(Σ m q × p, Σ m q · p)`, goals `c + R(θ) q`,
/// and each free particle moved by `(g - x - α̃ u) / (1 + α̃)`.
fn reference_pass(
    x: &mut [[f64; 2]],
    rest: &[[f64; 2]],
    w: &[f64],
    alpha_tilde: f64,
    u: &mut [[f64; 2]],
) {
    let free: Vec<usize> = (0..x.len()).filter(|&i| w[i] > 0.0).collect();
    let pinned: Vec<usize> = (0..x.len()).filter(|&i| w[i] == 0.0).collect();
    let mass: f64 = free.iter().map(|&i| 1.0 / w[i]).sum();
    let mean = |of: &dyn Fn(usize) -> [f64; 2], set: &[usize], weight: &dyn Fn(usize) -> f64| {
        let total: f64 = set.iter().map(|&i| weight(i)).sum();
        let s = set.iter().fold([0.0, 0.0], |s, &i| {
            let p = of(i);
            [s[0] + weight(i) * p[0], s[1] + weight(i) * p[1]]
        });
        [s[0] / total, s[1] / total]
    };
    let (c, c0) = if pinned.is_empty() {
        let m = |i: usize| 1.0 / w[i];
        (mean(&|i| x[i], &free, &m), mean(&|i| rest[i], &free, &m))
    } else {
        (
            mean(&|i| x[i], &pinned, &|_| 1.0),
            mean(&|i| rest[i], &pinned, &|_| 1.0),
        )
    };
    let weight = |i: usize| {
        if w[i] > 0.0 {
            1.0 / w[i]
        } else {
            mass / free.len() as f64
        }
    };
    let (mut dot, mut cross) = (0.0, 0.0);
    for i in 0..x.len() {
        let p = [x[i][0] - c[0], x[i][1] - c[1]];
        let q = [rest[i][0] - c0[0], rest[i][1] - c0[1]];
        dot += weight(i) * (q[0] * p[0] + q[1] * p[1]);
        cross += weight(i) * (q[0] * p[1] - q[1] * p[0]);
    }
    let theta = cross.atan2(dot);
    for &i in &free {
        let q = [rest[i][0] - c0[0], rest[i][1] - c0[1]];
        let g = [
            c[0] + theta.cos() * q[0] - theta.sin() * q[1],
            c[1] + theta.sin() * q[0] + theta.cos() * q[1],
        ];
        for d in 0..2 {
            let du = (g[d] - x[i][d] - alpha_tilde * u[i][d]) / (1.0 + alpha_tilde);
            x[i][d] += du;
            u[i][d] += du;
        }
    }
}

#[test]
fn two_passes_match_the_reference() {
    for (compliance, pinned) in [(0.0, None), (2e-3, None), (5e-4, Some(3)), (0.0, Some(0))] {
        let n = 12;
        let rest: Vec<[f64; 2]> = (0..n)
            .map(|k| [0.3 * jitter(2 * k) + 1.0, 0.2 * jitter(2 * k + 1) - 0.5])
            .collect();
        let mut scene = Scene::default();
        for (k, r) in rest.iter().enumerate() {
            let mass = if Some(k) == pinned {
                0.0
            } else {
                0.2 + 0.1 * (k % 3) as f32
            };
            scene.add_particle(r[0] as f32, r[1] as f32, mass);
        }
        scene.bodies.push(BodySpec {
            particles: (0..n as u32).collect(),
            compliance,
            plastic: None,
        });
        let mut kinds = Kinds::from_scene(&scene).unwrap();
        let w: Vec<f32> = scene
            .masses
            .iter()
            .map(|&m| if m == 0.0 { 0.0 } else { 1.0 / m })
            .collect();
        // moved, turned by 0.4 rad and deformed
        let (s, c) = 0.4f64.sin_cos();
        let mut positions: Vec<f32> = rest
            .iter()
            .enumerate()
            .flat_map(|(k, r)| {
                let [x, y] = [r[0] - 1.0, r[1] + 0.5];
                [
                    (c * x - s * y + 0.3 + 0.02 * jitter(50 + k)) as f32,
                    (s * x + c * y - 0.1 + 0.02 * jitter(90 + k)) as f32,
                ]
            })
            .collect();
        if let Some(k) = pinned {
            positions[2 * k] = rest[k][0] as f32;
            positions[2 * k + 1] = rest[k][1] as f32;
        }
        let mut reference: Vec<[f64; 2]> = (0..n).map(|k| point(&positions, k)).collect();
        let p = Params::default();
        let h = 0.01;
        let now = Now { p, h, time: 0.0 };
        let previous = positions.clone();
        let mut velocities = vec![0.0; 2 * n];
        let mut particles = Particles {
            positions: &mut positions,
            previous: &previous,
            velocities: &mut velocities,
            inverse_mass: &w,
            edges: &[],
        };
        kinds.begin_substep(&mut particles, &now, kinds.on(&p));
        let wide: Vec<f64> = w.iter().map(|&v| f64::from(v)).collect();
        let mut u = vec![[0.0; 2]; n];
        let alpha_tilde = compliance / (h * h);
        for _ in 0..2 {
            let on = kinds.on(&p);
            kinds.solve(
                Positions::Interleaved(&mut positions),
                &previous,
                &w,
                &now,
                on,
            );
            reference_pass(&mut reference, &rest, &wide, alpha_tilde, &mut u);
        }
        let worst = (0..n)
            .map(|k| {
                let d = point(&positions, k);
                (d[0] - reference[k][0])
                    .abs()
                    .max((d[1] - reference[k][1]).abs())
            })
            .fold(0.0, f64::max);
        eprintln!("compliance {compliance}, pinned {pinned:?}: largest difference {worst:.2e} m");
        assert!(
            worst < 2e-6,
            "compliance {compliance}, pinned {pinned:?}: {worst:e} m from the reference"
        );
    }
}

// ---------------------------------------------------------------------------
// Free flight

/// The mass-weighted best rigid fit of `rest` to the particles at `x`: the
/// largest distance of a particle from the rest shape so moved, m.
fn shape_error(x: &[f32], rest: &[[f64; 2]], w: &[f32]) -> f64 {
    let n = rest.len();
    let m: Vec<f64> = w.iter().map(|&v| 1.0 / f64::from(v)).collect();
    let total: f64 = m.iter().sum();
    let centre = |f: &dyn Fn(usize) -> [f64; 2]| {
        let s = (0..n).fold([0.0, 0.0], |s, i| {
            [s[0] + m[i] * f(i)[0], s[1] + m[i] * f(i)[1]]
        });
        [s[0] / total, s[1] / total]
    };
    let (c, c0) = (centre(&|i| point(x, i)), centre(&|i| rest[i]));
    let (mut dot, mut cross) = (0.0, 0.0);
    for i in 0..n {
        let p = [point(x, i)[0] - c[0], point(x, i)[1] - c[1]];
        let q = [rest[i][0] - c0[0], rest[i][1] - c0[1]];
        dot += m[i] * (q[0] * p[0] + q[1] * p[1]);
        cross += m[i] * (q[0] * p[1] - q[1] * p[0]);
    }
    let theta = cross.atan2(dot);
    (0..n)
        .map(|i| {
            let q = [rest[i][0] - c0[0], rest[i][1] - c0[1]];
            let g = [
                c[0] + theta.cos() * q[0] - theta.sin() * q[1],
                c[1] + theta.sin() * q[0] + theta.cos() * q[1],
            ];
            let p = point(x, i);
            ((p[0] - g[0]).powi(2) + (p[1] - g[1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max)
}

#[test]
fn a_spinning_body_in_free_flight_keeps_its_momenta_and_its_shape() {
    let mut scene = Scene::default();
    scene.add_box((0.0, 0.0), (4, 3), (0.1, 0.5, 0.3), rigid());
    let rest: Vec<[f64; 2]> = (0..12).map(|k| point(&scene.positions, k)).collect();
    let mut sim = Cloth::from_scene(&scene).unwrap();
    sim.set_gravity(0.0).unwrap();
    sim.set_substeps(10).unwrap();
    sim.set_iterations(2).unwrap();
    // moving at (0.5, 0.2) m/s and spinning at 3 rad/s about its centre
    let (vc, omega) = ([0.5, 0.2], 3.0);
    let velocities: Vec<f32> = (0..12)
        .flat_map(|k| {
            [
                (vc[0] - omega * rest[k][1]) as f32,
                (vc[1] + omega * rest[k][0]) as f32,
            ]
        })
        .collect();
    let positions = sim.positions().to_vec();
    sim.set_state(&positions, &velocities, 0.0).unwrap();
    let w = sim.inverse_masses().to_vec();
    let momenta = |sim: &Cloth| {
        let (x, v) = (sim.positions(), sim.velocities());
        (0..12).fold([0.0; 3], |s, k| {
            let (m, p, u) = (1.0 / f64::from(w[k]), point(x, k), point(v, k));
            [
                s[0] + m * u[0],
                s[1] + m * u[1],
                s[2] + m * (p[0] * u[1] - p[1] * u[0]),
            ]
        })
    };
    let start = momenta(&sim);
    let (steps, dt, h) = (200, 0.01, 0.001);
    let (mut worst_shape, mut worst) = (0.0f64, [0.0f64; 3]);
    for _ in 0..steps {
        sim.step();
        worst_shape = worst_shape.max(shape_error(sim.positions(), &rest, &w));
        let now = momenta(&sim);
        for d in 0..3 {
            worst[d] = worst[d].max((now[d] - start[d]).abs());
        }
    }
    // the exact rigid motion: the centre moves straight, the body turns at ω
    let t = steps as f64 * dt;
    let (s, c) = (omega * t).sin_cos();
    let off = (0..12)
        .map(|k| {
            let q = rest[k];
            let exact = [
                vc[0] * t + c * q[0] - s * q[1],
                vc[1] * t + s * q[0] + c * q[1],
            ];
            let p = point(sim.positions(), k);
            ((p[0] - exact[0]).powi(2) + (p[1] - exact[1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max);
    // round-off: each substep rounds every position to f32 (half an ulp at
    // the farthest the body gets, 1.5 m), which changes each particle's
    // momentum by up to m·δ/h; over N substeps these add up as a random walk
    let (n, mass, reach) = (12.0f64, 0.5, 1.5);
    let delta = reach * f64::from(f32::EPSILON) / 2.0;
    let substeps = steps as f64 * 10.0;
    let round_off = 3.0 * (n * substeps).sqrt() * mass * delta / h;
    eprintln!(
        "free flight {t} s: shape error {worst_shape:.2e} m, momentum drift {:.2e} {:.2e} kg·m/s, \
         angular {:.2e} kg·m²/s (round-off bound {round_off:.2e}; P {:.2} L {:.3}), from the exact motion {off:.2e} m",
        worst[0], worst[1], worst[2], start[0].hypot(start[1]), start[2]
    );
    assert!(worst_shape < 1e-4, "shape error {worst_shape:e} m");
    assert!(
        worst[0].max(worst[1]) < round_off,
        "momentum drift {worst:?}"
    );
    assert!(
        worst[2] < round_off * reach,
        "angular momentum drift {}",
        worst[2]
    );
    assert!(off < 1e-3, "{off} m from the exact rigid motion");
}

// ---------------------------------------------------------------------------
// The physical pendulum

/// The period of a physical pendulum `θ'' = -(M g d / I) sin θ` released at
/// rest from `amplitude`: RK4 in `f64`, the time between its first and its
/// tenth return through 0 over 9 (interpolated).
fn pendulum_period(k: f64, amplitude: f64) -> f64 {
    let f = |s: [f64; 2]| [s[1], -k * s[0].sin()];
    let (mut s, mut t, h) = ([amplitude, 0.0], 0.0, 1e-5);
    let mut crossings = Vec::new();
    while crossings.len() < 10 {
        let k1 = f(s);
        let k2 = f([s[0] + h / 2.0 * k1[0], s[1] + h / 2.0 * k1[1]]);
        let k3 = f([s[0] + h / 2.0 * k2[0], s[1] + h / 2.0 * k2[1]]);
        let k4 = f([s[0] + h * k3[0], s[1] + h * k3[1]]);
        let next = [
            s[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
        if s[0] > 0.0 && next[0] <= 0.0 {
            crossings.push(t + h * s[0] / (s[0] - next[0]));
        }
        (s, t) = (next, t + h);
    }
    (crossings[9] - crossings[0]) / 9.0
}

#[test]
fn a_rigid_bar_on_a_pin_swings_with_the_period_of_a_physical_pendulum() {
    // a bar of 2 × 10 particles 0.1 m apart, pinned at its top left corner
    let local: Vec<[f64; 2]> = (0..20)
        .map(|k| [0.1 * (k % 2) as f64, -0.1 * (k / 2) as f64])
        .collect();
    let free = &local[1..];
    let (m, g) = (0.5, 9.81);
    let total = m * free.len() as f64;
    let com = free
        .iter()
        .fold([0.0, 0.0], |s, p| [s[0] + p[0] / 19.0, s[1] + p[1] / 19.0]);
    let d = com[0].hypot(com[1]);
    let inertia: f64 = free.iter().map(|p| m * (p[0] * p[0] + p[1] * p[1])).sum();
    let k = total * g * d / inertia;
    let amplitude = 0.05;
    let reference = pendulum_period(k, amplitude);
    let small = 2.0 * std::f64::consts::PI / k.sqrt();
    // turned so the centre of mass hangs `amplitude` off straight down
    let turn = amplitude - com[0].atan2(-com[1]);
    let (s, c) = turn.sin_cos();
    let mut scene = Scene::default();
    for (i, p) in local.iter().enumerate() {
        let mass = if i == 0 { 0.0 } else { m as f32 };
        scene.add_particle(
            (c * p[0] - s * p[1]) as f32,
            (s * p[0] + c * p[1]) as f32,
            mass,
        );
    }
    scene.bodies.push(BodySpec {
        particles: (0..20).collect(),
        ..rigid()
    });
    for (substeps, iterations) in [(1, 5), (10, 2)] {
        let mut sim = Cloth::from_scene(&scene).unwrap();
        sim.set_substeps(substeps).unwrap();
        sim.set_iterations(iterations).unwrap();
        let angle = |sim: &Cloth| {
            let x = sim.positions();
            let c = (1..20).fold([0.0, 0.0], |s, k| {
                [s[0] + point(x, k)[0], s[1] + point(x, k)[1]]
            });
            c[0].atan2(-c[1])
        };
        let (mut last, mut crossings) = (angle(&sim), Vec::new());
        let dt = sim.params().time_step;
        for step in 1..=1200 {
            sim.step();
            let a = angle(&sim);
            if last > 0.0 && a <= 0.0 {
                crossings.push((step as f64 - 1.0 + last / (last - a)) * dt);
            }
            last = a;
        }
        let measured =
            (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
        let error = measured / reference - 1.0;
        eprintln!(
            "pendulum {substeps} × {iterations}: period {measured:.5} s, reference {reference:.5} s \
             (small angles {small:.5} s): {:+.3} %",
            100.0 * error
        );
        assert!(
            error.abs() < 0.01,
            "{substeps} × {iterations}: period off by {:.2} %",
            100.0 * error
        );
    }
}

// ---------------------------------------------------------------------------
// Energy from contacts

/// How far [`energy`] of `sim` may be off from rounding its `f32` state: each
/// position and velocity rounded by half an ulp changes each term by its
/// derivative times that (`m g δy`, `m |v| δv`, `k |C| (δa + δb)` for each
/// constraint), summed at full size.
fn energy_round_off(sim: &Cloth, k: f64) -> f64 {
    let (x, v, w) = (sim.positions(), sim.velocities(), sim.inverse_masses());
    let ulp = |value: f32| f64::from(value.abs()) * f64::from(f32::EPSILON) / 2.0;
    let g = sim.params().gravity.abs();
    let mut bound = 0.0;
    for i in 0..w.len() {
        if w[i] > 0.0 {
            let m = 1.0 / f64::from(w[i]);
            let speed = point(v, i)[0].hypot(point(v, i)[1]);
            bound += m * g * ulp(x[2 * i + 1]) + m * speed * (ulp(v[2 * i]) + ulp(v[2 * i + 1]));
        }
    }
    if k > 0.0 {
        let (ids, rest) = (sim.constraint_ids(), sim.rest_lengths());
        for (c, &r) in rest.iter().enumerate() {
            let (a, b) = (ids[2 * c] as usize, ids[2 * c + 1] as usize);
            let (pa, pb) = (point(x, a), point(x, b));
            let stretch = ((pa[0] - pb[0]).hypot(pa[1] - pb[1]) - f64::from(r)).abs();
            let moved = ulp(x[2 * a]) + ulp(x[2 * a + 1]) + ulp(x[2 * b]) + ulp(x[2 * b + 1]);
            bound += k * stretch * moved;
        }
    }
    bound
}

/// Steps `sim` `steps` times; returns the largest rise of [`energy`] from one
/// step to the next, beyond the round-off of both ([`energy_round_off`]),
/// once any particle of `body` came below `touch`, the number of such rises,
/// and the kinetic energy at the end.
fn rises_after_impact(
    sim: &mut Cloth,
    k: f64,
    touch: f32,
    body: &[u32],
    steps: usize,
) -> (f64, usize, f64) {
    let (mut before, mut touched) = (energy(sim, k), false);
    let (mut worst, mut rises) = (0.0f64, 0);
    let mut round_off = energy_round_off(sim, k);
    for _ in 0..steps {
        sim.step();
        let now = energy(sim, k);
        let now_round_off = energy_round_off(sim, k);
        let rise = now - before - round_off - now_round_off;
        round_off = now_round_off;
        if touched && now > before {
            worst = worst.max(now - before);
        }
        if touched && rise > 0.0 {
            rises += 1;
        }
        touched |= body
            .iter()
            .any(|&i| sim.positions()[2 * i as usize + 1] < touch);
        before = now;
    }
    (worst, rises, sim.kinetic_energy())
}

#[test]
fn a_box_dropped_on_the_ground_loses_energy_at_every_step_and_comes_to_rest() {
    let mut scene = Scene::default();
    let body = scene.add_box((0.0, 0.6), (4, 4), (0.1, 0.5, 0.0), rigid());
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let mut sim = Cloth::from_scene(&scene).unwrap();
    sim.set_substeps(10).unwrap();
    sim.set_iterations(2).unwrap();
    let (worst, rises, kinetic) = rises_after_impact(&mut sim, 0.0, 0.06, &body, 300);
    eprintln!("box on the ground: largest rise {worst:.2e} J, {rises} beyond round-off; kinetic energy at 3 s {kinetic:.1e} J");
    assert_eq!(
        rises, 0,
        "energy rose beyond round-off (by up to {worst:e} J)"
    );
    assert!(kinetic < 1e-6, "still moving: {kinetic} J");
}

/// A trampoline strip of `columns` × 3 particles 0.1 m apart pinned at both
/// ends (`k` N/m), and a 4 × 4 box above its middle; returns the box's
/// particles.
fn trampoline(scene: &mut Scene, columns: usize, k: f64) -> Vec<u32> {
    let left = -0.05 * (columns - 1) as f32;
    for i in 0..3 {
        for j in 0..columns {
            let mass = if j == 0 || j == columns - 1 {
                0.0
            } else {
                0.05
            };
            scene.add_particle(left + 0.1 * j as f32, -0.1 * i as f32, mass);
        }
    }
    let at = |i: usize, j: usize| (i * columns + j) as u32;
    for i in 0..3 {
        for j in 0..columns {
            if j + 1 < columns {
                scene.add_distance(at(i, j), at(i, j + 1));
            }
            if i + 1 < 3 {
                scene.add_distance(at(i, j), at(i + 1, j));
            }
        }
    }
    scene.distance_stiffness = DistanceStiffness::Uniform(k);
    scene.add_box((0.0, 0.5), (4, 4), (0.1, 0.15, 0.0), rigid())
}

#[test]
fn a_box_dropped_on_a_trampoline_loses_energy_at_every_step_and_comes_to_rest() {
    let k = 10_000.0;
    let mut scene = Scene::default();
    let body = trampoline(&mut scene, 31, k);
    let mut sim = Cloth::from_scene(&scene).unwrap();
    // the trampoline preset's substeps and iterations, and air drag 0.5/s
    let preset = Cloth::from_preset("trampoline", &[]).unwrap().params();
    sim.set_substeps(preset.substeps).unwrap();
    sim.set_iterations(preset.iterations).unwrap();
    sim.set_velocity_damping(0.5).unwrap();
    let (worst, rises, kinetic) = rises_after_impact(&mut sim, k, 0.12, &body, 3000);
    eprintln!(
        "box on a trampoline, {} × {}: largest rise {worst:.2e} J, {rises} beyond round-off; kinetic energy at 30 s {kinetic:.1e} J",
        preset.substeps, preset.iterations
    );
    assert_eq!(
        rises, 0,
        "energy rose beyond round-off (by up to {worst:e} J)"
    );
    assert!(kinetic < 1e-5, "still moving: {kinetic} J");
}

// ---------------------------------------------------------------------------
// The stack

#[test]
fn the_stack_of_five_boxes_stands_for_a_minute_at_its_substeps() {
    let mut sim = Cloth::from_preset("box-stack", &[]).unwrap();
    let p = sim.params();
    eprintln!(
        "box-stack: {} substeps × {} iterations",
        p.substeps, p.iterations
    );
    // fallen into place
    let steps = (1.0 / p.time_step).round() as usize;
    for _ in 0..steps {
        sim.step();
    }
    let settled = sim.positions().to_vec();
    let mut worst = 0.0f64;
    for _ in 0..60 * steps {
        sim.step();
        let x = sim.positions();
        for k in 0..x.len() / 2 {
            let (a, b) = (point(x, k), point(&settled, k));
            worst = worst.max((a[0] - b[0]).hypot(a[1] - b[1]));
        }
    }
    // no box turned: each one's bottom row level
    let x = sim.positions();
    let tilt = (0..5)
        .map(|b| {
            let (first, last) = (point(x, 16 * b), point(x, 16 * b + 3));
            ((last[1] - first[1]) / (last[0] - first[0])).atan().abs()
        })
        .fold(0.0, f64::max);
    eprintln!(
        "box-stack over 60 s: moved at most {:.2} mm, boxes tilted at most {tilt:.1e} rad",
        worst * 1e3
    );
    assert!(worst < 0.01, "drifted {worst} m");
    assert!(tilt < 0.01, "a box turned {tilt} rad");
    const { assert!(STACK_GAP < 0.02) };
}

// ---------------------------------------------------------------------------
// Plasticity

/// A 4 × 4 plastic box, rigid, no gravity; its particle 0 pinned and
/// particle 15 (the opposite corner) held `pull` m farther out along the
/// diagonal for `hold` steps, then both let go and the box left for a
/// second. Returns the distance between the two corners, the box's RMS
/// radius and the simulation.
fn stretched(plastic: Plasticity, pull: f64, hold: usize) -> (f64, f64, Cloth) {
    let mut scene = Scene::default();
    scene.add_box((0.0, 0.0), (4, 4), (0.1, 0.5, 0.0), rigid());
    scene.bodies[0].plastic = Some(plastic);
    let mut sim = Cloth::from_scene(&scene).unwrap();
    sim.set_gravity(0.0).unwrap();
    sim.set_pinned(0, true).unwrap();
    // held pinned, so the corner sits exactly where it is dragged (a free
    // particle would follow through the grab's spring)
    sim.set_pinned(15, true).unwrap();
    sim.grab(15).unwrap();
    let corner = point(sim.positions(), 15);
    let out = pull / 2f64.sqrt();
    sim.drag(corner[0] + out, corner[1] + out).unwrap();
    for _ in 0..hold {
        sim.step();
    }
    sim.release();
    sim.set_pinned(15, false).unwrap();
    sim.set_pinned(0, false).unwrap();
    for _ in 0..100 {
        sim.step();
    }
    let (a, b) = (point(sim.positions(), 0), point(sim.positions(), 15));
    let radius = sim.kinds().bodies.radius(0);
    ((a[0] - b[0]).hypot(a[1] - b[1]), radius, sim)
}

#[test]
fn below_the_yield_a_plastic_body_springs_back_exactly() {
    let plastic = Plasticity {
        yield_strain: 0.2,
        creep: 50.0,
        max: 0.5,
    };
    let diagonal = 0.3 * 2f64.sqrt();
    // each held corner is half the pull from its goal, 0.02 m: below 0.2
    // times the RMS radius (0.158 m)
    let (distance, radius, sim) = stretched(plastic, 0.04, 50);
    assert!(
        0.02 < plastic.yield_strain * radius,
        "the test's pull is not below the yield"
    );
    let b = &sim.kinds().bodies;
    assert_eq!(
        b.rest(0),
        b.original_rest(0),
        "the rest shape changed below the yield"
    );
    let rest: Vec<[f64; 2]> = (0..16).map(|k| point(b.original_rest(0), k)).collect();
    let error = shape_error(sim.positions(), &rest, sim.inverse_masses());
    eprintln!("below the yield: corners {distance:.6} m apart (at rest {diagonal:.6}), shape error {error:.1e} m");
    assert!((distance - diagonal).abs() < 1e-5);
    assert!(error < 1e-5);
}

#[test]
fn above_the_yield_the_dent_stays_as_yield_and_creep_say() {
    let diagonal = 0.3 * 2f64.sqrt();
    let (substeps, h) = (1.0, 0.01);
    for (yield_strain, creep, pull, hold) in [
        (0.05, 10.0, 0.1, 20),
        (0.05, 10.0, 0.1, 60),
        (0.1, 30.0, 0.12, 10),
        (0.02, 200.0, 0.06, 5),
    ] {
        let plastic = Plasticity {
            yield_strain,
            creep,
            max: 0.5,
        };
        let (distance, radius, sim) = stretched(plastic, pull, hold);
        // each held corner is pull/2 from its goal; beyond the yield the
        // excess shrinks by 1 - k per substep (k = min(1, creep h)), and each
        // corner's rest position has moved out by what the excess lost
        let k = (creep * h).min(1.0);
        let n = hold as f64 * substeps;
        let excess = pull / 2.0 - yield_strain * radius;
        let moved = excess * (1.0 - (1.0 - k).powf(n));
        let expected = diagonal + 2.0 * moved.min(plastic.max * radius);
        let dent = distance - diagonal;
        eprintln!(
            "yield {yield_strain}, creep {creep}/s, pull {pull} m for {hold} steps: stretched {dent:.5} m for good, \
             closed form {:.5} m",
            expected - diagonal
        );
        assert!(dent > 0.0);
        assert!(
            (distance - expected).abs() < 2e-4,
            "{distance} m against {expected} m"
        );
        assert!(sim.is_finite());
    }
}

// ---------------------------------------------------------------------------
// Saved states and bodies added while running

#[test]
fn a_restored_plastic_body_continues_bit_for_bit() {
    let plastic = Plasticity {
        yield_strain: 0.02,
        creep: 20.0,
        max: 0.5,
    };
    let (_, _, mut sim) = stretched(plastic, 0.1, 10);
    assert_ne!(
        sim.kinds().bodies.rest(0),
        sim.kinds().bodies.original_rest(0)
    );
    let state = sim.saved_state().unwrap();
    assert!(state
        .kinds
        .iter()
        .any(|(name, values)| name == "bodies" && values.len() == 32));
    let mut scene = Scene::default();
    scene.add_box((0.0, 0.0), (4, 4), (0.1, 0.5, 0.0), rigid());
    scene.bodies[0].plastic = Some(plastic);
    let mut copy = Cloth::from_scene(&scene).unwrap();
    copy.restore_state(&state).unwrap();
    assert_step_alike(&mut sim, &mut copy, 50, "");
    assert_eq!(sim.kinds().bodies.rest(0), copy.kinds().bodies.rest(0));
}

// ---------------------------------------------------------------------------
// Refusals

/// A scene of a 3 × 3 block of particles 0.1 m apart and `bodies`.
fn block(bodies: Vec<BodySpec>) -> Scene {
    let mut scene = Scene::default();
    for k in 0..9 {
        scene.add_particle(0.1 * (k % 3) as f32, 0.1 * (k / 3) as f32, 0.5);
    }
    scene.bodies = bodies;
    scene
}

fn body(particles: &[u32]) -> BodySpec {
    BodySpec {
        particles: particles.to_vec(),
        ..rigid()
    }
}

#[test]
fn wrong_bodies_are_refused_naming_the_entry() {
    let plastic = |yield_strain, creep, max| BodySpec {
        plastic: Some(Plasticity {
            yield_strain,
            creep,
            max,
        }),
        ..body(&[0, 1, 3])
    };
    let cases: Vec<(&str, Vec<BodySpec>, usize, &str)> = vec![
        (
            "empty",
            vec![body(&[0, 1, 3]), body(&[])],
            1,
            "has no particles",
        ),
        ("one particle", vec![body(&[4])], 0, "has 1 particle,"),
        ("two particles", vec![body(&[4, 5])], 0, "has 2 particles"),
        ("on one line", vec![body(&[0, 4, 8])], 0, "on one line"),
        (
            "in two bodies",
            vec![body(&[0, 1, 3]), body(&[4, 5, 1])],
            1,
            "in another body",
        ),
        ("twice in one", vec![body(&[0, 1, 3, 1])], 0, "twice"),
        (
            "no such particle",
            vec![body(&[0, 1, 9])],
            0,
            "names particle 9",
        ),
        (
            "negative compliance",
            vec![BodySpec {
                compliance: -1.0,
                ..body(&[0, 1, 3])
            }],
            0,
            "compliance",
        ),
        (
            "NaN compliance",
            vec![BodySpec {
                compliance: f64::NAN,
                ..body(&[0, 1, 3])
            }],
            0,
            "compliance",
        ),
        (
            "negative yield",
            vec![plastic(-0.1, 1.0, 0.5)],
            0,
            "plastic.yield",
        ),
        (
            "infinite creep",
            vec![plastic(0.1, f64::INFINITY, 0.5)],
            0,
            "plastic.creep",
        ),
        (
            "NaN cap",
            vec![plastic(0.1, 1.0, f64::NAN)],
            0,
            "plastic.max",
        ),
    ];
    for (what, bodies, index, words) in cases {
        let error = Cloth::from_scene(&block(bodies)).expect_err(what);
        assert_eq!(
            (error.field(), error.code()),
            ("bodies", "invalid_scene"),
            "{what}: {error}"
        );
        let text = error.to_string();
        assert!(
            text.contains(&format!("bodies[{index}]")) && text.contains(words),
            "{what}: {text}"
        );
    }
    // more than the limit, refused by their count
    let many = vec![body(&[0, 1, 3]); xpbd_cloth::kinds::bodies::MAX_BODIES + 1];
    let error = Cloth::from_scene(&block(many)).unwrap_err();
    assert!(error.to_string().contains("at most 10000"), "{error}");
    // a particle in a body and in distance constraints at once is fine
    let mut scene = block(vec![body(&[0, 1, 3, 4])]);
    scene.add_distance(4, 8);
    Cloth::from_scene(&scene).unwrap();
}

/// A 12 × 8 cloth 0.1 m apart pinned at its top corners, with particle
/// radius 0.05 m: what bodies are dropped on below.
fn small_cloth() -> Cloth {
    let mut scene = Scene::default();
    let (w, h) = (12, 8);
    for i in 0..h {
        for j in 0..w {
            let pinned = i == 0 && (j == 0 || j == w - 1);
            scene.add_particle(
                0.1 * j as f32,
                -0.1 * i as f32,
                if pinned { 0.0 } else { 0.05 },
            );
        }
    }
    for i in 0..h {
        for j in 0..w {
            let k = (i * w + j) as u32;
            if j + 1 < w {
                scene.add_distance(k, k + 1);
            }
            if i + 1 < h {
                scene.add_distance(k, k + w as u32);
            }
        }
    }
    Cloth::from_scene(&scene).unwrap()
}

/// A 3 × 3 box above `(x, y)`, as a scene to add.
fn box_to_add(x: f32, y: f32) -> Scene {
    let mut scene = Scene::default();
    scene.add_box((x, y), (3, 3), (0.1, 0.1, 0.0), rigid());
    scene
}

#[test]
fn a_body_added_while_running_falls_onto_the_cloth_and_stays_on_it() {
    let mut sim = small_cloth();
    sim.set_substeps(10).unwrap();
    sim.set_iterations(2).unwrap();
    for _ in 0..50 {
        sim.step();
    }
    let n = sim.num_particles();
    let first = sim.add_bodies(&box_to_add(0.55, 0.6)).unwrap();
    assert_eq!(
        (first, sim.num_particles(), sim.kinds().bodies.len()),
        (n, n + 9, 1)
    );
    assert_eq!(
        sim.kinds().bodies.particles(0),
        &(n as u32..n as u32 + 9).collect::<Vec<_>>()[..]
    );
    for _ in 0..300 {
        sim.step();
    }
    // it rests on the cloth's top edge, not in the cloth or through it: its
    // lowest particle above the highest of the cloth's top row within its
    // width
    let x = sim.positions();
    let box_x = (n..n + 9).map(|k| x[2 * k]).fold(0.0, |s, v| s + v / 9.0);
    let lowest = (n..n + 9).map(|k| x[2 * k + 1]).fold(f32::MAX, f32::min);
    let under = (0..12)
        .filter(|&k| (x[2 * k] - box_x).abs() < 0.15)
        .map(|k| x[2 * k + 1])
        .fold(f32::MIN, f32::max);
    eprintln!(
        "added box: lowest particle {lowest:.3} m, the cloth's top edge under it {under:.3} m"
    );
    assert!(sim.is_finite());
    assert!(lowest > under, "the box sank into the cloth");
}

#[test]
fn wrong_additions_are_refused_and_change_nothing() {
    let mut sim = small_cloth();
    sim.step();
    let mut lines = box_to_add(0.5, 1.0);
    lines.add_distance(0, 1);
    let mut collinear = Scene::default();
    for k in 0..3 {
        collinear.add_particle(0.1 * k as f32, 1.0, 0.1);
    }
    collinear.bodies.push(body(&[0, 1, 2]));
    let mut twice = box_to_add(0.5, 1.0);
    twice.bodies.push(body(&[0, 1, 3]));
    let mut far = box_to_add(0.5, 1.0);
    far.positions[0] = 2e6;
    let mut colliders = box_to_add(0.5, 1.0);
    colliders.colliders.push(Shape::Ground { y: -5.0 });
    for (what, scene, field) in [
        ("distances", lines, "distances"),
        ("on one line", collinear, "bodies"),
        ("a particle in two bodies", twice, "bodies"),
        ("a position too far", far, "positions"),
        ("colliders", colliders, "colliders"),
    ] {
        let before = sim.clone();
        let error = sim.add_bodies(&scene).expect_err(what);
        assert_eq!(error.field(), field, "{what}: {error}");
        assert!(sim == before, "{what}: changed the simulation");
    }
    // too much work with it: refused, and the simulation as it was
    sim.set_substeps(100).unwrap();
    sim.set_iterations(100).unwrap();
    let mut heavy = Scene::default();
    for b in 0..60 {
        heavy.add_box((b as f32, 3.0), (10, 10), (0.1, 0.1, 0.0), rigid());
    }
    let before = sim.clone();
    let error = sim.add_bodies(&heavy).unwrap_err();
    assert_eq!(error.field(), "bodies", "{error}");
    assert!(error.to_string().contains("work"), "{error}");
    assert!(sim == before, "a refused addition changed the simulation");
    sim.step();
}

#[test]
fn a_state_with_added_bodies_restores_into_the_same_additions_bit_for_bit() {
    let mut sim = small_cloth();
    sim.step();
    sim.add_bodies(&box_to_add(0.3, 0.5)).unwrap();
    for _ in 0..20 {
        sim.step();
    }
    let mut ball = Scene::default();
    ball.add_ball((0.8, 0.6), 0.15, (0.1, 0.2), rigid());
    sim.add_bodies(&ball).unwrap();
    for _ in 0..30 {
        sim.step();
    }
    let state = sim.saved_state().unwrap();
    // the same cloth with the same additions, restored
    let mut copy = small_cloth();
    copy.add_bodies(&box_to_add(0.3, 0.5)).unwrap();
    copy.add_bodies(&ball).unwrap();
    copy.restore_state(&state).unwrap();
    assert_step_alike(&mut sim, &mut copy, 60, "");
    // a cloth with other additions does not take it
    let mut other = small_cloth();
    other.add_bodies(&ball).unwrap();
    assert_eq!(other.restore_state(&state).unwrap_err().field(), "added");
}

#[test]
fn a_state_refused_after_its_additions_are_replayed_changes_nothing() {
    use xpbd_cloth::cloth::RopeSpec;
    let mut sim = small_cloth();
    sim.add_bodies(&box_to_add(0.3, 0.5)).unwrap();
    let rope = RopeSpec {
        points: vec![0.2, 1.0, 0.9, 1.0],
        spacing: Some(0.1),
        mass: None,
    };
    sim.add_rope(&rope).unwrap();
    for _ in 0..10 {
        sim.step();
    }
    let state = sim.saved_state().unwrap();
    // compared as printed: added particles' NaN rest positions equal there
    let same = |a: &Cloth, b: &Cloth| format!("{a:?}") == format!("{b:?}");
    let mut velocity = state.clone();
    let last = velocity.velocities.len() - 1;
    velocity.velocities[last] = f32::NAN;
    let mut kinds = state.clone();
    kinds.kinds.push(("bodies".into(), vec![0.0]));
    let mut order = state.clone();
    order.constraints.reverse();
    for (wrong, field) in [
        (velocity, "velocities"),
        (kinds, "kinds"),
        (order, "constraints"),
    ] {
        // into a cloth part way through a step: it stays part way through
        let mut target = small_cloth();
        target.step();
        target.advance(1, 1);
        assert!(target.step_in_progress());
        let before = target.clone();
        let error = target.restore_state(&wrong).unwrap_err();
        assert_eq!(error.field(), field, "{error}");
        assert!(same(&target, &before), "{field}: changed the simulation");
        let mut untouched = before.clone();
        assert_step_alike(&mut target, &mut untouched, 20, field);
        // the right state still restores into it, and continues bit for bit
        target.restore_state(&state).unwrap();
        let mut continued = sim.clone();
        assert_step_alike(&mut continued, &mut target, 30, field);
    }
}

#[test]
fn scenes_with_bodies_step_in_slices_bit_for_bit() {
    for name in ["trampoline", "wrecking-ball", "plastic-can"] {
        let mut whole = Cloth::from_preset(name, &[]).unwrap();
        let mut sliced = whole.clone();
        for _ in 0..40 {
            whole.step();
        }
        let mut finished = 0;
        while finished < 40 {
            finished += sliced.advance(1, 20_000).0;
        }
        assert_eq!(position_bits(&whole), position_bits(&sliced), "{name}");
    }
}

/// A body's outline: a square of side `side` with its lower left at `(x, y)`.
fn square_outline(x: f64, y: f64, side: f64) -> Vec<f64> {
    vec![x, y, x + side, y, x + side, y + side, x, y + side]
}

fn outline_body(outline: Vec<f64>) -> BodyOutline {
    BodyOutline {
        outline,
        spacing: Some(0.1),
        density: None,
        compliance: 0.0,
        plastic: None,
    }
}

#[test]
fn a_body_added_by_its_outline_fills_it_on_a_grid() {
    let mut sim = small_cloth();
    let n = sim.num_particles();
    let index = sim
        .add_body(&outline_body(square_outline(0.3, 1.0, 0.4)))
        .unwrap();
    assert_eq!(index, 0);
    // a 0.4 m square at 0.1 m: a 5 × 5 grid on its bounding box, of which the
    // right column and the top row lie on its sides and are outside
    assert_eq!(sim.num_particles(), n + 16);
    assert_eq!(sim.kinds().bodies.particles(0).len(), 16);
    // each particle weighs the default density times spacing²
    let w = sim.inverse_masses()[n];
    assert!(
        (1.0 / f64::from(w) - DEFAULT_DENSITY * 0.01).abs() < 1e-6,
        "{w}"
    );
    // a triangle, clockwise, with a density and a compliance: the next body
    let mut triangle = outline_body(vec![0.0, 2.0, 0.0, 2.6, 0.6, 2.0]);
    triangle.density = Some(30.0);
    triangle.compliance = 1e-3;
    assert_eq!(sim.add_body(&triangle).unwrap(), 1);
    assert!(sim.kinds().bodies.particles(1).len() >= 10);
    assert_eq!(sim.kinds().bodies.compliance(1), 1e-3);
    for _ in 0..100 {
        sim.step();
    }
    assert!(sim.is_finite());
}

#[test]
fn wrong_outlines_are_refused_naming_the_field_and_change_nothing() {
    let mut sim = small_cloth();
    sim.step();
    let with = |edit: &dyn Fn(&mut BodyOutline)| {
        let mut body = outline_body(square_outline(0.3, 1.0, 0.4));
        edit(&mut body);
        body
    };
    let cases: Vec<(&str, BodyOutline, &str)> = vec![
        (
            "two corners",
            outline_body(vec![0.0, 0.0, 1.0, 1.0]),
            "outline",
        ),
        (
            "an odd count",
            outline_body(vec![0.0, 0.0, 1.0, 1.0, 2.0]),
            "outline",
        ),
        ("NaN", with(&|b| b.outline[3] = f64::NAN), "outline"),
        ("too far", with(&|b| b.outline[0] = 2e6), "outline"),
        (
            "too small to hold 3 points",
            outline_body(square_outline(0.0, 1.0, 0.05)),
            "outline",
        ),
        (
            "a sliver on one line",
            outline_body(vec![0.0, 1.0, 1.0, 1.0, 1.0, 1.05, 0.0, 1.05]),
            "outline",
        ),
        ("spacing 0", with(&|b| b.spacing = Some(0.0)), "spacing"),
        (
            "spacing too fine for the box",
            with(&|b| b.spacing = Some(1e-3)),
            "spacing",
        ),
        (
            "density negative",
            with(&|b| b.density = Some(-1.0)),
            "density",
        ),
        (
            "compliance negative",
            with(&|b| b.compliance = -1.0),
            "compliance",
        ),
        (
            "plastic yield NaN",
            with(&|b| {
                b.plastic = Some(Plasticity {
                    yield_strain: f64::NAN,
                    creep: 1.0,
                    max: 1.0,
                })
            }),
            "plastic",
        ),
    ];
    for (what, body, field) in cases {
        let before = sim.clone();
        let error = sim.add_body(&body).expect_err(what);
        assert_eq!(error.field(), field, "{what}: {error}");
        assert_eq!(error.code(), "invalid_value", "{what}: {error}");
        assert!(sim == before, "{what}: changed the simulation");
    }
    // three messages in full: the value as given, then what is allowed
    let nan_yield = with(&|b| {
        b.plastic = Some(Plasticity {
            yield_strain: f64::NAN,
            creep: 1.0,
            max: 1.0,
        })
    });
    for (body, message) in [
        (nan_yield, "invalid plastic: got plastic.yield NaN, expected a number from 0 to 100 (a fraction of the body's radius)"),
        (outline_body(square_outline(0.0, 1.0, 0.05)), "invalid outline: got an outline enclosing 1 grid point at spacing 0.1 m, expected one enclosing at least 3 not on one line (draw it larger, or give a smaller spacing)"),
        (outline_body(vec![0.0, 1.0, 1.0, 1.0, 1.0, 1.05, 0.0, 1.05]), "invalid outline: got an outline enclosing 10 grid points on one line at spacing 0.1 m, expected one enclosing at least 3 not on one line (draw it larger, or give a smaller spacing)"),
    ] {
        assert_eq!(sim.add_body(&body).unwrap_err().to_string(), message);
    }
}

#[test]
fn a_state_with_added_bodies_restores_into_a_fresh_cloth_bit_for_bit() {
    let mut sim = small_cloth();
    sim.step();
    sim.add_body(&outline_body(square_outline(0.3, 0.8, 0.3)))
        .unwrap();
    for _ in 0..10 {
        sim.step();
    }
    // the mass parameter changed between two additions: the second's masses
    // are kept at the parameter it was added at
    sim.set_mass(0.3).unwrap();
    let mut plastic = outline_body(vec![0.6, 1.2, 1.0, 1.2, 0.8, 1.6]);
    plastic.density = Some(20.0);
    plastic.compliance = 1e-4;
    plastic.plastic = Some(Plasticity {
        yield_strain: 0.01,
        creep: 5.0,
        max: 0.5,
    });
    sim.add_body(&plastic).unwrap();
    for _ in 0..40 {
        sim.step();
    }
    let state = sim.saved_state().unwrap();
    assert_eq!(state.added.len(), 2);
    let mut fresh = small_cloth();
    fresh.restore_state(&state).unwrap();
    assert_eq!(fresh.num_particles(), sim.num_particles());
    assert_eq!(fresh.kinds().bodies.len(), 2);
    assert_step_alike(&mut sim, &mut fresh, 60, "");
    let speeds = |c: &Cloth| {
        c.velocities()
            .iter()
            .map(|v| v.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(speeds(&sim), speeds(&fresh));
    assert_eq!(sim.kinds().bodies.rest(1), fresh.kinds().bodies.rest(1));
    // a cloth with other additions refuses the state and stays as it was
    let mut other = small_cloth();
    other
        .add_body(&outline_body(square_outline(0.0, 2.0, 0.3)))
        .unwrap();
    other.step();
    let before = other.clone();
    let error = other.restore_state(&state).unwrap_err();
    assert_eq!(error.field(), "added", "{error}");
    // added particles have NaN rest positions in the contacts (no rest
    // distance to any particle): compared as printed, NaN equals NaN
    let same = |a: &Cloth, b: &Cloth| format!("{a:?}") == format!("{b:?}");
    assert!(same(&other, &before));
    // a state whose additions do not fit: refused, nothing changed
    let mut wrong = state.clone();
    wrong.added[1].scene.positions[0] = f32::NAN;
    let mut target = small_cloth();
    target.step();
    let before = target.clone();
    assert_eq!(target.restore_state(&wrong).unwrap_err().field(), "added");
    assert!(same(&target, &before));
}
