//! An experiment running: what it computes before its trials, its trials and
//! those of every perturbation of its choices, stepped in slices of a work
//! budget, its progress, and its report so far.

use std::ops::Range;

use super::choice::{self, Check};
use super::{words, Definition, Preparation, Report, Settings, Trial, MAX_RUN_WORK};
use crate::error::ClothError;

/// An experiment running: its trials, stepped in slices.
pub struct Run {
    definition: &'static Definition,
    settings: Settings,
    /// What it computes before its trials (for its own settings and each
    /// perturbation's), in order; `prepared` of them are done.
    preparations: Vec<Box<dyn Preparation>>,
    prepared: usize,
    /// The work units the current preparation has spent.
    preparing_work: f64,
    /// The run's own trials first, then those of each perturbation that runs
    /// trials of its own.
    trials: Vec<Trial>,
    /// How many of `trials` are the run's own.
    own: usize,
    perturbations: Vec<Perturbation>,
    current: usize,
    total_work: f64,
    work_done: f64,
}

/// One perturbation of a choice: its settings and the trials it reads (the
/// run's own for a choice of measure), or why it cannot run; and, once those
/// trials are done, its outcome.
struct Perturbation {
    choice: usize,
    words: String,
    settings: Result<Settings, String>,
    trials: Range<usize>,
    outcome: Option<Check>,
}

impl Run {
    /// A run of `definition` with `settings`: its trials and every
    /// perturbation's, built, and what it computes before them (nothing
    /// stepped or computed). A perturbation whose trials
    /// would take the run past [`MAX_RUN_WORK`] is not run (its check says
    /// so); the run's own trials are never left out (the caller refuses a
    /// run whose own trials are too long).
    pub(super) fn new(
        definition: &'static Definition,
        settings: Settings,
    ) -> Result<Run, ClothError> {
        let mut trials = definition.trials(&settings)?;
        let own = trials.len();
        let mut work: f64 = trials.iter().map(Trial::work).sum();
        let mut preparations: Vec<Box<dyn Preparation>> =
            definition.preparation(&settings).into_iter().collect();
        let mut perturbations = Vec::new();
        for (index, choice) in definition.choices.iter().enumerate() {
            for (words, perturbed) in choice.perturbations(definition.settings, &settings) {
                let mut range = 0..own;
                let perturbed = match perturbed {
                    Ok(perturbed) if !choice.measure_only => match definition.trials(&perturbed) {
                        Ok(more) => {
                            let more_work: f64 = more.iter().map(Trial::work).sum();
                            if work + more_work > MAX_RUN_WORK {
                                Err(format!(
                                        "not run: its trials would take {} more work units, past the {} a run may take",
                                        words::number(more_work),
                                        words::number(MAX_RUN_WORK)
                                    ))
                            } else {
                                work += more_work;
                                preparations.extend(definition.preparation(&perturbed));
                                range = trials.len()..trials.len() + more.len();
                                trials.extend(more);
                                Ok(perturbed)
                            }
                        }
                        Err(error) => Err(error.to_string()),
                    },
                    other => other,
                };
                perturbations.push(Perturbation {
                    choice: index,
                    words,
                    settings: perturbed,
                    trials: range,
                    outcome: None,
                });
            }
        }
        // a preparation is counted in the progress, not in the work a run
        // may take (it is bounded by its own method, not by the settings)
        let total_work = work + preparations.iter().map(|p| p.work()).sum::<f64>();
        Ok(Run {
            definition,
            settings,
            preparations,
            prepared: 0,
            preparing_work: 0.0,
            trials,
            own,
            perturbations,
            current: 0,
            total_work: total_work.max(1.0),
            work_done: 0.0,
        })
    }

    /// The work units the run's own trials are estimated to take.
    pub(super) fn own_work(&self) -> f64 {
        self.own_trials().iter().map(Trial::work).sum()
    }

    /// Works on the current preparation, or once every one is done steps the
    /// current trial, until `budget` work units are spent (at least one piece
    /// of work) or it is done; the next call takes the next. The call that
    /// finishes the last trial a perturbation reads also judges that
    /// perturbation. Returns whether all are done.
    pub fn advance(&mut self, budget: u64) -> bool {
        if let Some(preparation) = self.preparations.get_mut(self.prepared) {
            let spent = preparation.advance(budget) as f64;
            self.work_done += spent;
            self.preparing_work += spent;
            if preparation.is_done() {
                // its estimate was its most: count what it took instead
                self.total_work =
                    (self.total_work - preparation.work() + self.preparing_work).max(1.0);
                self.prepared += 1;
                self.preparing_work = 0.0;
            }
            return false;
        }
        let mut spent = 0u64;
        while self.current < self.trials.len() && (spent == 0 || spent < budget) {
            let trial = &mut self.trials[self.current];
            spent += trial.advance(budget.saturating_sub(spent).max(1));
            if trial.finished {
                // a call never steps two trials, so its time is one trial's
                self.current += 1;
                self.judge_finished();
                break;
            }
        }
        self.work_done += spent as f64;
        self.is_done()
    }

    /// Judges every perturbation whose trials are all done and that has no
    /// outcome yet.
    fn judge_finished(&mut self) {
        let definition = self.definition;
        for index in 0..self.perturbations.len() {
            let p = &self.perturbations[index];
            if p.outcome.is_some() || p.trials.end > self.current {
                continue;
            }
            let choice = &definition.choices[p.choice];
            let first = choice.settings[0];
            let (report, note, perturbed) = match &p.settings {
                Ok(settings) => (
                    Some(definition.report_of(settings, &self.trials[p.trials.clone()])),
                    String::new(),
                    settings.get(first),
                ),
                Err(reason) => (None, reason.clone(), f64::NAN),
            };
            let outcome = Check {
                choice: choice.name,
                settings: choice.settings,
                perturbation: p.words.clone(),
                value: self.settings.get(first),
                perturbed,
                status: report
                    .as_ref()
                    .and_then(|r| r.verdict.as_ref().map(|v| v.status)),
                key: report
                    .as_ref()
                    .map_or(f64::NAN, |r| r.number(definition.key)),
                numbers: report.as_ref().map_or(Vec::new(), |r| r.numbers.clone()),
                table: report.map(|r| r.table).unwrap_or_default(),
                note,
            };
            self.perturbations[index].outcome = Some(outcome);
        }
    }

    /// The index of the trial the next [`Run::advance`] steps: a call steps
    /// that trial only, so a caller timing the call times that trial (while
    /// the run prepares, a call steps no trial, and its time is counted with
    /// the first's).
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

    /// Whether every preparation and every trial is done.
    pub fn is_done(&self) -> bool {
        !self.is_preparing() && self.current >= self.trials.len()
    }

    /// Whether it is still computing what its trials need (no trial has
    /// been stepped yet).
    pub fn is_preparing(&self) -> bool {
        self.prepared < self.preparations.len()
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

    /// Every trial, the run's own first, then the perturbations', as far as
    /// they have run.
    pub fn trials(&self) -> &[Trial] {
        &self.trials
    }

    /// The run's own trials (those its report shows).
    pub fn own_trials(&self) -> &[Trial] {
        &self.trials[..self.own]
    }

    pub fn definition(&self) -> &'static Definition {
        self.definition
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every perturbation of the run's choices, in words, with the reason it
    /// will not run if it will not (out of its setting's range, refused, or
    /// past the work a run may take): known as soon as the run is built.
    pub fn planned_checks(&self) -> Vec<(String, Option<String>)> {
        self.perturbations
            .iter()
            .map(|p| (p.words.clone(), p.settings.as_ref().err().cloned()))
            .collect()
    }

    /// The outcome of every perturbation judged so far.
    pub fn checks(&self) -> Vec<Check> {
        self.perturbations
            .iter()
            .filter_map(|p| p.outcome.clone())
            .collect()
    }

    /// The report from what has been measured so far; its verdict only once
    /// every trial is done, with the checks of its choices and, when one
    /// changes the verdict, what it depends on. While the run prepares, an
    /// empty report (the experiment's own would compute what is being
    /// prepared, all in one call).
    pub fn report(&self) -> Report {
        if self.is_preparing() {
            return Report::empty();
        }
        let definition = self.definition;
        let mut report = definition.report_of(&self.settings, self.own_trials());
        if !self.is_done() {
            report.verdict = None;
            return report;
        }
        report.checks = self.checks();
        if let Some(verdict) = report.verdict.as_mut() {
            let (names, words, advice) = choice::depends_on(
                definition.settings,
                definition.choices,
                verdict.status,
                &report.checks,
            );
            if !names.is_empty() {
                verdict.text = format!("{} {words}", verdict.text);
                if !advice.is_empty() {
                    verdict.advice = format!("{} {advice}", verdict.advice);
                }
            }
            verdict.depends_on = names;
        }
        if let Some(explain) = definition.explain {
            explain(&self.settings, &mut report);
        }
        report
    }
}
