//! Native benchmark of one XPBD step: `cargo bench --bench step`.
//!
//! For 40 × 30, 100 × 100 and 300 × 300 cloths with 5 iterations it prints the
//! median time per step and per constraint solve (constraints × iterations),
//! for each solver order, and the median time per step of a 100 × 100 cloth
//! with self-collision lying on a circle (contacts every substep), the same
//! cloth alone and with 100 rigid boxes of 16 particles fallen onto it, and the
//! floor the coloured sweep's arithmetic sets: a square root and two divisions
//! per four constraints, which its bit-for-bit results are bound to. No external
//! harness: the median of many timed rounds is robust enough on a noisy
//! machine, and ratios between rows are what count.
use std::hint::black_box;
use std::time::Instant;

#[path = "common/contact_cloth.rs"]
mod contact_cloth;

use xpbd_cloth::model::body_shapes::rigid;
use xpbd_cloth::model::Scene;
use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn bench(width: usize, height: usize, order: SolverOrder) -> (f64, usize) {
    let mut cloth = Cloth::new(GridSize { width, height }, FixedPreset::Two);
    cloth.set_solver_order(order).unwrap();
    let constraints = cloth.num_constraints();
    // steps per round so that one round is ~ a few milliseconds
    let steps_per_round = (2_000_000 / (constraints * 5)).clamp(1, 200);
    for _ in 0..steps_per_round * 3 {
        cloth.step();
    }
    let mut samples = Vec::new();
    for _ in 0..31 {
        let start = Instant::now();
        for _ in 0..steps_per_round {
            black_box(&mut cloth).step();
        }
        samples.push(start.elapsed().as_secs_f64() / steps_per_round as f64);
    }
    assert!(cloth.is_finite());
    (median(samples), constraints)
}

/// A 100 × 100 cloth with self-collision, fallen onto a circle below it:
/// the median time of one step, seconds.
fn bench_contacts() -> f64 {
    let mut cloth = contact_cloth::contact_cloth();
    let mut samples = Vec::new();
    for _ in 0..31 {
        let start = Instant::now();
        for _ in 0..10 {
            black_box(&mut cloth).step();
        }
        samples.push(start.elapsed().as_secs_f64() / 10.0);
    }
    assert!(cloth.is_finite());
    median(samples)
}

/// The median time of one step of `cloth` (after `warm` steps), seconds.
fn time_steps(cloth: &mut Cloth, warm: usize, per_round: usize) -> f64 {
    for _ in 0..warm {
        cloth.step();
    }
    let mut samples = Vec::new();
    for _ in 0..15 {
        let start = Instant::now();
        for _ in 0..per_round {
            black_box(&mut *cloth).step();
        }
        samples.push(start.elapsed().as_secs_f64() / per_round as f64);
    }
    assert!(cloth.is_finite());
    median(samples)
}

/// A 100 × 100 cloth alone, and with 100 rigid boxes of 4 × 4 particles
/// (0.1 m apart) dropped onto it from 0.5 m above its top edge, ten across its
/// width, ten deep: the median time of a step of each, seconds, and the
/// particles of the boxes (after 30 steps: the boxes have landed).
fn bench_bodies() -> (f64, f64, usize) {
    let cloth = || {
        Cloth::new(
            GridSize {
                width: 100,
                height: 100,
            },
            FixedPreset::Two,
        )
    };
    let alone = time_steps(&mut cloth(), 30, 4);
    let mut with_boxes = cloth();
    let top = with_boxes
        .positions()
        .chunks_exact(2)
        .map(|p| p[1])
        .fold(f32::MIN, f32::max);
    let (left, right) = with_boxes
        .positions()
        .chunks_exact(2)
        .fold((f32::MAX, f32::MIN), |(l, r), p| (l.min(p[0]), r.max(p[0])));
    let mut boxes = Scene::default();
    for i in 0..10 {
        for j in 0..10 {
            let x = left + (right - left) * (j as f32 + 0.5) / 10.0;
            let y = top + 0.5 + 0.6 * i as f32;
            boxes.add_box((x, y), (4, 4), (0.1, 0.15, 0.0), rigid());
        }
    }
    with_boxes.add_bodies(&boxes).unwrap();
    let bodies = time_steps(&mut with_boxes, 30, 4);
    (alone, bodies, boxes.num_particles())
}

/// The floor of the coloured sweep's arithmetic: nanoseconds per four lanes of
/// one square root and two divisions, four lanes at a time (the compiler turns
/// each into one vector instruction), on independent data.
fn arithmetic_floor() -> f64 {
    let values: Vec<[f32; 4]> = (0..4096)
        .map(|i| [1.0, 2.0, 3.0, 4.0].map(|v| v + (i % 97) as f32))
        .collect();
    let mut out = vec![[0.0f32; 4]; values.len()];
    let mut samples = Vec::new();
    for _ in 0..31 {
        let start = Instant::now();
        for _ in 0..100 {
            for (x, o) in black_box(&values).iter().zip(out.iter_mut()) {
                let root = x.map(f32::sqrt);
                let quotient = [0, 1, 2, 3].map(|k| x[k] / root[k]);
                *o = [0, 1, 2, 3].map(|k| quotient[k] / x[k]);
            }
            black_box(&mut out);
        }
        samples.push(start.elapsed().as_secs_f64() / (100 * values.len()) as f64);
    }
    median(samples)
}

fn main() {
    println!(
        "{:>10} {:>9} {:>12} {:>12} {:>14}",
        "grid", "order", "constraints", "ms/step", "ns/solve"
    );
    for (w, h) in [(40, 30), (100, 100), (300, 300)] {
        for order in [SolverOrder::Original, SolverOrder::Colored] {
            let (seconds, constraints) = bench(w, h, order);
            let ns_per_solve = seconds * 1e9 / (constraints * 5) as f64;
            println!(
                "{:>10} {:>9} {:>12} {:>12.4} {:>14.2}",
                format!("{w}x{h}"),
                order.name(),
                constraints,
                seconds * 1e3,
                ns_per_solve
            );
        }
    }
    println!(
        "100x100 with self-collision on a circle: {:.4} ms/step",
        bench_contacts() * 1e3
    );
    let (alone, bodies, slots) = bench_bodies();
    let p = xpbd_cloth::Params::default();
    let passes = (p.substeps * p.iterations) as f64;
    println!(
        "100x100 alone: {:.4} ms/step; with 100 boxes of 16 particles: {:.4} ms/step ({:.2} x); \
         the boxes' share: {:.1} ns per body particle per pass (contacts included)",
        alone * 1e3,
        bodies * 1e3,
        bodies / alone,
        (bodies - alone) * 1e9 / (slots as f64 * passes)
    );
    let floor = arithmetic_floor() * 1e9;
    println!(
        "a square root and two divisions per four lanes: {floor:.2} ns ({:.2} ns per constraint solve)",
        floor / 4.0
    );
}
