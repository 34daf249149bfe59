//! # xpbd-cloth
//!
//! A 2D cloth simulated with XPBD (eXtended Position-Based Dynamics), written in
//! plain Rust and compiled to WebAssembly for the browser.
//!
//! ## XPBD in brief
//!
//! The cloth is a grid of particles joined by distance constraints (edges that
//! want to keep their rest length). Every time step `dt` does four things:
//!
//! 1. **Predict.** Each free particle remembers its position, adds `dt * gravity`
//!    to its velocity and moves: `x ← x + dt v`. The cloth is now stretched.
//! 2. **Reset the multipliers.** Every constraint has a Lagrange multiplier `λ`,
//!    the running total of the impulse it has applied this step; it starts at 0.
//! 3. **Correct** (`iterations` sweeps). For each constraint with error
//!    `C = |x_a - x_b| - rest_length` and direction `n`, compute
//!    `Δλ = -(C + α̃ λ) / (w_a + w_b + α̃)`, where `w` are inverse masses and
//!    `α̃ = α / dt²` is the compliance `α = 1/stiffness` scaled by the step; add
//!    `Δλ` to `λ` and move `x_a += w_a Δλ n`, `x_b -= w_b Δλ n`. With `α = 0` this
//!    is plain PBD, infinitely stiff.
//! 4. **Update velocities.** `v ← (x - x_old) / dt`: whatever the corrections did
//!    becomes motion.
//!
//! Because `λ` carries over between sweeps, the stiffness you set is the
//! stiffness you get, however many iterations run; in plain PBD more iterations
//! mean a stiffer cloth.
//!
//! ## Layout
//!
//! * [`params`]: parameters, their units, defaults, ranges and validation.
//! * [`grid`]: building the grid and its constraints in the original's order.
//! * [`solver`]: the XPBD step itself.
//! * [`constraints`]: the constraints in solver order (original or coloured).
//! * [`colored`]: the coloured sweep, four independent constraints per SIMD op.
//! * `lanes`: four-wide `f32` arithmetic, wasm SIMD where available.
//! * [`memory`]: fallible allocation and what a cloth costs in memory.
//! * [`raster`]: drawing the cloth into pixels (faster than canvas paths).
//! * [`cloth`]: [`Cloth`], the state, interaction (pick, grab, drag, pin) and
//!   diagnostics.
//! * `wasm`: the `Simulation` class exported to JavaScript, a thin layer over
//!   [`Cloth`].

pub mod cloth;
pub mod colored;
pub mod constraints;
pub mod grid;
mod lanes;
pub mod memory;
pub mod params;
pub mod raster;
pub mod solver;
mod wasm;

pub use cloth::Cloth;
pub use params::{ClothError, FixedPreset, GridSize, Params, SolverOrder};
pub use wasm::{simd_enabled, Simulation};
