//! What each phase of `step.rs` costs, in work units (the weights of
//! [`crate::params::work`]; each constraint kind's own cost is in its file):
//! one function per phase. [`Cloth::advance`]'s work meter charges each piece
//! by them as it runs it, and [`Cloth::work_per_step`] adds them up for a
//! whole step, so the prediction is what a step is charged (as long as nothing
//! tears during it, which only makes the step cheaper).

use super::kinds::On;
use super::step::{Substep, Sweep};
use super::Cloth;
use crate::kinds::{Cost, Now, Sizes};
use crate::params::{work, Params};
use crate::solver::runs::ColoredLayout;

impl Cloth {
    /// Beginning a step (copying where it starts) and the divergence check at
    /// its end.
    pub(super) fn begin_step_cost(&self) -> u64 {
        work::STEP + self.num_particles() as u64 * work::PARTICLE_STEP
    }

    /// Beginning substep `s`: the kinds' start, the prediction and the
    /// multipliers back to 0 (on the soft step, the warm start instead).
    pub(super) fn begin_substep_cost(&self, s: &Substep) -> u64 {
        let (n, m) = (self.num_particles() as u64, self.num_constraints() as u64);
        let multipliers = match s.sweep {
            Sweep::Soft => work::WARM_START,
            _ => work::CONSTRAINT_SUBSTEP,
        };
        work::SUBSTEP + n * work::PREDICT + m * multipliers + s.kinds.begin
    }

    /// Splitting the positions for the coloured sweeps and merging them back.
    pub(super) fn split_cost(&self) -> u64 {
        self.num_particles() as u64 * work::SPLIT_MERGE
    }

    /// Solving the distance constraints of `sizes` (a piece of a sweep, or a
    /// whole sweep) on the sweep of substep `s`.
    pub(super) fn piece_cost(&self, s: &Substep, sizes: ColoredLayout) -> u64 {
        let m = sizes.constraints as u64;
        match s.sweep {
            Sweep::Colored => {
                m * work::SOLVE_COLORED
                    + sizes.runs as u64 * work::COLORED_RUN
                    + sizes.scattered as u64 * work::COLORED_SCATTERED
            }
            Sweep::Original => m * work::SOLVE_ORIGINAL,
            Sweep::Damped => m * work::SOLVE_DAMPED,
            Sweep::OwnStiffness => m * work::SOLVE_OWN_STIFFNESS,
            Sweep::Soft => m * work::SOLVE_SOFT,
        }
    }

    /// The end of each sweep of substep `s`: its fixed cost and one pass of
    /// the kinds that are on.
    pub(super) fn sweep_end_cost(&self, s: &Substep) -> u64 {
        work::SWEEP + s.kinds.pass
    }

    /// Ending substep `s`, counted before it runs (tearing changes what it is
    /// counted on): the kinds' end, the velocity update, the soft step's
    /// relax pass, velocity damping, and the tear check with what follows
    /// the tears.
    pub(super) fn end_substep_cost(&self, s: &Substep) -> u64 {
        let (n, m) = (self.num_particles() as u64, self.num_constraints() as u64);
        let (p, kinds) = (&s.now.p, s.kinds);
        let mut cost = n * work::VELOCITY_UPDATE + kinds.end;
        if s.sweep == Sweep::Soft {
            cost += work::SWEEP + m * work::RELAX;
        }
        if p.velocity_damping > 0.0 {
            cost += n * work::VELOCITY_DAMPING;
        }
        if p.tear_stretch > 0.0 {
            cost += m * work::TEAR_CHECK + kinds.tear;
        }
        cost
    }

    /// What one substep of the kinds `on` costs with parameters `p` (worked
    /// out when a substep begins).
    pub(super) fn kinds_cost(&self, p: &Params, on: On) -> Cost {
        let sizes = Sizes {
            particles: self.num_particles(),
            constraints: self.num_constraints(),
        };
        self.kinds.cost(p, sizes, on)
    }

    /// Work units one step takes with the current parameters and live
    /// constraints: about nanoseconds of wasm.
    pub fn work_per_step(&self) -> u64 {
        self.work_per_step_with(&self.params)
    }

    /// Work units one step takes with parameters `p` (not yet set, to judge
    /// them): the phases of `step.rs`, each as often as a step runs it,
    /// charged as [`Cloth::advance`] charges it. Never 0, even for a cloth
    /// whose constraints all tore.
    pub(super) fn work_per_step_with(&self, p: &Params) -> u64 {
        let s = Substep::planned(self, p);
        let sweep = match s.sweep {
            Sweep::Colored => self.constraints.colored_layout(),
            _ => ColoredLayout {
                constraints: self.num_constraints(),
                ..ColoredLayout::default()
            },
        };
        let split = if s.sweep == Sweep::Colored {
            self.split_cost()
        } else {
            0
        };
        let sweeps = p.iterations as u64 * (self.piece_cost(&s, sweep) + self.sweep_end_cost(&s));
        let substep = self.begin_substep_cost(&s) + split + sweeps + self.end_substep_cost(&s);
        self.begin_step_cost() + p.substeps as u64 * substep
    }
}

impl Substep {
    /// The substep a step with parameters `p` would run on `cloth` (its
    /// costs do not depend on its size or time).
    fn planned(cloth: &Cloth, p: &Params) -> Substep {
        let now = Now {
            p: *p,
            h: p.substep_size(),
            time: 0.0,
        };
        Substep::new(cloth, now, cloth.sweep_of(p, p.solver_order))
    }
}
