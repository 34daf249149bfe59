//! Interaction from JavaScript: picking, holding and dragging a particle,
//! pins, and colliders (read from and described as plain objects).

use js_sys::{JsString, Reflect};
use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, number, set, string_start, whole, wrong_type};
use super::reentry::Reading;
use super::Simulation;
use crate::contacts::Collider;
use crate::error::{quoted, ClothError};
use crate::model::shape::{self, Shape};
use crate::params;

#[wasm_bindgen(typescript_custom_section)]
const COLLIDER_TYPES: &str = r#"
/**
 * A collider for `addCollider` and a scene's `colliders`, metres, y up; positions are centres. A ground
 * line keeps particles above `y` (plus the particle radius).
 */
export type ColliderSpec =
  | { shape: "ground"; y: number }
  | { shape: "circle"; x: number; y: number; radius: number }
  | { shape: "box"; x: number; y: number; width: number; height: number };

/** A collider as `colliders()` describes it: its spec, its id and its velocity (m/s, 0 at rest). */
export type Collider = ColliderSpec & { id: number; vx: number; vy: number };
"#;

#[wasm_bindgen]
impl Simulation {
    /// Index of the particle nearest to `(x, y)` (metres) within `radius` metres,
    /// or -1 when none is that close.
    pub fn pick(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] radius: JsValue,
    ) -> Result<i32, JsValue> {
        let found = self
            .cloth
            .pick(
                number("x", &x)?,
                number("y", &y)?,
                number("radius", &radius)?,
            )
            .map_err(cloth_error)?;
        Ok(found.map_or(-1, |k| k as i32))
    }

    /// Holds particle `index`: the pointer pulls it through a spring (pinned,
    /// it is put at the pointer), and its own constraints do not tear.
    pub fn grab(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<(), JsValue> {
        let index = self.index(&index)?;
        self.cloth.grab(index).map_err(cloth_error)
    }

    /// Moves the pointer holding the held particle to `(x, y)`, in metres
    /// (no-op if none is held).
    pub fn drag(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
    ) -> Result<(), JsValue> {
        let (x, y) = (number("x", &x)?, number("y", &y)?);
        self.cloth.drag(x, y).map_err(cloth_error)
    }

    /// Lets go of the held particle; a free one keeps the velocity of the drag.
    pub fn release(&mut self) {
        self.cloth.release();
    }

    /// Index of the held particle, or -1.
    #[wasm_bindgen(getter)]
    pub fn grabbed(&self) -> i32 {
        self.cloth.grabbed().map_or(-1, |k| k as i32)
    }

    /// Pins (`true`) or frees (`false`) particle `index`.
    #[wasm_bindgen(js_name = setPinned)]
    pub fn set_pinned(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
        #[wasm_bindgen(unchecked_param_type = "boolean")] pinned: JsValue,
    ) -> Result<(), JsValue> {
        let index = self.index(&index)?;
        let pinned = pinned
            .as_bool()
            .ok_or_else(|| wrong_type("pinned", &pinned, "true or false"))?;
        self.cloth.set_pinned(index, pinned).map_err(cloth_error)
    }

    /// Whether particle `index` is pinned.
    #[wasm_bindgen(js_name = isPinned)]
    pub fn is_pinned(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<bool, JsValue> {
        let index = self.index(&index)?;
        self.cloth.is_pinned(index).map_err(cloth_error)
    }

    /// Cuts along the segment from `(x0, y0)` to `(x1, y1)` (metres): every
    /// constraint it crosses is removed as a tear removes it. Returns how many
    /// were cut. Errors name `x0`, `y0`, `x1` or `y1`.
    pub fn cut(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] x0: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y0: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] x1: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y1: JsValue,
    ) -> Result<u32, JsValue> {
        let (x0, y0) = (number("x0", &x0)?, number("y0", &y0)?);
        let (x1, y1) = (number("x1", &x1)?, number("y1", &y1)?);
        let cut = self.cloth.cut(x0, y0, x1, y1).map_err(cloth_error)?;
        Ok(cut as u32)
    }

    /// Adds a collider (`{ shape: "ground", y }`, `{ shape: "circle", x, y,
    /// radius }` or `{ shape: "box", x, y, width, height }`, metres) and
    /// returns its id (1, 2, ...; never reused). Errors name the field
    /// (`collider`, `shape`, `x`, `y`, `radius`, `width`, `height`); at most 64
    /// colliders.
    #[wasm_bindgen(js_name = addCollider)]
    pub fn add_collider(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ColliderSpec")] collider: JsValue,
    ) -> Result<u32, JsValue> {
        let reading = Reading::begin("collider")?;
        let shape = read_shape(&collider)?;
        drop(reading);
        self.cloth.add_collider(shape).map_err(cloth_error)
    }

    /// Moves collider `id`'s centre to `(x, y)`, metres (a ground line to
    /// height `y`; `x` is ignored). Its motion carries into friction.
    #[wasm_bindgen(js_name = moveCollider)]
    pub fn move_collider(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
    ) -> Result<(), JsValue> {
        let id = collider_id(&id)?;
        let (x, y) = (number("x", &x)?, number("y", &y)?);
        self.cloth.move_collider(id, x, y).map_err(cloth_error)
    }

    /// Removes collider `id`.
    #[wasm_bindgen(js_name = removeCollider)]
    pub fn remove_collider(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] id: JsValue,
    ) -> Result<(), JsValue> {
        let id = collider_id(&id)?;
        self.cloth.remove_collider(id).map_err(cloth_error)
    }

    /// The id of the topmost (last added) collider containing `(x, y)`
    /// (metres), or `undefined` when none does.
    #[wasm_bindgen(js_name = pickCollider)]
    pub fn pick_collider(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
    ) -> Result<Option<u32>, JsValue> {
        let (x, y) = (number("x", &x)?, number("y", &y)?);
        self.cloth.pick_collider(x, y).map_err(cloth_error)
    }

    /// The colliders in the order they were added (draw them in this order):
    /// a new array of `{ id, shape, x, y, radius | width, height, vx, vy }`
    /// (a ground line has only `y` of the position), metres and m/s.
    #[wasm_bindgen(unchecked_return_type = "Collider[]")]
    pub fn colliders(&self) -> js_sys::Array {
        self.cloth
            .colliders()
            .iter()
            .map(describe_collider)
            .collect()
    }
}

impl Simulation {
    /// Reads a particle index: a whole number a `usize` holds. Whether it names
    /// a particle of this cloth is the core's rule; refusals read the same.
    pub(super) fn index(&self, value: &JsValue) -> Result<usize, JsValue> {
        let count = self.cloth.num_particles();
        let refuse = |v| params::index_error(v, count);
        let index = whole("index", value, usize::MAX as u64, refuse)?;
        Ok(index as usize)
    }
}

/// Reads a collider spec: an object with a `shape` name and its numbers.
pub(super) fn read_shape(collider: &JsValue) -> Result<Shape, JsValue> {
    if !collider.is_object() {
        return Err(wrong_type("collider", collider, "an object { shape, ... }"));
    }
    // Reflect::get catches what a patched getter might throw.
    let field =
        |name: &str| Reflect::get(collider, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    // checked in f64, so a message shows the number as given; one reader
    // for both checks
    let checked = |name: &'static str, check: fn(&'static str, f64) -> Result<f32, ClothError>| {
        check(name, number(name, &field(name))?).map_err(cloth_error)
    };
    let coordinate = |name| checked(name, params::validate_coordinate);
    let size = |name| checked(name, shape::validate_size);
    let shape = field("shape");
    let Some(name) = shape.dyn_ref::<JsString>() else {
        return Err(wrong_type(
            "shape",
            &shape,
            r#""ground", "circle" or "box""#,
        ));
    };
    let text = string_start(name);
    shape_named(&text, coordinate, size).unwrap_or_else(|| {
        Err(cloth_error(ClothError::InvalidValue {
            field: "shape",
            value: quoted(&text, name.length() as usize),
            allowed: r#""ground", "circle" or "box""#.into(),
        }))
    })
}

/// The shape called `name` (`"ground"`, `"circle"` or `"box"`) with its
/// numbers, each read by `coordinate` (`x`, `y`) or `size` (`radius`,
/// `width`, `height`); `None` for another name.
pub(super) fn shape_named(
    name: &str,
    coordinate: impl Fn(&'static str) -> Result<f32, JsValue>,
    size: impl Fn(&'static str) -> Result<f32, JsValue>,
) -> Option<Result<Shape, JsValue>> {
    let shape = || -> Result<Option<Shape>, JsValue> {
        let circle = match name {
            "ground" => {
                return Ok(Some(Shape::Ground {
                    y: coordinate("y")?,
                }))
            }
            "circle" => true,
            "box" => false,
            _ => return Ok(None),
        };
        // a circle's and a box's numbers read by the same calls
        let (x, y) = (coordinate("x")?, coordinate("y")?);
        let first = size(if circle { "radius" } else { "width" })?;
        Ok(Some(if circle {
            Shape::Circle {
                x,
                y,
                radius: first,
            }
        } else {
            Shape::Box {
                x,
                y,
                width: first,
                height: size("height")?,
            }
        }))
    };
    shape().transpose()
}

/// Reads a collider id: a whole number from 1 to 2^32 - 1.
pub(super) fn collider_id(id: &JsValue) -> Result<u32, JsValue> {
    let id = whole("id", id, u32::MAX as u64, |value| {
        ClothError::InvalidValue {
            field: "id",
            value: value.to_string(),
            allowed: "the id of a collider of this simulation".into(),
        }
    })?;
    Ok(id as u32)
}

/// A collider as the object `colliders()` returns: its properties set in one
/// loop over its numbers.
pub(super) fn describe_collider(collider: &Collider) -> JsValue {
    let (shape, numbers, count) = match collider.shape {
        Shape::Ground { y } => ("ground", [("y", y), ("", 0.0), ("", 0.0), ("", 0.0)], 1),
        Shape::Circle { x, y, radius } => (
            "circle",
            [("x", x), ("y", y), ("radius", radius), ("", 0.0)],
            3,
        ),
        Shape::Box {
            x,
            y,
            width,
            height,
        } => (
            "box",
            [("x", x), ("y", y), ("width", width), ("height", height)],
            4,
        ),
    };
    let object = js_sys::Object::new().into();
    set(&object, "id", &JsValue::from_f64(collider.id as f64));
    set(&object, "shape", &JsValue::from_str(shape));
    let [vx, vy] = collider.velocity;
    for &(name, v) in numbers[..count].iter().chain(&[("vx", vx), ("vy", vy)]) {
        set(&object, name, &JsValue::from_f64(v as f64));
    }
    object
}
