//! Stiffness against the iteration count and against the time step: PBD
//! stiffens, XPBD keeps the stiffness set; in f64 with the reference's own
//! static equilibrium, and the time step's perturbations (ten times the
//! iterations, twice the largest time step) in f64 too.

use super::*;

/// The hanging cloth of both sweeps at their defaults (20 × 15, 0.1 kg) in
/// f64 with `settings`.
fn cloth_f64(s: F64) -> Reference {
    Reference::grid(20, 15, 2, 0.1, s)
}

/// The mean stretch (%) of the exact static equilibrium of the sweeps'
/// cloth at 1000 N/m, from the reference's own Newton solve.
fn equilibrium_stretch_f64() -> f64 {
    let (r, exact) = (cloth_f64(F64::default()), hanging_f64(20, 15, 0.1, 1000.0));
    let x = &exact.exact;
    let sum: f64 = r
        .links
        .iter()
        .map(|c| (x[c.a][0] - x[c.b][0]).hypot(x[c.a][1] - x[c.b][1]) / c.rest - 1.0)
        .sum();
    100.0 * sum / r.links.len() as f64
}

/// The sweeps' rule asked of the f64 numbers: PBD falls at least 25 %, XPBD
/// changes at most 10 % and is within 10 % of the equilibrium at both ends.
fn sweep_rule(pbd: (f64, f64), xpbd: (f64, f64), exact: f64) -> Status {
    let change = |a: f64, b: f64| 100.0 * (b - a).abs() / a;
    let pbd_stiffens = pbd.1 < pbd.0 && change(pbd.0, pbd.1) >= 25.0;
    let gap = change(exact, xpbd.0).max(change(exact, xpbd.1));
    let xpbd_right = change(xpbd.0, xpbd.1) <= 10.0 && gap <= 10.0;
    match (xpbd_right, pbd_stiffens) {
        (true, true) => Status::Holds,
        (false, false) => Status::DoesNotHold,
        _ => Status::Partly,
    }
}

#[test]
fn pbd_stiffens_with_iterations_and_xpbd_does_not() {
    let report = default_report("iterations");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(report.number("xpbdChange") <= 10.0, "{message}");
    assert!(report.number("xpbdEquilibriumGap") <= 10.0, "{message}");
    assert!(report.number("unsettled") <= 1.0, "{message}");
    assert!(
        report.number("pbdStretchMax") < 0.25 * report.number("pbdStretchFrom"),
        "{message}"
    );
    // PBD's stretch falls with every count in the table
    let pbd: Vec<f64> = report.table.rows.iter().map(|r| number(&r[1])).collect();
    assert!(
        pbd.windows(2).all(|w| w[1] < w[0]),
        "PBD stretch by count: {pbd:?}"
    );
    // twice the simulated time changes nothing the verdict reads
    assert!(report.verdict.unwrap().depends_on.is_empty(), "{message}");
}

#[test]
fn pbd_stiffens_as_the_time_step_shrinks_and_xpbd_does_not_up_to_its_largest_step() {
    let report = default_report("time-step");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    assert!(report.number("xpbdChange") <= 10.0, "{message}");
    assert!(report.number("pbdChange") >= 25.0, "{message}");
    // a finding: "whatever the time step" does not survive twice the largest
    // step, where 10 iterations converge even less
    let wider = check(&report, "maxTimeStep");
    assert_eq!(wider.status, Some(Status::Partly), "{message}");
    assert!(wider.key > 10.0, "{wider:?}");
    assert_eq!(
        report.verdict.as_ref().unwrap().depends_on,
        vec!["the largest time step"],
        "{message}"
    );
    // with ten times the iterations XPBD's change nearly vanishes: the 7.9 %
    // is 10 iterations not converging at the largest step
    let converged = check(&report, "iterations");
    assert_eq!(converged.status, Some(Status::Holds), "{converged:?}");
    assert!(
        converged.key < 0.25 * report.number("xpbdChange"),
        "{converged:?}"
    );
}

#[test]
fn the_iterations_verdict_and_numbers_hold_in_f64() {
    let report = default_report("iterations");
    let d = definition("iterations").unwrap().defaults();
    let (from, max) = (
        d.count("fromIterations") as usize,
        d.count("maxIterations") as usize,
    );
    let run = |n: usize, pbd: bool| {
        let s = F64 {
            dt: d.get("timeStep"),
            iterations: n,
            stiffness: d.get("stiffness"),
            velocity_damping: d.get("velocityDamping"),
            pbd_k: pbd.then(|| d.get("pbdCoefficient")),
            ..F64::default()
        };
        settled_stretch_f64(&mut cloth_f64(s), d.get("duration"))
    };
    let (pbd_from, pbd_max, xpbd_from, xpbd_max) = (
        run(from, true),
        run(max, true),
        run(from, false),
        run(max, false),
    );
    let exact = equilibrium_stretch_f64();
    let xpbd_change = 100.0 * (xpbd_max - xpbd_from).abs() / xpbd_from;
    println!("f64: PBD {pbd_from:.4} → {pbd_max:.4} %, XPBD {xpbd_from:.4} → {xpbd_max:.4} % ({xpbd_change:.3} %), equilibrium {exact:.4} %");
    let (status, message) = verdict(&report);
    assert_eq!(
        status,
        sweep_rule((pbd_from, pbd_max), (xpbd_from, xpbd_max), exact),
        "{message}"
    );
    // the key number within 1 percentage point, the stretches within f32's
    // random-walk bound, the project's equilibrium (its own Newton) within
    // a millionth of the reference's
    assert_matches_f64(&report, "xpbdChange", xpbd_change, 1.0, &message);
    let steps = d.get("duration") / d.get("timeStep");
    for (name, f64_value, n) in [
        ("pbdStretchFrom", pbd_from, from),
        ("pbdStretchMax", pbd_max, max),
        ("xpbdStretchFrom", xpbd_from, from),
        ("xpbdStretchMax", xpbd_max, max),
    ] {
        let tolerance = 100.0 * f32_stretch_tolerance(4.0, 0.2, steps * n as f64 * 8.0);
        assert_matches_f64(&report, name, f64_value, tolerance, &message);
    }
    assert_matches_f64(&report, "equilibriumStretch", exact, 1e-6 * exact, &message);
}

/// The time-step sweep's settled stretch (%) in f64 at `dt`, PBD's or
/// XPBD's.
fn settled_f64(d: &xpbd_cloth::experiments::Settings, dt: f64, pbd: bool) -> f64 {
    let s = F64 {
        dt,
        iterations: d.count("iterations") as usize,
        stiffness: d.get("stiffness"),
        velocity_damping: d.get("velocityDamping"),
        pbd_k: pbd.then(|| d.get("pbdCoefficient")),
        ..F64::default()
    };
    settled_stretch_f64(&mut cloth_f64(s), d.get("duration"))
}

#[test]
fn the_time_step_verdict_and_its_largest_step_check_hold_in_f64() {
    let report = default_report("time-step");
    let d = definition("time-step").unwrap().defaults();
    let (largest, smallest) = (d.get("maxTimeStep"), d.get("minTimeStep"));
    let values = [
        ("pbdStretchLargest", settled_f64(&d, largest, true)),
        ("pbdStretchSmallest", settled_f64(&d, smallest, true)),
        ("xpbdStretchLargest", settled_f64(&d, largest, false)),
        ("xpbdStretchSmallest", settled_f64(&d, smallest, false)),
    ];
    let change = |a: f64, b: f64| 100.0 * (b - a).abs() / a;
    let xpbd_change = change(values[2].1, values[3].1);
    let exact = equilibrium_stretch_f64();
    println!(
        "f64: {values:?}; XPBD change {xpbd_change:.2} % (issue: 7.7 %), equilibrium {exact:.4} %"
    );
    let (status, message) = verdict(&report);
    let rule = |v: &[(&str, f64); 4]| sweep_rule((v[0].1, v[1].1), (v[2].1, v[3].1), exact);
    assert_eq!(status, rule(&values), "{message}");
    assert!(
        (xpbd_change - 7.7).abs() < 0.05,
        "f64 XPBD change {xpbd_change}"
    );
    assert_matches_f64(&report, "xpbdChange", xpbd_change, 1.0, &message);
    for (name, value) in values {
        let dt = if name.ends_with("Largest") {
            largest
        } else {
            smallest
        };
        let solves = d.get("duration") / dt * d.get("iterations") * 8.0;
        let tolerance = 100.0 * f32_stretch_tolerance(4.0, 0.2, solves);
        assert_matches_f64(&report, name, value, tolerance, "");
    }
    // twice the largest time step: the f64 verdict changes as the project's
    let wider = [
        ("", settled_f64(&d, 2.0 * largest, true)),
        values[1],
        ("", settled_f64(&d, 2.0 * largest, false)),
        values[3],
    ];
    let wider_change = change(wider[2].1, wider[3].1);
    println!(
        "f64 up to Δt = {} s: XPBD change {wider_change:.2} %",
        2.0 * largest
    );
    let flipped = check(&report, "maxTimeStep");
    assert_eq!(flipped.status, Some(rule(&wider)), "{flipped:?}");
    assert!((flipped.key - wider_change).abs() <= 1.0, "{flipped:?}");
    // ten times the iterations changes no status (the project's check says
    // so above), so its f64 run, the costliest of all, is left out
}
