//! An experiment running: its trials stepped in slices of a work budget,
//! its progress, and its report so far.

use super::{Definition, Report, Settings, Trial};
use crate::error::ClothError;

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
    /// A run of `definition` whose `trials` need `total_work` work units.
    pub(super) fn new(
        definition: &'static Definition,
        settings: Settings,
        trials: Vec<Trial>,
        total_work: f64,
    ) -> Run {
        Run {
            definition,
            settings,
            trials,
            current: 0,
            total_work: total_work.max(1.0),
            work_done: 0.0,
        }
    }

    /// Steps the current trial until `budget` work units are spent (at least
    /// one piece of work) or it is done; the next call steps the next trial.
    /// Returns whether all are done.
    pub fn advance(&mut self, budget: u64) -> bool {
        let mut spent = 0u64;
        while self.current < self.trials.len() && (spent == 0 || spent < budget) {
            let trial = &mut self.trials[self.current];
            spent += trial.advance(budget.saturating_sub(spent).max(1));
            if trial.finished {
                // a call never steps two trials, so its time is one trial's
                self.current += 1;
                break;
            }
        }
        self.work_done += spent as f64;
        self.is_done()
    }

    /// The index of the trial the next [`Run::advance`] steps: a call steps
    /// that trial only, so a caller timing the call times that trial.
    pub fn current_trial(&self) -> usize {
        self.current
    }

    /// Adds `seconds` of wall-clock time, measured by the caller around
    /// [`Run::advance`] calls, to trial number `trial`. A trial that does not
    /// exist (or a number that is not a whole one) or a time that is not a
    /// finite number of at least 0 is refused, naming it, and nothing changes.
    pub fn add_wall_time(&mut self, trial: f64, seconds: f64) -> Result<(), ClothError> {
        let count = self.trials.len();
        if !(trial.fract() == 0.0 && (0.0..count as f64).contains(&trial)) {
            return Err(ClothError::InvalidValue {
                field: "trial",
                value: trial.to_string(),
                allowed: format!("a whole number from 0 to {}", count.saturating_sub(1)),
            });
        }
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(ClothError::InvalidValue {
                field: "seconds",
                value: seconds.to_string(),
                allowed: "a finite number of at least 0".into(),
            });
        }
        self.trials[trial as usize].wall_seconds += seconds;
        Ok(())
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
