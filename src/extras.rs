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

use crate::colliders::Colliders;
use crate::params::{ClothError, Params};
use crate::scene::Scene;
use crate::self_collision::SelfCollision;
use crate::solver::Points;
use crate::{contacts, wind};

/// The additional constraints and forces of a scene, and their scratch state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {
    /// Ground, circles and boxes.
    pub colliders: Colliders,
    /// The spatial hash and candidate pairs of self-collision.
    pub self_collision: SelfCollision,
    /// The scene's start positions, interleaved: the rest distances
    /// self-collision exempts.
    pub rest_positions: Vec<f32>,
}

impl Extras {
    /// What `scene` adds to its distance constraints (bending, areas,
    /// colliders), with every buffer the steps need reserved. The scene has
    /// been validated; `OutOfMemory` is the only refusal.
    pub fn try_new(scene: &Scene) -> Result<Extras, ClothError> {
        let out_of_memory = |_| ClothError::OutOfMemory {
            field: "positions",
            what: format!(
                "the rest positions of {} particles",
                scene.positions.len() / 2
            ),
        };
        let mut extras = Extras::with_rest_positions(
            crate::memory::copied(&scene.positions).map_err(out_of_memory)?,
        );
        for &shape in &scene.colliders {
            extras.colliders.add(shape, 0.0)?;
        }
        Ok(extras)
    }

    /// Nothing added yet, for particles that start at `rest_positions`.
    pub fn with_rest_positions(rest_positions: Vec<f32>) -> Extras {
        Extras {
            rest_positions,
            ..Extras::default()
        }
    }

    /// Whether any of it does work with parameters `p`.
    pub fn is_active(&self, p: &Params) -> bool {
        contacts::is_active(self, p) || wind::is_active([p.wind_x, p.wind_y], p.wind_drag)
    }

    /// Bytes of memory its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        self.colliders.heap_bytes()
            + self.self_collision.heap_bytes()
            + crate::memory::capacity_bytes(&self.rest_positions)
    }

    /// Reserves self-collision's buffers for `n` particles (before it is
    /// switched on); refused with `OutOfMemory` naming `selfCollision`.
    pub fn reserve_self_collision(&mut self, n: usize) -> Result<(), ClothError> {
        self.self_collision
            .try_reserve(n)
            .map_err(|_| ClothError::OutOfMemory {
                field: "selfCollision",
                what: format!("the spatial hash of {n} particles"),
            })
    }

    /// After a step, at simulated time `time`: colliders the user stopped
    /// moving come to rest.
    pub fn end_step(&mut self, time: f64) {
        self.colliders.track(time);
    }

    /// Before prediction of a substep of size `h`: forces that change the
    /// velocities of free particles (`inverse_mass > 0`). `ids` are the live
    /// distance constraints, flat pairs.
    pub fn begin_substep(
        &mut self,
        positions: &[f32],
        velocities: &mut [f32],
        inverse_mass: &[f32],
        ids: &[u32],
        p: &Params,
        h: f64,
    ) {
        if wind::is_active([p.wind_x, p.wind_y], p.wind_drag) {
            let w = [p.wind_x as f32, p.wind_y as f32];
            wind::apply(
                positions,
                velocities,
                inverse_mass,
                ids,
                w,
                p.wind_drag as f32,
                h as f32,
            );
        }
        if contacts::is_active(self, p) {
            contacts::begin_substep(self, velocities, inverse_mass, p, h);
        }
    }

    /// After each sweep of the distance constraints: one pass over every
    /// additional constraint. `previous` are the positions at the start of the
    /// substep (interleaved), for friction.
    pub fn solve<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        previous: &[f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        contacts::solve(self, points, previous, inverse_mass, p, h);
    }

    /// After the last sweep, before the velocity update.
    pub fn end_substep(
        &mut self,
        positions: &mut [f32],
        previous: &[f32],
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        contacts::solve(self, positions, previous, inverse_mass, p, h);
    }
}
