//! The JavaScript face of the crate: `Simulation`, a thin `wasm-bindgen` layer over
//! [`Cloth`], and the experiments' `ExperimentRun`. The only code of the crate
//! that sees JavaScript values.
//!
//! The exported surface is split by topic, each file one `#[wasm_bindgen]
//! impl Simulation` of a part of it (plain `impl`s and functions hold the
//! Rust-side helpers):
//!
//! * this file: building a simulation and stepping it;
//! * `parameters.rs`: every solver parameter's getter and setter, generated
//!   from the parameter table;
//! * `views.rs`: typed-array views of the arrays, diagnostics;
//! * `interaction.rs`: pick, grab, drag, pins and colliders;
//! * `draw.rs`: `drawInto` and the strain colours;
//! * `changes.rs`: the cloth behind a change counter, which a drawing in
//!   pieces checks before it goes on;
//! * `scene.rs`: `fromScene` and `preset`, reading a scene or options object;
//! * `bodies.rs`: a scene's `bodies`, `addBody`, and the bodies of a saved
//!   state;
//! * `state.rs`: `saveState`, `restoreState` and `setState`;
//! * `scene_reach.rs`: `pathsFromPins`, the shortest paths from the pins the
//!   camera estimates a scene's reach from;
//! * `experiments.rs`: `experimentDefinitions` and `ExperimentRun`;
//! * `convert.rs`: JavaScript values to Rust values and back, and errors;
//! * `typed_arrays.rs`: copying typed arrays (and `Array.isArray`) so that
//!   nothing the engine throws while reading them escapes.
//!
//! Numbers arrive as `JsValue` and are checked to really be numbers, so
//! `sim.mass = "heavy"` throws an `Error` instead of being silently coerced to
//! `NaN` or `0`. Counts and indices are checked to be whole, finite, not
//! negative and within their Rust type here (`convert.rs`), and the core
//! ([`Cloth`]) takes `usize`, `u32`, `u64`, `GridSize` and `FixedPreset`.
//! Every error is a JavaScript `Error` whose message names the argument, with
//! the argument's name in its `field` property and a stable `code`; a refused
//! call changes nothing.
//!
//! wasm-bindgen marks an object borrowed for the length of each call into it.
//! A trap (any panic: `panic = "abort"`) or a JavaScript exception thrown
//! through the wasm stack skips the end of the call, and the object stays
//! borrowed for good: every later call, `free()` included, fails. So no method
//! here may panic or let JavaScript throw through it: sizes are checked in
//! `f64` before they become `usize` (32 bits in wasm), big buffers are
//! allocated fallibly, JavaScript values are read with `Reflect` (which catches
//! what a getter throws), strings are measured before they are copied, and
//! messages echo at most a short, bounded part of any value.
//!
//! Big arrays stay in wasm memory: [`Simulation::positions`] and
//! [`Simulation::constraints`] return typed-array *views* over it, without
//! copying. A view dies when wasm memory grows (any call that allocates: building
//! a new `Simulation`, for instance), so fetch a fresh one each frame.

mod areas;
mod bodies;
mod changes;
mod convert;
mod draw;
#[cfg(feature = "experiments")]
pub mod experiments;
mod grid_layout;
mod interaction;
mod parameters;
mod reentry;
mod scene;
mod scene_reach;
mod state;
mod typed_arrays;
mod views;

use wasm_bindgen::prelude::*;

use convert::{cloth_error, number, table_whole, whole};

use crate::cloth::{self, Cloth};
use crate::error::Number;
use crate::params::{self, FixedPreset, GridSize};
use crate::raster::{Frame, Rect};
use changes::Tracked;
use draw::Pending;

/// An XPBD cloth for JavaScript. Free it with `free()` when done.
#[wasm_bindgen]
pub struct Simulation {
    /// The cloth; every mutable borrow of it counts as a change (`changes.rs`).
    cloth: Tracked<Cloth>,
    /// The pixel buffer `drawInto` draws into, kept between frames.
    frame: Frame,
    /// Where the last picture `drawInto` put on the canvas lies: cleared and
    /// copied again by the next.
    last_drawn: Rect,
    /// A picture drawn in pieces (`maxShapes`) and not yet on the canvas.
    pending: Option<Pending>,
}

impl Simulation {
    /// The simulation of `cloth`, with nothing drawn yet.
    fn of(cloth: Cloth) -> Simulation {
        Simulation {
            cloth: Tracked::new(cloth),
            frame: Frame::default(),
            last_drawn: Rect::default(),
            pending: None,
        }
    }
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a `width × height` cloth (2..=1000 each, at most 250000 particles)
    /// with 1, 2 or 4 fixed corners and default parameters. Throws an `Error`
    /// naming the bad argument, or one with `code` `"out_of_memory"` when the
    /// cloth does not fit in the memory left (other cloths keep working).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
        #[wasm_bindgen(js_name = fixed, unchecked_param_type = "number")] fixed: JsValue,
    ) -> Result<Simulation, JsValue> {
        console_error_panic_hook::set_once();
        let width = number(params::WIDTH.name, &width)?;
        let height = number(params::HEIGHT.name, &height)?;
        let fixed = number(params::FIXED.name, &fixed)?;
        let width = table_whole(&params::WIDTH, width)? as usize;
        let height = table_whole(&params::HEIGHT, height)? as usize;
        let size = GridSize::new(width, height).map_err(cloth_error)?;
        let fixed = table_whole(&params::FIXED, fixed)? as usize;
        let preset = FixedPreset::from_count(fixed).map_err(cloth_error)?;
        let cloth = Cloth::try_new(size, preset).map_err(cloth_error)?;
        Ok(Simulation::of(cloth))
    }

    /// Advances one time step (a no-op once `isFinite` is false).
    pub fn step(&mut self) {
        self.cloth.step();
    }

    /// Advances `n` time steps in one call; `n` is a whole number from 0 to
    /// `maxStepsPerCall` (at most 10000: a call does at most 1.5e9 work units,
    /// about 1.5 s). A step in progress (see `advance`) is finished first and
    /// counts as one.
    pub fn steps(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> Result<(), JsValue> {
        let n = whole("steps", &n, u32::MAX.into(), |v| self.cloth.steps_error(v))?;
        self.cloth.steps(n as u32).map_err(cloth_error)
    }

    /// Steps in slices, so a page never blocks on a heavy cloth: finishes at most
    /// `maxSteps` steps (whole, 0..=10000; a step in progress counts as one) and
    /// stops earlier, at the first boundary between two pieces of work (the
    /// start of a step or substep, a chunk of a sweep, the end of a substep),
    /// once `workBudget` work units (0..=1.5e9; one unit is about a nanosecond)
    /// are spent, leaving a step in progress that the next call continues. At
    /// least one piece is done per call. Returns the number of steps finished.
    /// The results are bit for bit those of calling `step()` as often. While a
    /// step is in progress, `positions()` show it part way; mass, pins and
    /// dragging apply at once, timeStepSize, substeps and solverOrder from the
    /// next step, every other parameter from the next substep.
    pub fn advance(
        &mut self,
        #[wasm_bindgen(js_name = maxSteps, unchecked_param_type = "number")] max_steps: JsValue,
        #[wasm_bindgen(js_name = workBudget, unchecked_param_type = "number")] work_budget: JsValue,
    ) -> Result<u32, JsValue> {
        let max_steps = whole(
            "maxSteps",
            &max_steps,
            u32::MAX.into(),
            cloth::max_steps_error,
        )?;
        let budget = number("workBudget", &work_budget)?;
        // a budget is not a count: fractions of a unit are dropped
        if !(budget.is_finite() && budget >= 0.0 && budget < u64::MAX as f64) {
            return Err(cloth_error(cloth::work_budget_error(Number(budget))));
        }
        let (max_steps, work_budget) = (max_steps as u32, budget as u64);
        self.cloth
            .advance_checked(max_steps, work_budget)
            .map_err(cloth_error)
    }

    /// Simulated time in seconds.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.cloth.time()
    }

    /// Number of particles.
    #[wasm_bindgen(getter = numParticles)]
    pub fn num_particles(&self) -> u32 {
        self.cloth.num_particles() as u32
    }

    /// Number of distance constraints.
    #[wasm_bindgen(getter = numConstraints)]
    pub fn num_constraints(&self) -> u32 {
        self.cloth.num_constraints() as u32
    }

    /// `false` once a step diverged; the cloth then stops (positions stay finite).
    #[wasm_bindgen(getter = isFinite)]
    pub fn is_finite(&self) -> bool {
        self.cloth.is_finite()
    }

    /// Work units one step takes with the current settings (about nanoseconds of
    /// wasm): substeps × (iterations × constraints × the cost of one solve on the
    /// sweep in use, plus per-particle work), plus tearing and damping checks.
    #[wasm_bindgen(getter = workPerStep)]
    pub fn work_per_step(&self) -> f64 {
        self.cloth.work_per_step() as f64
    }

    /// Work units done since the simulation was built (a running total, for
    /// measuring how fast units go: elapsed time over the units an `advance` did).
    #[wasm_bindgen(getter = workDone)]
    pub fn work_done(&self) -> f64 {
        self.cloth.work_done() as f64
    }

    /// Whether `advance` left a step part done (the next call continues it).
    #[wasm_bindgen(getter = stepInProgress)]
    pub fn step_in_progress(&self) -> bool {
        self.cloth.step_in_progress()
    }

    /// How far the step in progress is: the fraction of its sweeps done, from 0
    /// (no step in progress) to below 1.
    #[wasm_bindgen(getter = stepProgress)]
    pub fn step_progress(&self) -> f64 {
        self.cloth.step_progress()
    }

    /// The largest `n` that `steps(n)` accepts now: 1.5e9 work units over
    /// `workPerStep`, at most 10000.
    #[wasm_bindgen(getter = maxStepsPerCall)]
    pub fn max_steps_per_call(&self) -> u32 {
        self.cloth.max_steps_per_call()
    }
}

/// Whether this build of the module solves with wasm SIMD (`+simd128`).
#[wasm_bindgen(js_name = simdEnabled)]
pub fn simd_enabled() -> bool {
    crate::solver::lanes::SIMD
}

/// Bytes of wasm memory the module has now (it grows in 64 KiB pages and never
/// shrinks), however the module was initialised.
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        // in f64: at 4 GiB the byte count no longer fits a 32-bit usize
        core::arch::wasm32::memory_size(0) as f64 * 65536.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
