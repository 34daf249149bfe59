//! Long runs: the energy drift of an undamped cloth over minutes of
//! simulated time, against the substep count, and where single precision
//! stops smaller substeps from helping.

use super::measure::total_energy;
use super::setup;
use super::words::quantity;
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table,
    Trial, Verdict,
};
use crate::error::ClothError;

/// The substep counts tried (one iteration each), up to `maxSubsteps`.
const COUNTS: [u32; 7] = [1, 2, 5, 10, 20, 50, 100];
/// The share of the run at each end whose mean energies are compared.
const WINDOW: f64 = 0.1;

pub(super) static DEFINITION: Definition = Definition {
    id: "long-run",
    title: "Long runs: energy drift against the substep size",
    claim: "Smaller substeps make the simulation more accurate: the energy error of an undamped system shrinks as the substep does.",
    source: "Macklin et al., \"Small Steps in Physics Simulation\" (2019), sections 3 and 5 (error against substep size)",
    method: "A cloth held by its two top corners is released in its rest shape and runs for minutes of simulated time with no damping of any kind, one iteration per substep, once for each substep count. Measured: the total energy (kinetic + gravitational + elastic) over time, and its drift: the mean over the last tenth of the run less the mean over the first tenth, as a share of the energy gravity can release.",
    rule: "Holds when every larger substep count leaves a smaller drift (in size) than the one before. In part when the drift shrinks up to some count and not beyond it; does not hold when 2 substeps already drift no less than 1. Whether single precision or the method is to blame is not judged here: the tests run the same cloth in f64 and compare.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 2.0, max: 30.0, whole: true, default: 10.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 2.0, max: 30.0, whole: true, default: 6.0 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 50.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 1.0, max: 600.0, whole: false, default: 120.0 },
    ],
    build,
    report,
};

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    setup::substep_trials(settings, &COUNTS, || {
        Box::new(|c| vec![c.time(), total_energy(c)])
    })
}

/// A run's drift: the mean energy over the last [`WINDOW`] less the mean over
/// the first, joules.
fn drift(settings: &Settings, trial: &Trial) -> f64 {
    let d = settings.get("duration");
    let first: Vec<f64> = trial
        .samples
        .iter()
        .filter(|r| r[0] <= WINDOW * d)
        .map(|r| r[1])
        .collect();
    let start = first.iter().sum::<f64>() / first.len().max(1) as f64;
    mean_after(&trial.samples, 1, (1.0 - WINDOW) * d) - start
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let scale = setup::gravity_scale(settings);
    let mut energy = Chart::new("Total energy over time", "time (s)", "total energy (J)");
    let mut drifts = Chart::new(
        "Energy drift against the substep size",
        "substep h (s)",
        "|drift| / energy gravity can release",
    );
    drifts.log_x = true;
    drifts.log_y = true;
    let mut table = Table {
        columns: vec![
            "substeps".into(),
            "substep h (s)".into(),
            "drift (J)".into(),
            "drift (% of what gravity can release)".into(),
        ],
        rows: Vec::new(),
    };
    let mut relative = Vec::new();
    for trial in trials {
        energy
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        let h = settings.get("timeStep") / trial.key;
        let d = drift(settings, trial);
        relative.push((h, (d / scale).abs()));
        table.rows.push(vec![
            Cell::Number(trial.key),
            Cell::Number(h),
            Cell::Number(d),
            Cell::Number(100.0 * d / scale),
        ]);
    }
    drifts.series.push(Series {
        label: "measured".into(),
        points: relative.iter().map(|&(h, d)| [h, d]).collect(),
    });
    let stops = (1..relative.len()).find(|&i| relative[i].1 >= relative[i - 1].1);
    let status = match stops {
        None => Status::Holds,
        Some(1) => Status::DoesNotHold,
        Some(_) => Status::Partly,
    };
    let best = stops.map_or(relative.len() - 1, |i| i - 1);
    let text = format!(
        "{}: over {:.0} s the energy drifts {:.3} % of the {scale:.1} J gravity can release with 1 substep and {:.4} % with {}; {}",
        status.name(),
        settings.get("duration"),
        100.0 * relative[0].1,
        100.0 * relative[best].1,
        trials[best].label,
        match stops {
            None => "every step up in substeps lowers it.".to_string(),
            Some(i) => format!("beyond that ({}: {:.4} %, h = {}) more substeps of one iteration lose more energy, not less.", trials[i].label, 100.0 * relative[i].1, quantity(relative[i].0, "s")),
        },
    );
    let advice = format!(
        "For long undamped runs, substeps down to about h = {} lower the energy drift; smaller ones of one iteration do not.",
        quantity(relative[best].0, "s")
    );
    Report {
        charts: vec![energy, drifts],
        table,
        numbers: vec![
            ("driftOneSubstep", relative[0].1),
            ("bestDrift", relative[best].1),
            ("bestSubsteps", trials[best].key),
            ("stopsHelpingAt", stops.map_or(f64::NAN, |i| trials[i].key)),
        ],
        verdict: Some(Verdict {
            status,
            text,
            advice,
        }),
    }
}
