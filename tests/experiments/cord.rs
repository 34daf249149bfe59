//! The three-particle cord: substeps keep far more energy than iterations;
//! chaotic, so checked in f64 over five nearby starts.

use super::*;

#[test]
fn substeps_keep_far_more_of_the_cords_energy_than_iterations() {
    let report = default_report("cord");
    let (status, message) = verdict(&report);
    assert_eq!(status, Status::Holds, "{message}");
    let (iterations, hybrid, substeps) = (
        report.number("keptIterations"),
        report.number("keptHybrid"),
        report.number("keptSubsteps"),
    );
    assert!(iterations < hybrid && hybrid < substeps, "{message}");
    assert!(substeps >= 2.0 * iterations, "{message}");
}

#[test]
fn the_cord_verdict_holds_in_f64_over_nearby_starts() {
    // The cord is chaotic: one f64 run cannot follow the f32 one for 10 s.
    // Five f64 runs from starts 0.001 rad apart give the spread the energies
    // kept can take; each must reach the project's verdict, and the project's
    // numbers must lie within the spread (widened by its own width).
    let report = default_report("cord");
    let d = definition("cord").unwrap().defaults();
    let (n, s, dt) = (
        d.count("work") as usize,
        d.count("hybridSubsteps") as usize,
        d.get("timeStep"),
    );
    let duration = d.get("duration");
    let kept = |tilt: f64, iterations: usize, substeps: usize| {
        let l = 0.5;
        let points = [
            [0.0, 0.0],
            [l * tilt.sin(), l * tilt.cos()],
            [2.0 * l * tilt.sin(), 2.0 * l * tilt.cos()],
        ];
        let settings = F64 {
            dt,
            iterations,
            substeps,
            stiffness: 0.0,
            coloured: false,
            ..F64::default()
        };
        let mut r = Reference::chain(&points, &[0.0, 1.0, 1.0], l, settings);
        let rest = 9.81 * (-l) + 9.81 * (-2.0 * l);
        let start = r.kinetic() + r.gravitational() - rest;
        let total = (duration / dt).round() as usize;
        let mut samples = vec![[0.0, 1.0]];
        for _ in 0..total {
            r.step();
            samples.push([r.time, (r.kinetic() + r.gravitational() - rest) / start]);
        }
        mean_from(&samples, duration - 2.0)
    };
    let names = ["keptIterations", "keptHybrid", "keptSubsteps"];
    let runs = [(n, 1), (n / s, s), (1, n)];
    let mut spread = [(f64::MAX, f64::MIN); 3];
    let mut ratios = Vec::new();
    for k in -2..=2 {
        let tilt = 0.1 + 0.001 * k as f64;
        let values: Vec<f64> = runs.iter().map(|&(i, s)| kept(tilt, i, s)).collect();
        println!("tilt {tilt:.3}: kept {values:?}");
        ratios.push(values[2] / values[0]);
        let holds = values[2] > values[1] && values[1] > values[0] && values[2] >= 2.0 * values[0];
        let (status, message) = verdict(&report);
        assert_eq!(
            status == Status::Holds,
            holds,
            "tilt {tilt}: {values:?}\n{message}"
        );
        for (j, v) in values.iter().enumerate() {
            spread[j] = (spread[j].0.min(*v), spread[j].1.max(*v));
        }
    }
    for (j, name) in names.iter().enumerate() {
        let (low, high) = spread[j];
        let got = report.number(name);
        let width = high - low;
        println!("{name}: f32 {got:.4}, f64 from {low:.4} to {high:.4}");
        assert!(
            got >= low - width && got <= high + width,
            "{name}: {got} outside {low}..{high}"
        );
    }
    // the key number, the ratio of the kept shares: within the f64 starts'
    // ratios widened by their width, and every start on the same side of 2
    let (low, high) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &r| (l.min(r), h.max(r)));
    let got = report.number("keptRatio");
    println!("keptRatio: f32 {got:.2}, f64 from {low:.2} to {high:.2}");
    assert!(
        got >= low - (high - low) && got <= high + (high - low),
        "{got}"
    );
    assert!(
        ratios.iter().all(|&r| (r >= 2.0) == (got >= 2.0)),
        "{ratios:?}"
    );
}
