//! What JavaScript reads of a simulation: typed-array views over wasm memory
//! (no copies) and diagnostics.

use js_sys::{Float32Array, Uint32Array};
use wasm_bindgen::prelude::*;

use super::Simulation;

#[wasm_bindgen]
impl Simulation {
    /// Positions `[x0, y0, x1, y1, ...]` in metres: a `Float32Array` view over wasm
    /// memory, no copy. Re-fetch it after anything that may allocate in wasm
    /// (creating a `Simulation`, for example) and never use it after `free()`.
    pub fn positions(&self) -> Float32Array {
        // SAFETY: the view aliases `self.cloth.positions`, which never reallocates
        // after construction. JavaScript must drop the view when memory grows or
        // the simulation is freed, as documented above.
        unsafe { Float32Array::view(self.cloth.positions()) }
    }

    /// Endpoints `[a0, b0, a1, b1, ...]` of the live constraints in solver order:
    /// a `Uint32Array` view over wasm memory, with the same lifetime rules as
    /// `positions()`. Tearing and a new `solverOrder` rearrange the buffer in
    /// place: a view taken before still reads real constraints (particle indices
    /// below `numParticles`), its first `numConstraints` pairs are the live ones,
    /// and torn ones follow them; fetch a new view for the new length.
    pub fn constraints(&self) -> Uint32Array {
        // SAFETY: the view aliases the first `2 × numConstraints` entries of the
        // constraint-id buffer, allocated at construction with room for every
        // constraint and never reallocated or shrunk afterwards: tearing and
        // reordering move entries within it (`ConstraintSet::tear`, `set_order`).
        // So the memory a view covers stays this buffer's, holding valid ids,
        // until `free()`. JavaScript must drop the view when memory grows (it is
        // detached then) or the simulation is freed, as documented above.
        unsafe { Uint32Array::view(self.cloth.constraint_ids()) }
    }

    /// Rest length of each live constraint in metres, in the order of
    /// `constraints()`: a `Float32Array` view with the same rules as
    /// `constraints()` (a view taken before a tear still reads positive lengths).
    #[wasm_bindgen(js_name = restLengths)]
    pub fn rest_lengths(&self) -> Float32Array {
        // SAFETY: as for `constraints`: the rest-length buffer is allocated once
        // with room for every constraint and only rearranged in place.
        unsafe { Float32Array::view(self.cloth.rest_lengths()) }
    }

    /// Tension of each constraint in newtons (`-λ / h²` of the last substep;
    /// positive when pulling), in the order of `constraints()`: a `Float32Array`
    /// view, valid until the next call into the simulation.
    #[wasm_bindgen(js_name = constraintForces)]
    pub fn constraint_forces(&mut self) -> Float32Array {
        // SAFETY: as for `positions`; the buffer is refilled on every call.
        unsafe { Float32Array::view(self.cloth.constraint_forces()) }
    }

    /// Number of constraints torn so far.
    #[wasm_bindgen(getter = tornCount)]
    pub fn torn_count(&self) -> u32 {
        self.cloth.torn_count() as u32
    }

    /// Largest relative stretch `(length - rest) / rest` of any constraint (≥ 0).
    #[wasm_bindgen(getter = maxStretch)]
    pub fn max_stretch(&self) -> f64 {
        self.cloth.max_stretch()
    }

    /// Kinetic energy of the moving particles, in joules.
    #[wasm_bindgen(getter = kineticEnergy)]
    pub fn kinetic_energy(&self) -> f64 {
        self.cloth.kinetic_energy()
    }
}
