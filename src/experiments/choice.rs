//! The choices a verdict depends on, and the checks that perturb them.
//!
//! A verdict rests on choices the reader cannot see in its number: the window
//! a mean is taken over, the level a residual must reach, the sweep order,
//! the iteration count where convergence matters. Each experiment declares
//! them ([`Choice`]); its run is then judged again under a perturbation of
//! each (twice the window, the other order, ten times the iterations), and
//! a verdict whose status changes under one reads "depends on …", naming the
//! choice, with both results ([`Check`]).
//!
//! A choice is a setting of the experiment, so a perturbation is only other
//! settings: a choice of how the trials are measured (a window, a level)
//! reads the same trials again with the perturbed setting; any other runs
//! its trials again. A new experiment adopts it by listing its choices:
//!
//! ```ignore
//! choices: &[
//!     Choice::run(&["iterations"], "the iteration count", Change::Times(10.0), "…what a flip means…", "…advice…"),
//!     Choice::measure(&["window"], "the averaging window", Change::Times(2.0), "…", ""),
//! ],
//! ```

use super::{words, Setting, Settings, Status, Table};

/// How a choice is perturbed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// Each setting times this factor (twice the window, ten times the
    /// iterations).
    Times(f64),
    /// Each setting set to each of these values in turn, its own value
    /// skipped (the other residual levels).
    Values(&'static [f64]),
    /// A setting of 0 or 1 set to the other one (the other sweep order).
    Other,
}

/// A choice the verdict depends on: the settings it is made with, how they
/// are perturbed, and what a verdict that changes under the perturbation
/// means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    /// The settings the choice is made with (one, or several changed
    /// together: the iterations of every run).
    pub settings: &'static [&'static str],
    /// What it is, for "depends on …": `"the iteration count"`.
    pub name: &'static str,
    pub change: Change,
    /// Whether the perturbed verdict reads the run's own trials with the
    /// perturbed setting (a window, a level: how the trials are measured),
    /// rather than trials of its own.
    pub measure_only: bool,
    /// What a verdict that changes under the perturbation means, written
    /// with the rule (added to the verdict's words when it does).
    pub meaning: &'static str,
    /// What to do then, in one line (added to the advice when it does).
    pub advice: &'static str,
}

impl Choice {
    /// A choice of how the run is made: its perturbation runs its trials again.
    pub const fn run(
        settings: &'static [&'static str],
        name: &'static str,
        change: Change,
        meaning: &'static str,
        advice: &'static str,
    ) -> Choice {
        Choice {
            settings,
            name,
            change,
            measure_only: false,
            meaning,
            advice,
        }
    }

    /// A choice of how the trials are measured: its perturbation reads the
    /// same trials again.
    pub const fn measure(
        settings: &'static [&'static str],
        name: &'static str,
        change: Change,
        meaning: &'static str,
        advice: &'static str,
    ) -> Choice {
        Choice {
            measure_only: true,
            ..Choice::run(settings, name, change, meaning, advice)
        }
    }

    /// The perturbed settings, one per perturbation, each with the words for
    /// it (`"twice the simulated time (20 s)"`); a perturbation whose values
    /// fall outside their settings' ranges is `Err` with the reason.
    pub fn perturbations(
        &self,
        definitions: &[Setting],
        settings: &Settings,
    ) -> Vec<(String, Result<Settings, String>)> {
        let first = self.settings[0];
        let value = settings.get(first);
        let values: Vec<f64> = match self.change {
            Change::Times(factor) => vec![value * factor],
            Change::Values(values) => values.iter().copied().filter(|&v| v != value).collect(),
            Change::Other => vec![1.0 - value],
        };
        values
            .into_iter()
            .map(|target| {
                let words = self.words(definitions, target);
                let mut perturbed = settings.clone();
                for &name in self.settings {
                    let own = settings.get(name);
                    let new = match self.change {
                        Change::Times(factor) => own * factor,
                        _ => target,
                    };
                    if let Err(error) = perturbed.set(definitions, name, new) {
                        return (words, Err(error.to_string()));
                    }
                }
                (words, Ok(perturbed))
            })
            .collect()
    }

    /// The words for the perturbation that gives the first setting `value`.
    fn words(&self, definitions: &[Setting], value: f64) -> String {
        let shown = show(definitions, self.settings[0], value);
        match self.change {
            Change::Times(2.0) => format!("twice {} ({shown})", self.name),
            Change::Times(10.0) => format!("ten times {} ({shown})", self.name),
            Change::Times(f) => format!("{} × {} ({shown})", words::number(f), self.name),
            Change::Values(_) => format!("{} at {shown}", self.name),
            // "the sweep order" → "the other sweep order"
            Change::Other => format!(
                "the other {} ({shown})",
                self.name.strip_prefix("the ").unwrap_or(self.name)
            ),
        }
    }
}

/// `value` of the setting `name`, with its unit when it has a plain one
/// (`"20 s"`, `"0.001"`; a 0/1 setting by its unit's words).
pub(super) fn show(definitions: &[Setting], name: &str, value: f64) -> String {
    let setting = definitions.iter().find(|s| s.name == name);
    let unit = setting.map_or("", |s| s.unit);
    // a switch labels its values in its unit: "0 = coloured, 1 = original"
    for part in unit.split(", ") {
        if let Some((number, word)) = part.split_once(" = ") {
            if number.parse::<f64>().ok() == Some(value) {
                return word.to_string();
            }
        }
    }
    let unit = unit.split(',').next().unwrap_or("");
    words::quantity(value, if unit.contains('=') { "" } else { unit })
}

/// One perturbation of a choice, judged: what was changed, and the verdict
/// and key number it gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The choice's name (`"the iteration count"`).
    pub choice: &'static str,
    /// The settings perturbed.
    pub settings: &'static [&'static str],
    /// The perturbation in words (`"ten times the iteration count (100)"`).
    pub perturbation: String,
    /// The first setting's value in the run, and perturbed.
    pub value: f64,
    pub perturbed: f64,
    /// The verdict's status under the perturbation (`None`: not run, see
    /// `note`).
    pub status: Option<Status>,
    /// The experiment's key number under the perturbation.
    pub key: f64,
    /// Every number and the table of the perturbed report (empty when not
    /// run), for an experiment whose words read them.
    pub numbers: Vec<(&'static str, f64)>,
    pub table: Table,
    /// Why it was not run, if it was not.
    pub note: String,
}

impl Check {
    /// Whether the verdict changes under this perturbation.
    pub fn flips(&self, status: Status) -> bool {
        self.status.is_some_and(|s| s != status)
    }

    /// The perturbed report's number `name` (NaN if there is none).
    pub fn number(&self, name: &str) -> f64 {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, v)| *v)
    }
}

/// What a verdict of `status` depends on, given its `checks`: the names of
/// the choices whose perturbation changed the status, the words that say so
/// (with both results and what each flip means; empty when none flips), and
/// those choices' advice.
pub(super) fn depends_on(
    definitions: &[Setting],
    choices: &[Choice],
    status: Status,
    checks: &[Check],
) -> (Vec<&'static str>, String, String) {
    let mut names: Vec<&'static str> = Vec::new();
    let mut parts = Vec::new();
    let mut advice = Vec::new();
    for choice in choices {
        let flipped: Vec<&Check> = checks
            .iter()
            .filter(|c| c.choice == choice.name && c.flips(status))
            .collect();
        let Some(first) = flipped.first() else {
            continue;
        };
        names.push(choice.name);
        let others: Vec<String> = flipped
            .iter()
            .map(|c| {
                format!(
                    "{} with {}",
                    c.status.map_or("not judged", Status::name),
                    c.perturbation
                )
            })
            .collect();
        parts.push(format!(
            "It depends on {}: {} at {} (this run), {}.{}",
            choice.name,
            status.name(),
            show(definitions, choice.settings[0], first.value),
            others.join("; "),
            if choice.meaning.is_empty() {
                String::new()
            } else {
                format!(" {}", choice.meaning)
            }
        ));
        if !choice.advice.is_empty() {
            advice.push(choice.advice);
        }
    }
    (names, parts.join(" "), advice.join(" "))
}
