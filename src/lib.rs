//! # xpbd-cloth
//!
//! A 2D cloth simulated with XPBD (eXtended Position-Based Dynamics), written in
//! plain Rust and compiled to WebAssembly for the browser.
//!
//! ## XPBD in brief
//!
//! The cloth is a grid of particles joined by distance constraints (edges that
//! want to keep their rest length). Each time step predicts where the particles
//! go, then corrects them towards the constraints with Lagrange multipliers that
//! carry the stiffness, so the stiffness set is the stiffness obtained however
//! many iterations run. The theory (constraint, gradient, compliance,
//! multiplier, correction) is written once, at the top of [`solver`], in the
//! same symbols the code uses (`alpha_tilde`, `delta_lambda`, `w_sum`, `gamma`).
//!
//! **Start reading at `src/cloth/step.rs`**: one time step, phase by phase, as
//! the textbook writes it; then `src/solver/` for the solve itself.
//!
//! ## Layout
//!
//! Each module uses only the ones listed before it (`tests/layers.rs` checks):
//!
//! * [`error`]: [`ClothError`], what can go wrong, with its field and code.
//! * [`memory`]: fallible allocation.
//! * [`params`]: the parameter table (every parameter's name, unit, default,
//!   accepted values and how it applies), [`Params`] generated from it, and
//!   the work model (what a step costs).
//! * [`model`]: plain data: a [`model::Scene`], the grid, the presets, a
//!   collider's shape.
//! * [`solver`]: the XPBD solve: the distance constraint, prediction and
//!   velocities, the sweep orders, the coloured SIMD sweep.
//! * [`kinds`]: the constraint kinds besides the distance constraints, each
//!   answering [`kinds::ConstraintKind`]: bending, areas, tethers, wind.
//! * [`contacts`]: colliders, self-collision and the speed limit, one
//!   [`contacts::Contacts`] that owns their data: a constraint kind too.
//! * [`cloth`]: [`Cloth`], the state, the step (the loop of substeps, sweeps
//!   and pieces, resumable between pieces), the list of constraint kinds,
//!   interaction, saved states and diagnostics.
//! * [`raster`]: drawing the cloth into pixels (faster than canvas paths).
//! * `experiments` (behind the `experiments` feature): the claims of the documents behind XPBD, measured.
//! * [`wasm`]: the `Simulation` class exported to JavaScript, a thin layer
//!   over [`Cloth`]: the only code that sees JavaScript values.

pub mod cloth;
pub mod contacts;
pub mod error;
#[cfg(feature = "experiments")]
pub mod experiments;
pub mod kinds;
pub mod memory;
pub mod model;
pub mod params;
pub mod raster;
pub mod solver;
pub mod wasm;

pub use cloth::Cloth;
pub use error::ClothError;
pub use params::{FixedPreset, GridSize, Params, SolverKind, SolverOrder};
