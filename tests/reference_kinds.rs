//! Bending, area constraints and tethers against an independent reference.
//!
//! Like `tests/reference.rs` does for the distance constraints, the functions
//! below are plain `f64` transcriptions of the formulas (module docs of
//! `area`, `bending`, `tethers`), with their own loops and their own list of
//! bending pairs; they share no solver code with the crate. One pass of the
//! crate's pass of the constraint kinds ([`Kinds::solve`]) is compared with
//! them, position by position.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod paths;
}

use common::paths::nearest_pins;
use xpbd_cloth::cloth::Kinds;
use xpbd_cloth::kinds::{Now, Particles, Positions, Topology};
use xpbd_cloth::model::grid;
use xpbd_cloth::model::{AreaSpec, Bending, DistanceStiffness, Scene};
use xpbd_cloth::{FixedPreset, GridSize, Params};

/// A fixed pseudo-random number in `[-1, 1)` for `k`.
fn jitter(k: usize) -> f64 {
    let x = (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    x as f64 / (1u64 << 23) as f64 - 1.0
}

fn scene(positions: Vec<f32>, masses: Vec<f32>, distances: Vec<u32>) -> Scene {
    Scene {
        positions,
        masses,
        distances,
        distance_stiffness: DistanceStiffness::Uniform(1000.0),
        ..Scene::default()
    }
}

/// The start of a substep of `h` seconds with parameters `p` for every kind
/// on (the multipliers back to 0), the particles at rest at `positions`.
fn begin_substep(kinds: &mut Kinds, positions: &mut [f32], w: &[f32], p: &Params, h: f64) {
    let previous = positions.to_vec();
    let mut velocities = vec![0.0; positions.len()];
    let mut particles = Particles {
        positions,
        previous: &previous,
        velocities: &mut velocities,
        inverse_mass: w,
        edges: &[],
    };
    let now = Now {
        p: *p,
        h,
        time: 0.0,
    };
    kinds.begin_substep(&mut particles, &now, kinds.on(p));
}

/// One pass of every kind on, after a sweep, on `positions`.
fn solve(kinds: &mut Kinds, positions: &mut [f32], w: &[f32], p: &Params, h: f64) {
    let previous = positions.to_vec();
    let now = Now {
        p: *p,
        h,
        time: 0.0,
    };
    let on = kinds.on(p);
    kinds.solve(Positions::Interleaved(positions), &previous, w, &now, on);
}

fn inverse_masses(masses: &[f32]) -> Vec<f32> {
    masses
        .iter()
        .map(|&m| if m == 0.0 { 0.0 } else { 1.0 / m })
        .collect()
}

/// The largest coordinate difference between the crate's positions and the
/// reference's.
fn largest_difference(crate_positions: &[f32], reference: &[[f64; 2]]) -> f64 {
    reference
        .iter()
        .enumerate()
        .flat_map(|(k, p)| {
            [
                (crate_positions[2 * k] as f64 - p[0]).abs(),
                (crate_positions[2 * k + 1] as f64 - p[1]).abs(),
            ]
        })
        .fold(0.0, f64::max)
}

/// Reference: twice the signed shoelace area.
fn shoelace(x: &[[f64; 2]], ring: &[usize]) -> f64 {
    let n = ring.len();
    let mut sum = 0.0;
    for i in 0..n {
        let (p, q) = (x[ring[i]], x[ring[(i + 1) % n]]);
        sum += p[0] * q[1] - q[0] * p[1];
    }
    0.5 * sum
}

/// Reference: one XPBD solve of `A(x) = target`, returning `Δλ`.
fn reference_area_solve(
    x: &mut [[f64; 2]],
    w: &[f64],
    ring: &[usize],
    target: f64,
    lambda: f64,
    alpha_tilde: f64,
) -> f64 {
    let n = ring.len();
    let mut gradients = Vec::new();
    for i in 0..n {
        let before = x[ring[(i + n - 1) % n]];
        let after = x[ring[(i + 1) % n]];
        gradients.push([0.5 * (after[1] - before[1]), 0.5 * (before[0] - after[0])]);
    }
    let c = shoelace(x, ring) - target;
    let mut denominator = alpha_tilde;
    for i in 0..n {
        let g = gradients[i];
        denominator += w[ring[i]] * (g[0] * g[0] + g[1] * g[1]);
    }
    let delta = (-c - alpha_tilde * lambda) / denominator;
    for i in 0..n {
        let k = ring[i];
        x[k][0] += w[k] * delta * gradients[i][0];
        x[k][1] += w[k] * delta * gradients[i][1];
    }
    delta
}

#[test]
fn an_area_solve_matches_the_reference() {
    // an irregular heptagon, counter-clockwise, one corner pinned
    let n = 7;
    let start: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            let r = 1.0 + 0.2 * jitter(k);
            [r * t.cos(), r * t.sin()]
        })
        .collect();
    let masses: Vec<f32> = (0..n)
        .map(|k| if k == 2 { 0.0 } else { 0.5 + 0.3 * k as f32 })
        .collect();
    let (stiffness, pressure, h) = (1e5, 1.3, 0.01 / 3.0);
    let mut s = scene(
        start
            .iter()
            .flat_map(|p| [p[0] as f32, p[1] as f32])
            .collect(),
        masses.clone(),
        Vec::new(),
    );
    s.areas.push(AreaSpec {
        particles: (0..n as u32).collect(),
        stiffness,
        pressure,
    });
    let mut kinds = Kinds::from_scene(&s).unwrap();
    // the ring has moved: squeezed flat and shifted
    let moved: Vec<[f64; 2]> = start
        .iter()
        .enumerate()
        .map(|(k, p)| [p[0] + 0.05 * jitter(k + 10), 0.7 * p[1] - 0.1])
        .collect();
    let mut positions: Vec<f32> = moved
        .iter()
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    let w = inverse_masses(&masses);
    let p = Params::default();
    // the reference, from the f32 start positions the crate measured
    let start32: Vec<[f64; 2]> = s
        .positions
        .chunks(2)
        .map(|q| [q[0] as f64, q[1] as f64])
        .collect();
    let ring: Vec<usize> = (0..n).collect();
    let target = pressure * shoelace(&start32, &ring);
    assert!((kinds.areas.target(0) - target).abs() < 1e-9);
    let mut x: Vec<[f64; 2]> = positions
        .chunks(2)
        .map(|q| [q[0] as f64, q[1] as f64])
        .collect();
    let w64: Vec<f64> = w.iter().map(|&v| v as f64).collect();
    let alpha_tilde = 1.0 / (stiffness * h * h);
    let mut lambda = 0.0;
    begin_substep(&mut kinds, &mut positions, &w, &p, h);
    // two passes: the second sees the first's multiplier
    for pass in 0..2 {
        solve(&mut kinds, &mut positions, &w, &p, h);
        lambda += reference_area_solve(&mut x, &w64, &ring, target, lambda, alpha_tilde);
        let difference = largest_difference(&positions, &x);
        assert!(
            difference < 1e-5,
            "pass {pass}: positions differ by {difference:.2e} m"
        );
    }
    // the pinned corner stayed
    assert_eq!(
        &positions[4..6],
        &[moved[2][0] as f32, moved[2][1] as f32],
        "pinned corner"
    );
    // it did something: the area moved towards the target
    let (before, after) = (
        shoelace(
            &moved
                .iter()
                .map(|p| [p[0] as f32 as f64, p[1] as f32 as f64])
                .collect::<Vec<_>>(),
            &ring,
        ),
        shoelace(&x, &ring),
    );
    assert!(
        (after - target).abs() < 0.5 * (before - target).abs(),
        "area {before} -> {after}, target {target}"
    );
}

/// Reference: one XPBD distance solve, returning `Δλ`.
fn reference_distance_solve(
    x: &mut [[f64; 2]],
    w: &[f64],
    (a, b, rest): (usize, usize, f64),
    lambda: f64,
    alpha_tilde: f64,
) -> f64 {
    let d = [x[a][0] - x[b][0], x[a][1] - x[b][1]];
    let length = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let c = length - rest;
    let delta = (-c - alpha_tilde * lambda) / (w[a] + w[b] + alpha_tilde);
    let n = [d[0] / length, d[1] / length];
    for axis in 0..2 {
        x[a][axis] += w[a] * delta * n[axis];
        x[b][axis] -= w[b] * delta * n[axis];
    }
    delta
}

#[test]
fn a_bending_and_tether_pass_matches_the_reference() {
    let (width, height) = (7, 5);
    let n = width * height;
    let g = grid::build(GridSize { width, height }, FixedPreset::Two);
    // pinned at columns 0 and 5 of 7: no particle is equally far from both
    // (a tie would let the two sides pick different anchors)
    let masses: Vec<f32> = (0..n)
        .map(|k| {
            if k == 0 || k == width - 2 {
                0.0
            } else {
                0.4 + 0.1 * (k % 3) as f32
            }
        })
        .collect();
    let mut s = scene(
        g.positions.clone(),
        masses.clone(),
        g.constraint_ids.clone(),
    );
    s.bending = Bending::Auto;
    let mut kinds = Kinds::from_scene(&s).unwrap();
    let p = Params {
        tethers: true,
        bending_stiffness: 500.0,
        ..Params::default()
    };
    let rest_lengths: Vec<f32> = g
        .constraint_ids
        .chunks(2)
        .map(|c| {
            let (a, b) = (c[0] as usize, c[1] as usize);
            let dx = g.positions[2 * a] - g.positions[2 * b];
            let dy = g.positions[2 * a + 1] - g.positions[2 * b + 1];
            (dx * dx + dy * dy).sqrt()
        })
        .collect();
    let pinned: Vec<bool> = masses.iter().map(|&m| m == 0.0).collect();
    let topology = Topology {
        ids: &g.constraint_ids,
        rest_lengths: &rest_lengths,
        built_with: rest_lengths.len(),
        pinned: &pinned,
    };
    kinds.prepare(&p, &topology).unwrap();
    // the cloth has fallen and crumpled: everything moved down and about
    let mut positions: Vec<f32> = g
        .positions
        .chunks(2)
        .enumerate()
        .flat_map(|(k, q)| {
            let drop = if pinned[k] {
                0.0
            } else {
                0.6 + 0.2 * (k / width) as f32
            };
            [
                q[0] + 0.08 * jitter(2 * k) as f32,
                q[1] - drop + 0.08 * jitter(2 * k + 1) as f32,
            ]
        })
        .collect();
    let w = inverse_masses(&masses);
    let w64: Vec<f64> = w.iter().map(|&v| v as f64).collect();
    let h = 0.01;
    let mut x: Vec<[f64; 2]> = positions
        .chunks(2)
        .map(|q| [q[0] as f64, q[1] as f64])
        .collect();
    // the reference's own pairs: two apart along rows, then along columns,
    // by middle particle
    let mut pairs = Vec::new();
    for middle in 0..n {
        let (i, j) = (middle / width, middle % width);
        if j >= 1 && j + 1 < width {
            pairs.push((middle - 1, middle + 1, 0.4));
        }
        if i >= 1 && i + 1 < height {
            pairs.push((middle - width, middle + width, 0.4));
        }
    }
    let mut lambdas = vec![0.0; pairs.len()];
    let alpha_tilde = 1.0 / (p.bending_stiffness * h * h);
    let anchors = nearest_pins(n, &g.constraint_ids, &rest_lengths, &pinned);
    let start = x.clone();
    begin_substep(&mut kinds, &mut positions, &w, &p, h);
    for pass in 0..2 {
        solve(&mut kinds, &mut positions, &w, &p, h);
        for (pair, lambda) in pairs.iter().zip(&mut lambdas) {
            *lambda += reference_distance_solve(&mut x, &w64, *pair, *lambda, alpha_tilde);
        }
        for k in 0..n {
            let Some((anchor, limit)) = anchors[k] else {
                continue;
            };
            if w64[k] == 0.0 {
                continue;
            }
            let d = [x[k][0] - x[anchor][0], x[k][1] - x[anchor][1]];
            let distance = (d[0] * d[0] + d[1] * d[1]).sqrt();
            if distance > limit {
                x[k] = [
                    x[anchor][0] + d[0] * limit / distance,
                    x[anchor][1] + d[1] * limit / distance,
                ];
            }
        }
        let difference = largest_difference(&positions, &x);
        assert!(
            difference < 1e-5,
            "pass {pass}: positions differ by {difference:.2e} m"
        );
    }
    // the tethers had work to do: free particles started beyond their limits
    let beyond = (0..n)
        .filter(|&k| {
            let (anchor, limit) = anchors[k].unwrap();
            let d = [
                start[k][0] - start[anchor][0],
                start[k][1] - start[anchor][1],
            ];
            !pinned[k] && (d[0] * d[0] + d[1] * d[1]).sqrt() > limit
        })
        .count();
    assert!(
        beyond >= n / 2,
        "only {beyond} particles were beyond their limits"
    );
}
