//! The checks of a saved state against the cloth it is restored into: its
//! lengths, values, pins and torn constraints, the order of the live ones,
//! its parameters and its colliders. Nothing changes while they run.

use super::state::{state_error, ClothState};
use super::Cloth;
use crate::contacts::MAX_COLLIDERS;
use crate::error::{ClothError, Number};
use crate::memory;
use crate::model::shape;
use crate::params::{self, SolverOrder};

impl Cloth {
    /// Checks `state` against this cloth without changing anything.
    pub(super) fn check_state(&self, state: &ClothState) -> Result<(), ClothError> {
        let n = self.num_particles();
        let built = self.constraints.built_with();
        check_lengths(state, n, built)?;
        check_values(state)?;
        ascending("pinned", &state.pinned, n)?;
        ascending("torn", &state.torn, built)?;
        self.check_live_order(state)?;
        state.params.validate()?;
        check_colliders(state)?;
        self.kinds
            .check_saved(&state.kinds)
            .map_err(|problem| state_error("kinds", None, problem))
    }

    /// The live constraints: each below the number the cloth was built with,
    /// none twice, none torn, arranged as the solver order arranges them.
    fn check_live_order(&self, state: &ClothState) -> Result<(), ClothError> {
        let built = self.constraints.built_with();
        // one refusal for both arrays
        let (Ok(mut seen), Ok(mut colors)) =
            (memory::filled(built, false), memory::filled(built, 0u8))
        else {
            return Err(ClothError::OutOfMemory {
                field: "constraints",
                what: format!("checking the order of {built} constraints"),
            });
        };
        for &t in &state.torn {
            seen[t as usize] = true;
        }
        for (&created, &color) in self
            .constraints
            .creation()
            .iter()
            .zip(self.constraints.colors())
        {
            colors[created as usize] = color;
        }
        let mut last: Option<u32> = None;
        for (k, &c) in state.constraints.iter().enumerate() {
            let entry = |problem: String| Err(state_error("constraints", Some(k), problem));
            if c as usize >= built {
                return Err(beyond("constraints", k, c, built, "a constraint"));
            }
            if seen[c as usize] {
                return entry(format!("is {c}, which is torn or listed before"));
            }
            seen[c as usize] = true;
            if let Some(before) = last {
                let in_order = match state.params.solver_order {
                    SolverOrder::Original => before < c,
                    SolverOrder::Colored => colors[before as usize] <= colors[c as usize],
                };
                if !in_order {
                    return entry(format!(
                        "is {c} after {before}: not in {} order",
                        state.params.solver_order.name()
                    ));
                }
            }
            last = Some(c);
        }
        Ok(())
    }
}

/// The lengths of the arrays of `state`, for `n` particles and `built`
/// constraints.
fn check_lengths(state: &ClothState, n: usize, built: usize) -> Result<(), ClothError> {
    for (field, got) in [
        ("positions", state.positions.len()),
        ("velocities", state.velocities.len()),
    ] {
        if got != 2 * n {
            return Err(state_error(
                field,
                None,
                format!("has {got} entries, expected {} (this cloth's)", 2 * n),
            ));
        }
    }
    let (torn, live) = (state.torn.len(), state.constraints.len());
    if torn + live != built {
        return Err(state_error(
            "torn",
            None,
            format!(
                "has {torn} entries and constraints {live}: together they must be the {built} \
                 constraints of this cloth"
            ),
        ));
    }
    Ok(())
}

/// The time, positions and velocities of `state`: finite and in range.
fn check_values(state: &ClothState) -> Result<(), ClothError> {
    if !(state.time.is_finite() && (0.0..=params::MAX_TIME).contains(&state.time)) {
        return Err(state_error(
            "time",
            None,
            format!(
                "is {}, expected a number from 0 to {}",
                Number(state.time),
                Number(params::MAX_TIME)
            ),
        ));
    }
    for (field, values) in [
        ("positions", &state.positions),
        ("velocities", &state.velocities),
    ] {
        if let Some(k) = beyond_coordinates(values) {
            return Err(state_error(
                field,
                Some(k),
                format!(
                    "is {}, expected a finite number from -1e6 to 1e6",
                    Number(values[k] as f64)
                ),
            ));
        }
    }
    Ok(())
}

/// The first of `values` that is not finite or is beyond ±[`params::MAX_COORDINATE`]
/// (the check of every coordinate and speed a state gives; one copy for all).
#[inline(never)]
pub(crate) fn beyond_coordinates(values: &[f32]) -> Option<usize> {
    let limit = params::MAX_COORDINATE as f32;
    values
        .iter()
        .position(|v| !(v.is_finite() && v.abs() <= limit))
}

/// The colliders of `state`: at most [`MAX_COLLIDERS`], each shape valid,
/// each id from 1, each once.
fn check_colliders(state: &ClothState) -> Result<(), ClothError> {
    if state.colliders.len() > MAX_COLLIDERS {
        return Err(ClothState::too_many_colliders(state.colliders.len() as f64));
    }
    for (k, (id, shape)) in state.colliders.iter().enumerate() {
        shape::validate(shape)?;
        let repeated = state.colliders[..k].iter().any(|(other, _)| other == id);
        if *id == 0 || *id == u32::MAX || repeated {
            return Err(state_error(
                "colliders",
                Some(k),
                format!("has id {id}, expected a whole number from 1, each once"),
            ));
        }
    }
    Ok(())
}

/// Refuses `values` unless they rise strictly and stay below `count`.
fn ascending(field: &'static str, values: &[u32], count: usize) -> Result<(), ClothError> {
    let mut last: Option<u32> = None;
    for (k, &v) in values.iter().enumerate() {
        if v as usize >= count {
            return Err(beyond(field, k, v, count, "an"));
        }
        if last.is_some_and(|l| l >= v) {
            return Err(state_error(
                field,
                Some(k),
                format!("is {v}, expected indices in ascending order, each once"),
            ));
        }
        last = Some(v);
    }
    Ok(())
}

/// The refusal of entry `k` of `field`, `v`, which is not one of the `count`
/// indices (`article` and what they index: "an" index, "a constraint" index).
#[inline(never)]
fn beyond(field: &'static str, k: usize, v: u32, count: usize, article: &str) -> ClothError {
    state_error(
        field,
        Some(k),
        format!(
            "is {v}, expected {article} index from 0 to {}",
            count.saturating_sub(1)
        ),
    )
}

impl ClothState {
    /// The refusal of a state's `count` colliders, more than
    /// [`MAX_COLLIDERS`] (a reader of states refuses with it before reading
    /// any).
    pub(crate) fn too_many_colliders(count: f64) -> ClothError {
        state_error(
            "colliders",
            None,
            format!(
                "has {} entries, expected at most {MAX_COLLIDERS}",
                Number(count)
            ),
        )
    }
}
