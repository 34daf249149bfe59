//! Experiments: the claims of the documents behind XPBD, measured on this cloth.
//!
//! Each experiment is defined once, here, and read twice: by the native tests
//! (`tests/experiments/`) and by the experiments page through wasm
//! (`ExperimentRun`, in `src/wasm/experiments.rs`). A [`Definition`] holds the claim and its
//! source, the settings it accepts (each with its range and default, checked like
//! the cloth's own parameters), how the trials are built from the settings, and
//! how the report (plots, table, key numbers and the verdict, whose thresholds
//! and wording live in the experiment's file) is computed from what the trials
//! measured. A [`Run`] steps the trials in slices of a work budget, so the page
//! can show progress and stay responsive.
//!
//! Building a run is cheap: `build` only makes the cloths. Every step a trial
//! takes, its warm-up ([`Trial::with_warmup`]) included, is taken by
//! [`Run::advance`] within the budget it is given, and so is what a run
//! computes before its trials (a [`Preparation`]: the Newton solve of the
//! exact equilibrium its probes or its report compare with).

mod bending;
pub mod box_stack;
mod chain;
mod choice;
mod convergence;
mod cord;
mod damping;
mod definition;
mod equal_cost;
mod equilibrium;
mod forces;
pub mod four_solvers;
mod hanging;
mod iterations;
pub(crate) mod json;
mod long_run;
mod measure;
mod momentum;
mod momentum_measure;
pub mod pbd;
mod preparation;
mod report;
mod run;
mod samples;
mod setting;
mod setup;
mod spin;
mod static_equilibrium;
mod stiffness_sweep;
mod substeps;
mod thin;
mod time_step;
mod trial;
pub mod words;

pub use choice::{Change, Check, Choice};
pub use definition::{Definition, MAX_RUN_WORK};
pub use measure::{mean_stretch, rms_residual, top_edge_sag, total_energy};
pub use preparation::Preparation;
pub use report::{Cell, Chart, Report, Series, Status, Table, Verdict};
pub use run::Run;
pub use samples::{mean_after, percent_change, series};
pub use setting::{Setting, Settings};
pub use setup::fall_resolution;
pub use trial::{trial_table, Driver, Plan, Probe, Stepper, Trial};

use crate::error::ClothError;

/// Every experiment, in the page's order.
pub fn definitions() -> &'static [&'static Definition] {
    &DEFINITIONS
}

static DEFINITIONS: [&Definition; 16] = [
    &iterations::DEFINITION,
    &time_step::DEFINITION,
    &cord::DEFINITION,
    &hanging::DEFINITION,
    &damping::DEFINITION,
    &convergence::DEFINITION,
    &bending::DEFINITION,
    &substeps::DEFINITION,
    &static_equilibrium::DEFINITION,
    &forces::DEFINITION,
    &spin::DEFINITION,
    &momentum::DEFINITION,
    &long_run::DEFINITION,
    &equal_cost::DEFINITION,
    &four_solvers::DEFINITION,
    &box_stack::DEFINITION,
];

/// Every definition as JSON, as the page reads them (`experimentDefinitions()`).
pub fn definitions_json() -> String {
    json::definitions(definitions())
}

/// The experiment called `id`, or an error naming it.
pub fn definition(id: &str) -> Result<&'static Definition, ClothError> {
    definitions()
        .iter()
        .copied()
        .find(|d| d.id == id)
        .ok_or_else(|| ClothError::InvalidValue {
            field: "experiment",
            value: format!("\"{}\"", id.chars().take(40).collect::<String>()),
            allowed: format!(
                "one of {}",
                definitions()
                    .iter()
                    .map(|d| format!("\"{}\"", d.id))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}
