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
//! ## Layout
//!
//! * [`params`]: the parameter table (every parameter's name, unit, default,
//!   accepted values and how it applies), and what is generated from it.
//! * [`grid`]: building the grid and its constraints in the original's order.
//! * [`solver`]: the XPBD step itself.
//! * [`constraints`]: the constraints in solver order (original or coloured).
//! * [`colored`]: the coloured sweep, four independent constraints per SIMD op.
//! * `lanes`: four-wide `f32` arithmetic, wasm SIMD where available.
//! * [`colliders`], [`self_collision`], [`contacts`], [`wind`]: ground,
//!   circles and boxes with friction; particle–particle collision with a
//!   spatial hash; the speed limit; wind on the edges (joined to a substep by
//!   [`extras`]).
//! * [`memory`]: fallible allocation and what a cloth costs in memory.
//! * [`raster`]: drawing the cloth into pixels (faster than canvas paths).
//! * [`extras`]: what a scene adds to a substep: [`bending`], [`area`]
//!   constraints and [`tethers`] (long-range attachments).
//! * [`cloth`]: [`Cloth`], the state, interaction (pick, grab, drag, pin) and
//!   diagnostics.
//! * `wasm`: the `Simulation` class exported to JavaScript, a thin layer over
//!   [`Cloth`].

pub mod area;
pub mod bending;
pub mod cloth;
pub mod colliders;
pub mod colored;
pub mod constraints;
pub mod contacts;
pub mod experiments;
pub mod extras;
pub mod grid;
pub mod grid_layout;
mod lanes;
pub mod memory;
pub mod params;
pub mod presets;
pub mod raster;
pub mod scene;
pub mod self_collision;
pub mod solver;
pub mod tethers;
mod wasm;
pub mod wind;

pub use cloth::Cloth;
pub use params::{ClothError, FixedPreset, GridSize, Params, SolverOrder};
pub use wasm::{simd_enabled, Simulation};
