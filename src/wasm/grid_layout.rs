//! What the WebGPU backend (www/lib/gpu/gpu-simulation.js) takes from the CPU's
//! code instead of keeping copies: the grid in coloured order
//! ([`crate::solver::grid_layout`]), and the values of a substep (`h`, `alpha_tilde`,
//! `gamma`, the velocity damping factor) as the CPU solver computes them.

use js_sys::{Float32Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, number};
use crate::cloth::{DIVERGENCE_LIMIT, MAX_STEPS_PER_CALL};
use crate::kinds;
use crate::model::grid::SPACING;
use crate::params::{self, FixedPreset, Params};
use crate::solver;
use crate::solver::grid_layout::{self, ColoredGrid};

#[wasm_bindgen(typescript_custom_section)]
const GRID_LAYOUT_TYPE: &str = r#"
/**
 * The grid cloth as `gridLayout` lays it out for a colour-by-colour solver:
 * positions `[x0, y0, ...]` (metres), the constraints' ends `[a0, b0, ...]` and
 * rest lengths grouped by colour (colour `c` is `colorOffsets[c]` to
 * `colorOffsets[c + 1]`, in the CPU's coloured order; no two constraints of a
 * colour share a particle), the fixed particles, and the constants of the grid
 * and of the solver it follows.
 */
export interface GridLayout {
  positions: Float32Array;
  ends: Uint32Array;
  restLengths: Float32Array;
  colorOffsets: Uint32Array;
  pinned: Uint32Array;
  /** Distance between neighbouring particles at rest, metres. */
  spacing: number;
  /** Number of colours: `colorOffsets.length - 1`. */
  colors: number;
  /** A coordinate beyond this (metres) means the cloth diverged. */
  divergenceLimit: number;
  /** The most steps one `steps(n)` call takes. */
  maxStepsPerCall: number;
}
"#;

/// The layout as a JavaScript object of typed arrays (copies, not views).
fn layout_object(layout: &ColoredGrid) -> Result<JsValue, JsValue> {
    let m = layout.num_constraints() as u32;
    let ends = Uint32Array::new_with_length(2 * m);
    let rest_lengths = Float32Array::new_with_length(m);
    let mut offsets = vec![0u32];
    for block in &layout.colors {
        let start = *offsets.last().unwrap_or(&0);
        let count = block.rest_lengths.len() as u32;
        ends.subarray(2 * start, 2 * (start + count))
            .copy_from(&block.ends);
        rest_lengths
            .subarray(start, start + count)
            .copy_from(&block.rest_lengths);
        offsets.push(start + count);
    }
    let pinned: Vec<u32> = layout.fixed.iter().map(|&k| k as u32).collect();
    let object: JsValue = Object::new().into();
    // in order; after a refusal (a setter of `Object.prototype` that throws)
    // nothing more is set and the refusal is thrown
    let mut set = Ok(());
    let positions = Float32Array::from(&layout.positions[..]);
    put(&mut set, &object, "positions", positions.into());
    put(&mut set, &object, "ends", ends.into());
    put(&mut set, &object, "restLengths", rest_lengths.into());
    let offsets = Uint32Array::from(&offsets[..]);
    put(&mut set, &object, "colorOffsets", offsets.into());
    put(
        &mut set,
        &object,
        "pinned",
        Uint32Array::from(&pinned[..]).into(),
    );
    for (key, v) in [
        ("spacing", SPACING as f64),
        ("colors", layout.colors.len() as f64),
        ("divergenceLimit", DIVERGENCE_LIMIT as f64),
        ("maxStepsPerCall", MAX_STEPS_PER_CALL as f64),
    ] {
        put(&mut set, &object, key, JsValue::from_f64(v));
    }
    set.map(|()| object)
}

/// Sets `key` of `object` to `value` unless `set` holds a refusal already,
/// keeping what `Reflect.set` throws in `set`. Out of line, taking the value:
/// one call and one drop for every property.
#[inline(never)]
fn put(set: &mut Result<(), JsValue>, object: &JsValue, key: &str, value: JsValue) {
    if set.is_ok() {
        *set = Reflect::set(object, &JsValue::from_str(key), &value).map(|_| ());
    }
}

/// Reads argument `value` as a number the table's rule for `parameter`
/// accepts; the refusal names the parameter.
fn table_number(parameter: &params::Parameter, value: &JsValue) -> Result<f64, JsValue> {
    let v = number(parameter.name, value)?;
    parameter.check_number(v).map_err(cloth_error)
}

/// The `width × height` grid cloth with `fixed` corners (1, 2 or 4) laid out
/// colour by colour, built by the code that builds the CPU's cloth: sizes up
/// to the table's 1000 × 1000, beyond the CPU's particle limit. Throws an
/// Error naming the bad argument (`field`, `code`), or with `code`
/// `"out_of_memory"` when it does not fit.
#[wasm_bindgen(js_name = gridLayout, unchecked_return_type = "GridLayout")]
pub fn grid_layout(
    #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] fixed: JsValue,
) -> Result<JsValue, JsValue> {
    let mut size = [0.0; 3];
    let arguments = [&width, &height, &fixed];
    let entries = [&params::WIDTH, &params::HEIGHT, &params::FIXED];
    for ((v, value), parameter) in size.iter_mut().zip(arguments).zip(entries) {
        // the rules are of whole numbers up to 1000: each fits a usize
        *v = table_number(parameter, value)?;
    }
    let [width, height, fixed] = size.map(|v| v as usize);
    let preset = FixedPreset::from_count(fixed).map_err(cloth_error)?;
    let layout = grid_layout::build(width, height, preset).map_err(cloth_error)?;
    layout_object(&layout)
}

/// The values one substep of the CPU solver runs with, for these parameters:
/// `[h, alphaTilde, gamma, velocityFactor, grabAlphaTilde]` (the substep in
/// seconds, the compliance over h², the damping term, what velocity damping
/// multiplies every velocity by, and the compliance over h² of the grab's
/// spring on a free particle of `mass` kg), as f32. Throws an Error naming a
/// value the table refuses.
#[wasm_bindgen(js_name = substepValues)]
pub fn substep_values(
    #[wasm_bindgen(js_name = timeStepSize, unchecked_param_type = "number")] time_step: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] substeps: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] stiffness: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] damping: JsValue,
    #[wasm_bindgen(js_name = velocityDamping, unchecked_param_type = "number")]
    velocity_damping: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] mass: JsValue,
) -> Result<Float32Array, JsValue> {
    let mut values = [0.0; 6];
    let arguments = [
        &time_step,
        &substeps,
        &stiffness,
        &damping,
        &velocity_damping,
        &mass,
    ];
    let entries = [
        &params::TIME_STEP,
        &params::SUBSTEPS,
        &params::STIFFNESS,
        &params::DAMPING,
        &params::VELOCITY_DAMPING,
        &params::MASS,
    ];
    for ((v, value), parameter) in values.iter_mut().zip(arguments).zip(entries) {
        *v = table_number(parameter, value)?;
    }
    let [time_step, substeps, stiffness, damping, velocity_damping, mass] = values;
    let p = Params {
        time_step,
        // a whole number up to 100 by its rule
        substeps: substeps as u32,
        stiffness,
        damping,
        velocity_damping,
        mass,
        ..Params::default()
    };
    let h = p.substep_size();
    // the factor solver::damp_velocities scales every velocity by
    let mut factor = [1.0f32];
    solver::damp_velocities(&mut factor, p.velocity_damping, h);
    let values = [
        h as f32,
        solver::alpha_tilde(p.compliance(), h),
        solver::gamma(p.compliance(), p.damping, h),
        factor[0],
        kinds::grab::alpha_tilde((1.0 / p.mass) as f32, h),
    ];
    Ok(Float32Array::from(&values[..]))
}
