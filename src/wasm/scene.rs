//! Scenes from JavaScript: `Simulation.fromScene` reads a `SceneSpec` (plain
//! or typed arrays, each length and element checked before anything is
//! copied) into a [`Scene`], and `Simulation.preset` reads its options.

use js_sys::{JsString, Reflect};
use wasm_bindgen::prelude::*;

use super::areas::read_areas;
use super::bodies::read_bodies;
use super::convert::{
    cloth_error, error, property, read_value, room, string_start, type_name, wrong_type,
};
use super::interaction::shape_named;
use super::reentry::Reading;
use super::typed_arrays::{is_array, numbers_in_bulk, own_typed_length};
use super::Simulation;
use crate::cloth::Cloth;
use crate::contacts::MAX_COLLIDERS;
use crate::error::{self, ClothError, Number};
use crate::model::scene::mass_range;
use crate::model::scene::MAX_SCENE_CONSTRAINTS;
use crate::model::validate::{self, check_mass, check_position, shape_problem};
use crate::model::{presets, shape, Bending, DistanceStiffness, Scene, Shape};
use crate::params::{self, Value};

#[wasm_bindgen(typescript_custom_section)]
const SCENE_TYPES: &str = r#"
/** An area constraint of `Simulation.fromScene`. */
export interface AreaSpec {
  /** The polygon's corners in order (counter-clockwise), at least 3, each once: a triangle, or a closed ring. */
  particles: ArrayLike<number>;
  /** Stiffness in J/m⁴ (energy ½·k·C² with C in m²); 0 (the default) = rigid. */
  stiffness?: number;
  /** Target area over start area; default 1 (keep it), above 1 inflates (a balloon). At most 100. */
  pressure?: number;
}

/**
 * Any particle scene for `Simulation.fromScene`. Arrays may be plain arrays of
 * numbers or typed arrays. Metres, kilograms, y up.
 */
export interface SceneSpec {
  /** `[x0, y0, x1, y1, ...]`, metres: at least 1, at most 250000 particles. */
  positions: ArrayLike<number>;
  /** One per particle, kg; 0 pins a particle. Default: every particle 0.5 kg (the `mass` default). Differing masses are kept: `mass` then reads their mean, and setting it scales them all alike (setting the mean they have changes nothing). */
  masses?: ArrayLike<number>;
  /** Distance constraints as flat particle index pairs `[a0, b0, a1, b1, ...]`. Default: none. */
  distances?: ArrayLike<number>;
  /** N/m, 0 = rigid: one number for all (it becomes the `stiffness` parameter), or one per constraint (fixed; `stiffness` then does not apply). Default 1000. */
  distanceStiffness?: number | ArrayLike<number>;
  /** Rest length of each distance constraint, metres. Default: the distance between the start positions. */
  restLengths?: ArrayLike<number>;
  /** Area constraints: at most 20000, with 60000 corners in all. Default: none. */
  areas?: AreaSpec[];
  /** Bending constraints: "auto" (between the two neighbours on opposite sides of a particle, for a grid two apart along rows and columns), flat pairs, or "none" (the default). Their stiffness is `bendingStiffness`. */
  bending?: "auto" | "none" | ArrayLike<number>;
  /** Colliders the scene starts with. Default: none. */
  colliders?: ColliderSpec[];
  /** Bodies: particles of the scene held in their start shape by shape matching (a particle may also be in distance constraints). At most 10000. Default: none. */
  bodies?: BodySpec[];
}

/** The scenes of `Simulation.preset`. */
export type PresetName = "cloth" | "rope" | "double-pendulum" | "balloon" | "soft-body" | "flag" | "cloth-over-ball" | "trampoline" | "rope-bridge" | "wrecking-ball" | "box-stack" | "plastic-can";
"#;

/// Most entries any array of a scene may have: more is refused before anything
/// is copied.
const MAX_SCENE_ARRAY: usize = 2 * MAX_SCENE_CONSTRAINTS;

/// Arrays of at least this many entries are copied in bulk.
const BULK_FROM: usize = 64;

pub(super) fn scene_error(field: &'static str, index: Option<usize>, problem: String) -> JsValue {
    cloth_error(ClothError::InvalidScene {
        field,
        index,
        problem,
    })
}

/// Refuses an array of `length` entries for `field` when it is longer than
/// any scene's may be, before anything is copied.
fn within_limit(field: &'static str, length: f64) -> Result<usize, JsValue> {
    if length > MAX_SCENE_ARRAY as f64 {
        return Err(too_many_entries(field, MAX_SCENE_ARRAY, length));
    }
    Ok(length as usize)
}

/// The refusal of a scene's array `field` of `length` entries, more than
/// `most`: one copy for every array and limit.
#[inline(never)]
fn too_many_entries(field: &'static str, most: usize, length: f64) -> JsValue {
    let problem = format!("has {} entries, at most {most} are allowed", Number(length));
    scene_error(field, None, problem)
}

/// Reads a plain array of numbers or any typed array of numbers as `f64`s;
/// `what` is said in the wrong-type message. Refuses a non-number element
/// naming it (`positions[3]`). The numbers are copied in bulk where they can
/// be ([`numbers_in_bulk`]), else one by one.
pub(super) fn numbers(field: &'static str, value: &JsValue) -> Result<Vec<f64>, JsValue> {
    counted_numbers(field, value, &|_| Ok(()))
}

/// [`numbers`], with `count` checking the array's length before any entry
/// is read.
pub(super) fn counted_numbers(
    field: &'static str,
    value: &JsValue,
    count: &dyn Fn(usize) -> Result<(), ClothError>,
) -> Result<Vec<f64>, JsValue> {
    // a typed array of numbers: no DataView, no array of BigInts (neither
    // is an array either, so both are refused below)
    let typed = js_sys::ArrayBuffer::is_view(value)
        && !(value.is_instance_of::<js_sys::DataView>()
            || value.is_instance_of::<js_sys::BigInt64Array>()
            || value.is_instance_of::<js_sys::BigUint64Array>());
    let length = if typed {
        own_typed_length(value).unwrap_or(0.0)
    } else if is_array(value) {
        property(value, "length").as_f64().unwrap_or(0.0)
    } else {
        return Err(wrong_type(
            field,
            value,
            "an array of numbers or a typed array",
        ));
    };
    let length = within_limit(field, length)?;
    count(length).map_err(cloth_error)?;
    let mut values = room(field, length)?;
    // a short array is read faster element by element than set up for a copy
    if length >= BULK_FROM && numbers_in_bulk(value, typed, length, &mut values).is_some() {
        return Ok(values);
    }
    for i in 0..length {
        let item = Reflect::get_u32(value, i as u32).unwrap_or(JsValue::UNDEFINED);
        match item.as_f64() {
            Some(v) => values.push(v),
            None => {
                return Err(error(
                    field,
                    "wrong_type",
                    &format!(
                        "invalid {field}[{i}]: got a value of type {}, expected a number",
                        type_name(&item)
                    ),
                ))
            }
        }
    }
    Ok(values)
}

/// Numbers as `f32` (out-of-range values become infinite and are refused by
/// the scene's checks); `check` checks each as given, in `f64`, before it is
/// rounded (a mass of 1e-6 kg, the minimum, is stored just below 1e-6).
fn floats(
    field: &'static str,
    value: &JsValue,
    check: &dyn Fn(usize, f64) -> Result<(), ClothError>,
) -> Result<Vec<f32>, JsValue> {
    counted_floats(field, value, &|_| Ok(()), check)
}

/// [`floats`], with `count` checking the array's length before any entry is
/// read.
fn counted_floats(
    field: &'static str,
    value: &JsValue,
    count: &dyn Fn(usize) -> Result<(), ClothError>,
    check: &dyn Fn(usize, f64) -> Result<(), ClothError>,
) -> Result<Vec<f32>, JsValue> {
    let values = counted_numbers(field, value, count)?;
    let mut result = room(field, values.len())?;
    for (i, v) in values.into_iter().enumerate() {
        check(i, v).map_err(cloth_error)?;
        result.push(v as f32);
    }
    Ok(result)
}

/// `v` as a particle index: a whole number from 0 to 2³² - 1.
pub(super) fn index(v: f64) -> Option<u32> {
    let whole = v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= u32::MAX as f64;
    whole.then_some(v as u32)
}

/// Numbers as particle indices ([`index`]); `entry` says which entry of
/// `field` index `i` belongs to (`i / 2` for pairs).
pub(super) fn indices(
    field: &'static str,
    value: &JsValue,
    entry: &dyn Fn(usize) -> usize,
) -> Result<Vec<u32>, JsValue> {
    indices_of(field, &numbers(field, value)?, entry)
}

/// `values` as particle indices, each refused as [`indices`] says.
pub(super) fn indices_of(
    field: &'static str,
    values: &[f64],
    entry: &dyn Fn(usize) -> usize,
) -> Result<Vec<u32>, JsValue> {
    let mut result = room(field, values.len())?;
    for (i, &v) in values.iter().enumerate() {
        let Some(k) = index(v) else {
            return Err(scene_error(
                field,
                Some(entry(i)),
                format!(
                    "names particle {}, expected a whole-number particle index",
                    Number(v)
                ),
            ));
        };
        result.push(k);
    }
    Ok(result)
}

/// A number property of a scene's entry, or `default` when absent; `key`
/// is `name` as a JavaScript string, made once for every entry.
pub(super) fn entry_number(
    object: &JsValue,
    (name, key): (&str, &JsValue),
    field: &'static str,
    default: Option<f64>,
) -> Result<f64, JsValue> {
    let value = Reflect::get(object, key).unwrap_or(JsValue::UNDEFINED);
    match (value.as_f64(), default) {
        (Some(v), _) => Ok(v),
        (None, Some(d)) if value.is_undefined() => Ok(d),
        (None, _) => Err(wrong_type(&format!("{field}.{name}"), &value, "a number")),
    }
}

/// `name` and the JavaScript string of it, for [`entry_number`].
pub(super) fn key(name: &str) -> (&str, JsValue) {
    (name, JsValue::from_str(name))
}

/// The entries of an optional array of objects (`areas`, `colliders`); an
/// array of more than `most` entries is refused by `too_many` (given its
/// length) before any entry is read.
pub(super) fn objects(
    field: &'static str,
    value: &JsValue,
    most: usize,
    too_many: &dyn Fn(f64) -> JsValue,
) -> Result<Vec<JsValue>, JsValue> {
    let count = entry_count(field, value, most, too_many)?;
    let mut items = Vec::new();
    for i in 0..count as u32 {
        let item = Reflect::get_u32(value, i).unwrap_or(JsValue::UNDEFINED);
        if !item.is_object() {
            return Err(wrong_type(&format!("{field}[{i}]"), &item, "an object"));
        }
        items.push(item);
    }
    Ok(items)
}

/// How many entries the optional array of objects `value` has (0 when it is
/// absent), as [`objects`] checks it before reading any entry.
pub(super) fn entry_count(
    field: &'static str,
    value: &JsValue,
    most: usize,
    too_many: &dyn Fn(f64) -> JsValue,
) -> Result<usize, JsValue> {
    if value.is_undefined() {
        return Ok(0);
    }
    if !is_array(value) {
        return Err(wrong_type(field, value, "an array of objects"));
    }
    let length = property(value, "length").as_f64().unwrap_or(0.0);
    if length > most as f64 {
        return Err(too_many(length));
    }
    within_limit(field, length)
}

/// The refusal of a scene's array `field` of `length` entries, more than
/// `most`, before any entry is read.
pub(super) fn too_many(field: &'static str, most: usize) -> impl Fn(f64) -> JsValue {
    move |length| too_many_entries(field, most, length)
}

/// Reads a `SceneSpec` (see the TypeScript types) into a [`Scene`]; the
/// scene's own checks come after.
fn read_scene(spec: &JsValue) -> Result<Scene, JsValue> {
    if !spec.is_object() {
        return Err(wrong_type(
            "scene",
            spec,
            "an object { positions, masses, distances, ... }",
        ));
    }
    // the particles are counted before anything else is read: a scene with
    // too many is refused before its other arrays are copied
    let count = |length| validate::check_particle_count(length).map(|_| ());
    // each field read in turn into the one scene, in the order of the type,
    // so a refusal drops what was read with it
    let mut scene = Scene {
        positions: counted_floats(
            "positions",
            &property(spec, "positions"),
            &count,
            &check_position,
        )?,
        ..Scene::default()
    };
    scene.masses = match property(spec, "masses") {
        v if v.is_undefined() => {
            vec![params::MASS.default_number() as f32; scene.num_particles()]
        }
        v => floats("masses", &v, &|k, m| check_mass(k, m, mass_range()))?,
    };
    let distances = property(spec, "distances");
    if !distances.is_undefined() {
        scene.distances = indices("distances", &distances, &|k| k / 2)?;
    }
    let rest_lengths = property(spec, "restLengths");
    if !rest_lengths.is_undefined() {
        scene.rest_lengths = Some(floats("restLengths", &rest_lengths, &|_, _| Ok(()))?);
    }
    scene.distance_stiffness = read_stiffness(&property(spec, "distanceStiffness"))?;
    scene.areas = read_areas(&property(spec, "areas"))?;
    scene.bending = read_bending(&property(spec, "bending"))?;
    scene.bodies = read_bodies(("bodies", "bodies.plastic"), &property(spec, "bodies"))?;
    scene.colliders = read_colliders(&property(spec, "colliders"))?;
    Ok(scene)
}

/// Reads a scene's `distanceStiffness`: a number, an array of numbers, or
/// absent (the default stiffness).
fn read_stiffness(stiffness: &JsValue) -> Result<DistanceStiffness, JsValue> {
    if stiffness.is_undefined() {
        Ok(DistanceStiffness::Uniform(
            params::STIFFNESS.default_number(),
        ))
    } else if let Some(k) = stiffness.as_f64() {
        Ok(DistanceStiffness::Uniform(k))
    } else if is_array(stiffness) || js_sys::ArrayBuffer::is_view(stiffness) {
        Ok(DistanceStiffness::PerConstraint(numbers(
            "distanceStiffness",
            stiffness,
        )?))
    } else {
        Err(wrong_type(
            "distanceStiffness",
            stiffness,
            "a number or an array of numbers",
        ))
    }
}

/// Reads a scene's `bending`: `"auto"`, `"none"` (or absent), or pairs.
fn read_bending(bending: &JsValue) -> Result<Bending, JsValue> {
    Ok(match bending.as_string().as_deref() {
        _ if bending.is_undefined() || bending.is_null() => Bending::None,
        Some("none") => Bending::None,
        Some("auto") => Bending::Auto,
        Some(_) => {
            return Err(wrong_type(
                "bending",
                bending,
                "\"auto\", \"none\" or an array of particle index pairs",
            ))
        }
        None => Bending::Pairs(indices("bending", bending, &|k| k / 2)?),
    })
}

/// Reads a scene's `colliders` (their numbers are checked with the scene).
fn read_colliders(value: &JsValue) -> Result<Vec<Shape>, JsValue> {
    let mut colliders = Vec::new();
    let refuse = too_many("colliders", MAX_COLLIDERS);
    for (i, collider) in objects("colliders", value, MAX_COLLIDERS, &refuse)?
        .iter()
        .enumerate()
    {
        let name = property(collider, "shape").as_string().unwrap_or_default();
        // checked as given, in f64, before they are stored as f32
        let number =
            |name: &'static str, check: fn(&'static str, f64) -> Result<f32, ClothError>| {
                let v = entry_number(collider, (name, &name.into()), "colliders", None)?;
                check(name, v).map_err(|e| scene_error("colliders", Some(i), shape_problem(e)))
            };
        let coordinate = |name| number(name, params::validate_coordinate);
        let size = |name| number(name, shape::validate_size);
        let Some(shape) = shape_named(&name, coordinate, size) else {
            return Err(scene_error(
                "colliders",
                Some(i),
                "has no shape \"ground\", \"circle\" or \"box\"".into(),
            ));
        };
        colliders.push(shape?);
    }
    Ok(colliders)
}

/// Reads the options object of `Simulation.preset`: each own property a
/// number, string or boolean, named as the parameter table names it.
pub(super) fn read_options(options: &JsValue) -> Result<Vec<(String, Value)>, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(Vec::new());
    }
    if !options.is_object() {
        return Err(wrong_type(
            "options",
            options,
            "an object { width, stiffness, ... }",
        ));
    }
    let keys = Reflect::own_keys(options).map_err(|_| {
        error(
            "options",
            "wrong_type",
            "invalid options: its properties cannot be read",
        )
    })?;
    let mut result = Vec::new();
    for key in keys.iter() {
        let Some(text) = key.dyn_ref::<JsString>() else {
            continue;
        };
        let name = string_start(text);
        let value = Reflect::get(options, &key).unwrap_or(JsValue::UNDEFINED);
        let parameter = params::PARAMETERS.iter().find(|p| p.name == name);
        let value = if let Some(v) = value.as_f64() {
            Value::Number(v)
        } else if let Some(b) = value.as_bool() {
            Value::Flag(b)
        } else if value.is_string() {
            match parameter {
                // the table's own word, which lives as long as the program;
                // a string for a number or a flag: the setter's refusal
                Some(p) => read_value(p, &value)?,
                None => {
                    return Err(cloth_error(error::invalid(
                        "options",
                        error::quoted(&name, name.len()),
                        "a parameter that takes a string (solverOrder)",
                    )))
                }
            }
        } else if value.is_undefined() {
            continue;
        } else {
            let field = if parameter.is_some() {
                name.clone()
            } else {
                format!("options.{name}")
            };
            return Err(wrong_type(&field, &value, "a number, string or boolean"));
        };
        result.push((name, value));
    }
    Ok(result)
}

#[wasm_bindgen]
impl Simulation {
    /// Builds the simulation of any particle scene (see `SceneSpec`): particles
    /// with their own masses (0 = pinned), distance constraints with a uniform
    /// or per-constraint stiffness, area and bending constraints, colliders,
    /// bodies.
    /// Every malformed entry throws an Error with `code` `"invalid_scene"`
    /// whose message names it (`invalid scene: distances[7] joins particle 3
    /// to itself`); a value of the wrong type throws `"wrong_type"`.
    #[wasm_bindgen(js_name = fromScene)]
    pub fn from_scene(
        #[wasm_bindgen(unchecked_param_type = "SceneSpec")] scene: JsValue,
    ) -> Result<Simulation, JsValue> {
        console_error_panic_hook::set_once();
        let reading = Reading::begin("scene")?;
        let scene = read_scene(&scene)?;
        drop(reading);
        let cloth = Cloth::from_owned_scene(scene).map_err(cloth_error)?;
        Ok(Simulation::of(cloth))
    }

    /// Builds a ready-made scene: `"cloth"` (what `new Simulation(width,
    /// height, fixed)` builds), `"rope"`, `"double-pendulum"`, `"balloon"`,
    /// `"soft-body"`, `"flag"` or `"cloth-over-ball"`. `options` may set
    /// `width`, `height` and `fixed` where the scene has them, and any solver
    /// parameter by its name (`stiffness`, `substeps`, `windX`, ...), which
    /// overrides the preset's own choice.
    pub fn preset(
        #[wasm_bindgen(unchecked_param_type = "PresetName")] name: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "Record<string, number | string | boolean>"
        )]
        options: JsValue,
    ) -> Result<Simulation, JsValue> {
        console_error_panic_hook::set_once();
        let name = preset_name(&name)?;
        let reading = Reading::begin("options")?;
        let options = read_options(&options)?;
        drop(reading);
        let options: Vec<(&str, Value)> = options.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let cloth = Cloth::from_preset(name, &options).map_err(cloth_error)?;
        Ok(Simulation::of(cloth))
    }
}

/// The options that shape the preset `name` and their defaults: an object of
/// `width`, `height` and `fixed` where the preset has them (`presetShape("flag")`
/// is `{ width: 24, height: 14 }`, `presetShape("double-pendulum")` is `{}`).
/// Throws an Error (field `preset`) for a name that is no preset.
#[wasm_bindgen(js_name = presetShape, unchecked_return_type = "{ width?: number; height?: number; fixed?: number }")]
pub fn preset_shape(
    #[wasm_bindgen(unchecked_param_type = "PresetName")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let name = preset_name(&name)?;
    let shape = js_sys::Object::new();
    for &(option, default) in presets::shape(name) {
        Reflect::set(
            &shape,
            &JsValue::from_str(option),
            &JsValue::from_f64(default),
        )?;
    }
    Ok(shape.into())
}

/// The preset word `name` names, or the Error (field `preset`) for anything
/// else: a value that is no string, or a string that is no preset's word
/// (read as the `preset` parameter is, [`read_value`]).
fn preset_name(name: &JsValue) -> Result<&'static str, JsValue> {
    Ok(match read_value(&params::PRESET, name)? {
        Value::Word(word) => word,
        // a parameter of words reads only words
        _ => "",
    })
}
