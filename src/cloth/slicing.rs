//! Stepping in slices: [`Cloth::advance`] runs the phases of `step.rs` as a
//! small state machine, so a step can stop between two pieces of work (the
//! start or end of a substep, or a chunk of a sweep) once a work budget is
//! spent, and resume later with the same arithmetic in the same order: a
//! sliced step is bit for bit a whole one. This file owns the machine (where
//! a step in progress is) and the counter of work done; `step.rs` owns the
//! physics and what each phase costs.

use std::ops::Range;

use super::step::{StepStart, Substep};
use super::Cloth;
use crate::params::work;

/// Constraints per piece of a sweep: where [`Cloth::advance`] may stop within
/// one (a fraction of a millisecond of work on any path).
pub const SWEEP_CHUNK: usize = 16_384;

/// How far the sweeps of a substep are: `sweeps` done, and the first `next`
/// pieces of the one in progress (runs on the coloured path, constraints on
/// the scalar one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SweepAt {
    sweeps: u32,
    next: usize,
}

/// Where a step in progress is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// The next substep has not begun (no prediction yet).
    Predict,
    /// The substep has predicted and is `at` in its sweeps; after the last
    /// sweep it ends (velocities, damping, tearing).
    Solve { substep: Substep, at: SweepAt },
}

/// A step that has begun and not finished (see [`Cloth::advance`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct StepInProgress {
    /// The time step and substep count the step began with; it keeps them, so
    /// its substeps add up to its `dt`.
    time_step: f64,
    substeps: u32,
    /// The substep in progress (0-based).
    substep: u32,
    phase: Phase,
    /// Where the step began (restored if it diverges).
    start: StepStart,
}

impl Cloth {
    /// Advances the cloth by one time step `dt`, made of `substeps` substeps;
    /// a step in progress is finished instead (this is `advance(1, u64::MAX)`).
    /// Does nothing once the cloth has diverged (see [`Cloth::is_finite`]).
    pub fn step(&mut self) {
        self.advance(1, u64::MAX);
    }

    /// Steps in slices: finishes at most `max_steps` steps (a step in progress
    /// counts as one), and stops earlier, at the first boundary between two
    /// pieces of work, once `work_budget` work units are spent, leaving a step in
    /// progress that the next call (or [`Cloth::step`]) continues. A piece is a
    /// chunk of a sweep ([`SWEEP_CHUNK`] constraints, or the coloured runs that
    /// cover as many), or the start or end of a substep; at least one is done
    /// per call (with `max_steps > 0`), so a call overshoots its budget by at
    /// most one piece, a millisecond or less. Returns `(steps finished, work
    /// units done)`.
    ///
    /// The result is bit for bit that of calling [`Cloth::step`] as often.
    /// Between slices the cloth is in a valid state: `positions` are current
    /// (mid-step: corrected by the sweeps done so far), and every setter and
    /// interaction may be called. What they change applies:
    /// * `mass`, pins, grab, drag and release: at once (to the remaining sweeps);
    /// * `iterations`, `stiffness`, `gravity`, `damping`, `velocityDamping`,
    ///   `tearStretch`: from the next substep (the one in progress keeps its values);
    /// * `timeStepSize`, `substeps`, `solverOrder`: from the next step (the step in
    ///   progress keeps its `h`, and its constraints keep their order until it ends).
    pub fn advance(&mut self, max_steps: u32, work_budget: u64) -> (u32, u64) {
        let mut finished = 0;
        let mut work = 0;
        while finished < max_steps && !self.diverged {
            if work > 0 && work >= work_budget {
                break;
            }
            let Some(step) = self.in_progress else {
                work += self.begin_step_work();
                let start = self.begin_step();
                self.in_progress = Some(StepInProgress {
                    time_step: self.params.time_step,
                    substeps: self.params.substeps,
                    substep: 0,
                    phase: Phase::Predict,
                    start,
                });
                continue;
            };
            self.in_progress = match step.phase {
                Phase::Predict => {
                    let h = step.time_step / step.substeps as f64;
                    let time = step.start.time + step.substep as f64 * h;
                    let substep = Substep::new(&self.params, h, time);
                    work += self.begin_substep_work();
                    self.begin_substep(&substep);
                    let at = SweepAt { sweeps: 0, next: 0 };
                    let phase = Phase::Solve { substep, at };
                    Some(StepInProgress { phase, ..step })
                }
                Phase::Solve { substep, at } if at.sweeps < substep.iterations => {
                    let left = work_budget.saturating_sub(work);
                    let (at, done) = self.sweep_slice(&substep, at, left);
                    work += done;
                    let phase = Phase::Solve { substep, at };
                    Some(StepInProgress { phase, ..step })
                }
                Phase::Solve { substep, .. } => {
                    work += self.end_substep_work(&substep);
                    self.end_substep(&substep);
                    if step.substep + 1 < step.substeps {
                        let (substep, phase) = (step.substep + 1, Phase::Predict);
                        Some(StepInProgress {
                            substep,
                            phase,
                            ..step
                        })
                    } else {
                        self.end_step(step.time_step, step.start);
                        finished += 1;
                        None
                    }
                }
            };
            if self.in_progress.is_none() {
                // a step that ended: its constraints take the order asked for
                self.arrange_constraints();
            }
        }
        self.work_done += work;
        (finished, work)
    }

    /// The sweeps of substep `s` from `at` on, a piece at a time, until the
    /// last sweep ends or `budget` is spent (at least one piece is done).
    /// After each sweep the scene's constraints and the contacts get their
    /// pass. The coloured path works on positions split into x and y: split
    /// here and merged back before returning, so `positions` are current
    /// between slices. Returns where the sweeps are and the work done.
    ///
    /// Out of line: the sweeps compile on their own, apart from the rest of
    /// the step (inlined into it, the coloured sweep ran about 2 % more
    /// instructions).
    #[inline(never)]
    fn sweep_slice(&mut self, s: &Substep, mut at: SweepAt, budget: u64) -> (SweepAt, u64) {
        let colored = self.sweeps_colored(s);
        let after_sweep =
            self.extras.is_active(&self.params) || self.contacts.is_active(&self.params);
        let mut work = 0;
        if colored {
            work += self.split_work();
            self.split_positions();
        }
        let mut progressed = false;
        while at.sweeps < s.iterations && !(progressed && work >= budget) {
            if at.next == 0 {
                work += work::SWEEP;
            }
            let (piece, piece_work) = self.next_piece(s, colored, at.next);
            work += piece_work;
            self.solve_distance_constraints(s, colored, piece.clone());
            (at.next, progressed) = (piece.end, true);
            if at.next == self.sweep_pieces(colored) {
                at = SweepAt {
                    sweeps: at.sweeps + 1,
                    next: 0,
                };
                if after_sweep {
                    work += self.scene_work();
                    self.solve_scene(s, colored);
                }
            }
        }
        if colored {
            self.merge_positions();
        }
        (at, work)
    }

    /// What a sweep is cut into: runs on the coloured path, constraints on
    /// the scalar one.
    fn sweep_pieces(&self, colored: bool) -> usize {
        if colored {
            self.constraints.runs().len()
        } else {
            self.constraints.len()
        }
    }

    /// The piece of a sweep of substep `s` that starts at `next`, and the
    /// work of solving it: [`SWEEP_CHUNK`] constraints, or the coloured runs
    /// that cover as many.
    fn next_piece(&self, s: &Substep, colored: bool, next: usize) -> (Range<usize>, u64) {
        if !colored {
            let end = (next + SWEEP_CHUNK).min(self.constraints.len());
            return (next..end, (end - next) as u64 * self.scalar_solve_work(s));
        }
        let runs = self.constraints.runs();
        let (mut end, mut chunk, mut work) = (next, 0, 0);
        while end < runs.len() && chunk < SWEEP_CHUNK {
            let run = &runs[end];
            work += work::colored_run_cost(run.range.len(), run.scattered());
            chunk += run.range.len();
            end += 1;
        }
        (next..end, work)
    }

    /// Work units done since the cloth was built.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }

    /// Whether a step has begun and not finished (see [`Cloth::advance`]).
    pub fn step_in_progress(&self) -> bool {
        self.in_progress.is_some()
    }

    /// Abandons the step in progress, if any (its positions stay as they
    /// are); returns whether there was one.
    pub(super) fn abandon_step(&mut self) -> bool {
        self.in_progress.take().is_some()
    }

    /// The values of the substep in progress, once it has predicted.
    pub(super) fn substep_in_progress(&self) -> Option<Substep> {
        match self.in_progress?.phase {
            Phase::Solve { substep, .. } => Some(substep),
            Phase::Predict => None,
        }
    }

    /// How far the step in progress is, from 0 (none, or just begun) to below 1:
    /// the fraction of its sweeps done.
    pub fn step_progress(&self) -> f64 {
        let Some(step) = self.in_progress else {
            return 0.0;
        };
        let within = match step.phase {
            Phase::Predict => 0.0,
            Phase::Solve { substep, at } => {
                let pieces = self.sweep_pieces(self.sweeps_colored(&substep)).max(1);
                (at.sweeps as f64 + at.next as f64 / pieces as f64)
                    / (substep.iterations as f64 + 1.0)
            }
        };
        (step.substep as f64 + within) / step.substeps as f64
    }
}
