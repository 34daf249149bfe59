//! A stack of boxes: substeps against iterations at equal solves, its key
//! number against an independent rigid-body stacker in f64
//! (`tests/common/stack_f64.rs`).

use xpbd_cloth::experiments::box_stack::{resting_place, splits, stack, state, status};

use super::stack_f64::{Settings as StackF64, Stack};
use super::*;

/// The f64 stack of the preset's boxes (their centres read from the preset's
/// start), run with `substeps × iterations` for `duration` seconds and
/// sampled as the experiment samples: its displacement (the largest
/// distance of a box's centre from its resting place from 1 s on) and how
/// close it came to the speed limit it does not apply.
fn displacement_f64(substeps: u32, iterations: u32, duration: f64) -> (f64, f64) {
    let d = definition("box-stack").unwrap().defaults();
    let cloth = stack(&d, substeps, iterations).unwrap();
    let (x, p) = (cloth.positions(), cloth.params());
    let centres: Vec<[f64; 2]> = (0..5)
        .map(|b| {
            let k = 16 * b..16 * (b + 1);
            let mean = |o: usize| k.clone().map(|k| x[2 * k + o] as f64).sum::<f64>() / 16.0;
            [mean(0), mean(1)]
        })
        .collect();
    let rest: Vec<[f64; 2]> = centres
        .iter()
        .enumerate()
        .map(|(b, &c)| resting_place(c, b))
        .collect();
    let mut f64_stack = Stack::boxes(
        &centres,
        (4, 4),
        0.1,
        1.0 / cloth.inverse_masses()[0] as f64,
        StackF64 {
            dt: d.get("timeStep"),
            substeps: substeps as usize,
            iterations: iterations as usize,
            gravity: p.gravity,
            radius: p.particle_radius,
            friction: p.friction,
            velocity_damping: p.velocity_damping,
        },
    );
    let total = (duration / d.get("timeStep")).round() as usize;
    let every = (total / 400).max(1);
    let mut worst = 0.0f64;
    for step in 1..=total {
        f64_stack.step();
        if (step % every == 0 || step == total) && f64_stack.time >= 1.0 - 1e-9 {
            for (body, r) in f64_stack.bodies.iter().zip(&rest) {
                worst = worst.max((body.c[0] - r[0]).hypot(body.c[1] - r[1]));
            }
        }
    }
    (worst, f64_stack.fastest_over_limit)
}

#[test]
fn a_stack_of_boxes_holds_better_with_substeps_in_f64_too() {
    let (report, status_f32, message) = printed_report("box-stack");
    let d = definition("box-stack").unwrap().defaults();
    let n = d.count("solves");
    let ends = splits(n);
    let (most_iterations, most_substeps) = (ends[0], ends[ends.len() - 1]);
    assert_eq!((most_iterations, most_substeps), ((1, n), (n, 1)));
    let duration = d.get("duration");
    let (iterations, fast_i) = displacement_f64(most_iterations.0, most_iterations.1, duration);
    let (substeps, fast_s) = displacement_f64(most_substeps.0, most_substeps.1, duration);
    let ratio = substeps / iterations;
    println!(
        "f64: displacement {iterations:.6} m (1 × {n}), {substeps:.6} m ({n} × 1), ratio {ratio:.4}; f32 ratio {:.4}",
        report.number("displacementRatio")
    );
    // the reference never reaches the speed limit the project clamps at
    assert!(fast_i < 1.0 && fast_s < 1.0, "{fast_i} {fast_s}");
    // the finding: substeps hold the stack, whatever the time or the budget
    assert_eq!(status_f32, Status::Holds, "{message}");
    assert!(
        report.verdict.as_ref().unwrap().depends_on.is_empty(),
        "{message}"
    );
    // the f64 stacker reaches the same verdict, classes the ends alike and
    // gives the key number within a factor of 2 (docs/experiments.md)
    assert_eq!(
        status(substeps, iterations),
        status_f32,
        "f64 ratio {ratio}\n{message}"
    );
    for (f64_value, name) in [
        (iterations, "displacementMostIterations"),
        (substeps, "displacementMostSubsteps"),
    ] {
        assert_eq!(
            state(f64_value),
            state(report.number(name)),
            "{name}: f64 {f64_value}\n{message}"
        );
    }
    let f32_ratio = report.number("displacementRatio");
    assert!(
        f32_ratio <= 2.0 * ratio && f32_ratio >= 0.5 * ratio,
        "displacementRatio: f32 {f32_ratio} against f64 {ratio}\n{message}"
    );
}

#[test]
fn a_one_second_stack_run_is_judged() {
    // the page's slice test runs every experiment for 1 s
    let d = definition("box-stack").unwrap();
    let report = d.run(d.settings(&[("duration", 1.0)]).unwrap()).unwrap();
    assert!(
        report.number("displacementRatio").is_finite(),
        "{:?}",
        report.numbers
    );
    assert!(report.verdict.is_some());
}
