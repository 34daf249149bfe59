//! The limits that keep any one step or call from freezing a tab: a step
//! within [`params::MAX_WORK_PER_STEP`], a call within
//! [`params::MAX_WORK_PER_CALL`] (what a step costs is in `cost.rs`).

use super::Cloth;
use crate::error::ClothError;
use crate::params::work;
use crate::params::{self, Params};

/// Largest number of steps one [`Cloth::steps`] call accepts.
pub const MAX_STEPS_PER_CALL: u32 = 10_000;

/// The refusal of `value` (shown as given) as the `max_steps` of
/// [`Cloth::advance_checked`].
pub fn max_steps_error(value: impl std::fmt::Display) -> ClothError {
    ClothError::InvalidValue {
        field: "maxSteps",
        value: value.to_string(),
        allowed: format!("a whole number from 0 to {MAX_STEPS_PER_CALL}"),
    }
}

/// The refusal of `value` (shown as given) as the `work_budget` of
/// [`Cloth::advance_checked`].
pub fn work_budget_error(value: impl std::fmt::Display) -> ClothError {
    ClothError::InvalidValue {
        field: "workBudget",
        value: value.to_string(),
        allowed: format!(
            "a number of work units from 0 to {} (about 1.5 s)",
            params::MAX_WORK_PER_CALL
        ),
    }
}

impl Cloth {
    /// Refuses parameters `p` when one step with them would exceed
    /// [`params::MAX_WORK_PER_STEP`]; the error names `field` and `value`.
    pub(super) fn validate_work(
        &self,
        field: &'static str,
        value: &dyn std::fmt::Display,
        p: &Params,
    ) -> Result<(), ClothError> {
        let sizes = (self.num_particles(), self.num_constraints());
        work::validate_work(field, value, self.work_per_step_with(p), p, sizes)
    }

    /// Advances `n` steps in one call: from 0 to 10000, and no more than
    /// [`params::MAX_WORK_PER_CALL`] work units in all (see
    /// [`Cloth::max_steps_per_call`]), so one call cannot block its caller for
    /// more than about 1.5 seconds.
    pub fn steps(&mut self, n: u32) -> Result<(), ClothError> {
        if n > self.max_steps_per_call() {
            return Err(self.steps_error(n));
        }
        self.advance(n, u64::MAX);
        Ok(())
    }

    /// The refusal of `value` (shown as given) as the `n` of [`Cloth::steps`]:
    /// it says what this cloth accepts, and why when that is below 10000.
    pub fn steps_error(&self, value: impl std::fmt::Display) -> ClothError {
        let most = self.max_steps_per_call();
        let why = if most < MAX_STEPS_PER_CALL {
            format!(
                " for this cloth: one step takes {} work units, a call at most {} \
                 (about 1.5 s); call steps more often instead",
                self.work_per_step(),
                params::MAX_WORK_PER_CALL
            )
        } else {
            String::new()
        };
        ClothError::InvalidValue {
            field: "steps",
            value: value.to_string(),
            allowed: format!("a whole number from 0 to {most}{why}"),
        }
    }

    /// The most steps one [`Cloth::steps`] call may take:
    /// [`params::MAX_WORK_PER_CALL`] over the work of one step, at most 10000.
    pub fn max_steps_per_call(&self) -> u32 {
        (params::MAX_WORK_PER_CALL / self.work_per_step()).min(MAX_STEPS_PER_CALL as u64) as u32
    }

    /// [`Cloth::advance`] within the limits of one call: `max_steps` at most
    /// 10000, `work_budget` at most [`params::MAX_WORK_PER_CALL`] work units.
    /// Returns the steps finished.
    pub fn advance_checked(&mut self, max_steps: u32, work_budget: u64) -> Result<u32, ClothError> {
        if max_steps > MAX_STEPS_PER_CALL {
            return Err(max_steps_error(max_steps));
        }
        if work_budget > params::MAX_WORK_PER_CALL {
            return Err(work_budget_error(work_budget));
        }
        Ok(self.advance(max_steps, work_budget).0)
    }
}
