//! The runs of a [`ConstraintSet`]: cut again after every rearrangement, and
//! the coloured layout they make (exact, or a bound while the order is
//! original).

use super::ConstraintSet;
use crate::params::SolverOrder;
use crate::solver::runs::{Arrangement, ColoredLayout, Run};

impl ConstraintSet {
    /// The constraints of each colour cut into runs of regular memory layout
    /// (colored order; empty in original order).
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The runs and scattered constraints of the coloured sweep (see
    /// [`ColoredLayout`]): exact in colored order; in original order a bound for
    /// the colored arrangement, from the last one known (each constraint torn
    /// since splits at most one run in two and leaves at most six constraints
    /// scattered), so the cost of switching can be judged before switching.
    pub fn colored_layout(&self) -> ColoredLayout {
        if self.order == SolverOrder::Colored {
            return self.measure_colored_layout();
        }
        let (base, live_then) = self.colored_base;
        let torn_since = live_then.saturating_sub(self.live);
        ColoredLayout {
            constraints: self.live,
            runs: (base.runs + torn_since).min(self.live),
            scattered: (base.scattered + 6 * torn_since).min(self.live),
        }
    }

    pub(super) fn measure_colored_layout(&self) -> ColoredLayout {
        let mut layout = ColoredLayout::default();
        for run in &self.runs {
            layout.add(run);
        }
        layout
    }

    pub(super) fn update_runs(&mut self) {
        self.runs.clear();
        if self.order == SolverOrder::Original {
            return;
        }
        let view = Arrangement {
            ids: &self.ids,
            colors: &self.colors,
            index: |c: usize| c,
        };
        view.cut(self.live, self.runs_capacity, &mut self.runs);
    }
}
