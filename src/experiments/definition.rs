//! What an experiment is: its claim and source, its method and rule, its
//! settings, how its trials are built and how its report is computed; and
//! how a run of it starts.

use super::{words, Choice, Preparation, Report, Run, Setting, Settings, Trial};
use crate::error::ClothError;

/// What a run with some settings computes before its trials, if anything.
pub(super) type Prepare = fn(&Settings) -> Option<Box<dyn Preparation>>;

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
    /// The name of the key number (one of the report's `numbers`) the
    /// verdict turns on: the f64 reference reproduces it, and every check of
    /// a choice reports it.
    pub key: &'static str,
    /// The choices the verdict depends on, each checked under a perturbation
    /// (see [`Choice`]).
    pub choices: &'static [Choice],
    /// Words from the checks of the choices, for an experiment whose
    /// verdict reads them (which way a key number moved under a
    /// perturbation, say): called on the finished report, its checks in.
    pub(super) explain: Option<fn(&Settings, &mut Report)>,
    /// What a run with some settings computes before its trials, in pieces
    /// (the exact equilibrium its probes or its report read), if anything:
    /// called for the run's own settings and those of each check that runs
    /// trials of its own.
    pub(super) prepare: Option<Prepare>,
    pub(super) build: fn(&Settings) -> Result<Vec<Trial>, ClothError>,
    pub(super) report: fn(&Settings, &[Trial]) -> Report,
}

impl Definition {
    /// The defaults of every setting.
    pub fn defaults(&self) -> Settings {
        Settings::defaults(self.settings)
    }

    /// Settings from `given` (name, value) pairs, the defaults for the rest;
    /// an unknown name or a value out of range is refused, naming it.
    pub fn settings(&self, given: &[(&str, f64)]) -> Result<Settings, ClothError> {
        Settings::given(self.id, self.settings, given)
    }

    /// A run of this experiment with `settings`, its trials built and none
    /// stepped, and those of the perturbations of its choices that fit in
    /// [`MAX_RUN_WORK`] work units with them. Refused when its own trials
    /// would need more.
    pub fn start(&'static self, settings: Settings) -> Result<Run, ClothError> {
        let run = Run::new(self, settings)?;
        let total_work = run.own_work();
        if total_work > MAX_RUN_WORK {
            let settings = run.settings();
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
        Ok(run)
    }

    /// The trials of `settings`, built (nothing stepped).
    pub(super) fn trials(&self, settings: &Settings) -> Result<Vec<Trial>, ClothError> {
        (self.build)(settings)
    }

    /// What a run with `settings` computes before its trials, if anything.
    pub(super) fn preparation(&self, settings: &Settings) -> Option<Box<dyn Preparation>> {
        self.prepare.and_then(|prepare| prepare(settings))
    }

    /// The report of `trials` run with `settings`.
    pub(super) fn report_of(&self, settings: &Settings, trials: &[Trial]) -> Report {
        (self.report)(settings, trials)
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
