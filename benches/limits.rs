//! The work limits, natively: `cargo bench --bench limits`.
//!
//! Searches the settings the core accepts for the slowest `step()` and
//! `steps(n)`: cloth sizes (500 × 500 and 1000 × 250 among them), intact or
//! with every constraint torn, both solver orders, constraint damping, tearing
//! with velocity damping, and substeps and iterations pushed as far as the
//! setters accept. Prints each setting's work units, the fastest of three
//! timed steps and nanoseconds per unit, then times whole `steps(maxStepsPerCall)`
//! calls for the slowest. The limits are calibrated for the wasm build in the
//! browser (`node scripts/bench-browser.mjs --worst-case`); natively, without
//! SIMD, the coloured sweep is slower and other paths faster, so this is a
//! cross-check. It fails only on a gross violation: a step or call taking more
//! than four times its documented bound (0.5 s and 1.5 s).
use std::hint::black_box;
use std::time::Instant;

use xpbd_cloth::params::{MAX_WORK_PER_CALL, MAX_WORK_PER_STEP};
use xpbd_cloth::{Cloth, FixedPreset, GridSize, Params, SolverOrder};

#[path = "../tests/common/search.rs"]
mod search;
#[path = "../tests/common/torn.rs"]
mod torn;

use search::largest_accepted;

/// Documented bounds (docs/limits.md, "The worst cases"), seconds.
const STEP_BOUND: f64 = 0.5;
const CALL_BOUND: f64 = 1.5;
const GROSS_VIOLATION: f64 = 4.0;

#[derive(Clone, Copy, Debug)]
struct Setting {
    width: usize,
    height: usize,
    torn: bool,
    params: Params,
}

impl Setting {
    fn label(&self) -> String {
        let p = &self.params;
        let on = |b: bool| if b { "on " } else { "off" };
        format!(
            "{}×{}{} {:<8} damp {} tear+vdamp {} {}×{}",
            self.width,
            self.height,
            if self.torn { " torn" } else { "" },
            p.solver_order.name(),
            on(p.damping > 0.0),
            on(p.tear_stretch > 0.0),
            p.substeps,
            p.iterations,
        )
    }

    fn cloth(&self) -> Cloth {
        let size = GridSize {
            width: self.width,
            height: self.height,
        };
        let mut cloth = Cloth::new(size, FixedPreset::Two);
        if self.torn {
            torn::tear_all(&mut cloth, size);
        }
        cloth.set_params(self.params).unwrap();
        cloth
    }
}

/// The settings to time on one cloth: every switch combination, with the
/// iterations pushed (one substep), and with the substeps then the iterations pushed.
fn settings(width: usize, height: usize, torn: bool) -> Vec<Setting> {
    let mut cloth = Setting {
        width,
        height,
        torn,
        params: Params::default(),
    }
    .cloth();
    let mut out: Vec<Setting> = Vec::new();
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        for damping in [0.0, 1.0] {
            for tearing in [false, true] {
                if torn && (order == SolverOrder::Original || damping > 0.0) {
                    continue; // no constraints: order and damping change nothing
                }
                for push_substeps in [false, true] {
                    let base = Params {
                        iterations: 1,
                        substeps: 1,
                        solver_order: order,
                        damping,
                        tear_stretch: if tearing { 1000.0 } else { 0.0 },
                        velocity_damping: if tearing { 1.0 } else { 0.0 },
                        ..Params::default()
                    };
                    if cloth.set_params(base).is_err() {
                        continue;
                    }
                    if push_substeps {
                        largest_accepted(&mut cloth, Cloth::set_substeps, 1, 100);
                    }
                    largest_accepted(&mut cloth, Cloth::set_iterations, 1, 1000);
                    let params = cloth.params();
                    let seen = out.iter().any(|s| s.params == params);
                    if !seen {
                        out.push(Setting {
                            width,
                            height,
                            torn,
                            params,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Seconds `run` takes: the fastest of `rounds`.
fn fastest(rounds: usize, mut run: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    println!(
        "MAX_WORK_PER_STEP {MAX_WORK_PER_STEP} units, MAX_WORK_PER_CALL {MAX_WORK_PER_CALL} units"
    );
    let mut rows = Vec::new();
    for (width, height) in [(500, 500), (1000, 250), (100, 100), (10, 10), (2, 2)] {
        for torn in [false, true] {
            for setting in settings(width, height, torn) {
                let mut cloth = setting.cloth();
                let units = cloth.work_per_step();
                cloth.step();
                let seconds = fastest(3, || black_box(&mut cloth).step());
                assert!(cloth.is_finite(), "{} diverged", setting.label());
                rows.push((setting, units, seconds));
            }
        }
    }
    rows.sort_by(|a, b| b.2.total_cmp(&a.2));
    println!(
        "\nOne step(): the 12 slowest of {} accepted settings (fastest of 3)",
        rows.len()
    );
    println!(
        "{:<52} {:>8} {:>9} {:>8}",
        "setting", "Munits", "ms/step", "ns/unit"
    );
    for (setting, units, seconds) in rows.iter().take(12) {
        println!(
            "{:<52} {:>8.1} {:>9.1} {:>8.2}",
            setting.label(),
            *units as f64 / 1e6,
            seconds * 1e3,
            seconds * 1e9 / *units as f64
        );
    }
    // steps(n) does about the same units in every setting; it is slowest where a unit is
    let mut by_unit: Vec<_> = rows.iter().filter(|r| r.2 > 1e-3).collect();
    by_unit.sort_by(|a, b| (b.2 / b.1 as f64).total_cmp(&(a.2 / a.1 as f64)));
    let mut chosen: Vec<Setting> = rows.iter().take(2).map(|r| r.0).collect();
    chosen.extend(by_unit.iter().take(2).map(|r| r.0));
    println!("\nOne steps(maxStepsPerCall) call (fastest of 2):");
    let mut worst_call = 0.0f64;
    for setting in chosen {
        let mut cloth = setting.cloth();
        let n = cloth.max_steps_per_call();
        let seconds = fastest(2, || cloth.steps(n).unwrap());
        worst_call = worst_call.max(seconds);
        println!(
            "{:<52} {:>6} steps {:>8.0} ms",
            setting.label(),
            n,
            seconds * 1e3
        );
    }
    let worst_step = rows[0].2;
    println!(
        "\nWORST step(): {:.0} ms ({}); WORST steps(n): {:.0} ms",
        worst_step * 1e3,
        rows[0].0.label(),
        worst_call * 1e3
    );
    assert!(
        worst_step < GROSS_VIOLATION * STEP_BOUND && worst_call < GROSS_VIOLATION * CALL_BOUND,
        "more than {GROSS_VIOLATION}× the documented bounds ({STEP_BOUND} s, {CALL_BOUND} s)"
    );
}
