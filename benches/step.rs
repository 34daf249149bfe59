//! Native benchmark of one XPBD step: `cargo bench --bench step`.
//!
//! For 40 × 30, 100 × 100 and 300 × 300 cloths with 5 iterations it prints the
//! median time per step and per constraint solve (constraints × iterations),
//! for each solver order, and the median time per step of a 100 × 100 cloth
//! with self-collision lying on a circle (contacts every substep), and the
//! floor the coloured sweep's arithmetic sets: a square root and two divisions
//! per four constraints, which its bit-for-bit results are bound to. No external
//! harness: the median of many timed rounds is robust enough on a noisy
//! machine, and ratios between rows are what count.
use std::hint::black_box;
use std::time::Instant;

#[path = "common/contact_cloth.rs"]
mod contact_cloth;

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
    let floor = arithmetic_floor() * 1e9;
    println!(
        "a square root and two divisions per four lanes: {floor:.2} ns ({:.2} ns per constraint solve)",
        floor / 4.0
    );
}
