//! What the camera of the page asks of the crate to estimate where a scene
//! can move (`www/lib/scene-reach.js`): the shortest paths of rest length
//! from the pins, found by the code the tethers use
//! ([`crate::kinds::shortest_paths`]), in `f64`.

use js_sys::{Float64Array, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{cloth_error, room, wrong_type};
use crate::error::ClothError;
use crate::kinds::neighbours::Neighbours;
use crate::kinds::shortest_paths::ShortestPaths;

/// The shortest paths of rest length from the pinned particles (a
/// multi-source Dijkstra over the distance constraints) of a scene of
/// `n = pinned.length` particles: `constraints` are the ends `[a0, b0, ...]`
/// (pairs naming a particle beyond the scene are left out), `restLengths`
/// their lengths (as magnitudes; NaN counts 0), `pinned` 1 for a pinned
/// particle. Returns `3n` numbers: the particles joined to a pin, nearest
/// first (the pins first), then -1 up to `n`; each particle's reach (the rest
/// length of its path to its nearest pin, metres; Infinity: no path); each
/// particle's pin (-1: none). Throws an Error naming the argument that
/// is not the typed array it should be, or with `code` `"out_of_memory"`.
#[wasm_bindgen(js_name = pathsFromPins)]
pub fn paths_from_pins(
    #[wasm_bindgen(unchecked_param_type = "Uint32Array")] constraints: JsValue,
    #[wasm_bindgen(js_name = restLengths, unchecked_param_type = "Float64Array")]
    rest_lengths: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] pinned: JsValue,
) -> Result<Float64Array, JsValue> {
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
    let mut bytes: Vec<u8> = room("pinned", n)?;
    bytes.resize(n, 0);
    flags.copy_to(&mut bytes);
    let mut pinned: Vec<bool> = room("pinned", n)?;
    // one by one, in the room reserved: not unrolled
    for &b in &bytes {
        pinned.push(b != 0);
    }
    let out_of_memory = |_| {
        cloth_error(ClothError::OutOfMemory {
            field: "constraints",
            what: format!("the shortest paths of {n} particles"),
        })
    };
    let mut graph = Neighbours::<f64>::try_new(n, rest.len()).map_err(out_of_memory)?;
    graph.rebuild(&ids, &rest);
    let mut paths = ShortestPaths::<f64>::try_new(n).map_err(out_of_memory)?;
    let mut out: Vec<f64> = room("pinned", 3 * n)?;
    // each particle is settled at most once: the room never grows
    paths.recompute(&graph, &pinned, |k| out.push(k as f64));
    out.resize(n, -1.0);
    out.extend_from_slice(paths.lengths());
    // no pin (u32::MAX) is -1
    for &pin in paths.pins() {
        out.push(pin as i32 as f64);
    }
    Ok(Float64Array::from(&out[..]))
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
