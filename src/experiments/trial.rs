//! One cloth of an experiment: how it is stepped (a plan, a warm-up, a driver
//! or a stepper of its own), what it measures, and its steps within a work
//! budget.

use super::{Cell, Table};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Params;

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

/// The work units of a step taken by a [`Stepper`], per work unit of the
/// cloth's own step: plain PBD's stepper copies the cloth's arrays each step
/// and sweeps in the original order without SIMD, and the worst-case search
/// (`node scripts/bench-browser.mjs --worst-case`) measured it at 1.8 times
/// the cloth's time per unit. Counted at 2, a budget bounds its time as it
/// bounds the cloth's.
const STEPPER_WORK_FACTOR: u64 = 2;

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
    /// Wall-clock seconds spent stepping it, as the caller of [`Run::advance`]
    /// measured and reported them ([`Run::add_wall_time`]); 0 when untimed.
    /// Never part of a verdict: a clock is not deterministic.
    ///
    /// [`Run::advance`]: super::Run::advance
    /// [`Run::add_wall_time`]: super::Run::add_wall_time
    pub wall_seconds: f64,
    pub(super) finished: bool,
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
            wall_seconds: 0.0,
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
    /// cloth takes `then`. The steps are taken by [`crate::experiments::run::Run::advance`] like the
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

    /// The steps of its plan taken so far (its warm-up not counted).
    pub fn steps_done(&self) -> u32 {
        self.steps_done
    }

    /// The work units of one step of its plan at the cloth's present
    /// parameters, as a run charges it (a step of a [`Stepper`] is charged
    /// whole, `STEPPER_WORK_FACTOR` times the cloth's own).
    pub fn step_work(&self) -> u64 {
        self.cloth.work_per_step() * self.stepper_factor()
    }

    /// [`STEPPER_WORK_FACTOR`] for a trial stepped by a [`Stepper`], else 1.
    fn stepper_factor(&self) -> u64 {
        if self.stepper.is_some() {
            STEPPER_WORK_FACTOR
        } else {
            1
        }
    }

    /// The work units its warm-up and its plan take, estimated before it runs.
    pub(super) fn work(&self) -> f64 {
        let (warmup, per_step) = match self.warmup {
            Some(w) => (
                w.left as f64 * w.work_per_step as f64,
                (w.then_work_per_step * self.stepper_factor()) as f64,
            ),
            None => (0.0, self.step_work() as f64),
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
    pub(super) fn advance(&mut self, budget: u64) -> u64 {
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
                            (1, self.step_work())
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

/// The table of a report with a row per trial: its label, its work units per
/// step, the cells `before(trial)` gives, its `figures` (one row of numbers
/// per trial, in order) and the cells `after(figures)` gives; `columns` names
/// them all.
pub fn trial_table<const N: usize>(
    columns: &[&str],
    trials: &[Trial],
    figures: &[[f64; N]],
    before: impl Fn(&Trial) -> Vec<Cell>,
    after: impl Fn(&[f64; N]) -> Vec<Cell>,
) -> Table {
    Table {
        columns: columns.iter().map(|&c| String::from(c)).collect(),
        rows: trials
            .iter()
            .zip(figures)
            .map(|(t, f)| {
                let mut row = vec![
                    Cell::Text(t.label.clone()),
                    Cell::Number(t.cloth.work_per_step() as f64),
                ];
                row.extend(before(t));
                row.extend(f.iter().map(|&v| Cell::Number(v)));
                row.extend(after(f));
                row
            })
            .collect(),
    }
}
