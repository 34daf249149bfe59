//! Energy: the releasable energy every energy error is measured against,
//! constraint damping (whose break is too few iterations), undamped
//! substeps, and the energy error at a fixed time against the substep; each
//! in f64, with the figures docs/experiments.md quotes.

use super::*;

/// The experiments' hanging cloths in f64: the damping and substeps one at
/// its defaults, and the long runs' 10 × 6 one.
fn damping_cloth() -> std::sync::Arc<Hanging> {
    hanging_f64(20, 15, 0.1, 1000.0)
}

fn long_run_cloth() -> std::sync::Arc<Hanging> {
    hanging_f64(10, 6, 0.1, 1000.0)
}

#[test]
fn energy_errors_are_measured_against_the_releasable_energy() {
    // E₀ − E_eq, the most a cloth released in its plane can lose, is 33.0 J
    // and 1.03 J for the damping and long-run cloths; every particle falling
    // the cloth's height, the scale before, is 819 J and 57 J, so damping's
    // 1 % mark was a quarter of all the energy in play
    let (big, small) = (damping_cloth(), long_run_cloth());
    let falling = |w: f64, h: f64| (w * h - 2.0) * 0.1 * 9.81 * (h - 1.0) * 0.2;
    let (old_big, old_small) = (falling(20.0, 15.0), falling(10.0, 6.0));
    println!(
        "releasable: {:.3} J and {:.4} J (every particle falling: {old_big:.1} J and {old_small:.1} J); E_eq of the small cloth {:.3} J",
        big.releasable(),
        small.releasable(),
        small.equilibrium
    );
    assert!(
        (big.releasable() - 33.0).abs() < 0.05,
        "{}",
        big.releasable()
    );
    assert!(
        (small.releasable() - 1.03).abs() < 0.005,
        "{}",
        small.releasable()
    );
    assert!(
        (small.equilibrium - -30.456).abs() < 0.001,
        "{}",
        small.equilibrium
    );
    assert!((old_big - 819.0).abs() < 0.5 && (old_small - 57.0).abs() < 0.5);
    let quarter = 0.01 * old_big / big.releasable();
    assert!((0.24..0.26).contains(&quarter), "{quarter}");
    // the project's own (its Newton solve, in the crate) within 0.1 %
    for (id, hanging) in [("damping", &big), ("substeps", &big), ("long-run", &small)] {
        let report = default_report(id);
        let got = report.number("releasableEnergy");
        assert!(
            (got / hanging.releasable() - 1.0).abs() < 1e-3,
            "{id}: {got} against {}",
            hanging.releasable()
        );
    }
    // β̃ = h²β: with β in N·s/m, N·s³/m
    let setting = definition("damping")
        .unwrap()
        .settings
        .iter()
        .find(|s| s.name == "reportBetaTilde")
        .unwrap();
    assert_eq!(setting.unit, "N·s³/m");
}

// ---- Constraint damping ---------------------------------------------------

#[test]
fn constraint_damping_breaks_only_where_its_iterations_do_not_converge() {
    // A finding: with 10 iterations the energy rises at β = 100 N·s/m
    // (γ = αβ/h = 10); ten times the iterations remove the rise there, so the
    // verdict and its advice put it on the iterations, not on damping.
    let report = default_report("damping");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Partly, "{message}");
    assert_eq!(report.number("breaksAtBeta"), 100.0, "{message}");
    let scale = report.number("releasableEnergy");
    assert!(report.number("riseAtBreak") > 0.01 * scale, "{message}");
    let more = check(&report, "iterations");
    assert_eq!(more.perturbed, 100.0);
    assert_eq!(more.number("breaksAtBeta"), 1000.0, "{more:?}");
    assert!(more.number("riseAtBreak") <= 0.01 * scale, "{more:?}");
    let v = report.verdict.as_ref().unwrap();
    assert!(
        v.text
            .contains("is too few iterations for γ = 10, not damping"),
        "{}",
        v.text
    );
    assert!(
        v.advice
            .starts_with("The rise is too few iterations, not damping"),
        "{}",
        v.advice
    );
    // the report's β̃ is far below anything that matters here
    assert!(
        report.number("reportBetaEffect").abs() < 1e-4 * scale,
        "{message}"
    );
}

/// The damping experiment's cloth in f64 with `beta` and `iterations`: its
/// late total energy (the mean over the last quarter) and its highest rise
/// above its start.
fn damping_run_f64(beta: f64, iterations: usize) -> (f64, f64) {
    let d = definition("damping").unwrap().defaults();
    let s = F64 {
        dt: d.get("timeStep"),
        stiffness: d.get("stiffness"),
        iterations,
        damping: beta,
        ..F64::default()
    };
    let mut r = Reference::grid(20, 15, 2, d.get("mass"), s);
    let samples = run_f64(&mut r, d.get("duration"), Reference::total);
    let start = samples[0][1];
    let rise = samples.iter().map(|p| p[1] - start).fold(0.0, f64::max);
    (mean_from(&samples, 0.75 * d.get("duration")), rise)
}

/// The damping rule asked of f64 runs (late energy, rise) over `betas`: the
/// index of the first β that breaks it.
fn damping_break_f64(runs: &[(f64, f64)], scale: f64) -> Option<usize> {
    (1..runs.len())
        .find(|&i| runs[i].0 > runs[i - 1].0 + 1e-4 * scale || runs[i].1 - runs[0].1 > 0.01 * scale)
}

#[test]
fn the_damping_verdict_and_its_attribution_hold_in_f64() {
    let report = default_report("damping");
    let betas: Vec<f64> = report.table.rows.iter().map(|r| number(&r[0])).collect();
    let scale = damping_cloth().releasable();
    let (status, message) = verdict(&report);
    for (iterations, key) in [
        (10, report.number("breaksAtBeta")),
        (100, check(&report, "iterations").key),
    ] {
        let runs: Vec<(f64, f64)> = betas
            .iter()
            .map(|&b| damping_run_f64(b, iterations))
            .collect();
        for (b, (late, rise)) in betas.iter().zip(&runs) {
            println!("f64, {iterations} iterations, β = {b:.3e}: late total {late:.4} J, rise {rise:.4} J");
        }
        let breaks = damping_break_f64(&runs, scale);
        // the same β breaks in f64 as in the project, at both counts
        assert_eq!(key, breaks.map_or(f64::NAN, |i| betas[i]), "{message}");
        let at_100 = betas.iter().position(|&b| b == 100.0).unwrap();
        if iterations == 10 {
            assert_eq!(status, ranking_status(breaks), "{message}");
            // the figure: with 10 iterations β = 100 N·s/m rises 18.15 J
            assert!((runs[at_100].1 - 18.15).abs() < 0.01, "{:?}", runs[at_100]);
            let tolerance = scale * f32_stretch_tolerance(4.0, 0.2, 400.0 * 10.0 * 8.0);
            assert_matches_f64(&report, "undampedEnergy", runs[0].0, tolerance, &message);
        } else {
            // with 100 it does not rise at all and ends at the equilibrium
            assert!(runs[at_100].1 < 1e-9, "{:?}", runs[at_100]);
            let equilibrium = damping_cloth().equilibrium;
            assert!(
                (runs[at_100].0 - equilibrium).abs() < 1e-3,
                "late {} against the equilibrium's {equilibrium}",
                runs[at_100].0
            );
        }
    }
}

// ---- Undamped substeps ----------------------------------------------------

#[test]
fn undamped_substeps_do_not_explode_here_but_gain_some_energy() {
    // The anecdote predicts an explosion; this solver stays bounded, yet its
    // total energy does rise above its start. A finding, documented.
    let report = default_report("substeps");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::DoesNotHold, "{message}");
    assert_eq!(report.number("exploded"), 0.0, "{message}");
    assert!(report.number("worstEnergyGain") > 0.0, "{message}");
    assert!(report.number("worstEnergyGain") < 1.0, "{message}");
}

#[test]
fn the_substeps_verdict_holds_in_f64() {
    let report = default_report("substeps");
    let d = definition("substeps").unwrap().defaults();
    let counts: Vec<f64> = report.table.rows.iter().map(|r| number(&r[0])).collect();
    let scale = damping_cloth().releasable();
    let mut gains = Vec::new();
    for &n in &counts {
        let s = F64 {
            dt: d.get("timeStep"),
            substeps: n as usize,
            iterations: 1,
            stiffness: d.get("stiffness"),
            ..F64::default()
        };
        let mut r = Reference::grid(20, 15, 2, d.get("mass"), s);
        let samples = run_f64(&mut r, d.get("duration"), Reference::total);
        let start = samples[0][1];
        let highest = samples.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        gains.push((highest - start) / scale);
    }
    let project: Vec<f64> = report
        .table
        .rows
        .iter()
        .map(|r| number(&r[4]) / 100.0)
        .collect();
    for ((n, g), p) in counts.iter().zip(&gains).zip(&project) {
        println!(
            "substeps {n}: total energy rise f64 {:.3} %, project {:.3} % of the releasable energy",
            100.0 * g,
            100.0 * p
        );
    }
    // with few substeps the rise is the integrator's, the same in f64 (each
    // substep's round-off is a small share of its motion): within f32's
    // bound on the total energy of 300 particles
    for k in 0..2 {
        let joules = 819.0 * f32_stretch_tolerance(4.0, 0.2, 500.0 * counts[k] * 8.0);
        let tolerance = joules / scale;
        assert!(
            (project[k] - gains[k]).abs() <= tolerance,
            "{} substeps: f32 {} against f64 {}, tolerance {tolerance}",
            counts[k],
            project[k],
            gains[k]
        );
    }
    // ... while in f64 it shrinks as substeps grow: what the project gains at
    // the most substeps beyond f64 is single precision's
    let last = gains.len() - 1;
    assert!(gains[last] <= gains[1], "f64 gains {gains:?}");
    // the key number, the worst gain with substeps, on the same side of 1
    let worst = gains[1..].iter().copied().fold(f64::MIN, f64::max);
    let (status, message) = verdict(&report);
    assert_eq!(
        status,
        if worst > 1.0 {
            Status::Holds
        } else {
            Status::DoesNotHold
        },
        "{message}"
    );
}

// ---- Energy error against the substep -------------------------------------

/// The long runs' cloth in f64 with `substeps` of one iteration for
/// `duration` seconds, sampled as the experiment samples.
fn long_run_f64(substeps: usize, duration: f64) -> Vec<[f64; 2]> {
    let d = definition("long-run").unwrap().defaults();
    let s = F64 {
        dt: d.get("timeStep"),
        substeps,
        iterations: 1,
        stiffness: d.get("stiffness"),
        ..F64::default()
    };
    let mut r = Reference::grid(10, 6, 2, d.get("mass"), s);
    run_f64(&mut r, duration, Reference::total)
}

/// The energy error at `t` as the experiment defines it: `|E₀ − Ē(t)|` over
/// the releasable energy, `Ē(t)` the mean over the last tenth of `t`.
fn error_at_f64(samples: &[[f64; 2]], t: f64, releasable: f64) -> f64 {
    let window: Vec<f64> = samples
        .iter()
        .filter(|p| p[0] >= 0.9 * t - 1e-9 && p[0] <= t + 1e-9)
        .map(|p| p[1])
        .collect();
    let mean = window.iter().sum::<f64>() / window.len() as f64;
    (samples[0][1] - mean).abs() / releasable
}

#[test]
fn the_drift_over_a_long_run_ranks_accuracy_backwards_in_f64() {
    // Why the measure changed: over 120 s every run with 5 or more substeps
    // is at rest in the last tenth at the equilibrium's energy, −30.456 J
    // (2 substeps rest 0.055 J above it, in another shape), so the last
    // tenth less the first measures how little a run lost early: 0.87, 0.72,
    // 0.53 and 0.29 J between the start and the first tenth's mean at 2, 10,
    // 20 and 50 substeps. More substeps keep more energy.
    let cloth = long_run_cloth();
    let mut lost_early = Vec::new();
    for (substeps, figure) in [(2, 0.87), (5, f64::NAN), (10, 0.72), (20, 0.53), (50, 0.29)] {
        let samples = long_run_f64(substeps, 120.0);
        let first = mean_from(
            &samples
                .iter()
                .copied()
                .filter(|p| p[0] <= 12.0 + 1e-9)
                .collect::<Vec<_>>(),
            0.0,
        );
        let last: Vec<f64> = samples
            .iter()
            .filter(|p| p[0] >= 108.0)
            .map(|p| p[1])
            .collect();
        let (lo, hi) = last
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let lost = samples[0][1] - first;
        println!("{substeps} substeps: lost by the first tenth {lost:.4} J; last tenth {lo:.4} to {hi:.4} J");
        assert!(hi - lo < 2e-3, "{substeps} substeps at rest: {lo}..{hi}");
        if substeps >= 5 {
            assert!((lo - cloth.equilibrium).abs() < 2e-3, "{lo}");
        } else {
            assert!((lo - cloth.equilibrium - 0.055).abs() < 2e-3, "{lo}");
        }
        if figure.is_finite() {
            assert!(
                (lost - figure).abs() < 0.01,
                "{substeps}: {lost} against {figure}"
            );
            lost_early.push(lost);
        }
    }
    assert!(lost_early.windows(2).all(|w| w[1] < w[0]), "{lost_early:?}");
}

#[test]
fn the_energy_error_verdict_holds_in_f64_at_its_check_times() {
    // A finding: at T = 2 s (and 4 s) one substep errs less than two, so the
    // claim does not hold by the rule; from 2 substeps on the error falls
    // with every step up. The f64 reference gives the same errors and the
    // same verdict, at both check times.
    let report = default_report("long-run");
    let d = definition("long-run").unwrap().defaults();
    let releasable = long_run_cloth().releasable();
    let counts: Vec<f64> = report.table.rows.iter().map(|r| number(&r[0])).collect();
    let runs: Vec<Vec<[f64; 2]>> = counts
        .iter()
        .map(|&n| long_run_f64(n as usize, d.get("duration")))
        .collect();
    let (status, message) = verdict(&report);
    for (t, f32_status) in [
        (d.get("checkTime"), Some(status)),
        (2.0 * d.get("checkTime"), check(&report, "checkTime").status),
    ] {
        let errors: Vec<f64> = runs
            .iter()
            .map(|s| error_at_f64(s, t, releasable))
            .collect();
        println!("T = {t} s: f64 errors {errors:.4?}");
        let stops = (1..errors.len()).find(|&i| errors[i] >= errors[i - 1]);
        assert_eq!(
            f32_status,
            Some(ranking_status(stops)),
            "T = {t}: {message}"
        );
        if t == d.get("checkTime") {
            // within 2 % of the releasable energy where single precision
            // resolves a substep's fall to 1 % (known before the run: one
            // rounding of a 1.8 m coordinate against g h²); beyond, the f32
            // error is partly round-off, and only the ranking is compared
            for (row, f64_error) in report.table.rows.iter().zip(&errors) {
                let (n, f32_error) = (number(&row[0]), number(&row[2]) / 100.0);
                let h = d.get("timeStep") / n;
                let resolution = f32::EPSILON as f64 * 1.8 / (9.81 * h * h);
                println!("{n} substeps: f32 {f32_error:.4}, f64 {f64_error:.4}, fall resolved to {:.2} %", 100.0 * resolution);
                if resolution <= 0.01 {
                    assert!(
                        (f32_error - f64_error).abs() <= 0.02,
                        "{n} substeps: f32 {f32_error}, f64 {f64_error}"
                    );
                }
            }
            assert_eq!(
                report.number("stopsHelpingAt"),
                stops.map_or(f64::NAN, |i| counts[i])
            );
        }
    }
}
