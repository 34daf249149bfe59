//! The XPBD solver: the constraint solves and the integration of one
//! (sub)step, without any state of its own (the cloth owns the arrays).
//!
//! # The textbook in five lines
//!
//! * **Constraint.** Each edge `(a, b)` wants its endpoints at its rest length:
//!   `C(x) = |x_a - x_b| - rest_length`.
//! * **Gradient.** `∇_a C = n`, `∇_b C = -n`, with the unit direction
//!   `n = (x_a - x_b) / |x_a - x_b|`.
//! * **Compliance.** A constraint of stiffness `k` has compliance `α = 1/k`;
//!   scaled by the (sub)step `h` it becomes `alpha_tilde = α / h²`. `α = 0` is
//!   plain PBD.
//! * **Multiplier.** Each constraint carries a Lagrange multiplier `λ`, reset to 0
//!   once per (sub)step. A solve computes
//!   `delta_lambda = -(C + alpha_tilde λ) / (w_sum + alpha_tilde)` with
//!   `w_sum = w_a + w_b` (inverse masses) and adds it to `λ`.
//! * **Correction.** `x_a += w_a delta_lambda n`, `x_b -= w_b delta_lambda n`:
//!   symmetric, so momentum is conserved, and a particle with `w = 0` never moves.
//!
//! Because `λ` accumulates over the iterations of a (sub)step, the result converges
//! to the same stiffness however many iterations are used; plain PBD instead gets
//! stiffer with every extra iteration. That is the "X" in XPBD.
//!
//! **Damping** (optional) adds the XPBD paper's term `gamma = α β / h` for a
//! damping coefficient `β`: `delta_lambda = -(C + alpha_tilde λ + gamma ∇C·(x -
//! x_prev)) / ((1 + gamma) w_sum + alpha_tilde)`, which resists the stretching
//! velocity.
//!
//! # Where each part is
//!
//! A step (see `src/cloth/step.rs`) is: [`predict`], reset the multipliers,
//! `iterations` sweeps over the distance constraints, then
//! [`update_velocities`]; with substeps, all of it `substeps` times with
//! `h = dt / substeps`.
//!
//! * [`distance`]: the distance constraint: one solve ([`solve_distance`],
//!   [`solve_damped_distance`]) in the symbols above, and the scalar sweep
//!   ([`solve_sweep`]) over a [`Constraints`] view (ids, rest lengths,
//!   multipliers);
//! * [`integrate`]: prediction, the velocity update and velocity damping;
//! * [`order`]: the distance constraints in the order a sweep visits them
//!   (creation order, or by colour), and tearing;
//! * [`colored`]: the coloured sweep, four constraints of one colour at a time
//!   in SIMD lanes (`lanes.rs`), bit for bit the scalar solve;
//! * [`soft`]: Catto's soft step, the other solver of the distance
//!   constraints (its theory at its top): the warm start, the soft sweep and
//!   the relax pass;
//! * [`points`]: where positions live, interleaved or split into x and y
//!   ([`Points`]), so one solve serves both;
//! * [`grid_layout`]: the grid in coloured order, colour by colour, for a
//!   solver that runs each colour in parallel (the WebGPU backend).
//!
//! The other constraint kinds (bending, areas, tethers, wind) are in
//! `src/kinds/`, the contacts in `src/contacts/`; they use [`alpha_tilde`] and
//! [`Points`] from here.

pub mod colored;
mod columns;
pub mod distance;
pub mod grid_layout;
pub mod integrate;
pub(crate) mod lanes;
pub mod order;
pub mod points;
pub mod runs;
pub mod soft;

pub use distance::{
    pair_stretch, solve_damped_distance, solve_distance, solve_sweep, solve_sweep_compliances,
    solve_sweep_pbd, stretch, Compliances, Constraints, Pair, MIN_SOLVE_LENGTH,
};
pub use integrate::{damp_velocities, in_bounds, predict, update_velocities};
pub use points::{Points, Split};
pub use soft::{relax_sweep, solve_sweep_soft, warm_start, Softness};

/// The largest `alpha_tilde` used. Stiffness near 0 with a tiny `dt` would give a
/// compliance beyond `f32`; past this value a constraint does nothing anyway.
const MAX_ALPHA_TILDE: f64 = 1e30;

/// `alpha_tilde = α / h²` for compliance `α` (m/N) and (sub)step `h` (s).
pub fn alpha_tilde(compliance: f64, h: f64) -> f32 {
    (compliance / (h * h)).min(MAX_ALPHA_TILDE) as f32
}

/// The damping factor `gamma = α β / h` for compliance `α`, damping `β` (N·s/m) and
/// (sub)step `h`; 0 without damping or in PBD mode.
pub fn gamma(compliance: f64, damping: f64, h: f64) -> f32 {
    (compliance * damping / h).min(MAX_ALPHA_TILDE) as f32
}
