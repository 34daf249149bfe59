//! What the camera of the page asks of the crate to estimate where a scene
//! can move (`www/lib/scene-reach.js`): the shortest paths of rest length
//! from the pins, found by the code the tethers use
//! ([`crate::extras::shortest_paths`]), in `f64`.

use js_sys::{Float64Array, Int32Array, Object, Reflect, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{cloth_error, room, wrong_type};
use crate::error::ClothError;
use crate::extras::neighbours::Neighbours;
use crate::extras::shortest_paths::ShortestPaths;

#[wasm_bindgen(typescript_custom_section)]
const PATHS_FROM_PINS_TYPE: &str = r#"
/** The shortest paths of rest length from the pins, as `pathsFromPins` finds them. */
export interface PathsFromPins {
  /** Rest length of each particle's path to its nearest pin, metres (Infinity: no path). */
  reach: Float64Array;
  /** The pin each particle hangs from (-1: none). */
  pin: Int32Array;
  /** The particles joined to a pin, nearest first (the pins first). */
  order: Int32Array;
}
"#;

/// The shortest paths of rest length from the pinned particles (a
/// multi-source Dijkstra over the distance constraints) of a scene of
/// `pinned.length` particles: `constraints` are the ends `[a0, b0, ...]`
/// (pairs naming a particle beyond the scene are left out), `restLengths`
/// their lengths (as magnitudes; NaN counts 0), `pinned` 1 for a pinned
/// particle. Throws an Error naming the argument that is not the typed array
/// it should be, or with `code` `"out_of_memory"`.
#[wasm_bindgen(js_name = pathsFromPins, unchecked_return_type = "PathsFromPins")]
pub fn paths_from_pins(
    #[wasm_bindgen(unchecked_param_type = "Uint32Array")] constraints: JsValue,
    #[wasm_bindgen(js_name = restLengths, unchecked_param_type = "Float64Array")]
    rest_lengths: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] pinned: JsValue,
) -> Result<JsValue, JsValue> {
    let typed = |value: &JsValue, field: &str, expected: &str| wrong_type(field, value, expected);
    let ends = constraints
        .dyn_ref::<Uint32Array>()
        .ok_or_else(|| typed(&constraints, "constraints", "a Uint32Array"))?;
    let lengths = rest_lengths
        .dyn_ref::<Float64Array>()
        .ok_or_else(|| typed(&rest_lengths, "restLengths", "a Float64Array"))?;
    let flags = pinned
        .dyn_ref::<Uint8Array>()
        .ok_or_else(|| typed(&pinned, "pinned", "a Uint8Array"))?;
    let n = flags.length() as usize;
    let (ids, rest) = constraints_within(ends, lengths, n)?;
    let mut pinned: Vec<bool> = room("pinned", n)?;
    let mut bytes: Vec<u8> = room("pinned", n)?;
    bytes.resize(n, 0);
    flags.copy_to(&mut bytes);
    pinned.extend(bytes.iter().map(|&b| b != 0));
    let out_of_memory = |what: &str| {
        cloth_error(ClothError::OutOfMemory {
            field: "constraints",
            what: format!("the {what} of {n} particles"),
        })
    };
    let mut graph =
        Neighbours::<f64>::try_new(n, rest.len()).map_err(|_| out_of_memory("neighbour lists"))?;
    graph.rebuild(&ids, &rest);
    let mut paths =
        ShortestPaths::<f64>::try_new(n).map_err(|_| out_of_memory("shortest paths"))?;
    // room for every particle, each settled at most once: never grows
    let mut order: Vec<i32> = room("pinned", n)?;
    paths.recompute(&graph, &pinned, |k| order.push(k as i32));
    let mut pins: Vec<i32> = room("pinned", n)?;
    // no pin (u32::MAX) becomes -1
    pins.extend(paths.pins().iter().map(|&p| p as i32));
    let object = Object::new();
    let set = |key: &str, value: JsValue| Reflect::set(&object, &key.into(), &value).map(|_| ());
    set("reach", Float64Array::from(paths.lengths()).into())?;
    set("pin", Int32Array::from(&pins[..]).into())?;
    set("order", Int32Array::from(&order[..]).into())?;
    Ok(object.into())
}

/// The constraints of `ends` and `lengths` whose both ends are among `n`
/// particles, and their rest lengths as magnitudes (NaN: 0).
fn constraints_within(
    ends: &Uint32Array,
    lengths: &Float64Array,
    n: usize,
) -> Result<(Vec<u32>, Vec<f64>), JsValue> {
    let pairs = (ends.length() / 2).min(lengths.length()) as usize;
    let mut ids: Vec<u32> = room("constraints", 2 * pairs)?;
    ids.resize(2 * pairs, 0);
    ends.subarray(0, 2 * pairs as u32).copy_to(&mut ids);
    let mut rest: Vec<f64> = room("restLengths", pairs)?;
    rest.resize(pairs, 0.0);
    lengths.subarray(0, pairs as u32).copy_to(&mut rest);
    let mut kept = 0;
    for c in 0..pairs {
        let (a, b) = (ids[2 * c], ids[2 * c + 1]);
        if (a as usize) < n && (b as usize) < n {
            ids[2 * kept] = a;
            ids[2 * kept + 1] = b;
            let length = rest[c].abs();
            rest[kept] = if length.is_nan() { 0.0 } else { length };
            kept += 1;
        }
    }
    ids.truncate(2 * kept);
    rest.truncate(kept);
    Ok((ids, rest))
}
