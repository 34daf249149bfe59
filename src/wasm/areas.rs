//! A scene's `areas` from JavaScript: hundreds of thousands of small objects,
//! each with a short array of corners. Read one property and one corner at a
//! time, an area costs some twenty calls across the boundary; read in bulk,
//! the corners of every area come over in one copy by the engine and an area
//! costs ten calls. Anything the bulk reading cannot take as it is (a typed
//! array of corners, a hole, a value of the wrong type, a getter that
//! throws) sends the whole list back to the reading one by one, which names
//! the entry it refuses. Both count the corners before they read them: more
//! than a scene may have are refused before they are copied.

use js_sys::{Array, ArrayBuffer, Reflect};
use wasm_bindgen::prelude::*;

use super::convert::cloth_error;
use super::scene::{
    entry_count, entry_number, index, indices, key, objects, scene_error, too_many,
};
use super::typed_arrays::{is_array, joined_numbers, typed_numbers, TypedLength, JOIN_AT_ONCE};
use crate::model::scene::MAX_SCENE_AREAS;
use crate::model::validate::check_corners;
use crate::model::AreaSpec;

/// The property names of an area, each with its JavaScript string.
type Keys = [(&'static str, JsValue); 3];

/// Reads a scene's `areas`: objects of `particles`, `stiffness` and
/// `pressure`.
pub(super) fn read_areas(value: &JsValue) -> Result<Vec<AreaSpec>, JsValue> {
    let most = MAX_SCENE_AREAS;
    let refuse = too_many("areas", most);
    // the property names as JavaScript strings once, not once per area
    let keys: Keys = ["particles", "stiffness", "pressure"].map(key);
    let count = entry_count("areas", value, most, &refuse)?;
    match areas_in_bulk(value, count, &keys) {
        Some(Ok(areas)) => Ok(areas),
        Some(Err(corners)) => Err(cloth_error(check_corners(corners).unwrap_err())),
        None => areas_one_by_one(&objects("areas", value, most, &refuse)?, &keys),
    }
}

/// The areas `items` read one property and one corner at a time: every
/// refusal names the area and what is wrong with it.
fn areas_one_by_one(items: &[JsValue], keys: &Keys) -> Result<Vec<AreaSpec>, JsValue> {
    let [particles_key, stiffness, pressure] = keys;
    let mut areas = Vec::new();
    let mut corners = 0;
    for (i, area) in items.iter().enumerate() {
        let particles = Reflect::get(area, &particles_key.1).unwrap_or(JsValue::UNDEFINED);
        if particles.is_undefined() {
            return Err(scene_error(
                "areas",
                Some(i),
                "has no particles, expected an array of at least 3 particle indices".into(),
            ));
        }
        let particles = indices("areas", &particles, |_| i)?;
        // the corners so far: past the most, the rest is not read
        corners += particles.len();
        check_corners(corners).map_err(cloth_error)?;
        areas.push(AreaSpec {
            particles,
            stiffness: entry_number(area, (stiffness.0, &stiffness.1), "areas", Some(0.0))?,
            pressure: entry_number(area, (pressure.0, &pressure.1), "areas", Some(1.0))?,
        });
    }
    Ok(areas)
}

/// Where the corners of an area are: a plain array, joined with the others
/// in one copy, or a typed array, copied on its own.
enum Corners {
    Plain,
    Typed(JsValue),
}

/// What the first pass of [`areas_in_bulk`] found: each area's corners, their
/// count, stiffness and pressure; the plain arrays in chunks for
/// [`joined_numbers`] and how many there are; the number of corners in plain
/// and in typed arrays.
#[derive(Default)]
struct Found {
    areas: Vec<(Corners, usize, f64, f64)>,
    chunks: Vec<Array>,
    arrays: usize,
    plain: usize,
    typed: usize,
}

/// The `count` areas of the array `value` when every one is plain: an
/// object whose `particles` is a plain or typed array of whole-number
/// indices and whose `stiffness` and `pressure` are numbers or absent. Per
/// area it reads the three properties and the array's length
/// ([`find_areas`]); the corners of all plain arrays are then copied at once
/// ([`joined_numbers`]), those of typed arrays one `set` each
/// ([`typed_numbers`]). `Err` with the number of corners when there are more
/// than a scene may have (none of them copied); `None` when anything is not
/// plain or a read threw: the caller reads one by one.
fn areas_in_bulk(
    value: &JsValue,
    count: usize,
    keys: &Keys,
) -> Option<Result<Vec<AreaSpec>, usize>> {
    let found = find_areas(value, count, keys)?;
    let corners = found.plain.saturating_add(found.typed);
    if check_corners(corners).is_err() {
        return Some(Err(corners));
    }
    let plain = joined_numbers(&found.chunks, found.plain)?;
    let typed: Vec<(&JsValue, usize)> = (found.areas.iter())
        .filter_map(|(corners, length, ..)| match corners {
            Corners::Typed(array) => Some((array, *length)),
            Corners::Plain => None,
        })
        .collect();
    let typed = typed_numbers(&typed, found.typed)?;
    let (mut plain, mut typed) = (&plain[..], &typed[..]);
    let mut areas = Vec::new();
    areas.try_reserve_exact(count).ok()?;
    for (corners, length, stiffness, pressure) in &found.areas {
        let from = match corners {
            Corners::Plain => &mut plain,
            Corners::Typed(_) => &mut typed,
        };
        let (these, rest) = from.split_at(*length);
        *from = rest;
        areas.push(AreaSpec {
            particles: these.iter().map(|&v| index(v)).collect::<Option<_>>()?,
            stiffness: *stiffness,
            pressure: *pressure,
        });
    }
    Some(Ok(areas))
}

/// The first pass of [`areas_in_bulk`]: reads each area's properties and
/// the length of its array of corners; `None` when an area is not plain.
fn find_areas(value: &JsValue, count: usize, keys: &Keys) -> Option<Found> {
    let [particles_key, stiffness_key, pressure_key] = keys;
    let length_key = JsValue::from_str("length");
    let typed_length = TypedLength::new()?;
    let number = |area: &JsValue, key: &JsValue, default: f64| {
        let value = Reflect::get(area, key).ok()?;
        if value.is_undefined() {
            Some(default)
        } else {
            value.as_f64()
        }
    };
    let mut found = Found::default();
    found.areas.try_reserve_exact(count).ok()?;
    for i in 0..count {
        // throws (caught: `None`) for an entry that is no object
        let area = Reflect::get_u32(value, i as u32).ok()?;
        let particles = Reflect::get(&area, &particles_key.1).ok()?;
        let (corners, length) = if is_array(&particles) {
            let length = Reflect::get(&particles, &length_key).ok()?;
            let length = index(length.as_f64()?)? as usize;
            if found.arrays % JOIN_AT_ONCE == 0 {
                found.chunks.push(Array::new());
            }
            found.chunks.last()?.push(&particles);
            found.arrays += 1;
            found.plain = found.plain.saturating_add(length);
            (Corners::Plain, length)
        } else if ArrayBuffer::is_view(&particles) {
            // throws (caught: `None`) for a DataView
            let length = index(typed_length.of(&particles)?)? as usize;
            found.typed = found.typed.saturating_add(length);
            (Corners::Typed(particles), length)
        } else {
            return None;
        };
        let stiffness = number(&area, &stiffness_key.1, 0.0)?;
        let pressure = number(&area, &pressure_key.1, 1.0)?;
        found.areas.push((corners, length, stiffness, pressure));
    }
    Some(found)
}
