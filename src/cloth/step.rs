//! One time step of XPBD, in the order the textbook writes it (Ten Minute
//! Physics, "14-cloth.html", `simulate()`):
//!
//! ```text
//! begin the step                     remember where it starts
//! for each substep, h = dt / substeps:
//!     begin the substep              forces (wind, speed limit); x_prev = x;
//!                                    v += h g; x += h v; λ = 0 (soft step:
//!                                    x += W Jᵀ λ instead, the warm start)
//!     repeat `iterations` times:
//!         for each piece of the distance constraints
//!             solve it               src/solver/distance.rs, colored.rs
//!                                    (soft step: src/solver/soft.rs)
//!         solve the other kinds      bending, areas, tethers, contacts
//!                                    (src/kinds/, src/contacts/)
//!     end the substep                contacts once more; v = (x - x_prev) / h;
//!                                    (soft step: the relax pass on v);
//!                                    contact velocities; damping; tearing
//! end the step                       time += dt; undo it if it diverged
//! ```
//!
//! [`Cloth::advance`] is that loop, and the only place its order is written.
//! It may stop between two pieces (the start of a step or substep, a chunk of
//! a sweep, the end of a substep) once its work budget is spent, and resumes
//! from [`Cursor`], where it stopped, with the same arithmetic in the same
//! order: a sliced step is bit for bit a whole one. Its work meter charges
//! each piece what `cost.rs` says it costs, the same functions
//! [`Cloth::work_per_step`] adds up. Each phase is a function below the loop;
//! the solver kernels are in `src/solver/`, whose top explains the XPBD solve.

use std::ops::Range;

use super::kinds::{Kinds, On};
use super::{Cloth, DIVERGENCE_LIMIT};
use crate::kinds::{Cost, Now, Particles, Positions};
use crate::params::SolverKind;
use crate::params::{Params, SolverOrder};
use crate::solver::runs::ColoredLayout;
use crate::solver::{self, colored, Compliances, Softness, Split};

/// Constraints per piece of a sweep: where [`Cloth::advance`] may stop within
/// one (a fraction of a millisecond of work on any path).
pub const SWEEP_CHUNK: usize = 16_384;

impl Cloth {
    /// Advances the cloth by one time step `dt`, made of `substeps` substeps;
    /// a step in progress is finished instead (this is `advance(1, u64::MAX)`).
    /// Does nothing once the cloth has diverged (see [`Cloth::is_finite`]).
    pub fn step(&mut self) {
        self.advance(1, u64::MAX);
    }

    /// Finishes at most `max_steps` steps (a step in progress counts as one),
    /// and stops earlier, between two pieces, once `work_budget` work units
    /// are spent (at least one piece is done, with `max_steps > 0`), leaving a
    /// step in progress that the next call (or [`Cloth::step`]) continues.
    /// Returns `(steps finished, work units done)`. The result is bit for bit
    /// that of calling [`Cloth::step`] as often.
    ///
    /// Between slices `positions` are current (mid-step: corrected by the
    /// sweeps done so far) and every setter and interaction may be called.
    /// Mass, pins, grab, drag and release apply at once; the other parameters
    /// from the next substep, but `timeStepSize`, `substeps` and
    /// `solverOrder`, which apply from the next step.
    pub fn advance(&mut self, max_steps: u32, work_budget: u64) -> (u32, u64) {
        let mut meter = Meter::new(work_budget);
        let (mut finished, mut at) = (0, self.cursor.take());
        'call: while finished < max_steps && !self.diverged {
            // begin the step
            let step = match &mut at {
                Some(step) => step,
                None if meter.is_spent() => break,
                None => {
                    meter.piece(self.begin_step_cost());
                    at.insert(self.begin_step())
                }
            };
            // for each substep
            while step.substep < step.start.substeps {
                // begin the substep
                let s = match step.running {
                    Some(s) => s,
                    None if meter.is_spent() => break 'call,
                    None => {
                        let s = self.substep(step);
                        meter.piece(self.begin_substep_cost(&s));
                        self.begin_substep(&s);
                        *step.running.insert(s)
                    }
                };
                // repeat `iterations` times
                let mut split = None;
                while step.sweep < s.now.p.iterations {
                    // each piece of the distance constraints
                    loop {
                        if meter.is_spent() {
                            self.end_sweeps(split);
                            break 'call;
                        }
                        let split = *split.get_or_insert_with(|| self.begin_sweeps(&s, &mut meter));
                        let piece = self.piece(&s, step.piece);
                        meter.piece(self.piece_cost(&s, piece.sizes));
                        self.solve_piece(&s, split, piece.range.clone());
                        step.piece = piece.range.end;
                        if piece.last {
                            break;
                        }
                    }
                    // the other kinds
                    meter.add(self.sweep_end_cost(&s));
                    self.solve_kinds(&s, split == Some(true));
                    (step.sweep, step.piece) = (step.sweep + 1, 0);
                }
                self.end_sweeps(split);
                // end the substep
                if meter.is_spent() {
                    break 'call;
                }
                meter.piece(self.end_substep_cost(&s));
                self.end_substep(&s);
                (step.substep, step.running, step.sweep) = (step.substep + 1, None, 0);
            }
            // end the step
            let start = step.start;
            self.end_step(start);
            (at, finished) = (None, finished + 1);
        }
        self.cursor = at;
        self.work_done += meter.spent;
        (finished, meter.spent)
    }
}

/// Counts the work of one [`Cloth::advance`] call and says when its budget is
/// spent: only once a piece is done, so every call makes progress.
struct Meter {
    budget: u64,
    spent: u64,
    pieces: u32,
}

impl Meter {
    fn new(budget: u64) -> Meter {
        Meter {
            budget,
            spent: 0,
            pieces: 0,
        }
    }

    /// A piece done, of `cost` work units.
    fn piece(&mut self, cost: u64) {
        self.spent += cost;
        self.pieces += 1;
    }

    /// Work done alongside a piece.
    fn add(&mut self, cost: u64) {
        self.spent += cost;
    }

    fn is_spent(&self) -> bool {
        self.pieces > 0 && self.spent >= self.budget
    }
}

/// Where a step in progress is: where it began, the substep in progress and
/// (once that has begun) its values, its sweeps done, and the start of the
/// next piece of the sweep in progress (a run on the coloured path, a
/// constraint on the others).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Cursor {
    pub(super) start: StepStart,
    substep: u32,
    pub(super) running: Option<Substep>,
    sweep: u32,
    piece: usize,
}

/// Where a step started: what it keeps to the end (its `dt` and substeps, so
/// its substeps add up to its `dt`) and what a step that diverges goes back
/// to, besides the positions and velocities the cloth keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct StepStart {
    /// The time step, seconds, and the substeps it is cut into.
    time_step: f64,
    substeps: u32,
    /// Simulated time, seconds.
    time: f64,
    /// Constraints torn before the step.
    torn_count: usize,
}

/// What a substep runs with, fixed when it begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Substep {
    /// Its parameters, size `h` and start time.
    pub(super) now: Now,
    /// `alpha_tilde = α / h²` and the damping factor `gamma = α β / h` of the
    /// distance constraints.
    alpha_tilde: f32,
    gamma: f32,
    /// The soft step's coefficients (used on [`Sweep::Soft`] only).
    softness: Softness,
    /// How its sweeps run.
    pub(super) sweep: Sweep,
    /// The kinds that are on, and what they cost in it.
    pub(super) on: On,
    pub(super) kinds: Cost,
}

impl Substep {
    /// The substep of `now` on `sweep` of `cloth`, with the kinds on that
    /// parameters `now.p` switch on.
    pub(super) fn new(cloth: &Cloth, now: Now, sweep: Sweep) -> Substep {
        let (compliance, h) = (now.p.compliance(), now.h);
        let on = cloth.kinds.on(&now.p);
        Substep {
            now,
            alpha_tilde: solver::alpha_tilde(compliance, h),
            gamma: solver::gamma(compliance, now.p.damping, h),
            softness: Softness::new(now.p.soft_frequency, now.p.soft_damping_ratio, h),
            sweep,
            on,
            kinds: cloth.kinds_cost(&now.p, on),
        }
    }
}

/// How a substep sweeps the distance constraints (what a solve costs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Four constraints of one colour at a time with SIMD, on positions split
    /// into x and y ([`SolverOrder::Colored`], no damping, XPBD or full PBD).
    Colored,
    /// One by one, undamped: the original order, or plain PBD with a
    /// coefficient below 1 in either order.
    Original,
    /// One by one with constraint damping, in either order.
    Damped,
    /// One by one, each constraint with its own stiffness (and damping).
    OwnStiffness,
    /// One by one, Catto's soft step ([`SolverKind::SoftStep`]): warm
    /// started, soft solves, and a relax pass at the end of the substep.
    Soft,
}

/// The next piece of a sweep: its range (of runs or of constraints), what it
/// holds, and whether it ends the sweep.
struct Piece {
    range: Range<usize>,
    sizes: ColoredLayout,
    last: bool,
}

impl Cloth {
    /// The sweep the distance constraints take with parameters `p`, arranged
    /// in `order`.
    pub(super) fn sweep_of(&self, p: &Params, order: SolverOrder) -> Sweep {
        if p.solver == SolverKind::SoftStep {
            Sweep::Soft
        } else if self.compliances.is_some() {
            Sweep::OwnStiffness
        } else if p.pbd_scale() < 1.0 {
            Sweep::Original
        } else if p.damping > 0.0 {
            Sweep::Damped
        } else if order == SolverOrder::Colored && !self.constraints.is_empty() {
            Sweep::Colored
        } else {
            Sweep::Original
        }
    }

    /// Begins a step: remembers where it starts, so that a step that diverges
    /// can be undone.
    fn begin_step(&mut self) -> Cursor {
        self.step_start.copy_from_slice(&self.positions);
        self.step_start_velocities.copy_from_slice(&self.velocities);
        self.constraints.clear_tear_log();
        let start = StepStart {
            time_step: self.params.time_step,
            substeps: self.params.substeps,
            time: self.time,
            torn_count: self.torn_count,
        };
        Cursor {
            start,
            substep: 0,
            running: None,
            sweep: 0,
            piece: 0,
        }
    }

    /// The values the substep `at` runs with: the parameters as they are now.
    fn substep(&self, at: &Cursor) -> Substep {
        let p = self.params;
        let h = at.start.time_step / at.start.substeps as f64;
        let time = at.start.time + at.substep as f64 * h;
        let sweep = self.sweep_of(&p, self.constraints.order());
        Substep::new(self, Now { p, h, time }, sweep)
    }

    /// Begins substep `s`: the kinds' start (multipliers, forces), then the
    /// prediction (every particle remembers where it was, `x_prev`; every free
    /// one gains `h g` of velocity and moves along it), then every multiplier
    /// of the distance constraints back to 0; on the soft step instead each
    /// keeps its impulse and applies it again (the warm start).
    fn begin_substep(&mut self, s: &Substep) {
        let (mut particles, kinds) = self.particles_and_kinds();
        kinds.begin_substep(&mut particles, &s.now, s.on);
        solver::predict(
            &mut self.positions,
            &mut self.previous,
            &mut self.velocities,
            &self.inverse_mass,
            s.now.h as f32,
            s.now.p.gravity as f32,
        );
        if s.sweep == Sweep::Soft {
            let (constraints, _) = self.constraints.solver_view_and_creation();
            let (previous, w) = (&self.previous, &self.inverse_mass);
            solver::warm_start(&mut self.positions, previous, w, constraints);
        } else {
            self.constraints.reset_multipliers();
        }
    }

    /// Before the first piece a call solves of the sweeps of substep `s`: on
    /// the coloured path the positions are split into the x and y arrays it
    /// loads four particles at a time from (charged to `meter`). Returns
    /// whether they are.
    fn begin_sweeps(&mut self, s: &Substep, meter: &mut Meter) -> bool {
        let split = s.sweep == Sweep::Colored;
        if split {
            meter.add(self.split_cost());
            colored::split(&self.positions, &mut self.xs, &mut self.ys);
        }
        split
    }

    /// After the sweeps of a call (or a stop within them): the split
    /// positions back (`split` is what [`Cloth::begin_sweeps`] returned, if
    /// it was called).
    fn end_sweeps(&mut self, split: Option<bool>) {
        if split == Some(true) {
            colored::merge(&self.xs, &self.ys, &mut self.positions);
        }
    }

    /// The piece of a sweep of substep `s` that starts at `next`: at most
    /// [`SWEEP_CHUNK`] constraints, or the coloured runs that cover as many.
    fn piece(&self, s: &Substep, next: usize) -> Piece {
        if s.sweep != Sweep::Colored {
            let end = (next + SWEEP_CHUNK).min(self.constraints.len());
            let sizes = ColoredLayout {
                constraints: end - next,
                ..ColoredLayout::default()
            };
            let last = end == self.constraints.len();
            return Piece {
                range: next..end,
                sizes,
                last,
            };
        }
        let runs = self.constraints.runs();
        let (mut end, mut sizes) = (next, ColoredLayout::default());
        while end < runs.len() && sizes.constraints < SWEEP_CHUNK {
            sizes.add(&runs[end]);
            end += 1;
        }
        let last = end == runs.len();
        Piece {
            range: next..end,
            sizes,
            last,
        }
    }

    /// Solves the distance constraints of `piece` of a sweep of substep `s`,
    /// in sweep order: runs of the coloured order, four constraints at a time
    /// on the `split` positions, or single constraints on the other paths.
    fn solve_piece(&mut self, s: &Substep, split: bool, piece: Range<usize>) {
        let w = &self.inverse_mass;
        if split {
            let mut points = Split {
                xs: &mut self.xs,
                ys: &mut self.ys,
            };
            let (runs, mut constraints) = self.constraints.runs_and_solver_view();
            for run in &runs[piece] {
                colored::solve_run(&mut points, w, run, &mut constraints, s.alpha_tilde);
            }
            return;
        }
        let (mut constraints, creation) = self.constraints.solver_view_and_creation();
        let (positions, previous, p) = (&mut self.positions, &self.previous, &s.now.p);
        if s.sweep == Sweep::Soft {
            let (constraints, h) = (constraints.slice(piece), s.now.h as f32);
            solver::solve_sweep_soft(positions, previous, w, constraints, s.softness, h);
        } else if let Some(compliances) = &self.compliances {
            let compliances = Compliances {
                of_created: compliances,
                creation: &creation[piece.clone()],
                h: s.now.h,
                damping: p.damping,
                pbd_coefficient: p.pbd_coefficient,
            };
            let constraints = constraints.slice(piece);
            solver::solve_sweep_compliances(positions, previous, w, constraints, compliances);
        } else if p.pbd_scale() < 1.0 {
            let constraints = constraints.slice(piece);
            solver::solve_sweep_pbd(positions, w, constraints, p.pbd_scale() as f32);
        } else {
            let gamma = if p.damping > 0.0 { s.gamma } else { 0.0 };
            let constraints = constraints.slice(piece);
            solver::solve_sweep(positions, previous, w, constraints, s.alpha_tilde, gamma);
        }
    }

    /// After each sweep of substep `s`: one pass of every other kind that is
    /// on, in the order of the list (contacts last, pushing out again what the
    /// others moved), on the positions the sweep used. Out of line, so the
    /// sweep it follows compiles as it does without them.
    #[inline(never)]
    fn solve_kinds(&mut self, s: &Substep, split: bool) {
        if s.on.is_none() {
            return;
        }
        let positions = if split {
            Positions::Split(Split {
                xs: &mut self.xs,
                ys: &mut self.ys,
            })
        } else {
            Positions::Interleaved(&mut self.positions)
        };
        let (previous, w) = (&self.previous, &self.inverse_mass);
        self.kinds.solve(positions, previous, w, &s.now, s.on);
    }

    /// Ends substep `s`: the kinds' end (the contacts once more, so no
    /// particle ends it inside a collider); the velocities from the motion,
    /// `v = (x - x_prev) / h`; on the soft step its relax pass; the kinds
    /// after it (the contacts' normal velocities); velocity damping; tearing.
    fn end_substep(&mut self, s: &Substep) {
        let (mut particles, kinds) = self.particles_and_kinds();
        kinds.end_substep(&mut particles, &s.now, s.on);
        solver::update_velocities(
            particles.positions,
            particles.previous,
            particles.velocities,
            particles.inverse_mass,
            s.now.h as f32,
        );
        if s.sweep == Sweep::Soft {
            let (constraints, _) = self.constraints.solver_view_and_creation();
            let (v, x, w) = (&mut self.velocities, &self.positions, &self.inverse_mass);
            solver::relax_sweep(v, x, w, constraints, s.now.h as f32);
        }
        let (mut particles, kinds) = self.particles_and_kinds();
        kinds.after_velocities(&mut particles, &s.now, s.on);
        let p = &s.now.p;
        if p.velocity_damping > 0.0 {
            solver::damp_velocities(&mut self.velocities, p.velocity_damping, s.now.h);
        }
        if p.tear_stretch > 0.0 {
            self.tear(p.tear_stretch);
        }
    }

    /// The particles as the kinds' hooks at the start and end of a substep
    /// see them, and the kinds.
    fn particles_and_kinds(&mut self) -> (Particles<'_>, &mut Kinds) {
        let particles = Particles {
            positions: &mut self.positions,
            previous: &self.previous,
            velocities: &mut self.velocities,
            inverse_mass: &self.inverse_mass,
            edges: self.constraints.ids(),
        };
        (particles, &mut self.kinds)
    }

    /// Tears every constraint stretched beyond `factor` times its rest
    /// length, but those of the held particle: the hand holds the cloth
    /// there, so a pull rips it around the grip (see [`crate::kinds::grab`]).
    fn tear(&mut self, factor: f64) {
        let limit = (factor - 1.0) as f32;
        let positions = &self.positions;
        let held = self.grabbed().map_or(u32::MAX, |k| k as u32);
        let torn = self.constraints.tear(|a, b, rest_length| {
            a != held && b != held && solver::pair_stretch(positions, a, b, rest_length) > limit
        });
        self.torn_count += torn;
        if torn > 0 {
            self.topology_changed();
        }
    }

    /// Ends a step that began at `start`: time moves on, a held particle gets
    /// the drag velocity, the kinds end their step, a step that went out of
    /// bounds is undone, and the constraints take the order asked for.
    fn end_step(&mut self, start: StepStart) {
        self.time += start.time_step;
        self.track_held();
        self.kinds.end_step(self.time);
        if !solver::in_bounds(&self.positions, DIVERGENCE_LIMIT) {
            self.undo_diverged_step(start);
        }
        self.arrange_constraints();
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

    /// Work units done since the cloth was built.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }

    /// Whether a step has begun and not finished (see [`Cloth::advance`]).
    pub fn step_in_progress(&self) -> bool {
        self.cursor.is_some()
    }

    /// Abandons the step in progress, if any (its positions stay as they
    /// are); returns whether there was one.
    pub(super) fn abandon_step(&mut self) -> bool {
        self.cursor.take().is_some()
    }

    /// How far the step in progress is, from 0 (none, or just begun) to below 1:
    /// the fraction of its sweeps done.
    pub fn step_progress(&self) -> f64 {
        let Some(at) = self.cursor else {
            return 0.0;
        };
        let within = at.running.map_or(0.0, |s| {
            let pieces = match s.sweep {
                Sweep::Colored => self.constraints.runs().len(),
                _ => self.constraints.len(),
            };
            let sweep = at.sweep as f64 + at.piece as f64 / pieces.max(1) as f64;
            sweep / (s.now.p.iterations as f64 + 1.0)
        });
        (at.substep as f64 + within) / at.start.substeps as f64
    }
}
