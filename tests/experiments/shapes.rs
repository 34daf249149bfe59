//! The cloth's shape: a hanging cloth's top edge with iterations against
//! substeps (at equal solves and at equal work units), and bending's
//! wrinkles; in f64, bending over five nearby starts in both sweep orders.

use super::*;

#[test]
fn substeps_straighten_the_top_edge_of_a_hanging_cloth() {
    let report = default_report("hanging");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(
        report.number("sagSubsteps") < 0.5 * report.number("sagIterations"),
        "{message}"
    );
    assert!(
        report.number("sagSubsteps") < 0.02 * report.number("edgeLength"),
        "{message}"
    );
}

/// The mean sag of the top edge over the second half in f64, for the
/// hanging cloth of settings `d` with `iterations` × `substeps`.
fn sag_f64(d: &xpbd_cloth::experiments::Settings, iterations: usize, substeps: usize) -> f64 {
    let width = d.count("width") as usize;
    let s = F64 {
        dt: d.get("timeStep"),
        iterations,
        substeps,
        stiffness: d.get("stiffness"),
        velocity_damping: d.get("velocityDamping"),
        ..F64::default()
    };
    let mut r = Reference::grid(width, d.count("height") as usize, 2, d.get("mass"), s);
    let samples = run_f64(&mut r, d.get("duration"), |r| r.top_sag(width));
    mean_from(&samples, d.get("duration") / 2.0)
}

#[test]
fn the_hanging_verdict_and_numbers_hold_in_f64() {
    let report = default_report("hanging");
    let d = definition("hanging").unwrap().defaults();
    let n = d.count("work") as usize;
    let sag = |iterations: usize, substeps: usize| sag_f64(&d, iterations, substeps);
    let (iterations, substeps) = (sag(n, 1), sag(1, n));
    println!(
        "f64: sag {iterations:.5} m (iterations), {substeps:.6} m (substeps); f32: {:.5}, {:.6}",
        report.number("sagIterations"),
        report.number("sagSubsteps")
    );
    let (status, message) = verdict(&report);
    let ratio = substeps / iterations;
    let f64_status = halving_rule(ratio);
    assert_eq!(status, f64_status, "{message}");
    // a sag is a position difference: f32 round-off of 4 m coordinates over
    // the run's solves
    let steps = d.get("duration") / d.get("timeStep");
    for (name, value) in [("sagIterations", iterations), ("sagSubsteps", substeps)] {
        let tolerance = 0.2 * f32_stretch_tolerance(4.0, 0.2, steps * n as f64 * 8.0);
        assert_matches_f64(&report, name, value, tolerance, &message);
    }
    assert_matches_f64(&report, "sagRatio", ratio, 0.02, &message);
}

#[test]
fn at_equal_work_units_substeps_still_straighten_the_cloth() {
    let (report, status, message) = printed_report("equal-cost");
    // a benchmark, printed and never asserted: the run times its own trials,
    // as the page does in its worker (natively; the work units estimate the
    // wasm build's)
    let d = definition("equal-cost").unwrap();
    let mut run = d.start(d.defaults()).unwrap();
    loop {
        let trial = run.current_trial();
        let start = std::time::Instant::now();
        let done = run.advance(2_000_000);
        run.add_wall_time(trial as f64, start.elapsed().as_secs_f64())
            .unwrap();
        if done {
            break;
        }
    }
    let timed = run.report();
    println!(
        "measured natively on {} {} ({} threads available), under whatever load the machine has:",
        std::env::consts::OS,
        std::env::consts::ARCH,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("{:?}", timed.table.columns);
    for row in &timed.table.rows {
        println!("{row:?}");
    }
    // the clock never reaches the verdict or its numbers
    assert_eq!(timed.numbers, report.numbers);
    assert_eq!(timed.verdict, report.verdict);
    let wall = timed
        .table
        .columns
        .iter()
        .position(|c| c.starts_with("wall-clock per step"));
    assert!(timed
        .table
        .rows
        .iter()
        .all(|row| number(&row[wall.unwrap()]) > 0.0));
    assert!(report.number("equalWorkSubsteps") >= 2.0, "{message}");
    assert_eq!(status, Status::Holds, "{message}");
}

#[test]
fn the_equal_cost_verdict_holds_in_f64() {
    let report = default_report("equal-cost");
    let d = definition("equal-cost").unwrap().defaults();
    let sag = |iterations: usize, substeps: usize| sag_f64(&d, iterations, substeps);
    let s = report.number("equalWorkSubsteps") as usize;
    let (iterations, substeps) = (sag(d.count("work") as usize, 1), sag(1, s));
    println!(
        "f64: sag {iterations:.5} m (iterations), {substeps:.5} m ({s} substeps); f32 {:.5}, {:.5}",
        report.number("sagIterations"),
        report.number("sagEqualWork")
    );
    let ratio = substeps / iterations;
    let f64_status = halving_rule(ratio);
    let (status, message) = verdict(&report);
    assert_eq!(status, f64_status, "{message}");
    let steps = d.get("duration") / d.get("timeStep");
    let tolerance = 0.2 * f32_stretch_tolerance(4.0, 0.2, steps * 20.0 * 8.0);
    assert_matches_f64(&report, "sagEqualWork", substeps, tolerance, &message);
    assert_matches_f64(&report, "sagRatio", ratio, 0.02, &message);
}

#[test]
fn bending_does_not_remove_the_wrinkles_here() {
    // The claim says bending removes small wrinkles; counted as curvature
    // sign changes per row, it leaves as many. A finding, documented.
    let report = default_report("bending");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::DoesNotHold, "{message}");
    // there are wrinkles to remove: more than a smooth drape's one or two
    assert!(report.number("wrinklesOff") > 2.0, "{message}");
}

/// The wrinkles of a `width × height` grid's rows, counted as the bending
/// experiment defines them (its rule): the times each row's turning angle
/// changes sign, turns under 1° ignored, per row. Written again here in f64.
fn wrinkles_f64(r: &Reference, width: usize, height: usize) -> f64 {
    let mut changes = 0;
    for i in 0..height {
        let at = |j: usize| r.particles[i * width + j].x;
        let mut sign = 0.0;
        for j in 1..width - 1 {
            let (a, b, c) = (at(j - 1), at(j), at(j + 1));
            let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
            let turn = (u[0] * v[1] - u[1] * v[0]).atan2(u[0] * v[0] + u[1] * v[1]);
            if turn.abs() < 1f64.to_radians() {
                continue;
            }
            if sign != 0.0 && turn.signum() != sign {
                changes += 1;
            }
            sign = turn.signum();
        }
    }
    changes as f64 / height as f64
}

/// The bending experiment's cloth at its defaults in f64, its start moved by
/// `nudge` metres (a different small offset for each particle): its mean
/// wrinkles over the second half, with `bending` N/m (0: none).
fn bending_run_f64(d: &xpbd_cloth::experiments::Settings, bending: f64, nudge: f64) -> f64 {
    let (width, height) = (d.count("width") as usize, d.count("height") as usize);
    let s = F64 {
        dt: d.get("timeStep"),
        iterations: d.count("iterations") as usize,
        stiffness: d.get("stiffness"),
        velocity_damping: d.get("velocityDamping"),
        bending,
        coloured: d.get("order") == 0.0,
        ..F64::default()
    };
    let mut r = Reference::grid(width, height, 2, d.get("mass"), s);
    r.add_grid_bending(width, height);
    for (k, p) in r
        .particles
        .iter_mut()
        .enumerate()
        .filter(|(_, p)| p.w > 0.0)
    {
        p.x[1] += nudge * (((k * 7919) % 13) as f64 / 6.0 - 1.0);
        p.x_old = p.x;
    }
    // the right corner dragged in over the first second, then left pinned
    let (corner, x0) = (width - 1, 0.2 * (width - 1) as f64);
    let (duration, dt) = (d.get("duration"), s.dt);
    let mut samples = Vec::new();
    while r.time < duration - 0.5 * dt {
        if r.time < 1.0 {
            let f = ((r.time + dt) / 1.0).min(1.0);
            r.particles[corner].x = [x0 * (1.0 - d.get("squeeze") * f), 0.0];
        }
        r.step();
        samples.push([r.time, wrinkles_f64(&r, width, height)]);
    }
    mean_from(&samples, duration / 2.0)
}

/// The bending experiment at settings `d` in f64 over its nearby starts:
/// each start's wrinkles without and with bending.
fn bending_starts_f64(d: &xpbd_cloth::experiments::Settings) -> (Vec<f64>, Vec<f64>) {
    let (mut offs, mut ons) = (Vec::new(), Vec::new());
    for start in 0..d.count("starts") {
        let nudge = 2.5e-6 * start as f64;
        offs.push(bending_run_f64(d, 0.0, nudge));
        ons.push(bending_run_f64(d, d.get("bendingStiffness"), nudge));
    }
    (offs, ons)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[test]
fn the_bending_verdict_holds_in_f64_over_nearby_starts() {
    // A crumpling cloth buckles where round-off tips it: one start's count
    // moves by a few tenths with it. The experiment measures the mean over
    // nearby starts (each free particle's height moved by up to 2.5e-6 m more
    // per start, the same pattern here); the f64 reference runs the same
    // starts, its verdict from its means must be the project's, and the
    // project's means lie within the f64 starts' spread widened by its width.
    let report = default_report("bending");
    let d = definition("bending").unwrap().defaults();
    let (status, message) = verdict(&report);
    let (offs, ons) = bending_starts_f64(&d);
    println!("f64 starts: without {offs:.2?}, with {ons:.2?}");
    let ratio = mean(&ons) / mean(&offs);
    let f64_status = halving_rule(ratio);
    println!("f64 means: ratio {ratio:.3}: {}", f64_status.name());
    assert_eq!(status, f64_status, "{message}");
    for (name, spread) in [("wrinklesOff", &offs), ("wrinklesOn", &ons)] {
        let (lo, hi) = spread
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        // at least one sign change in one row: the count's own step
        let width = (hi - lo).max(1.0 / d.get("height"));
        let value = report.number(name);
        println!("{name}: f32 mean {value:.3}, f64 starts {lo:.3} to {hi:.3}");
        assert!(
            (lo - width..=hi + width).contains(&value),
            "{name} {value} outside f64's {lo}..{hi}: {message}"
        );
    }
}

#[test]
fn bending_depends_on_the_sweep_order_in_f64_as_in_f32() {
    // the other sweep order, as the experiment's check runs it: the f64
    // means over the same starts give the check's verdict
    let report = default_report("bending");
    let definition = definition("bending").unwrap();
    let d = definition.settings(&[("order", 1.0)]).unwrap();
    let (offs, ons) = bending_starts_f64(&d);
    let ratio = mean(&ons) / mean(&offs);
    let other = check(&report, "order");
    println!(
        "original order: f64 ratio {ratio:.3} ({}), f32 {:.3} ({:?})",
        halving_rule(ratio).name(),
        other.key,
        other.status
    );
    assert_eq!(other.status, Some(halving_rule(ratio)), "{other:?}");
}
