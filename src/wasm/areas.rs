//! A scene's `areas` from JavaScript: up to [`MAX_SCENE_AREAS`] small
//! objects, each with a short array of corners. Read one property and one
//! corner at a time, an area costs some twenty calls across the boundary;
//! read in bulk, the corners of every area come over in a few copies by the
//! engine and an area costs about ten calls. Anything the bulk reading cannot
//! take as it is (a hole, a value of the wrong type, an array `concat` does
//! not spread, a getter that throws) sends the whole list back to the reading
//! one by one, which names the entry it refuses. Both count the corners
//! before they copy them: more than a scene may have are refused unread.

use js_sys::{Array, ArrayBuffer, DataView, Function, Reflect};
use wasm_bindgen::prelude::*;

use super::convert::cloth_error;
use super::scene::{
    counted_numbers, entry_count, entry_number, index, indices_of, key, numbers, objects,
    scene_error, too_many,
};
use super::typed_arrays::is_array;
use crate::kinds::area::check_corners;
use crate::model::scene::{MAX_SCENE_AREAS, MAX_SCENE_CORNERS};
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
        Some(Err(refusal)) => Err(refusal),
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
        // the corners so far and this area's, counted before they are read:
        // past the most, none of them is read
        let count = |length| check_corners(corners + length, MAX_SCENE_CORNERS);
        let particles = indices_of(
            "areas",
            &counted_numbers("areas", &particles, &count)?,
            &|_| i,
        )?;
        corners += particles.len();
        areas.push(AreaSpec {
            particles,
            stiffness: entry_number(area, (stiffness.0, &stiffness.1), "areas", Some(0.0))?,
            pressure: entry_number(area, (pressure.0, &pressure.1), "areas", Some(1.0))?,
        });
    }
    Ok(areas)
}

/// Arrays per call of `concat` in [`joined_numbers`]: well below the number
/// of arguments an engine takes in one call.
const JOIN_AT_ONCE: usize = 8192;

/// What the first pass of [`areas_in_bulk`] found: each area's number of
/// corners, stiffness and pressure; its array of corners in chunks for
/// [`joined_numbers`]; the number of corners in all.
#[derive(Default)]
struct Found {
    areas: Vec<(usize, f64, f64)>,
    chunks: Vec<Array>,
    corners: usize,
}

/// The `count` areas of the array `value` when every one is plain: an
/// object whose `particles` is a plain or typed array of whole-number
/// indices and whose `stiffness` and `pressure` are numbers or absent. Per
/// area it reads the three properties and the array's length
/// ([`find_areas`]); the corners of all areas are then copied at once
/// ([`joined_numbers`]). `Err`, the scene's refusal, when there are more
/// corners than a scene may have (none of them copied); `None` when anything
/// is not plain or a read threw: the caller reads one by one.
fn areas_in_bulk(
    value: &JsValue,
    count: usize,
    keys: &Keys,
) -> Option<Result<Vec<AreaSpec>, JsValue>> {
    let found = find_areas(value, count, keys)?;
    if let Err(too_many_corners) = check_corners(found.corners, MAX_SCENE_CORNERS) {
        return Some(Err(cloth_error(too_many_corners)));
    }
    let corners = joined_numbers(&found.chunks, found.corners)?;
    let mut rest = &corners[..];
    let mut areas = Vec::new();
    areas.try_reserve_exact(count).ok()?;
    for (i, (length, stiffness, pressure)) in found.areas.into_iter().enumerate() {
        // the refusal the reading one by one would give: every area before
        // is plain, and its corners numbers
        let particles = match indices_of("areas", rest.get(..length)?, &|_| i) {
            Ok(particles) => particles,
            Err(error) => return Some(Err(error)),
        };
        rest = rest.get(length..)?;
        areas.push(AreaSpec {
            particles,
            stiffness,
            pressure,
        });
    }
    Some(Ok(areas))
}

/// The first pass of [`areas_in_bulk`]: reads each area's properties and
/// the length of its array of corners (a typed array's elements then made a
/// plain array by `Array.of`, while the corners so far are within
/// [`MAX_SCENE_CORNERS`]); `None` when an area is not plain.
fn find_areas(value: &JsValue, count: usize, keys: &Keys) -> Option<Found> {
    let [particles_key, stiffness_key, pressure_key] = keys;
    let length_key = JsValue::from_str("length");
    let array_of = get(&Array::new().constructor(), &"of".into())?;
    let array_of = array_of.dyn_into::<Function>().ok()?;
    let mut found = Found::default();
    found.areas.try_reserve_exact(count).ok()?;
    for i in 0..count {
        // throws (caught: `None`) for an entry that is no object
        let area = Reflect::get_u32(value, i as u32).ok()?;
        let particles = get(&area, &particles_key.1)?;
        let typed = ArrayBuffer::is_view(&particles) && !particles.is_instance_of::<DataView>();
        if !typed && !is_array(&particles) {
            return None;
        }
        // counted before anything is copied: past the most, the areas' lengths
        // are still read (the refusal says how many corners there are in all),
        // their corners never
        let length = index(get(&particles, &length_key)?.as_f64()?)? as usize;
        found.corners = found.corners.saturating_add(length);
        if found.corners > MAX_SCENE_CORNERS {
            continue;
        }
        let particles = if typed {
            // `Array.of(...particles)`: `Reflect.apply` takes any array-like
            // as the arguments and reads a typed array's elements directly
            // (a detached one has none; one too long to be arguments throws,
            // caught: `None`)
            let elements = particles.unchecked_ref::<Array>();
            Reflect::apply(&array_of, &JsValue::UNDEFINED, elements).ok()?
        } else {
            particles
        };
        if i % JOIN_AT_ONCE == 0 {
            found.chunks.push(Array::new());
        }
        found.chunks.last()?.push(&particles);
        let stiffness = number_or(&area, &stiffness_key.1, 0.0)?;
        found
            .areas
            .push((length, stiffness, number_or(&area, &pressure_key.1, 1.0)?));
    }
    Some(found)
}

/// `object[key]`; `None` when reading it threw. One call, not one copy of
/// the reading in each place (the shipped module's size).
#[inline(never)]
fn get(object: &JsValue, key: &JsValue) -> Option<JsValue> {
    Reflect::get(object, key).ok()
}

/// The number `area[key]`, or `default` when it is absent; `None` for a
/// value of another type or a read that threw.
#[inline(never)]
fn number_or(area: &JsValue, key: &JsValue, default: f64) -> Option<f64> {
    let value = get(area, key)?;
    if value.is_undefined() {
        Some(default)
    } else {
        value.as_f64()
    }
}

/// The elements of the plain arrays in `chunks` (each of at most
/// [`JOIN_AT_ONCE`] arrays), one after another, as `total` numbers:
/// `Array.prototype.concat` applied to each chunk and then to the results,
/// through `Reflect.apply` (which catches what a Proxy or getter throws),
/// then read as any long array of a scene is ([`numbers`]). `None` when the
/// joined list is not `total` numbers (an array that does not spread, a hole,
/// a value of another type) or a read threw.
fn joined_numbers(chunks: &[Array], total: usize) -> Option<Vec<f64>> {
    let concat = get(&Array::new(), &"concat".into())?
        .dyn_into::<Function>()
        .ok()?;
    let parts = Array::new();
    for chunk in chunks {
        parts.push(&Reflect::apply(&concat, &Array::new(), chunk).ok()?);
    }
    let joined = Reflect::apply(&concat, &Array::new(), &parts).ok()?;
    let values = numbers("areas", &joined).ok()?;
    (values.len() == total).then_some(values)
}
