//! Saved states: what a cloth is between steps, to save and restore (bit for
//! bit), and a state computed elsewhere to continue from. Every state is
//! checked whole before anything changes (`state_checks.rs`).

use super::kinds::KindsMark;
use super::state_checks::beyond_coordinates;
use super::step::Cursor;
use super::{Added, Cloth};
use crate::contacts::Collider;
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::model::{Bending, Shape};
use crate::params::{self, Params};
use crate::solver::order::ConstraintSet;
use std::collections::TryReserveError;

/// A saved state of a [`Cloth`] (see [`Cloth::saved_state`], [`Cloth::restore_state`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ClothState {
    /// The solver parameters.
    pub params: Params,
    /// Simulated time, seconds.
    pub time: f64,
    /// `[x0, y0, x1, y1, ...]`, metres.
    pub positions: Vec<f32>,
    /// `[vx0, vy0, ...]`, m/s.
    pub velocities: Vec<f32>,
    /// Indices of the pinned particles, ascending.
    pub pinned: Vec<u32>,
    /// Creation indices of the live constraints, in the order they are solved.
    pub constraints: Vec<u32>,
    /// Creation indices of the torn constraints, ascending.
    pub torn: Vec<u32>,
    /// Each collider's id and shape (at its position).
    pub colliders: Vec<(u32, Shape)>,
    /// What the constraint kinds keep besides the particles, by kind name
    /// (see [`crate::kinds::ConstraintKind::saved`]): none for the kinds there
    /// are now.
    pub kinds: Vec<(String, Vec<f32>)>,
    /// The bodies and ropes added while it ran ([`Cloth::add_bodies`],
    /// [`Cloth::add_rope`]), in order: a
    /// cloth built the same way takes those it has not taken yet when the
    /// state is restored.
    pub added: Vec<Added>,
}

/// A saved state borrowed from its cloth ([`Cloth::saved_view`]): the fields
/// of [`ClothState`], the arrays the cloth keeps as they are.
#[derive(Debug)]
pub struct SavedView<'a> {
    /// The solver parameters.
    pub params: Params,
    /// Simulated time, seconds.
    pub time: f64,
    /// `[x0, y0, x1, y1, ...]`, metres.
    pub positions: &'a [f32],
    /// `[vx0, vy0, ...]`, m/s.
    pub velocities: &'a [f32],
    /// Indices of the pinned particles, ascending.
    pub pinned: Vec<u32>,
    /// Creation indices of the live constraints, in the order they are solved.
    pub constraints: &'a [u32],
    /// Creation indices of the torn constraints, ascending.
    pub torn: Vec<u32>,
    /// The colliders (their velocities are not saved).
    pub colliders: &'a [Collider],
    /// What the constraint kinds keep besides the particles, by kind name.
    pub kinds: Vec<(&'static str, &'a [f32])>,
    /// The bodies and ropes added while it ran, in order.
    pub added: &'a [Added],
}

impl Cloth {
    /// What the cloth is now, for saving: parameters, time, positions,
    /// velocities, pins, which constraints are torn and the order the live
    /// ones are solved in, and the colliders. Refused while a step is in
    /// progress (finish it with [`Cloth::advance`]): its state is part way
    /// through a step and could not be continued from.
    pub fn saved_state(&self) -> Result<ClothState, ClothError> {
        let view = self.saved_view()?;
        let out_of_memory = |_| state_out_of_memory(self.num_particles());
        Ok(ClothState {
            params: view.params,
            time: view.time,
            positions: memory::copied(view.positions).map_err(out_of_memory)?,
            velocities: memory::copied(view.velocities).map_err(out_of_memory)?,
            pinned: view.pinned,
            constraints: memory::copied(view.constraints).map_err(out_of_memory)?,
            torn: view.torn,
            colliders: view.colliders.iter().map(|c| (c.id, c.shape)).collect(),
            kinds: (view.kinds.iter())
                .map(|&(name, values)| (name.to_string(), values.to_vec()))
                .collect(),
            added: view.added.to_vec(),
        })
    }

    /// [`Cloth::saved_state`] borrowed from the cloth where it can be: what
    /// a writer of the state reads without copying the cloth's arrays first.
    pub fn saved_view(&self) -> Result<SavedView<'_>, ClothError> {
        if self.step_in_progress() {
            return Err(state_error(
                "step",
                None,
                "is in progress: finish it before saving the state".into(),
            ));
        }
        let out_of_memory = |_| state_out_of_memory(self.num_particles());
        let live = self.constraints.len();
        let creation = self.constraints.creation();
        // ascending: each torn constraint marked by its creation index, then
        // the marks read off in order (a pass over the constraints, no sort)
        let mut is_torn = memory::filled(creation.len(), false).map_err(out_of_memory)?;
        for &c in &creation[live..] {
            is_torn[c as usize] = true;
        }
        let torn = marked(&is_torn, creation.len() - live).map_err(out_of_memory)?;
        let pinned = marked(&self.pinned, self.pinned.iter().filter(|&&p| p).count())
            .map_err(out_of_memory)?;
        Ok(SavedView {
            params: self.params,
            time: self.time,
            positions: &self.positions,
            velocities: &self.velocities,
            pinned,
            constraints: &creation[..live],
            torn,
            colliders: self.colliders(),
            kinds: self.kinds.saved(),
            added: &self.added,
        })
    }

    /// Puts the cloth into a state [`Cloth::saved_state`] gave, of this cloth or of
    /// one built the same way (same scene or preset and sizes), so that it
    /// continues bit for bit as the saved one did (colliders restart at rest;
    /// a held particle is let go without its drag velocity; a step in
    /// progress is abandoned). Everything is checked first: a state that does
    /// not fit (lengths, particle or constraint indices, a torn list that is
    /// not the complement of the live one, an order the solver order does not
    /// arrange, values that are not finite or beyond ±1e6, parameters out of
    /// range or over the work limit) is refused with
    /// [`ClothError::InvalidState`] (or the parameter's own error) naming the
    /// field, and nothing changes.
    ///
    /// The bodies added to the saved cloth ([`ClothState::added`]) must
    /// begin with those added to this one; the others are added first, each
    /// at the `mass` parameter it was added at (refused with the state's
    /// field `added`, and nothing changes, when they do not fit).
    pub fn restore_state(&mut self, state: &ClothState) -> Result<(), ClothError> {
        let taken = self.added.len();
        if state.added.len() < taken || !state.added.iter().zip(&self.added).all(is_taken) {
            return Err(state_error(
                "added",
                None,
                format!(
                    "does not begin with the {taken} additions of bodies this simulation had \
                     (a state of a simulation built the same way, with the same bodies added, fits)"
                ),
            ));
        }
        if state.added.len() == taken {
            return self.restore_checked(state);
        }
        // the additions replayed in place, and taken out again when the
        // state does not fit
        state.params.validate()?;
        let before = Before::of(self, &state.added[taken..]);
        let restored = self
            .replay(&state.added[taken..], state.params)
            .and_then(|()| self.restore_checked(state));
        if restored.is_err() {
            self.undo_replay(before);
        }
        restored
    }

    /// Adds the scenes of `additions`, each at the `mass` parameter it was
    /// added at and `params` otherwise, with the room of the kinds `params`
    /// switch on reserved first (as setting them would); stops at the first
    /// refused.
    fn replay(&mut self, additions: &[Added], params: Params) -> Result<(), ClothError> {
        let taken = self.added.len();
        self.params = params;
        self.prepare_kinds(&params)?;
        for (k, added) in additions.iter().enumerate() {
            self.params.mass = added.mass;
            self.add_scene(&added.scene, "added").map_err(|error| {
                state_error(
                    "added",
                    Some(taken + k),
                    format!("cannot be added: {error}"),
                )
            })?;
        }
        Ok(())
    }

    /// Takes the additions [`Cloth::replay`] made out again: the cloth is
    /// as it was at `before`.
    fn undo_replay(&mut self, before: Before) {
        if self.added.len() > before.added {
            if let Some(constraints) = before.constraints {
                self.constraints = constraints;
            }
            if let Some(own) = &mut self.compliances {
                own.truncate(before.built);
            }
            self.kinds.take_out(before.kinds);
            self.take_out(before.particles, before.listed);
            self.masses_mean = before.masses_mean;
            self.added.truncate(before.added);
        }
        self.params = before.params;
        self.cursor = before.cursor;
    }

    /// [`Cloth::restore_state`] into a cloth with the additions of `state`.
    fn restore_checked(&mut self, state: &ClothState) -> Result<(), ClothError> {
        self.check_state(state)?;
        // every fallible step first, so that a refusal changes nothing
        let mut colliders = self.kinds.contacts.colliders().clone();
        colliders.replace(&state.colliders, state.time)?;
        let p = state.params;
        if !state.colliders.is_empty() {
            let n = self.num_particles();
            self.kinds.contacts.reserve_velocity_pass(n, "colliders")?;
        }
        self.prepare_kinds(&p)?;
        // the work limit with the saved parameters and colliders
        std::mem::swap(self.kinds.contacts.colliders_mut(), &mut colliders);
        if let Err(error) = self.validate_work("params", &"the saved parameters", &p) {
            std::mem::swap(self.kinds.contacts.colliders_mut(), &mut colliders);
            return Err(error);
        }
        self.abandon_step();
        self.held = None;
        self.kinds.grab.let_go();
        self.diverged = false;
        self.params = p;
        self.constraints.set_order(p.solver_order);
        self.constraints.arrange_live(&state.constraints);
        self.torn_count = state.torn.len();
        self.kinds.restore_saved(&state.kinds);
        self.time = state.time;
        for (to, from) in [
            (&mut self.positions, &state.positions),
            (&mut self.previous, &state.positions),
            (&mut self.step_start, &state.positions),
            (&mut self.velocities, &state.velocities),
            (&mut self.step_start_velocities, &state.velocities),
        ] {
            to.copy_from_slice(from);
        }
        self.pinned.fill(false);
        for &k in &state.pinned {
            self.pinned[k as usize] = true;
        }
        self.update_inverse_masses();
        self.topology_changed();
        Ok(())
    }

    /// Puts every particle at `positions` with `velocities` (interleaved, two
    /// numbers per particle, each finite and within the divergence bound) and
    /// the clock at `time` seconds: how a cloth continues a state computed
    /// elsewhere (the WebGPU backend falling back to the CPU). A step in
    /// progress is abandoned first; the multipliers become 0 (the next step
    /// resets them anyway). On error nothing changes.
    pub fn set_state(
        &mut self,
        positions: &[f32],
        velocities: &[f32],
        time: f64,
    ) -> Result<(), ClothError> {
        let expected = 2 * self.num_particles();
        let allowed = || {
            format!(
                "{expected} finite numbers (two per particle) within ±{}",
                Plain(params::MAX_COORDINATE)
            )
        };
        for (field, values) in [("positions", positions), ("velocities", velocities)] {
            let bad = beyond_coordinates(values);
            if values.len() != expected || bad.is_some() {
                let value = match bad {
                    Some(k) => format!("{} at {k}", Number(values[k] as f64)),
                    None => format!("{} numbers", values.len()),
                };
                return Err(ClothError::InvalidValue {
                    field,
                    value,
                    allowed: allowed(),
                });
            }
        }
        if !(time.is_finite() && (0.0..=params::MAX_TIME).contains(&time)) {
            return Err(ClothError::InvalidValue {
                field: "time",
                value: Number(time).to_string(),
                allowed: format!("a number of seconds from 0 to {}", Number(params::MAX_TIME)),
            });
        }
        if self.abandon_step() {
            self.arrange_constraints();
        }
        self.positions.copy_from_slice(positions);
        self.previous.copy_from_slice(positions);
        self.velocities.copy_from_slice(velocities);
        self.constraints.reset_multipliers();
        self.time = time;
        Ok(())
    }
}

/// What replaying additions changes, as it was before, for
/// [`Cloth::undo_replay`].
struct Before {
    params: Params,
    /// The step in progress, set aside: the additions do not finish it.
    cursor: Option<Cursor>,
    particles: usize,
    /// Distance constraints, live and torn.
    built: usize,
    /// The constraints, kept when an addition brings its own (a rope).
    constraints: Option<ConstraintSet>,
    /// The cloth had no list of masses.
    listed: bool,
    masses_mean: f64,
    added: usize,
    kinds: KindsMark,
}

impl Before {
    /// `cloth` before `additions` are replayed on it; takes its step in
    /// progress.
    fn of(cloth: &mut Cloth, additions: &[Added]) -> Before {
        let ropes = additions.iter().any(|a| !a.scene.distances.is_empty());
        let particles = cloth.num_particles();
        Before {
            params: cloth.params,
            cursor: cloth.cursor.take(),
            particles,
            built: cloth.constraints.built_with(),
            constraints: ropes.then(|| cloth.constraints.clone()),
            listed: cloth.masses.is_none(),
            masses_mean: cloth.masses_mean,
            added: cloth.added.len(),
            kinds: cloth.kinds.mark(particles),
        }
    }
}

/// Whether `(given, taken)`, an addition a state carries and the one this
/// cloth took in its place, are equal: `taken` is a copy
/// [`Cloth::add_scene`] kept, whose rest lengths, areas, bending and
/// colliders are empty, so `given`'s must be; its other fields compared.
fn is_taken((given, taken): (&Added, &Added)) -> bool {
    let (g, t) = (&given.scene, &taken.scene);
    g.rest_lengths.is_none()
        && g.areas.is_empty()
        && matches!(g.bending, Bending::None)
        && g.colliders.is_empty()
        && given.mass == taken.mass
        && g.positions == t.positions
        && g.masses == t.masses
        && g.distances == t.distances
        && g.distance_stiffness == t.distance_stiffness
        && g.colors == t.colors
        && g.bodies == t.bodies
}

/// The indices of the `count` marks of `marks` that are set, ascending.
#[inline(never)]
fn marked(marks: &[bool], count: usize) -> Result<Vec<u32>, TryReserveError> {
    let mut indices = memory::filled(count, 0u32)?;
    let set = (0..marks.len() as u32).filter(|&k| marks[k as usize]);
    for (index, k) in indices.iter_mut().zip(set) {
        *index = k;
    }
    Ok(indices)
}

/// The refusal of a copy of the state of `n` particles.
#[inline(never)]
fn state_out_of_memory(n: usize) -> ClothError {
    ClothError::OutOfMemory {
        field: "state",
        what: format!("a copy of the state of {n} particles"),
    }
}

/// The refusal of a state's `field` (entry `index`, when it is one entry's).
pub(super) fn state_error(
    field: &'static str,
    index: Option<usize>,
    problem: String,
) -> ClothError {
    ClothError::InvalidState {
        field,
        index,
        problem,
    }
}
