//! One time step of XPBD, phase by phase, in the order the textbook writes it
//! (Ten Minute Physics, "14-cloth.html", `simulate()`):
//!
//! ```text
//! begin the step                     remember where it starts
//! for each substep, h = dt / substeps:
//!     predict                        x_prev = x;  v += h g;  x += h v
//!     reset multipliers              λ = 0
//!     repeat `iterations` times:
//!         solve distance constraints     src/solver/distance.rs, colored.rs
//!         solve what the scene adds      bending, areas, tethers (src/extras/)
//!         solve contacts                 colliders, self-collision (src/contacts/)
//!     solve contacts once more       no particle ends inside a collider
//!     update velocities              v = (x - x_prev) / h
//!     contact velocity pass          u_n = max(u_n - push/h, -e ū_n) (src/contacts/velocity.rs)
//!     damp velocities                v *= max(0, 1 - rate h)
//!     tear                           over-stretched constraints break
//! end the step                       time += dt; undo it if it diverged
//! ```
//!
//! Each phase below is one function, in that order; the solver kernels they
//! call are in `src/solver/`, whose top explains the XPBD solve itself. How
//! much work each phase is (for the work budget) is computed beside them, at
//! the end of this file, and `slicing.rs` runs the phases: it may stop between
//! two pieces of a sweep and resume later with the same arithmetic in the same
//! order, so a sliced step is bit for bit a whole one.

use std::ops::Range;

use super::{Cloth, DIVERGENCE_LIMIT};
use crate::contacts::Contacts;
use crate::extras::Extras;
use crate::params::work::{self, SweepPath};
use crate::params::{Params, SolverOrder};
use crate::solver::{self, colored, Compliances, Points, Split};

/// The values one substep runs with, fixed when it begins: a setter called
/// while it is in progress applies from the next substep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Substep {
    /// Substep size `h = dt / substeps`, seconds.
    pub(super) h: f64,
    /// `alpha_tilde = α / h²` of the distance constraints.
    pub(super) alpha_tilde: f32,
    /// The damping factor `gamma = α β / h` of the distance constraints.
    pub(super) gamma: f32,
    /// Sweeps over the constraints.
    pub(super) iterations: u32,
    /// Plain PBD's stiffness coefficient of the distance constraints (1:
    /// full PBD, or XPBD).
    pub(super) pbd_coefficient: f32,
    /// Constraint damping is on: the sweeps run on the scalar damped path.
    pub(super) damped: bool,
    /// The constraint damping coefficient `β`, N·s/m.
    pub(super) damping: f64,
    /// The global velocity damping rate, 1/s.
    pub(super) velocity_damping: f64,
    /// The tear threshold, a stretch factor (0: off).
    pub(super) tear_stretch: f64,
    /// Simulated time at the substep's start, seconds (the wind's gusts).
    pub(super) time: f64,
}

impl Substep {
    /// The substep of size `h` starting at simulated time `time` with
    /// parameters `p`.
    pub(super) fn new(p: &Params, h: f64, time: f64) -> Substep {
        Substep {
            h,
            alpha_tilde: solver::alpha_tilde(p.compliance(), h),
            gamma: solver::gamma(p.compliance(), p.damping, h),
            iterations: p.iterations,
            pbd_coefficient: p.pbd_scale() as f32,
            damped: p.damping > 0.0,
            damping: p.damping,
            velocity_damping: p.velocity_damping,
            tear_stretch: p.tear_stretch,
            time,
        }
    }
}

/// Where a step started: what a step that diverges goes back to, besides the
/// positions and velocities the cloth keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct StepStart {
    /// Simulated time, seconds.
    pub(super) time: f64,
    /// Constraints torn before the step.
    pub(super) torn_count: usize,
}

impl Cloth {
    /// Begins a step: remembers where it starts, so that a step that diverges
    /// can be undone.
    pub(super) fn begin_step(&mut self) -> StepStart {
        self.step_start.copy_from_slice(&self.positions);
        self.step_start_velocities.copy_from_slice(&self.velocities);
        self.constraints.clear_tear_log();
        StepStart {
            time: self.time,
            torn_count: self.torn_count,
        }
    }

    /// Begins substep `s`: external forces, then the prediction, then every
    /// multiplier back to 0.
    pub(super) fn begin_substep(&mut self, s: &Substep) {
        self.apply_forces(s);
        self.predict(s);
        self.constraints.reset_multipliers();
    }

    /// What changes the velocities before they move anything: wind, and the
    /// speed limit that keeps contacts from being tunnelled through.
    fn apply_forces(&mut self, s: &Substep) {
        let (p, ids, w) = (&self.params, self.constraints.ids(), &self.inverse_mass);
        let velocities = &mut self.velocities;
        self.extras
            .begin_substep(&self.positions, velocities, w, ids, p, s.h, s.time);
        self.contacts.begin_substep(velocities, w, p, s.h);
    }

    /// Prediction: every particle remembers where it was (`x_prev`); every
    /// free one gains `h g` of velocity and moves along it.
    fn predict(&mut self, s: &Substep) {
        solver::predict(
            &mut self.positions,
            &mut self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            s.h as f32,
            self.params.gravity as f32,
        );
    }

    /// Whether the sweeps of substep `s` run on the coloured SIMD path, on
    /// positions split into x and y (else on the scalar path, in place).
    pub(super) fn sweeps_colored(&self, s: &Substep) -> bool {
        !s.damped
            && s.pbd_coefficient == 1.0
            && self.compliances.is_none()
            && self.constraints.order() == SolverOrder::Colored
            && !self.constraints.is_empty()
    }

    /// Copies the positions into the x and y arrays the coloured sweep loads
    /// four particles at a time from.
    pub(super) fn split_positions(&mut self) {
        colored::split(&self.positions, &mut self.xs, &mut self.ys);
    }

    /// Copies the x and y arrays of the coloured sweep back into the
    /// positions.
    pub(super) fn merge_positions(&mut self) {
        colored::merge(&self.xs, &self.ys, &mut self.positions);
    }

    /// Solves the distance constraints `pieces` of a sweep of substep `s`, in
    /// sweep order: runs of the coloured order (four constraints at a time,
    /// on the split positions), or single constraints of the scalar path. The
    /// original order is a serial chain and runs one by one; damping needs
    /// the previous positions and stays on that scalar path too, as do
    /// constraints of their own stiffness and plain PBD with a coefficient
    /// below 1.
    pub(super) fn solve_distance_constraints(
        &mut self,
        s: &Substep,
        colored: bool,
        pieces: Range<usize>,
    ) {
        let w = &self.inverse_mass;
        if colored {
            let mut points = Split {
                xs: &mut self.xs,
                ys: &mut self.ys,
            };
            let (runs, mut constraints) = self.constraints.runs_and_solver_view();
            for run in &runs[pieces] {
                colored::solve_run(&mut points, w, run, &mut constraints, s.alpha_tilde);
            }
            return;
        }
        let (mut constraints, creation) = self.constraints.solver_view_and_creation();
        let (positions, previous) = (&mut self.positions, &self.previous);
        if let Some(compliances) = &self.compliances {
            let compliances = Compliances {
                of_created: compliances,
                creation: &creation[pieces.clone()],
                h: s.h,
                damping: s.damping,
                pbd_coefficient: self.params.pbd_coefficient,
            };
            let constraints = constraints.slice(pieces);
            solver::solve_sweep_compliances(positions, previous, w, constraints, compliances);
        } else if s.pbd_coefficient < 1.0 {
            let constraints = constraints.slice(pieces);
            solver::solve_sweep_pbd(positions, w, constraints, s.pbd_coefficient);
        } else {
            let gamma = if s.damped { s.gamma } else { 0.0 };
            let constraints = constraints.slice(pieces);
            solver::solve_sweep(positions, previous, w, constraints, s.alpha_tilde, gamma);
        }
    }

    /// After each sweep of the distance constraints: one pass over what the
    /// scene adds (bending, areas, tethers), then one over the contacts, which
    /// push out again what the others moved. Out of line, so the sweep it
    /// follows compiles as it does without a scene.
    #[inline(never)]
    pub(super) fn solve_scene(&mut self, s: &Substep, colored: bool) {
        let (extras, contacts) = (&mut self.extras, &mut self.contacts);
        let (previous, w, p) = (&self.previous, &self.inverse_mass, &self.params);
        if colored {
            let mut points = Split {
                xs: &mut self.xs,
                ys: &mut self.ys,
            };
            solve_scene_on(extras, contacts, &mut points, previous, w, p, s.h);
        } else {
            let points = self.positions.as_mut_slice();
            solve_scene_on(extras, contacts, points, previous, w, p, s.h);
        }
    }

    /// Ends substep `s`: the contacts once more, so that no particle ends it
    /// inside a collider; then the velocities from the motion, the contacts'
    /// normal velocities, damping and tearing.
    pub(super) fn end_substep(&mut self, s: &Substep) {
        let (previous, w) = (&self.previous, &self.inverse_mass);
        let positions = self.positions.as_mut_slice();
        self.contacts
            .solve(positions, previous, w, &self.params, s.h);
        self.update_velocities(s);
        self.contact_velocity_pass(s);
        if s.velocity_damping > 0.0 {
            solver::damp_velocities(&mut self.velocities, s.velocity_damping, s.h);
        }
        if s.tear_stretch > 0.0 {
            self.tear(s.tear_stretch);
        }
    }

    /// Velocity update: every free particle's velocity becomes the distance it
    /// really moved over the substep divided by `h`, `v = (x - x_prev) / h`.
    fn update_velocities(&mut self, s: &Substep) {
        solver::update_velocities(
            &self.positions,
            &self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            s.h as f32,
        );
    }

    /// Contact velocity pass: every contact of the substep keeps the normal
    /// velocity it had without its pushes, or bounces back `e` times its
    /// approach, so a push that undoes an overlap launches nothing.
    fn contact_velocity_pass(&mut self, s: &Substep) {
        self.contacts.velocity_pass(
            &self.positions,
            &mut self.velocities,
            &self.inverse_mass,
            &self.params,
            s.h,
        );
    }

    /// Tears every constraint stretched beyond `factor` times its rest length.
    fn tear(&mut self, factor: f64) {
        let limit = (factor - 1.0) as f32;
        let positions = &self.positions;
        let torn = self
            .constraints
            .tear(|a, b, rest_length| solver::pair_stretch(positions, a, b, rest_length) > limit);
        self.torn_count += torn;
        if torn > 0 {
            self.topology_changed();
        }
    }

    /// Ends a step of `time_step` seconds that began at `start`: time moves on,
    /// a held particle gets the drag velocity, a collider the user stopped
    /// moving comes to rest, and a step that went out of bounds is undone.
    pub(super) fn end_step(&mut self, time_step: f64, start: StepStart) {
        self.time += time_step;
        self.track_held();
        self.contacts.end_step(self.time);
        if !self.positions_in_bounds() {
            self.undo_diverged_step(start);
        }
    }

    /// Whether every position is finite and within [`DIVERGENCE_LIMIT`] (one
    /// comparison does both: it is false for infinities and NaN).
    fn positions_in_bounds(&self) -> bool {
        self.positions.iter().all(|p| p.abs() <= DIVERGENCE_LIMIT)
    }

    /// Undoes all the step did and stops the cloth, so no NaN ever leaves the
    /// simulation: positions, velocities and time go back to the start of the
    /// step, and the constraints it tore come back (to their places, uncounted).
    /// The multipliers become 0: the step's tensions are meaningless, and those
    /// of the step before are not kept.
    fn undo_diverged_step(&mut self, start: StepStart) {
        self.positions.copy_from_slice(&self.step_start);
        self.velocities.copy_from_slice(&self.step_start_velocities);
        self.time = start.time;
        if self.constraints.restore_logged() > 0 {
            self.topology_changed();
        }
        self.constraints.reset_multipliers();
        self.torn_count = start.torn_count;
        self.diverged = true;
    }
}

/// [`Cloth::solve_scene`] on `points`, interleaved or split.
fn solve_scene_on<P: Points + ?Sized>(
    extras: &mut Extras,
    contacts: &mut Contacts,
    points: &mut P,
    previous: &[f32],
    inverse_mass: &[f32],
    p: &Params,
    h: f64,
) {
    extras.solve(points, inverse_mass, p, h);
    contacts.solve(points, previous, inverse_mass, p, h);
}

// ----- what each phase costs, in work units (see `crate::params::work`) -----

impl Cloth {
    /// Work of [`Cloth::begin_step`] (and of the divergence check at the end).
    pub(super) fn begin_step_work(&self) -> u64 {
        work::STEP + self.num_particles() as u64 * work::PARTICLE_STEP
    }

    /// Work of [`Cloth::begin_substep`].
    pub(super) fn begin_substep_work(&self) -> u64 {
        let (n, m) = (self.num_particles() as u64, self.num_constraints() as u64);
        let multipliers = m + self.extras.multipliers(&self.params) as u64;
        work::SUBSTEP + n * work::PREDICT + multipliers * work::CONSTRAINT_SUBSTEP
    }

    /// Work of splitting the positions for the coloured sweep and merging
    /// them back.
    pub(super) fn split_work(&self) -> u64 {
        self.num_particles() as u64 * work::SPLIT_MERGE
    }

    /// Work of one constraint solve of [`Cloth::solve_distance_constraints`]
    /// on the scalar path (on the coloured one, see
    /// [`work::colored_run_cost`]).
    pub(super) fn scalar_solve_work(&self, s: &Substep) -> u64 {
        let path = if s.damped || self.compliances.is_some() {
            SweepPath::Damped
        } else {
            SweepPath::Original
        };
        work::solve_cost(path)
    }

    /// Work of [`Cloth::solve_scene`].
    pub(super) fn scene_work(&self) -> u64 {
        self.extras.solve_work(&self.params, self.num_particles())
    }

    /// Work of [`Cloth::end_substep`] `s`, counted before it runs (tearing
    /// changes what it is counted on); the contact velocity pass is counted
    /// with the contacts ([`work::CONTACT_VELOCITY`]).
    pub(super) fn end_substep_work(&self, s: &Substep) -> u64 {
        let (n, m) = (self.num_particles(), self.num_constraints());
        let mut cost = n as u64 * work::VELOCITY_UPDATE
            + work::contacts_and_wind_cost(&self.params, &self.workload());
        if s.velocity_damping > 0.0 {
            cost += n as u64 * work::VELOCITY_DAMPING;
        }
        if s.tear_stretch > 0.0 {
            cost += m as u64 * work::TEAR_CHECK + work::tear_followup_cost(&self.params, n, m);
        }
        cost
    }
}
