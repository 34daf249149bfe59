//! What a scene adds to the distance constraints of [`crate::constraints`]:
//! bending, area constraints, tethers, collisions with colliders and between
//! particles, and wind.
//!
//! They hook into a substep at three points, all called by [`crate::Cloth`]:
//!
//! * [`Extras::begin_substep`], before prediction: external forces (wind) and,
//!   after prediction is known to come, the multipliers reset;
//! * [`Extras::solve`], after each sweep of the distance constraints (on
//!   whichever layout the sweep uses, see [`Points`]): one Gauss–Seidel pass
//!   over every additional constraint;
//! * [`Extras::end_substep`], after the last sweep and before the velocity
//!   update: contacts are projected once more, so no particle ends a substep
//!   inside a collider.
//!
//! With nothing switched on ([`Extras::is_active`] is false) none of them does
//! any work, and the grid cloth steps exactly as it always has.

use crate::params::{ClothError, Params};
use crate::scene::Scene;
use crate::solver::Points;

/// The additional constraints and forces of a scene, and their scratch state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {}

impl Extras {
    /// What `scene` adds to its distance constraints (bending, areas,
    /// colliders), with every buffer the steps need reserved. The scene has
    /// been validated; `OutOfMemory` is the only refusal.
    pub fn try_new(_scene: &Scene) -> Result<Extras, ClothError> {
        Ok(Extras::default())
    }

    /// Whether any of it does work with parameters `p`.
    pub fn is_active(&self, _p: &Params) -> bool {
        false
    }

    /// Bytes of memory its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        0
    }

    /// Before prediction of a substep of size `h`: forces that change the
    /// velocities of free particles (`inverse_mass > 0`). `ids` are the live
    /// distance constraints, flat pairs.
    pub fn begin_substep(
        &mut self,
        _positions: &[f32],
        _velocities: &mut [f32],
        _inverse_mass: &[f32],
        _ids: &[u32],
        _p: &Params,
        _h: f64,
    ) {
    }

    /// After each sweep of the distance constraints: one pass over every
    /// additional constraint. `previous` are the positions at the start of the
    /// substep (interleaved), for friction.
    pub fn solve<P: Points + ?Sized>(
        &mut self,
        _points: &mut P,
        _previous: &[f32],
        _inverse_mass: &[f32],
        _p: &Params,
        _h: f64,
    ) {
    }

    /// After the last sweep, before the velocity update.
    pub fn end_substep(
        &mut self,
        _positions: &mut [f32],
        _previous: &[f32],
        _inverse_mass: &[f32],
        _p: &Params,
        _h: f64,
    ) {
    }
}
