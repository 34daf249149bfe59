//! Bodies from JavaScript: a scene's `bodies` (`Simulation.fromScene`),
//! `addBody`, which fills an outline with particles and adds it as a body,
//! `addRope`, which lays a chain of particles along a line,
//! and the bodies a saved state carries (`added`, the additions to replay,
//! and `kinds`, the rest shapes).

use js_sys::{Array, Float32Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, error, property, read, wrong_type};
use super::reentry::Reading;
use super::scene::{counted_numbers, entry_number, indices_of, key, objects, too_many};
use super::typed_arrays::{copy_typed, typed_length};
use super::Simulation;
use crate::cloth::{
    Added, BodyOutline, RopeSpec, KIND_NAMES, MAX_OUTLINE_CORNERS, MAX_ROPE_POINTS,
};
use crate::error::{ClothError, Number};
use crate::kinds::bodies::MAX_BODIES;
use crate::model::{BodySpec, Plasticity, Scene};
use crate::params::MAX_PARTICLES;

#[wasm_bindgen(typescript_custom_section)]
const BODY_TYPES: &str = r#"
/** How a plastic body's rest shape follows a deformation (see docs/physics.md, "Shape matching"). */
export interface PlasticSpec {
  /** The yield: a particle's distance from its goal, over the body's RMS radius, up to which the body springs back exactly. 0 to 100. */
  yield: number;
  /** The creep rate, 1/s: the fraction of the deformation beyond the yield the rest shape takes on per second. 0 to 1e6. */
  creep: number;
  /** The cap: the farthest a rest position moves from where it started, over the body's RMS radius. 0 to 100. */
  max: number;
}

/** A body of `Simulation.fromScene`: particles of the scene held in their start shape by shape matching. */
export interface BodySpec {
  /** The body's particles: at least 3, not all on one line, none in another body. */
  particles: ArrayLike<number>;
  /** Compliance of the shape, s² (0, the default, = rigid; a particle pulled from its goal oscillates at 1/√compliance rad/s). At most 1e4. */
  compliance?: number;
  /** Plasticity; absent: elastic (the body springs back). */
  plastic?: PlasticSpec;
}

/** What `Simulation.addBody` (and a controller's `addBody`) takes: a closed outline filled with particles. */
export interface AddBodySpec {
  /** The polygon's corners `[x0, y0, x1, y1, ...]`, metres, in order (either way round), at least 3 and at most 10000: the last joins the first. */
  outline: ArrayLike<number>;
  /** Particle spacing, m (0.001 to 10); default twice `particleRadius`, which makes the body solid to every other particle. */
  spacing?: number;
  /** kg/m²: each particle weighs density · spacing² (within the `mass` range). Default 15 (0.15 kg a particle at 0.1 m). */
  density?: number;
  /** Compliance of the shape, s²; 0 (the default) = rigid. */
  compliance?: number;
  /** Plasticity; absent: elastic. */
  plastic?: PlasticSpec;
}

/** What `Simulation.addRope` (and a controller's `addRope`) takes: a line a chain of particles is laid along. */
export interface AddRopeSpec {
  /** The line's points `[x0, y0, x1, y1, ...]`, metres, at least 2 and at most 10000; it must have a length. */
  points: ArrayLike<number>;
  /** Particle spacing along the line, m (0.001 to 10; the line is cut into equal pieces as near this as fit); default twice `particleRadius`. At most 10000 particles. */
  spacing?: number;
  /** Each particle's mass, kg (within the `mass` range); default the `mass` parameter. */
  mass?: number;
}

/** One addition a saved state carries: the particles and bodies added (or a rope's particles and its chain of `distances`), and the `mass` parameter then. */
export interface AddedBodies {
  positions: Float32Array;
  masses: Float32Array;
  mass: number;
  bodies: { particles: Uint32Array; compliance: number; plastic?: PlasticSpec }[];
  /** A rope's distance constraints, pairs of its particles `[0, 1, 1, 2, ...]`; absent: none. */
  distances?: Uint32Array;
}
"#;

/// Reads a scene's `bodies`: objects of `particles`, `compliance` and
/// `plastic`, with at most [`MAX_PARTICLES`] particles in all; `field` names
/// the array (`bodies`, `added.bodies`), `plastic_field` their plasticity
/// (`bodies.plastic`, `added.bodies.plastic`).
pub(super) fn read_bodies(
    (field, plastic_field): (&'static str, &'static str),
    value: &JsValue,
) -> Result<Vec<BodySpec>, JsValue> {
    let refuse = too_many(field, MAX_BODIES);
    let keys = ["particles", "compliance"].map(key);
    let mut bodies = Vec::new();
    let mut total = 0;
    for (i, body) in objects(field, value, MAX_BODIES, &refuse)?
        .iter()
        .enumerate()
    {
        let particles = Reflect::get(body, &keys[0].1).unwrap_or(JsValue::UNDEFINED);
        if particles.is_undefined() {
            return Err(super::scene::scene_error(
                field,
                Some(i),
                "has no particles, expected an array of at least 3 particle indices".into(),
            ));
        }
        // the particles so far and this body's, counted before they are read
        let count = |length: usize| {
            if total + length > MAX_PARTICLES {
                return Err(ClothError::InvalidScene {
                    field,
                    index: Some(i),
                    problem: format!(
                        "brings the bodies' particles to {}, at most {MAX_PARTICLES} are allowed",
                        total + length
                    ),
                });
            }
            Ok(())
        };
        let particles = indices_of(field, &counted_numbers(field, &particles, &count)?, &|_| i)?;
        total += particles.len();
        let compliance = entry_number(body, (keys[1].0, &keys[1].1), field, Some(0.0))?;
        let plastic = read_plastic(plastic_field, &property(body, "plastic"))?;
        bodies.push(BodySpec {
            particles,
            compliance,
            plastic,
        });
    }
    Ok(bodies)
}

/// Reads a body's `plastic` (`where` names it in a refusal): absent, or an
/// object of the numbers `yield`, `creep` and `max`.
fn read_plastic(field: &str, value: &JsValue) -> Result<Option<Plasticity>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(wrong_type(field, value, "an object { yield, creep, max }"));
    }
    let number = |name: &str| {
        let v = property(value, name);
        v.as_f64()
            .ok_or_else(|| wrong_type(&format!("{field}.{name}"), &v, "a number"))
    };
    Ok(Some(Plasticity {
        yield_strain: number("yield")?,
        creep: number("creep")?,
        max: number("max")?,
    }))
}

/// An optional number of `object` (`undefined`: `None`).
fn optional_number(object: &JsValue, name: &str) -> Result<Option<f64>, JsValue> {
    let value = property(object, name);
    if value.is_undefined() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| wrong_type(name, &value, "a number"))
}

/// The numbers of `spec`'s `field` (at most `most` points of two numbers,
/// `unit` naming them), `spec` an object whose keys `keys` lists.
fn points_of(
    spec: &JsValue,
    (what, keys): (&'static str, &str),
    field: &'static str,
    (most, unit): (usize, &str),
) -> Result<Vec<f64>, JsValue> {
    if !spec.is_object() {
        return Err(wrong_type(what, spec, &format!("an object {{ {keys} }}")));
    }
    let count = |length: usize| {
        if length > 2 * most {
            return Err(ClothError::InvalidValue {
                field,
                value: format!("{length} numbers"),
                allowed: format!("at most {most} {unit}, two numbers each"),
            });
        }
        Ok(())
    };
    counted_numbers(field, &property(spec, field), &count)
}

/// Reads `addBody`'s argument (see `AddBodySpec`).
fn read_outline(spec: &JsValue) -> Result<BodyOutline, JsValue> {
    let keys = ("body", "outline, spacing, density, compliance, plastic");
    Ok(BodyOutline {
        outline: points_of(spec, keys, "outline", (MAX_OUTLINE_CORNERS, "corners"))?,
        spacing: optional_number(spec, "spacing")?,
        density: optional_number(spec, "density")?,
        compliance: optional_number(spec, "compliance")?.unwrap_or(0.0),
        plastic: read_plastic("plastic", &property(spec, "plastic"))?,
    })
}

/// Reads `addRope`'s argument (see `AddRopeSpec`).
fn read_rope(spec: &JsValue) -> Result<RopeSpec, JsValue> {
    Ok(RopeSpec {
        points: points_of(
            spec,
            ("rope", "points, spacing, mass"),
            "points",
            (MAX_ROPE_POINTS, "points"),
        )?,
        spacing: optional_number(spec, "spacing")?,
        mass: optional_number(spec, "mass")?,
    })
}

/// Sets `name` of `object`, a plain object just made, to `value` (what
/// `Reflect.set` returns is not needed). Out of line, taking the value: one
/// call and one drop for every property a saved state is built of.
#[inline(never)]
pub(super) fn put(object: &JsValue, name: &str, value: JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(name), &value);
}

/// A body's plasticity as a JavaScript object `{ yield, creep, max }`.
fn plastic_object(plastic: &Plasticity) -> JsValue {
    let object: JsValue = Object::new().into();
    for (name, v) in [
        ("yield", plastic.yield_strain),
        ("creep", plastic.creep),
        ("max", plastic.max),
    ] {
        put(&object, name, v.into());
    }
    object
}

/// The additions a saved state carries, as JavaScript (see `AddedBodies`).
pub(super) fn added_to_js(added: &[Added]) -> JsValue {
    let list = Array::new();
    for addition in added {
        let object: JsValue = Object::new().into();
        let scene = &addition.scene;
        put(
            &object,
            "positions",
            Float32Array::from(&scene.positions[..]).into(),
        );
        put(
            &object,
            "masses",
            Float32Array::from(&scene.masses[..]).into(),
        );
        put(&object, "mass", addition.mass.into());
        let bodies = Array::new();
        for body in &scene.bodies {
            let entry: JsValue = Object::new().into();
            put(
                &entry,
                "particles",
                Uint32Array::from(&body.particles[..]).into(),
            );
            put(&entry, "compliance", body.compliance.into());
            if let Some(plastic) = &body.plastic {
                put(&entry, "plastic", plastic_object(plastic));
            }
            bodies.push(&entry);
        }
        put(&object, "bodies", bodies.into());
        if !scene.distances.is_empty() {
            put(
                &object,
                "distances",
                Uint32Array::from(&scene.distances[..]).into(),
            );
        }
        list.push(&object);
    }
    list.into()
}

/// The `added` of a saved state (absent: none); their checks are the
/// restoring cloth's, which adds them.
pub(super) fn read_added(state: &JsValue) -> Result<Vec<Added>, JsValue> {
    let value = read("added", state, "added")?;
    let refuse = too_many("added", MAX_BODIES);
    let mut added = Vec::new();
    for entry in objects("added", &value, MAX_BODIES, &refuse)? {
        let floats = |name: &'static str| -> Result<Vec<f32>, JsValue> {
            let value = read(name, &entry, name)?;
            let length = typed_length::<Float32Array>(name, &value)?;
            if length as usize > 2 * MAX_PARTICLES {
                return Err(error(
                    name,
                    "invalid_state",
                    &format!("invalid added.{name}: too long"),
                ));
            }
            copy_typed::<Float32Array>(name, &value, length)
        };
        // each field read in turn into the one scene, so that a refusal
        // drops what was read with it
        let distances = read("added.distances", &entry, "distances")?;
        let mut scene = Scene::default();
        if !distances.is_undefined() {
            let length = typed_length::<Uint32Array>("added.distances", &distances)?;
            if length as usize > 2 * MAX_PARTICLES {
                return Err(error(
                    "added.distances",
                    "invalid_state",
                    "invalid added.distances: too long",
                ));
            }
            scene.distances = copy_typed::<Uint32Array>("added.distances", &distances, length)?;
        }
        let mass = read("added.mass", &entry, "mass")?;
        let Some(mass) = mass.as_f64() else {
            return Err(wrong_type("added.mass", &mass, "a number"));
        };
        scene.positions = floats("positions")?;
        scene.masses = floats("masses")?;
        scene.bodies = read_bodies(
            ("added.bodies", "added.bodies.plastic"),
            &read("added.bodies", &entry, "bodies")?,
        )?;
        added.push(Added { scene, mass });
    }
    Ok(added)
}

/// The constraint kinds' saved numbers as JavaScript: an object of a
/// `Float32Array` for each kind that keeps any (`bodies`: the rest shapes).
pub(super) fn kinds_to_js(kinds: &[(&str, &[f32])]) -> JsValue {
    let object: JsValue = Object::new().into();
    for &(name, values) in kinds {
        put(&object, name, Float32Array::from(values).into());
    }
    object
}

/// The `kinds` of a saved state (absent: none): a `Float32Array` for each
/// kind named in it, at most `most` numbers each.
pub(super) fn read_kinds(state: &JsValue, most: usize) -> Result<Vec<(String, Vec<f32>)>, JsValue> {
    let value = read("kinds", state, "kinds")?;
    if value.is_undefined() {
        return Ok(Vec::new());
    }
    if !value.is_object() {
        return Err(wrong_type(
            "kinds",
            &value,
            "an object { bodies: Float32Array }",
        ));
    }
    let mut kinds = Vec::new();
    for &name in KIND_NAMES {
        let values = read("kinds", &value, name)?;
        if values.is_undefined() {
            continue;
        }
        let length = typed_length::<Float32Array>("kinds", &values)?;
        if length as usize > most {
            return Err(cloth_error(ClothError::InvalidState {
                field: "kinds",
                index: None,
                problem: format!("{name} has {length} numbers, expected at most {most}"),
            }));
        }
        let values = copy_typed::<Float32Array>("kinds", &values, length)?;
        kinds.push((name.to_string(), values));
    }
    Ok(kinds)
}

#[wasm_bindgen]
impl Simulation {
    /// Adds a body filled from its outline (see `AddBodySpec`): the particles
    /// of a square grid `spacing` apart inside the closed polygon, each of
    /// `density · spacing²` kg, held in their shape by shape matching (rigid
    /// at compliance 0), at rest; it meets the rest of the scene through the
    /// particle contacts. Returns the body's index. Throws, changing nothing,
    /// an Error whose `field` names what is wrong (`outline`, `spacing`,
    /// `density`, `compliance`, `plastic`, or `bodies` for the work limit) and
    /// whose `code` says how (`"wrong_type"`, `"invalid_value"`, ...): an
    /// outline of fewer than 3 corners or enclosing fewer than 3 grid points
    /// not on one line, for instance. A step in progress is finished first.
    #[wasm_bindgen(js_name = addBody)]
    pub fn add_body(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AddBodySpec")] spec: JsValue,
    ) -> Result<u32, JsValue> {
        let reading = Reading::begin("body")?;
        let body = read_outline(&spec)?;
        drop(reading);
        let index = self.cloth.add_body(&body).map_err(cloth_error)?;
        Ok(index as u32)
    }

    /// Adds a rope laid along a line (see `AddRopeSpec`): particles evenly
    /// spaced along it, each joined to the next by a distance constraint at
    /// the `stiffness` parameter's compliance (its rest length the start
    /// distance), at rest; it meets the rest of the scene through the
    /// particle contacts. Returns the index of its first particle (the others
    /// follow along the line). Throws, changing nothing, an Error whose
    /// `field` names what is wrong (`points`, `spacing`, `mass`, or `rope`
    /// for the work limit) and whose `code` says how: fewer than 2 points, a
    /// coordinate that is not finite, a line of length 0 or too long for
    /// 10000 particles at its spacing. A step in progress is finished first.
    #[wasm_bindgen(js_name = addRope)]
    pub fn add_rope(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AddRopeSpec")] spec: JsValue,
    ) -> Result<u32, JsValue> {
        let reading = Reading::begin("rope")?;
        let rope = read_rope(&spec)?;
        drop(reading);
        let first = self.cloth.add_rope(&rope).map_err(cloth_error)?;
        Ok(first as u32)
    }

    /// Number of bodies (those of the scene and those added).
    #[wasm_bindgen(getter, js_name = numBodies)]
    pub fn num_bodies(&self) -> u32 {
        self.cloth.kinds().bodies.len() as u32
    }

    /// The particles of body `index` (a new `Uint32Array`).
    #[wasm_bindgen(js_name = bodyParticles)]
    pub fn body_particles(&self, index: JsValue) -> Result<Uint32Array, JsValue> {
        let k = self.body_index(&index)?;
        Ok(Uint32Array::from(self.cloth.kinds().bodies.particles(k)))
    }

    /// The particles of body `index`'s outline, in order around it,
    /// counter-clockwise (a new `Uint32Array`): the convex hull of its
    /// start shape with the particles on its sides. Drawn through the
    /// particles, it shows the body as it moves, turns and dents.
    #[wasm_bindgen(js_name = bodyOutline)]
    pub fn body_outline(&self, index: JsValue) -> Result<Uint32Array, JsValue> {
        let k = self.body_index(&index)?;
        Ok(Uint32Array::from(self.cloth.kinds().bodies.outline(k)))
    }
}

impl Simulation {
    /// A body's index: a whole number below the number of bodies.
    fn body_index(&self, index: &JsValue) -> Result<usize, JsValue> {
        let count = self.cloth.kinds().bodies.len();
        match index.as_f64() {
            Some(v) if v.fract() == 0.0 && v >= 0.0 && v < count as f64 => Ok(v as usize),
            Some(v) => Err(error(
                "index",
                "invalid_value",
                &format!(
                    "invalid index: got {}, expected a body index below {count}",
                    Number(v)
                ),
            )),
            None => Err(wrong_type("index", index, "a number")),
        }
    }
}
