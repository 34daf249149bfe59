//! Experiments: the claims of the documents behind XPBD, measured on this cloth.
//!
//! Each experiment is defined once, here, and read twice: by the native tests
//! (`tests/experiments.rs`) and by the experiments page through wasm
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
//! [`Run::advance`] within the budget it is given.

use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Params;

mod bending;
mod chain;
mod convergence;
mod cord;
mod damping;
mod equal_cost;
mod equilibrium;
mod forces;
mod hanging;
mod iterations;
pub(crate) mod json;
mod long_run;
mod measure;
mod momentum;
mod momentum_measure;
pub mod pbd;
mod setup;
mod spin;
mod static_equilibrium;
mod stiffness_sweep;
mod substeps;
mod thin;
mod time_step;
pub mod words;

pub use measure::{mean_stretch, rms_residual, top_edge_sag, total_energy};

/// One setting of an experiment: a number with a range and a default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    /// The name in the URL and in `ExperimentRun`'s settings object.
    pub name: &'static str,
    /// The page's label, without the unit.
    pub label: &'static str,
    /// The unit shown after the value, or `""`.
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    /// Only whole numbers.
    pub whole: bool,
    pub default: f64,
}

impl Setting {
    /// The value if it is accepted, otherwise an error naming the setting.
    pub fn check(&self, value: f64) -> Result<f64, ClothError> {
        let ok = value.is_finite()
            && (self.min..=self.max).contains(&value)
            && (!self.whole || value.fract() == 0.0);
        if ok {
            Ok(value)
        } else {
            let kind = if self.whole {
                "a whole number"
            } else {
                "a finite number"
            };
            let unit = if self.unit.is_empty() {
                String::new()
            } else {
                format!(" {}", self.unit)
            };
            Err(ClothError::InvalidValue {
                field: self.name,
                value: value.to_string(),
                allowed: format!("{kind} from {} to {}{unit}", self.min, self.max),
            })
        }
    }
}

/// An experiment: what it claims, what it accepts, how it runs and how it judges.
pub struct Definition {
    /// Short name, used in the URL (`?experiment=iterations`).
    pub id: &'static str,
    pub title: &'static str,
    /// The claim, in one sentence.
    pub claim: &'static str,
    /// Where the claim comes from.
    pub source: &'static str,
    /// What is set up and what is measured, in a sentence or two.
    pub method: &'static str,
    /// The verdict's rule, fixed before any number: the measure, its
    /// threshold and why that threshold.
    pub rule: &'static str,
    pub settings: &'static [Setting],
    build: fn(&Settings) -> Result<Vec<Trial>, ClothError>,
    report: fn(&Settings, &[Trial]) -> Report,
}

/// Every experiment, in the page's order.
pub fn definitions() -> &'static [&'static Definition] {
    &DEFINITIONS
}

static DEFINITIONS: [&Definition; 14] = [
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
];

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

/// Checked values of an experiment's settings, one per [`Setting`].
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    values: Vec<(&'static str, f64)>,
}

impl Settings {
    /// The value of the setting `name` (0 for a name the experiment does not
    /// have: a mistake the tests of every experiment would show).
    pub fn get(&self, name: &str) -> f64 {
        debug_assert!(self.values.iter().any(|(n, _)| *n == name), "{name}");
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0.0, |(_, v)| *v)
    }

    /// [`Settings::get`] as a count.
    pub fn count(&self, name: &str) -> u32 {
        self.get(name) as u32
    }

    /// Every setting and its value, in the definition's order.
    pub fn values(&self) -> &[(&'static str, f64)] {
        &self.values
    }
}

impl Definition {
    /// The defaults of every setting.
    pub fn defaults(&self) -> Settings {
        Settings {
            values: self.settings.iter().map(|s| (s.name, s.default)).collect(),
        }
    }

    /// Settings from `given` (name, value) pairs, the defaults for the rest;
    /// an unknown name or a value out of range is refused, naming it.
    pub fn settings(&self, given: &[(&str, f64)]) -> Result<Settings, ClothError> {
        let mut settings = self.defaults();
        for &(name, value) in given {
            let Some(index) = self.settings.iter().position(|s| s.name == name) else {
                return Err(ClothError::InvalidValue {
                    field: "settings",
                    value: format!("\"{}\"", name.chars().take(40).collect::<String>()),
                    allowed: format!(
                        "a setting of the experiment \"{}\": {}",
                        self.id,
                        self.settings
                            .iter()
                            .map(|s| s.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            };
            settings.values[index].1 = self.settings[index].check(value)?;
        }
        Ok(settings)
    }

    /// A run of this experiment with `settings`, its trials built and none stepped.
    /// Refused when the trials would need more than [`MAX_RUN_WORK`] work units.
    pub fn start(&'static self, settings: Settings) -> Result<Run, ClothError> {
        let trials = (self.build)(&settings)?;
        let total_work: f64 = trials.iter().map(Trial::work).sum();
        if total_work > MAX_RUN_WORK {
            let first = self.settings.first().map_or("settings", |s| s.name);
            return Err(ClothError::InvalidValue {
                field: first,
                value: format!("{}", settings.get(first)),
                allowed: format!(
                    "settings whose run takes at most {} work units (about a minute); these need {}",
                    words::number(MAX_RUN_WORK),
                    words::number(total_work)
                ),
            });
        }
        Ok(Run {
            definition: self,
            settings,
            trials,
            current: 0,
            total_work: total_work.max(1.0),
            work_done: 0.0,
        })
    }

    /// Runs this experiment with `settings` to the end (the native tests do).
    pub fn run(&'static self, settings: Settings) -> Result<Report, ClothError> {
        let mut run = self.start(settings)?;
        while !run.advance(u64::MAX) {}
        Ok(run.report())
    }
}

/// The most work units one run may take: about a minute of the wasm build.
pub const MAX_RUN_WORK: f64 = 6e10;

/// How a trial steps its cloth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// `total` steps, measured after every `every`-th.
    Steps { total: u32, every: u32 },
    /// One step, measured after the prediction and after every sweep of the
    /// constraints (the cloth must fit in one chunk of a sweep per sweep, and
    /// run one substep).
    Sweeps,
}

/// What a trial measures: a row of numbers, its first the x value (the time,
/// or the sweep number).
pub type Probe = Box<dyn Fn(&mut Cloth) -> Vec<f64>>;

/// What a trial does to its cloth before each step (moves a pinned corner, say).
pub type Driver = Box<dyn FnMut(&mut Cloth)>;

/// A step of the trial's own, in place of the cloth's (plain PBD with a
/// stiffness coefficient, say); it must advance the cloth's clock by one step.
pub type Stepper = Box<dyn FnMut(&mut Cloth)>;

/// One cloth of an experiment, stepped by a [`Plan`] and measured by a probe.
pub struct Trial {
    /// What distinguishes it (`"XPBD, 10 iterations"`).
    pub label: String,
    /// A number that distinguishes it (the iteration count, the time step), for
    /// the experiment's report.
    pub key: f64,
    pub cloth: Cloth,
    plan: Plan,
    probe: Probe,
    driver: Option<Driver>,
    stepper: Option<Stepper>,
    warmup: Option<Warmup>,
    /// The probe's rows, in order.
    pub samples: Vec<Vec<f64>>,
    steps_done: u32,
    /// The cloth diverged (a step was undone and it stopped).
    pub diverged: bool,
    finished: bool,
}

impl Trial {
    pub fn new(
        label: impl Into<String>,
        key: f64,
        cloth: Cloth,
        plan: Plan,
        probe: Probe,
    ) -> Trial {
        Trial {
            label: label.into(),
            key,
            cloth,
            plan,
            probe,
            driver: None,
            stepper: None,
            warmup: None,
            samples: Vec::new(),
            steps_done: 0,
            diverged: false,
            finished: false,
        }
    }

    /// The trial with `driver` called before each of its steps.
    pub fn with_driver(mut self, driver: Driver) -> Trial {
        self.driver = Some(driver);
        self
    }

    /// The trial with each step taken by `stepper` instead of the cloth's own.
    pub fn with_stepper(mut self, stepper: Stepper) -> Trial {
        self.stepper = Some(stepper);
        self
    }

    /// The trial with `steps` steps at the cloth's present parameters before
    /// its plan, unmeasured (a cloth falling for a while, say), after which the
    /// cloth takes `then`. The steps are taken by [`Run::advance`] like the
    /// rest; `then` is checked here.
    pub fn with_warmup(mut self, steps: u32, then: Params) -> Result<Trial, ClothError> {
        let warm = self.cloth.params();
        let warm_work = self.cloth.work_per_step();
        self.cloth.set_params(then)?;
        let then_work = self.cloth.work_per_step();
        self.cloth.set_params(warm)?;
        self.warmup = Some(Warmup {
            left: steps,
            work_per_step: warm_work,
            then,
            then_work_per_step: then_work,
        });
        Ok(self)
    }

    /// The work units its warm-up and its plan take, estimated before it runs.
    fn work(&self) -> f64 {
        let (warmup, per_step) = match self.warmup {
            Some(w) => (
                w.left as f64 * w.work_per_step as f64,
                w.then_work_per_step as f64,
            ),
            None => (0.0, self.cloth.work_per_step() as f64),
        };
        warmup
            + match self.plan {
                Plan::Steps { total, .. } => per_step * total as f64,
                Plan::Sweeps => per_step,
            }
    }

    /// Takes warm-up steps within `budget`; returns the work done and whether
    /// the warm-up is over (the cloth then has its plan's parameters).
    fn warm_up(&mut self, budget: u64) -> (u64, bool) {
        let Some(warmup) = self.warmup.as_mut() else {
            return (0, true);
        };
        let (finished, spent) = self.cloth.advance(warmup.left, budget);
        warmup.left -= finished;
        if !self.cloth.is_finite() {
            self.diverged = true;
            self.finished = true;
        } else if warmup.left == 0 && !self.cloth.step_in_progress() {
            let then = warmup.then;
            self.warmup = None;
            // checked in `with_warmup`, on this same cloth
            if self.cloth.set_params(then).is_err() {
                self.diverged = true;
                self.finished = true;
            }
        }
        (spent.max(1), self.warmup.is_none())
    }

    /// Steps until `budget` work units are spent or the plan is done; returns
    /// the work done.
    fn advance(&mut self, budget: u64) -> u64 {
        let mut work = 0u64;
        while !self.finished && (work == 0 || work < budget) {
            if self.warmup.is_some() {
                let (spent, over) = self.warm_up(budget.saturating_sub(work));
                work += spent;
                if !over {
                    continue;
                }
                if self.finished || work >= budget {
                    break;
                }
            }
            match self.plan {
                Plan::Steps { total, every } => {
                    if self.steps_done == 0 && self.samples.is_empty() {
                        let row = (self.probe)(&mut self.cloth);
                        self.samples.push(row);
                    }
                    if !self.cloth.step_in_progress() {
                        if let Some(driver) = self.driver.as_mut() {
                            driver(&mut self.cloth);
                        }
                    }
                    let (finished, spent) = match self.stepper.as_mut() {
                        Some(stepper) => {
                            stepper(&mut self.cloth);
                            (1, self.cloth.work_per_step())
                        }
                        None => self.cloth.advance(1, budget.saturating_sub(work)),
                    };
                    work += spent.max(1);
                    if finished == 1 {
                        self.steps_done += 1;
                        if self.steps_done % every.max(1) == 0 || self.steps_done == total {
                            let row = (self.probe)(&mut self.cloth);
                            self.samples.push(row);
                        }
                    }
                    self.diverged = !self.cloth.is_finite();
                    self.finished = self.diverged || self.steps_done >= total;
                }
                Plan::Sweeps => {
                    let iterations = self.cloth.params().iterations as f64;
                    let (finished, spent) = self.cloth.advance(1, 1);
                    work += spent.max(1);
                    if finished == 1 {
                        self.finished = true;
                        self.diverged = !self.cloth.is_finite();
                    } else {
                        // the first piece begins the step, the second predicts,
                        // each later one is a sweep (a small cloth's sweep is one
                        // chunk): measure after the prediction and every sweep
                        self.steps_done += 1;
                        let sweep = self.steps_done as f64 - 2.0;
                        let done = self.cloth.step_progress() * (iterations + 1.0);
                        if sweep >= 0.0 && sweep <= iterations && (done - sweep).abs() < 1e-6 {
                            let mut row = (self.probe)(&mut self.cloth);
                            row.insert(0, sweep);
                            self.samples.push(row);
                        }
                    }
                }
            }
        }
        work
    }
}

/// A trial's steps before its plan, and the parameters it takes after them.
#[derive(Debug, Clone, Copy)]
struct Warmup {
    left: u32,
    work_per_step: u64,
    then: Params,
    then_work_per_step: u64,
}

/// An experiment running: its trials, stepped in slices.
pub struct Run {
    definition: &'static Definition,
    settings: Settings,
    trials: Vec<Trial>,
    current: usize,
    total_work: f64,
    work_done: f64,
}

impl Run {
    /// Steps the trials until `budget` work units are spent (at least one piece
    /// of work) or all are done; returns whether all are done.
    pub fn advance(&mut self, budget: u64) -> bool {
        let mut spent = 0u64;
        while self.current < self.trials.len() && (spent == 0 || spent < budget) {
            let trial = &mut self.trials[self.current];
            spent += trial.advance(budget.saturating_sub(spent).max(1));
            if trial.finished {
                self.current += 1;
            }
        }
        self.work_done += spent as f64;
        self.is_done()
    }

    /// Whether every trial is done.
    pub fn is_done(&self) -> bool {
        self.current >= self.trials.len()
    }

    /// The fraction of the estimated work done, 0..1.
    pub fn progress(&self) -> f64 {
        if self.is_done() {
            1.0
        } else {
            (self.work_done / self.total_work).min(0.99)
        }
    }

    /// The work units spent so far.
    pub fn work_done(&self) -> f64 {
        self.work_done
    }

    /// The trials, as far as they have run.
    pub fn trials(&self) -> &[Trial] {
        &self.trials
    }

    pub fn definition(&self) -> &'static Definition {
        self.definition
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The report from what has been measured so far; its verdict only once
    /// every trial is done.
    pub fn report(&self) -> Report {
        let mut report = (self.definition.report)(&self.settings, &self.trials);
        if !self.is_done() {
            report.verdict = None;
        }
        report
    }
}

/// What a run shows: plots, a table, the key numbers and the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub charts: Vec<Chart>,
    pub table: Table,
    /// The numbers the verdict is computed from, by name (the tests read them).
    pub numbers: Vec<(&'static str, f64)>,
    /// `None` while the run is going on.
    pub verdict: Option<Verdict>,
}

impl Report {
    /// The key number `name` (NaN if there is none).
    pub fn number(&self, name: &str) -> f64 {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, v)| *v)
    }

    /// The report as JSON, for the page, every point of every series.
    pub fn to_json(&self) -> String {
        json::report(self, usize::MAX)
    }

    /// The report as JSON with at most about `max_points` points per series
    /// (the lowest and highest of each run of neighbours), for a plot.
    pub fn to_json_thinned(&self, max_points: usize) -> String {
        json::report(self, max_points)
    }
}

/// A plot: series of points with labelled axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    /// Both axes in metres at the same scale (traces in the plane).
    pub plane: bool,
    pub series: Vec<Series>,
}

impl Chart {
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Chart {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            plane: false,
            series: Vec::new(),
        }
    }
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<[f64; 2]>,
}

/// The table of measured numbers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// A cell of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
}

/// Whether the claim holds here, and why, in words computed from the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    pub text: String,
    /// What this means for you: which setting to choose, in one line.
    pub advice: String,
}

/// The verdict's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Holds,
    Partly,
    DoesNotHold,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Holds => "holds",
            Status::Partly => "holds in part",
            Status::DoesNotHold => "does not hold",
        }
    }
}

/// `100 · |b − a| / |a|`: how much `b` differs from `a`, in percent.
pub fn percent_change(a: f64, b: f64) -> f64 {
    100.0 * (b - a).abs() / a.abs().max(1e-300)
}

/// The mean of column `column` of `samples` whose first value is at least `from`.
pub fn mean_after(samples: &[Vec<f64>], column: usize, from: f64) -> f64 {
    let values: Vec<f64> = samples
        .iter()
        .filter(|row| row[0] >= from)
        .map(|row| row[column])
        .collect();
    if values.is_empty() {
        f64::NAN
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// Column `column` of `samples` against their first value, as a series.
pub fn series(label: impl Into<String>, samples: &[Vec<f64>], column: usize) -> Series {
    Series {
        label: label.into(),
        points: samples.iter().map(|row| [row[0], row[column]]).collect(),
    }
}
