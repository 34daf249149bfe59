//! The hanging cloth: iterations against substeps at equal work, top-edge sag.

use super::measure::{mean_stretch, top_edge_depths, top_edge_sag};
use super::setup::{self, hanging_trial};
use super::{
    mean_after, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// Substeps must leave at most this fraction of the iterations' sag for the
/// claim to hold ("far straighter").
pub const MAX_SAG_RATIO: f64 = 0.5;
/// A top edge that sags less than this fraction of its length is "almost straight".
pub const STRAIGHT: f64 = 0.02;

pub(super) static DEFINITION: Definition = Definition {
    id: "hanging",
    title: "Hanging cloth: iterations against substeps",
    claim: "At equal work, substeps make a hanging cloth stiffer than iterations do: with substeps its top edge becomes almost straight.",
    source: "Macklin, Storey, Lu, Terdiman, Chentanez, Jeschke and Müller, \"Small Steps in Physics Simulation\" (2019), section 4 (hanging cloth)",
    method: "The same cloth hangs from its two top corners twice: once with n iterations and 1 substep, once with 1 iteration and n substeps (the same number of constraint solves per time step). Measured: how far the top edge sags below the line between the corners, and the mean stretch, averaged over the second half of the run.",
    rule: "Holds when, over the second half of the run, n substeps leave the top edge sagging at most half as far below its corners' line as n iterations do (\"far straighter\": half or less); the edge is called almost straight when it sags less than 2 % of its length. In part when substeps leave it straighter but not by half; does not hold when they do not straighten it.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 3.0, max: 60.0, whole: true, default: 20.0 },
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 0.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "work", label: "Solves per step n", unit: "", min: 2.0, max: 100.0, whole: true, default: 20.0 },
        setup::DURATION,
        setup::VELOCITY_DAMPING,
        setup::ORDER,
    ],
    key: "sagRatio",
    choices: &[setup::TWICE_THE_TIME, setup::THE_OTHER_ORDER],
    explain: None,
    prepare: None,
    build,
    report,
};

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let n = settings.count("work");
    let width = settings.count("width");
    [("iterations", n, 1), ("substeps", 1, n)]
        .into_iter()
        .map(|(mode, iterations, substeps)| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                iterations,
                substeps,
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let label = format!(
                "{iterations} iteration{} × {substeps} substep{}",
                plural(iterations),
                plural(substeps)
            );
            hanging_trial(
                settings,
                format!("{mode}: {label}"),
                substeps as f64,
                params,
                Box::new(move |c| vec![c.time(), top_edge_sag(c, width as usize), mean_stretch(c)]),
            )
        })
        .collect()
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let half = settings.get("duration") / 2.0;
    let edge = (settings.get("width") - 1.0) * crate::model::grid::SPACING as f64;
    let mut sag = Chart::new("Top-edge sag over time", "time (s)", "sag (m)");
    let mut shape = Chart::new(
        "Top edge at the end: depth below the line between its corners",
        "x (m)",
        "depth (m)",
    );
    let mut table = Table {
        columns: vec![
            "run".into(),
            "mean sag (m)".into(),
            "sag / edge length (%)".into(),
            "mean stretch (%)".into(),
        ],
        rows: Vec::new(),
    };
    let mut sags = Vec::new();
    for trial in trials {
        sag.series
            .push(super::series(trial.label.clone(), &trial.samples, 1));
        let width = settings.count("width") as usize;
        shape.series.push(Series {
            label: trial.label.clone(),
            points: top_edge_depths(trial.cloth.positions(), width),
        });
        let mean_sag = mean_after(&trial.samples, 1, half);
        sags.push(mean_sag);
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(mean_sag),
            Cell::Number(100.0 * mean_sag / edge),
            Cell::Number(100.0 * mean_after(&trial.samples, 2, half)),
        ]);
    }
    let (iterations, substeps) = (sags[0], sags[1]);
    let ratio = substeps / iterations;
    let straight = substeps / edge < STRAIGHT;
    let status = if ratio <= MAX_SAG_RATIO {
        Status::Holds
    } else if ratio < 1.0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let n = settings.count("work");
    let text = format!(
        "{}: with {n} substeps the top edge sags {:.4} m ({:.2} % of its {edge:.1} m, {}), with {n} iterations {:.4} m ({:.2} %): substeps leave {:.0} % of the iterations' sag ({} the {:.0} % allowed).",
        status.name(),
        substeps,
        100.0 * substeps / edge,
        if straight { "almost straight" } else { "not straight" },
        iterations,
        100.0 * iterations / edge,
        100.0 * ratio,
        if ratio <= MAX_SAG_RATIO { "within" } else { "beyond" },
        100.0 * MAX_SAG_RATIO,
    );
    Report::new(
        vec![sag, shape],
        table,
        vec![
            ("sagIterations", iterations),
            ("sagSubsteps", substeps),
            ("sagRatio", ratio),
            ("edgeLength", edge),
        ],
        Verdict::new(status, text, "To make a cloth look stiffer at the same cost, move solves from iterations to substeps."),
    )
}
