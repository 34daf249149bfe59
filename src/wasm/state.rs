//! Saved states for JavaScript: `saveState()` as a plain object of typed
//! arrays, `restoreState()` reading one back (each array checked for its type
//! and length before it is copied), and `setState()`, a state computed
//! elsewhere to continue from.

use js_sys::{Float32Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::bodies::{added_to_js, kinds_to_js, put, read_added, read_kinds};
use super::convert::{cloth_error, error, number, property, read, to_js, wrong_type};
use super::interaction::{collider_id, describe_collider, read_shape};
use super::reentry::Reading;
use super::scene::{objects, read_options};
use super::typed_arrays::{copy_typed, typed_length, TypedArray};
use super::Simulation;
use crate::cloth::ClothState;
use crate::contacts::MAX_COLLIDERS;
use crate::error::ClothError;

#[wasm_bindgen(typescript_custom_section)]
const STATE_TYPES: &str = r#"
/**
 * What `saveState()` returns and `restoreState()` takes: solver parameters by
 * name, simulated time (s), positions and velocities (`[x0, y0, ...]`), the
 * pinned particles (ascending), the live constraints by creation index in the
 * order they are solved, the torn ones (ascending), and the colliders.
 */
export interface SavedState {
  params: Record<string, number | string | boolean>;
  time: number;
  positions: Float32Array;
  velocities: Float32Array;
  pinned: Uint32Array;
  constraints: Uint32Array;
  torn: Uint32Array;
  colliders: (ColliderSpec & { id: number })[];
  /** What the constraint kinds keep besides the particles: `bodies`, the rest positions of every body's particles (a plastic body's change). Absent: none (refused for a scene with bodies). */
  kinds?: { bodies?: Float32Array };
  /** The bodies and ropes added while it ran (`addBody`, `addRope`), in order; restoring adds those the simulation has not had added yet. Absent: none. */
  added?: AddedBodies[];
}
"#;

#[wasm_bindgen]
impl Simulation {
    /// Puts the cloth in the state `positions`, `velocities` (`Float32Array`s of
    /// two numbers per particle, metres and m/s) at `time` seconds: how a cloth
    /// continues from a state computed elsewhere (the WebGPU backend's fall-back).
    /// A step in progress is abandoned. Throws, changing nothing, for a wrong
    /// type, length or value.
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Float32Array")] positions: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Float32Array")] velocities: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] time: JsValue,
    ) -> Result<(), JsValue> {
        let _reading = Reading::begin("positions")?;
        let expected = 2 * self.cloth.num_particles();
        let mut copies = [(); 2].map(|_| Vec::new());
        for ((field, value), copy) in [("positions", &positions), ("velocities", &velocities)]
            .into_iter()
            .zip(copies.iter_mut())
        {
            let length = typed_length::<Float32Array>(field, value)?;
            if length as usize != expected {
                return Err(error(
                    field,
                    "invalid_value",
                    &format!(
                        "invalid {field}: got {length} numbers, expected {expected} (two per particle)"
                    ),
                ));
            }
            *copy = copy_typed::<Float32Array>(field, value, length)?;
        }
        let time = number("time", &time)?;
        let [positions, velocities] = copies;
        self.cloth
            .set_state(&positions, &velocities, time)
            .map_err(cloth_error)
    }

    /// The state of the simulation, for saving (see `SavedState`): its solver
    /// parameters by name, `time`, `positions` and `velocities` (new
    /// `Float32Array`s, not views), the pinned particles, the live constraints
    /// in solver order and the torn ones (creation indices, `Uint32Array`s)
    /// and the colliders. A step in progress is finished first (the cloth
    /// moves on by what is left of it), since a state part way through a step
    /// could not be continued from.
    #[wasm_bindgen(js_name = saveState, unchecked_return_type = "SavedState")]
    pub fn save_state(&mut self) -> Result<JsValue, JsValue> {
        if self.cloth.step_in_progress() {
            self.cloth.advance(1, u64::MAX);
        }
        let state = self.cloth.saved_view().map_err(cloth_error)?;
        let object: JsValue = js_sys::Object::new().into();
        let params: JsValue = js_sys::Object::new().into();
        for (parameter, value) in state.params.values() {
            put(&params, parameter.name, to_js(value));
        }
        put(&object, "params", params);
        put(&object, "time", JsValue::from_f64(state.time));
        put(
            &object,
            "positions",
            Float32Array::from(state.positions).into(),
        );
        put(
            &object,
            "velocities",
            Float32Array::from(state.velocities).into(),
        );
        put(
            &object,
            "pinned",
            Uint32Array::from(&state.pinned[..]).into(),
        );
        put(
            &object,
            "constraints",
            Uint32Array::from(state.constraints).into(),
        );
        put(&object, "torn", Uint32Array::from(&state.torn[..]).into());
        let colliders: js_sys::Array = (state.colliders.iter())
            .map(|c| {
                let spec = describe_collider(c);
                for speed in ["vx", "vy"] {
                    unset(&spec, speed);
                }
                spec
            })
            .collect();
        put(&object, "colliders", colliders.into());
        put(&object, "kinds", kinds_to_js(&state.kinds));
        put(&object, "added", added_to_js(state.added));
        Ok(object)
    }

    /// Puts the simulation into a state `saveState()` gave, of this simulation
    /// or of one built the same way (same preset and sizes, or same scene):
    /// it then continues bit for bit as the saved one did. `positions` and
    /// `velocities` must be `Float32Array`s, `pinned`, `constraints` and
    /// `torn` `Uint32Array`s; `params` names solver parameters (the ones it
    /// leaves out keep their values). Everything is checked before anything
    /// changes: a state that does not fit throws (`code` `"invalid_state"`,
    /// `"wrong_type"`, or a parameter's own) naming the field, and the
    /// simulation is left as it was. A held particle is let go; colliders
    /// restart at rest.
    #[wasm_bindgen(js_name = restoreState)]
    pub fn restore_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SavedState")] state: JsValue,
    ) -> Result<(), JsValue> {
        if !state.is_object() {
            return Err(wrong_type("state", &state, "an object from saveState()"));
        }
        let _reading = Reading::begin("state")?;
        // each field read in turn into the one state, so that every refusal
        // drops the same state
        let mut saved = ClothState {
            params: self.cloth.params(),
            time: 0.0,
            positions: Vec::new(),
            velocities: Vec::new(),
            pinned: Vec::new(),
            constraints: Vec::new(),
            torn: Vec::new(),
            colliders: Vec::new(),
            kinds: Vec::new(),
            // particles of the additions the restore may replay count too
            added: read_added(&state)?,
        };
        let extra: usize = saved.added.iter().map(|a| a.scene.num_particles()).sum();
        let n = self.cloth.num_particles() + extra;
        saved.kinds = read_kinds(&state, 2 * n)?;
        let ropes: usize = saved.added.iter().map(|a| a.scene.num_distances()).sum();
        let built = self.cloth.num_constraints() + self.cloth.torn_count() + ropes;
        let given = read("params", &state, "params")?;
        if !given.is_undefined() {
            if !given.is_object() {
                return Err(wrong_type("params", &given, "an object { stiffness, ... }"));
            }
            for (name, value) in read_options(&given)? {
                saved.params.set_named(&name, value).map_err(cloth_error)?;
            }
        }
        let time = read("time", &state, "time")?;
        let Some(time) = time.as_f64() else {
            return Err(wrong_type("time", &time, "a number"));
        };
        saved.time = time;
        let too_many = |length: f64| cloth_error(ClothState::too_many_colliders(length));
        let given = read("colliders", &state, "colliders")?;
        let colliders = objects("colliders", &given, MAX_COLLIDERS, &too_many)?;
        saved.colliders.reserve_exact(colliders.len());
        for collider in &colliders {
            saved.colliders.push((
                collider_id(&property(collider, "id"))?,
                read_shape(collider)?,
            ));
        }
        saved.positions = state_array::<Float32Array>(&state, "positions", 2 * n)?;
        saved.velocities = state_array::<Float32Array>(&state, "velocities", 2 * n)?;
        saved.pinned = state_array::<Uint32Array>(&state, "pinned", n)?;
        saved.constraints = state_array::<Uint32Array>(&state, "constraints", built)?;
        saved.torn = state_array::<Uint32Array>(&state, "torn", built)?;
        self.cloth.restore_state(&saved).map_err(cloth_error)
    }
}

/// Deletes `name` of `object`, a plain object just made. Out of line: one
/// call for every property a saved collider leaves out.
#[inline(never)]
fn unset(object: &JsValue, name: &str) {
    let object = object.unchecked_ref::<js_sys::Object>();
    let _ = Reflect::delete_property(object, &JsValue::from_str(name));
}

/// Refuses an array of the state longer than `most` entries before copying it.
fn state_length(field: &'static str, length: u32, most: usize) -> Result<usize, JsValue> {
    let length = length as usize;
    if length > most {
        return Err(cloth_error(ClothError::InvalidState {
            field,
            index: None,
            problem: format!("has {length} entries, expected at most {most} (this cloth's)"),
        }));
    }
    Ok(length)
}

/// Field `field` of a saved state: an `A` of at most `most` values.
fn state_array<A: TypedArray>(
    state: &JsValue,
    field: &'static str,
    most: usize,
) -> Result<Vec<A::Value>, JsValue> {
    let value = read(field, state, field)?;
    let length = typed_length::<A>(field, &value)?;
    state_length(field, length, most)?;
    copy_typed::<A>(field, &value, length)
}
