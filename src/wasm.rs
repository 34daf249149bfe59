//! The JavaScript face of the crate: `Simulation`, a thin `wasm-bindgen` layer over
//! [`Cloth`].
//!
//! Everything exported to JavaScript lives in the `#[wasm_bindgen] impl` block
//! below, except the solver parameters' getters and setters, which
//! `solver_accessors!` generates from the parameter table in a block of their
//! own; the plain `impl` holds Rust-side helpers. Numbers arrive as `JsValue`
//! and are checked to really be numbers, so `sim.mass = "heavy"` throws an `Error`
//! instead of being silently coerced to `NaN` or `0`. This is the one place
//! JavaScript values become Rust values: counts and indices are checked to be
//! whole, finite, not negative and within their Rust type here ([`whole`],
//! `Simulation::index`, the table's rule for whole-numbered parameters), and the
//! core ([`Cloth`]) takes `usize`, `u32`, `u64`, `GridSize` and `FixedPreset`. Every error is a JavaScript
//! `Error` whose message names the argument, with the argument's name in its
//! `field` property and a stable `code` (see [`error`]); a refused call changes
//! nothing.
//!
//! wasm-bindgen marks an object borrowed for the length of each call into it.
//! A trap (any panic: `panic = "abort"`) or a JavaScript exception thrown
//! through the wasm stack skips the end of the call, and the object stays
//! borrowed for good: every later call, `free()` included, fails. So no method
//! here may panic or let JavaScript throw through it: sizes are checked in
//! `f64` before they become `usize` (32 bits in wasm), big buffers are
//! allocated fallibly, JavaScript values are read with `Reflect` (which catches
//! what a getter throws), strings are measured before they are copied, and
//! messages echo at most a short, bounded part of any value.
//!
//! Big arrays stay in wasm memory: [`Simulation::positions`] and
//! [`Simulation::constraints`] return typed-array *views* over it, without
//! copying. A view dies when wasm memory grows (any call that allocates: building
//! a new `Simulation`, for instance), so fetch a fresh one each frame.

mod grid_layout;

use js_sys::{Float32Array, JsString, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData};

use crate::cloth::{self, Cloth};
use crate::colliders::{self, Collider, MAX_COLLIDERS};
use crate::memory;
use crate::params::{
    self, ClothError, FixedPreset, GridSize, Number, Parameter, ParameterValue, SolverOrder, Value,
};
use crate::raster::{self, Frame, Rect, Style, View, MAX_FRAME_PIXELS};
use crate::scene::{AreaSpec, Bending, DistanceStiffness, Scene, Shape};
/// Largest `view.pixelRatio` (backing-store pixels per CSS pixel).
const MAX_PIXEL_RATIO: f64 = 16.0;
/// Largest `view.particleRadius`, CSS pixels.
const MAX_PARTICLE_RADIUS: f64 = 100.0;
/// Largest `view.originX`/`originY` magnitude and `view.scale`, CSS pixels.
const MAX_VIEW_PX: f64 = 1e7;

/// An XPBD cloth for JavaScript. Free it with `free()` when done.
#[wasm_bindgen]
pub struct Simulation {
    cloth: Cloth,
    /// The pixel buffer `drawInto` draws into, kept between frames.
    frame: Frame,
    /// Where the last `drawInto` drew: cleared and copied again by the next.
    last_drawn: Rect,
}

#[wasm_bindgen(typescript_custom_section)]
const ERROR_TYPES: &str = r#"
/**
 * A collider for `addCollider` and a scene's `colliders`, metres, y up; positions are centres. A ground
 * line keeps particles above `y` (plus the particle radius).
 */
export type ColliderSpec =
  | { shape: "ground"; y: number }
  | { shape: "circle"; x: number; y: number; radius: number }
  | { shape: "box"; x: number; y: number; width: number; height: number };

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
}

/** A collider as `colliders()` describes it: its spec, its id and its velocity (m/s, 0 at rest). */
export type Collider = ColliderSpec & { id: number; vx: number; vy: number };

/** The `code` of an Error thrown by `Simulation`: what went wrong, in words that do not change. */
export type SimulationErrorCode =
  | "invalid_value"     // a number or string out of its range, or not one of the allowed names
  | "invalid_scene"     // Simulation.fromScene: a malformed entry of the scene (the message names it)
  | "invalid_state"     // restoreState: a saved state that does not fit this simulation (the message names the field)
  | "wrong_type"        // not a number (or string, boolean, context, view object) at all
  | "particle_index"    // an index that names no particle
  | "out_of_memory"     // the cloth, its reordering or the drawInto frame does not fit in wasm memory
  | "canvas_too_large"  // drawInto: more than 4096 × 4096 pixels
  | "draw_failed";      // drawInto: the canvas refused the image (ImageData or putImageData threw)

/**
 * Every Error a `Simulation` method, getter, setter or constructor throws for bad
 * input is a plain `Error` with two more own properties; its message starts
 * `invalid <field>:`, `invalid scene:`, `invalid particle index:`, `out of memory:` or `drawInto:`.
 * Calls on a freed Simulation, or re-entrant calls into one that is busy (from a
 * `drawInto` view getter, say), throw wasm-bindgen's plain Errors without them.
 */
export interface SimulationError extends Error {
  /** The JavaScript name of the argument: "mass", "width", "index", "solverOrder", "ctx", "view.scale", ... */
  readonly field: string;
  readonly code: SimulationErrorCode;
}
"#;

/// The `Error` JavaScript sees: `message`, plus own properties `field` (the
/// JavaScript name of the argument: `"mass"`, `"index"`, `"view.scale"`, ...)
/// and `code`, one of `"invalid_value"`, `"invalid_scene"`, `"wrong_type"`, `"particle_index"`,
/// `"out_of_memory"`, `"canvas_too_large"` or `"draw_failed"`. Messages are
/// bounded (they echo at most a short part of any value), so building one
/// cannot fail. A `js_sys::Error` rather than a `JsError`: only a JavaScript
/// object can carry the extra properties.
fn error(field: &str, code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Reflect.set catches anything a setter planted on Error.prototype throws
    let _ = Reflect::set(&error, &"field".into(), &field.into());
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

pub(crate) fn cloth_error(error: ClothError) -> JsValue {
    self::error(error.field(), error.code(), &error.to_string())
}

/// `typeof value`: one of eight short names, so safe to echo.
fn type_name(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "unknown".into())
}

/// The error for a value of the wrong type, naming the type (never the value).
pub(crate) fn wrong_type(field: &str, value: &JsValue, expected: &str) -> JsValue {
    let got = type_name(value);
    error(
        field,
        "wrong_type",
        &format!("invalid {field}: got a value of type {got}, expected {expected}"),
    )
}

/// Reads a JavaScript number, refusing every other type by name.
pub(crate) fn number(field: &str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| wrong_type(field, value, "a number"))
}

/// Numbers up to 2^53 are whole numbers exactly in `f64`: the largest count
/// or index [`whole`] reads.
const MAX_EXACT: u64 = 1 << 53;

/// Reads a JavaScript number as a whole number from 0 to `max` (the range of the
/// Rust type it becomes): its type, finiteness, wholeness, sign and size are
/// checked here, where JavaScript values become Rust values, and nowhere else.
/// `refuse` is the core's refusal of the argument, given the number as
/// JavaScript shows it, so a message reads the same whichever side refuses.
fn whole(
    field: &str,
    value: &JsValue,
    max: u64,
    refuse: impl FnOnce(Number) -> ClothError,
) -> Result<u64, JsValue> {
    let v = number(field, value)?;
    if v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= max.min(MAX_EXACT) as f64 {
        Ok(v as u64)
    } else {
        Err(cloth_error(refuse(Number(v))))
    }
}

/// Reads a whole-numbered parameter of the table (`iterations`, `width`,
/// `fixed`, ...) through its rule, which refuses every number that is not
/// whole or out of its range (at most 1000), so the value fits any count type.
fn table_whole(parameter: &Parameter, value: f64) -> Result<u32, JsValue> {
    let checked = parameter.check_number(value).map_err(cloth_error)?;
    Ok(checked as u32)
}

/// Longest string any setter accepts, in UTF-16 units (`"original"` and
/// `"colored"` are shorter); a longer one is refused without being copied.
const MAX_NAME_LENGTH: u32 = 32;

/// The string itself when it is at most [`MAX_NAME_LENGTH`] long; otherwise
/// only its beginning, one UTF-16 unit past what a message shows (so the cut is
/// visible): a huge string is never copied into wasm memory, where it would
/// grow it for good, or not fit.
pub(crate) fn string_start(text: &JsString) -> String {
    let length = text.length();
    if length <= MAX_NAME_LENGTH {
        return String::from(text);
    }
    String::from(text.slice(0, params::ECHO_CHARS as u32 + 1))
}

/// How a solver parameter's setter reads its JavaScript value: numbers as
/// numbers (the table's rule is checked by the `Cloth` setter), words as short
/// strings checked against the table.
trait FromJs: Sized {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<Self, JsValue>;
}

impl FromJs for f64 {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<f64, JsValue> {
        number(parameter.name, value)
    }
}

impl FromJs for u32 {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<u32, JsValue> {
        table_whole(parameter, number(parameter.name, value)?)
    }
}

impl FromJs for bool {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<bool, JsValue> {
        value
            .as_bool()
            .ok_or_else(|| wrong_type(parameter.name, value, parameter.kind()))
    }
}

impl FromJs for SolverOrder {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<SolverOrder, JsValue> {
        let Some(text) = value.dyn_ref::<JsString>() else {
            let expected = format!("the string {}", parameter.expected());
            return Err(wrong_type(parameter.name, value, &expected));
        };
        let start = string_start(text);
        let name = parameter
            .check_word(&start, text.length() as usize)
            .map_err(cloth_error)?;
        SolverOrder::from_name(name).map_err(cloth_error)
    }
}

/// A table value as a JavaScript value.
fn to_js(value: Value) -> JsValue {
    match value {
        Value::Number(v) => JsValue::from_f64(v),
        Value::Word(w) => JsValue::from_str(w),
        Value::Flag(f) => JsValue::from_bool(f),
    }
}

/// The getter and setter of every solver parameter, generated from the table
/// (`with_solver_parameters!` in `src/params.rs`): the getter returns the live
/// value, the setter checks the type, lets the `Cloth` setter check the rule,
/// and throws (keeping the old value) when either refuses.
macro_rules! solver_accessors {
    ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
        #[wasm_bindgen]
        impl Simulation {
            $(
                #[wasm_bindgen(getter = $js, unchecked_return_type = $ts)]
                pub fn $field(&self) -> JsValue {
                    to_js(self.cloth.params().$field.to_value())
                }

                #[wasm_bindgen(setter = $js)]
                pub fn $js_setter(
                    &mut self,
                    #[wasm_bindgen(unchecked_param_type = $ts)] value: JsValue,
                ) -> Result<(), JsValue> {
                    let value = FromJs::from_js(&params::$entry, &value)?;
                    self.cloth.$setter(value).map_err(cloth_error)
                }
            )*
        }
    };
}

crate::with_solver_parameters!(solver_accessors);

impl Simulation {
    /// Reads a particle index: a whole number a `usize` holds. Whether it names
    /// a particle of this cloth is the core's rule; refusals read the same.
    fn index(&self, value: &JsValue) -> Result<usize, JsValue> {
        let count = self.cloth.num_particles();
        let refuse = |v| params::index_error(v, count);
        let index = whole("index", value, usize::MAX as u64, refuse)?;
        Ok(index as usize)
    }

    /// Reads `field` (`"view.scale"`, ...) of the view object: a number from
    /// `min` to `max`, or `default` when absent. Reading never throws (a
    /// throwing getter counts as absent), so the simulation is never left
    /// mid-call.
    fn view_number(
        view: &JsValue,
        field: &'static str,
        default: Option<f64>,
        (min, max): (f64, f64),
    ) -> Result<f64, JsValue> {
        let name = field.strip_prefix("view.").unwrap_or(field);
        let value = Reflect::get(view, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        let expected = format!("a number from {min} to {max}");
        match (value.as_f64(), default) {
            (Some(v), _) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
            (Some(v), _) => Err(error(
                field,
                "invalid_value",
                &format!("invalid {field}: got {}, expected {expected}", Number(v)),
            )),
            (None, Some(d)) if value.is_undefined() => Ok(d),
            (None, _) => Err(wrong_type(field, &value, &expected)),
        }
    }
}

/// What one `drawInto` call draws and where: the context, the canvas' size in
/// pixels (at most `MAX_FRAME_PIXELS`), the view in backing-store pixels, the
/// style and whether to repaint the whole canvas. Read and checked before
/// anything is drawn.
struct DrawRequest<'a> {
    ctx: &'a CanvasRenderingContext2d,
    width: usize,
    height: usize,
    view: View,
    style: Style,
    full: bool,
}

impl<'a> DrawRequest<'a> {
    /// Reads `ctx` and `view` of a `drawInto` call with every check; `None`
    /// when the canvas has no pixels. Never calls into JavaScript code that
    /// could throw (getters are read through `Reflect`).
    fn read(ctx: &'a JsValue, view: &JsValue) -> Result<Option<Self>, JsValue> {
        let ctx = ctx.dyn_ref::<CanvasRenderingContext2d>().ok_or_else(|| {
            wrong_type(
                "ctx",
                ctx,
                "a CanvasRenderingContext2D (canvas.getContext('2d'))",
            )
        })?;
        if !view.is_object() {
            return Err(wrong_type(
                "view",
                view,
                "an object { originX, originY, scale, ... }",
            ));
        }
        let ratio =
            Simulation::view_number(view, "view.pixelRatio", Some(1.0), (1e-3, MAX_PIXEL_RATIO))?;
        let origin_x =
            Simulation::view_number(view, "view.originX", None, (-MAX_VIEW_PX, MAX_VIEW_PX))?;
        let origin_y =
            Simulation::view_number(view, "view.originY", None, (-MAX_VIEW_PX, MAX_VIEW_PX))?;
        let scale = Simulation::view_number(view, "view.scale", None, (1e-6, MAX_VIEW_PX))?;
        let radius = Simulation::view_number(
            view,
            "view.particleRadius",
            Some(2.5),
            (0.0, MAX_PARTICLE_RADIUS),
        )?;
        let flag = |name: &str| {
            Reflect::get(view, &JsValue::from_str(name))
                .map(|v| v.is_truthy())
                .unwrap_or(false)
        };
        let (strain, full) = (flag("strainColors"), flag("full"));
        // Reflect::get catches what a patched getter might throw.
        let read = |object: &JsValue, name: &str| {
            Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let canvas = read(ctx, "canvas");
        // The size stays an f64 until it is known to be small: in usize (32
        // bits in wasm) width × height wraps, and 65536 × 65536 would pass as 0.
        let size = |name: &str| read(&canvas, name).as_f64().filter(|v| *v >= 0.0);
        let (Some(width), Some(height)) = (size("width"), size("height")) else {
            return Err(error(
                "ctx",
                "invalid_value",
                "drawInto: the context has no canvas with a size",
            ));
        };
        let (width, height) = (width.trunc(), height.trunc());
        if width == 0.0 || height == 0.0 {
            return Ok(None);
        }
        let area = width * height; // exact below 2^53, and an infinite side stays infinite
        if area.is_nan() || area > MAX_FRAME_PIXELS as f64 {
            return Err(error(
                "ctx",
                "canvas_too_large",
                &format!(
                    "drawInto: the canvas is {} × {} pixels; the wasm renderer draws at most \
                     {MAX_FRAME_PIXELS} (use a smaller canvas or canvas-2D drawing)",
                    Number(width),
                    Number(height)
                ),
            ));
        }
        let mut style = Style::with_pixel_ratio(ratio as f32, radius as f32);
        style.strain_colors = strain;
        let color = |field: &'static str, default: raster::Rgba| view_color(view, field, default);
        style.background = color("view.backgroundColor", style.background)?;
        style.constraint = color("view.constraintColor", style.constraint)?;
        style.particle = color("view.particleColor", style.particle)?;
        style.grabbed = color("view.grabbedColor", style.grabbed)?;
        style.axes = (
            color("view.xAxisColor", style.axes.0)?,
            color("view.yAxisColor", style.axes.1)?,
        );
        style.collider = (
            color("view.colliderColor", style.collider.0)?,
            color("view.colliderEdgeColor", style.collider.1)?,
        );
        Ok(Some(DrawRequest {
            ctx,
            // both at most MAX_FRAME_PIXELS now, and so is every pixel index
            width: width as usize,
            height: height as usize,
            view: View {
                origin_x: (origin_x * ratio) as f32,
                origin_y: (origin_y * ratio) as f32,
                scale: (scale * ratio) as f32,
            },
            style,
            full,
        }))
    }
}

/// Reads colour `field` (`"view.particleColor"`, ...) of a `drawInto` view: a
/// string `"#rrggbb"` (opaque), or `default` when absent. Never throws from a
/// getter (it counts as absent).
fn view_color(
    view: &JsValue,
    field: &'static str,
    default: raster::Rgba,
) -> Result<raster::Rgba, JsValue> {
    let name = field.strip_prefix("view.").unwrap_or(field);
    let value = Reflect::get(view, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() {
        return Ok(default);
    }
    let Some(text) = value.dyn_ref::<JsString>() else {
        return Err(wrong_type(field, &value, r##"a colour string "#rrggbb""##));
    };
    let start = string_start(text);
    let hex = start
        .strip_prefix('#')
        .filter(|h| text.length() == 7 && h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    match hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
        Some(rgb) => Ok(raster::rgb(rgb)),
        None => Err(error(
            field,
            "invalid_value",
            &format!(
                "invalid {field}: got {}, expected a colour \"#rrggbb\"",
                params::quoted(&start, text.length() as usize)
            ),
        )),
    }
}

impl Simulation {
    /// Rasterizes the cloth as `request` says into the frame and copies the
    /// part that changed since the last frame onto the canvas.
    fn present(&mut self, request: &DrawRequest) -> Result<(), JsValue> {
        let DrawRequest {
            ctx,
            width,
            height,
            view,
            ref style,
            full,
        } = *request;
        // the shapes on the stack: drawing allocates nothing but its frame
        let mut shapes = [Shape::Ground { y: 0.0 }; MAX_COLLIDERS];
        let colliders = self.cloth.colliders();
        for (shape, collider) in shapes.iter_mut().zip(colliders) {
            *shape = collider.shape;
        }
        let cloth = raster::Cloth {
            positions: self.cloth.positions(),
            constraint_ids: self.cloth.constraint_ids(),
            rest_lengths: self.cloth.rest_lengths(),
            grabbed: self.cloth.grabbed(),
            colliders: &shapes[..colliders.len().min(MAX_COLLIDERS)],
        };
        // Only what the last frame and this one cover changes on the canvas:
        // clear and copy that, not the whole image (the copy is most of the cost).
        let resized = (self.frame.width(), self.frame.height()) != (width, height);
        let stale = if resized || full {
            self.frame
                .reset(width, height, style.background)
                .map_err(|e| error(e.field(), e.code(), &format!("drawInto: {e}")))?;
            Rect {
                x0: 0,
                y0: 0,
                x1: width,
                y1: height,
            }
        } else {
            self.frame.clear(self.last_drawn, style.background);
            self.last_drawn
        };
        let drawn = raster::draw(&mut self.frame, &cloth, view, style);
        self.last_drawn = drawn;
        let dirty = stale.union(drawn);
        if dirty.is_empty() {
            return Ok(());
        }
        let image = ImageData::new_with_u8_clamped_array_and_sh(
            Clamped(self.frame.bytes()),
            width as u32,
            height as u32,
        )
        .map_err(|_| {
            error(
                "ctx",
                "draw_failed",
                "drawInto: could not make an ImageData",
            )
        })?;
        ctx.put_image_data_with_dirty_x_and_dirty_y_and_dirty_width_and_dirty_height(
            &image,
            0.0,
            0.0,
            dirty.x0 as f64,
            dirty.y0 as f64,
            (dirty.x1 - dirty.x0) as f64,
            (dirty.y1 - dirty.y0) as f64,
        )
        .map_err(|_| error("ctx", "draw_failed", "drawInto: putImageData failed"))
    }
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a `width × height` cloth (2..=1000 each, at most 250000 particles)
    /// with 1, 2 or 4 fixed corners and default parameters. Throws an `Error`
    /// naming the bad argument, or one with `code` `"out_of_memory"` when the
    /// cloth does not fit in the memory left (other cloths keep working).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
        #[wasm_bindgen(js_name = fixed, unchecked_param_type = "number")] fixed: JsValue,
    ) -> Result<Simulation, JsValue> {
        console_error_panic_hook::set_once();
        let width = number(params::WIDTH.name, &width)?;
        let height = number(params::HEIGHT.name, &height)?;
        let fixed = number(params::FIXED.name, &fixed)?;
        let width = table_whole(&params::WIDTH, width)? as usize;
        let height = table_whole(&params::HEIGHT, height)? as usize;
        let size = GridSize::new(width, height).map_err(cloth_error)?;
        let fixed = table_whole(&params::FIXED, fixed)? as usize;
        let preset = FixedPreset::from_count(fixed).map_err(cloth_error)?;
        let cloth = Cloth::try_new(size, preset).map_err(cloth_error)?;
        Ok(Simulation {
            cloth,
            frame: Frame::default(),
            last_drawn: Rect::default(),
        })
    }

    /// Advances one time step (a no-op once `isFinite` is false).
    pub fn step(&mut self) {
        self.cloth.step();
    }

    /// Advances `n` time steps in one call; `n` is a whole number from 0 to
    /// `maxStepsPerCall` (at most 10000: a call does at most 1.5e9 work units,
    /// about 1.5 s). A step in progress (see `advance`) is finished first and
    /// counts as one.
    pub fn steps(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> Result<(), JsValue> {
        let n = whole("steps", &n, u32::MAX.into(), |v| self.cloth.steps_error(v))?;
        self.cloth.steps(n as u32).map_err(cloth_error)
    }

    /// Simulated time in seconds.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.cloth.time()
    }

    /// Number of particles.
    #[wasm_bindgen(getter = numParticles)]
    pub fn num_particles(&self) -> u32 {
        self.cloth.num_particles() as u32
    }

    /// Number of distance constraints.
    #[wasm_bindgen(getter = numConstraints)]
    pub fn num_constraints(&self) -> u32 {
        self.cloth.num_constraints() as u32
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

    /// `false` once a step diverged; the cloth then stops (positions stay finite).
    #[wasm_bindgen(getter = isFinite)]
    pub fn is_finite(&self) -> bool {
        self.cloth.is_finite()
    }

    /// Positions `[x0, y0, x1, y1, ...]` in metres: a `Float32Array` view over wasm
    /// memory, no copy. Re-fetch it after anything that may allocate in wasm
    /// (creating a `Simulation`, for example) and never use it after `free()`.
    pub fn positions(&self) -> Float32Array {
        // SAFETY: the view aliases `self.cloth.positions`, which never reallocates
        // after construction. JavaScript must drop the view when memory grows or
        // the simulation is freed, as documented above.
        unsafe { Float32Array::view(self.cloth.positions()) }
    }

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
        let expected = 2 * self.cloth.num_particles();
        let mut copies = [(); 2].map(|_| Vec::new());
        for ((field, value), copy) in [("positions", &positions), ("velocities", &velocities)]
            .into_iter()
            .zip(copies.iter_mut())
        {
            let array = value
                .dyn_ref::<Float32Array>()
                .ok_or_else(|| wrong_type(field, value, "a Float32Array"))?;
            if array.length() as usize != expected {
                return Err(error(
                    field,
                    "invalid_value",
                    &format!(
                        "invalid {field}: got {} numbers, expected {expected} (two per particle)",
                        array.length()
                    ),
                ));
            }
            *copy = memory::filled(expected, 0.0f32)
                .map_err(|_| error(field, "out_of_memory", "setState: out of memory"))?;
            array.copy_to(copy);
        }
        let time = number("time", &time)?;
        let [positions, velocities] = copies;
        self.cloth
            .set_state(&positions, &velocities, time)
            .map_err(cloth_error)
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

    /// Draws the cloth onto the whole canvas of `ctx` in one `putImageData`,
    /// rasterized in wasm (faster than canvas paths for big cloths; see README).
    /// `view` is `{ originX, originY, scale, pixelRatio = 1, particleRadius = 2.5,
    /// strainColors = false, full = false }`: origin in CSS pixels from the
    /// canvas' top-left corner, `scale` in CSS pixels per metre, `pixelRatio`
    /// backing-store pixels per CSS pixel, `particleRadius` in CSS pixels.
    /// Between calls only the area the cloth covered changes on the canvas; pass
    /// `full: true` when something else has drawn on it (or cleared it) since.
    /// May grow wasm memory: re-fetch views afterwards.
    #[wasm_bindgen(js_name = drawInto)]
    pub fn draw_into(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CanvasRenderingContext2D")] ctx: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ originX: number; originY: number; scale: number; pixelRatio?: number; particleRadius?: number; strainColors?: boolean; full?: boolean }"
        )]
        view: JsValue,
    ) -> Result<(), JsValue> {
        // An exception thrown by JavaScript in the middle of this call would leave
        // the simulation borrowed for good, so check everything before calling out.
        match DrawRequest::read(&ctx, &view)? {
            Some(request) => self.present(&request),
            None => Ok(()), // a canvas without pixels: nothing to draw
        }
    }

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

    /// Holds particle `index`: it stops moving on its own and follows `drag`.
    pub fn grab(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<(), JsValue> {
        let index = self.index(&index)?;
        self.cloth.grab(index).map_err(cloth_error)
    }

    /// Puts the held particle exactly at `(x, y)`, in metres (no-op if none is held).
    pub fn drag(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
    ) -> Result<(), JsValue> {
        let (x, y) = (number("x", &x)?, number("y", &y)?);
        self.cloth.drag(x, y).map_err(cloth_error)
    }

    /// Lets go of the held particle; it keeps the velocity of the drag.
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
        let shape = read_shape(&collider)?;
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

    /// Steps in slices, so a page never blocks on a heavy cloth: finishes at most
    /// `maxSteps` steps (whole, 0..=10000; a step in progress counts as one) and
    /// stops earlier, at the first boundary between two sweeps, once
    /// `workBudget` work units (0..=1.5e9; one unit is about a nanosecond) are
    /// spent, leaving a step in progress that the next call continues. At least
    /// one sweep is done per call. Returns the number of steps finished. The
    /// results are bit for bit those of calling `step()` as often. While a step is
    /// in progress, `positions()` show it part way; mass, pins and dragging apply
    /// at once, iterations, stiffness, gravity, damping, velocity damping and
    /// tearing from the next substep, timeStepSize, substeps and solverOrder from
    /// the next step.
    pub fn advance(
        &mut self,
        #[wasm_bindgen(js_name = maxSteps, unchecked_param_type = "number")] max_steps: JsValue,
        #[wasm_bindgen(js_name = workBudget, unchecked_param_type = "number")] work_budget: JsValue,
    ) -> Result<u32, JsValue> {
        let max_steps = whole(
            "maxSteps",
            &max_steps,
            u32::MAX.into(),
            cloth::max_steps_error,
        )?;
        let budget = number("workBudget", &work_budget)?;
        // a budget is not a count: fractions of a unit are dropped
        if !(budget.is_finite() && budget >= 0.0 && budget < u64::MAX as f64) {
            return Err(cloth_error(cloth::work_budget_error(Number(budget))));
        }
        let (max_steps, work_budget) = (max_steps as u32, budget as u64);
        self.cloth
            .advance_checked(max_steps, work_budget)
            .map_err(cloth_error)
    }

    /// Work units one step takes with the current settings (about nanoseconds of
    /// wasm): substeps × (iterations × constraints × the cost of one solve on the
    /// sweep in use, plus per-particle work), plus tearing and damping checks.
    #[wasm_bindgen(getter = workPerStep)]
    pub fn work_per_step(&self) -> f64 {
        self.cloth.work_per_step() as f64
    }

    /// Work units done since the simulation was built (a running total, for
    /// measuring how fast units go: elapsed time over the units an `advance` did).
    #[wasm_bindgen(getter = workDone)]
    pub fn work_done(&self) -> f64 {
        self.cloth.work_done() as f64
    }

    /// Whether `advance` left a step part done (the next call continues it).
    #[wasm_bindgen(getter = stepInProgress)]
    pub fn step_in_progress(&self) -> bool {
        self.cloth.step_in_progress()
    }

    /// How far the step in progress is: the fraction of its sweeps done, from 0
    /// (no step in progress) to below 1.
    #[wasm_bindgen(getter = stepProgress)]
    pub fn step_progress(&self) -> f64 {
        self.cloth.step_progress()
    }

    /// The largest `n` that `steps(n)` accepts now: 1.5e9 work units over
    /// `workPerStep`, at most 10000.
    #[wasm_bindgen(getter = maxStepsPerCall)]
    pub fn max_steps_per_call(&self) -> u32 {
        self.cloth.max_steps_per_call()
    }
}

#[wasm_bindgen]
impl Simulation {
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
        let state = self.cloth.saved_state().map_err(cloth_error)?;
        let object = js_sys::Object::new();
        let set = |name: &str, value: &JsValue| {
            let _ = Reflect::set(&object, &JsValue::from_str(name), value);
        };
        let params = js_sys::Object::new();
        for (parameter, value) in state.params.values() {
            let _ = Reflect::set(&params, &JsValue::from_str(parameter.name), &to_js(value));
        }
        set("params", &params);
        set("time", &JsValue::from_f64(state.time));
        set("positions", &Float32Array::from(&state.positions[..]));
        set("velocities", &Float32Array::from(&state.velocities[..]));
        set("pinned", &Uint32Array::from(&state.pinned[..]));
        set("constraints", &Uint32Array::from(&state.constraints[..]));
        set("torn", &Uint32Array::from(&state.torn[..]));
        let colliders: js_sys::Array = self
            .cloth
            .colliders()
            .iter()
            .map(|c| {
                let spec = describe_collider(c);
                let _ =
                    Reflect::delete_property(spec.unchecked_ref::<js_sys::Object>(), &"vx".into());
                let _ =
                    Reflect::delete_property(spec.unchecked_ref::<js_sys::Object>(), &"vy".into());
                spec
            })
            .collect();
        set("colliders", &colliders);
        Ok(object.into())
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
        let n = self.cloth.num_particles();
        let built = self.cloth.num_constraints() + self.cloth.torn_count();
        let mut params = self.cloth.params();
        let given = property(&state, "params");
        if !given.is_undefined() {
            if !given.is_object() {
                return Err(wrong_type("params", &given, "an object { stiffness, ... }"));
            }
            for (name, value) in read_options(&given)? {
                params.set_named(&name, value).map_err(cloth_error)?;
            }
        }
        let time = property(&state, "time");
        let Some(time) = time.as_f64() else {
            return Err(wrong_type("time", &time, "a number"));
        };
        let colliders = objects("colliders", &property(&state, "colliders"))?;
        if colliders.len() > MAX_COLLIDERS {
            return Err(cloth_error(ClothError::InvalidState {
                field: "colliders",
                index: None,
                problem: format!(
                    "has {} entries, expected at most {MAX_COLLIDERS}",
                    colliders.len()
                ),
            }));
        }
        let mut shapes = Vec::with_capacity(colliders.len());
        for collider in &colliders {
            shapes.push((
                collider_id(&property(collider, "id"))?,
                read_shape(collider)?,
            ));
        }
        let state = cloth::ClothState {
            params,
            time,
            positions: state_floats(&state, "positions", 2 * n)?,
            velocities: state_floats(&state, "velocities", 2 * n)?,
            pinned: state_indices(&state, "pinned", n)?,
            constraints: state_indices(&state, "constraints", built)?,
            torn: state_indices(&state, "torn", built)?,
            colliders: shapes,
        };
        self.cloth.restore_state(&state).map_err(cloth_error)
    }
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

/// Field `field` of a saved state: a `Float32Array` of at most `most` values
/// (their bits kept exactly).
fn state_floats(state: &JsValue, field: &'static str, most: usize) -> Result<Vec<f32>, JsValue> {
    let value = property(state, field);
    let Some(array) = value.dyn_ref::<Float32Array>() else {
        return Err(wrong_type(field, &value, "a Float32Array"));
    };
    let length = state_length(field, array.length(), most)?;
    let mut values: Vec<f32> = room(field, length)?;
    values.resize(length, 0.0);
    array.copy_to(&mut values);
    Ok(values)
}

/// Field `field` of a saved state: a `Uint32Array` of at most `most` indices.
fn state_indices(state: &JsValue, field: &'static str, most: usize) -> Result<Vec<u32>, JsValue> {
    let value = property(state, field);
    let Some(array) = value.dyn_ref::<Uint32Array>() else {
        return Err(wrong_type(field, &value, "a Uint32Array"));
    };
    let length = state_length(field, array.length(), most)?;
    let mut values: Vec<u32> = room(field, length)?;
    values.resize(length, 0);
    array.copy_to(&mut values);
    Ok(values)
}

/// Reads a collider spec: an object with a `shape` name and its numbers.
fn read_shape(collider: &JsValue) -> Result<Shape, JsValue> {
    if !collider.is_object() {
        return Err(wrong_type("collider", collider, "an object { shape, ... }"));
    }
    // Reflect::get catches what a patched getter might throw.
    let field =
        |name: &str| Reflect::get(collider, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    // checked in f64, so a message shows the number as given
    let coordinate = |name: &'static str| -> Result<f32, JsValue> {
        params::validate_coordinate(name, number(name, &field(name))?).map_err(cloth_error)
    };
    let size = |name: &'static str| -> Result<f32, JsValue> {
        colliders::validate_size(name, number(name, &field(name))?).map_err(cloth_error)
    };
    let shape = field("shape");
    let Some(name) = shape.dyn_ref::<JsString>() else {
        return Err(wrong_type(
            "shape",
            &shape,
            r#""ground", "circle" or "box""#,
        ));
    };
    let text = string_start(name);
    match text.as_str() {
        "ground" => Ok(Shape::Ground {
            y: coordinate("y")?,
        }),
        "circle" => Ok(Shape::Circle {
            x: coordinate("x")?,
            y: coordinate("y")?,
            radius: size("radius")?,
        }),
        "box" => Ok(Shape::Box {
            x: coordinate("x")?,
            y: coordinate("y")?,
            width: size("width")?,
            height: size("height")?,
        }),
        _ => Err(cloth_error(ClothError::InvalidValue {
            field: "shape",
            value: params::quoted(&text, name.length() as usize),
            allowed: r#""ground", "circle" or "box""#.into(),
        })),
    }
}

/// Reads a collider id: a whole number from 1 to 2^32 - 1.
fn collider_id(id: &JsValue) -> Result<u32, JsValue> {
    let id = whole("id", id, u32::MAX as u64, |value| {
        ClothError::InvalidValue {
            field: "id",
            value: value.to_string(),
            allowed: "the id of a collider of this simulation".into(),
        }
    })?;
    Ok(id as u32)
}

/// A collider as the object `colliders()` returns.
fn describe_collider(collider: &Collider) -> JsValue {
    let object = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = Reflect::set(&object, &JsValue::from_str(name), &value);
    };
    let number = |v: f32| JsValue::from_f64(v as f64);
    set("id", JsValue::from_f64(collider.id as f64));
    match collider.shape {
        Shape::Ground { y } => {
            set("shape", "ground".into());
            set("y", number(y));
        }
        Shape::Circle { x, y, radius } => {
            set("shape", "circle".into());
            set("x", number(x));
            set("y", number(y));
            set("radius", number(radius));
        }
        Shape::Box {
            x,
            y,
            width,
            height,
        } => {
            set("shape", "box".into());
            set("x", number(x));
            set("y", number(y));
            set("width", number(width));
            set("height", number(height));
        }
    }
    set("vx", number(collider.velocity[0]));
    set("vy", number(collider.velocity[1]));
    object.into()
}

/// Whether this build of the module solves with wasm SIMD (`+simd128`).
#[wasm_bindgen(js_name = simdEnabled)]
pub fn simd_enabled() -> bool {
    crate::lanes::SIMD
}

/// The strain colour ramp used by `drawInto` with `strainColors`, for legends
/// and other renderers: `[[stretch, "#rrggbb"], ...]`, stretch relative
/// (`0.2` = 20 % longer than at rest); below the first stop the first colour,
/// beyond the last the last.
#[wasm_bindgen(js_name = strainRamp, unchecked_return_type = "[number, string][]")]
pub fn strain_ramp() -> js_sys::Array {
    raster::STRAIN_RAMP
        .iter()
        .map(|&(stretch, color)| {
            let stop = js_sys::Array::new();
            stop.push(&JsValue::from_f64(stretch as f64));
            stop.push(&JsValue::from_str(&raster::css_hex(color)));
            JsValue::from(stop)
        })
        .collect()
}

/// The options that shape the preset `name` and their defaults: an object of
/// `width`, `height` and `fixed` where the preset has them (`presetShape("flag")`
/// is `{ width: 24, height: 14 }`, `presetShape("double-pendulum")` is `{}`).
/// Throws an Error (field `preset`) for a name that is no preset.
#[wasm_bindgen(js_name = presetShape, unchecked_return_type = "{ width?: number; height?: number; fixed?: number }")]
pub fn preset_shape(
    #[wasm_bindgen(unchecked_param_type = "PresetName")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let Some(text) = name.dyn_ref::<JsString>() else {
        let expected = format!("the string {}", params::PRESET.expected());
        return Err(wrong_type(params::PRESET.name, &name, &expected));
    };
    let name = string_start(text);
    let name = params::PRESET
        .check_word(&name, text.length() as usize)
        .map_err(cloth_error)?;
    let shape = js_sys::Object::new();
    for &(option, default) in crate::presets::shape(name) {
        Reflect::set(
            &shape,
            &JsValue::from_str(option),
            &JsValue::from_f64(default),
        )?;
    }
    Ok(shape.into())
}

/// The colour `drawInto` gives a constraint of relative stretch `stretch`
/// (`0.2` = 20 % longer than at rest), as `"#rrggbb"`: the canvas-2D renderer
/// uses it so both renderers colour alike. Not a number: the first colour.
#[wasm_bindgen(js_name = strainColor)]
pub fn strain_color(stretch: f64) -> String {
    raster::css_hex(raster::strain_rgb(stretch as f32))
}

/// Bytes of wasm memory the module has now (it grows in 64 KiB pages and never
/// shrinks), however the module was initialised.
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        // in f64: at 4 GiB the byte count no longer fits a 32-bit usize
        core::arch::wasm32::memory_size(0) as f64 * 65536.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

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
  /** One per particle, kg; 0 pins a particle. Default: every particle 0.5 kg (the `mass` default). */
  masses?: ArrayLike<number>;
  /** Distance constraints as flat particle index pairs `[a0, b0, a1, b1, ...]`. Default: none. */
  distances?: ArrayLike<number>;
  /** N/m, 0 = rigid: one number for all (it becomes the `stiffness` parameter), or one per constraint (fixed; `stiffness` then does not apply). Default 1000. */
  distanceStiffness?: number | ArrayLike<number>;
  /** Rest length of each distance constraint, metres. Default: the distance between the start positions. */
  restLengths?: ArrayLike<number>;
  /** Area constraints. Default: none. */
  areas?: AreaSpec[];
  /** Bending constraints: "auto" (between the two neighbours on opposite sides of a particle, for a grid two apart along rows and columns), flat pairs, or "none" (the default). Their stiffness is `bendingStiffness`. */
  bending?: "auto" | "none" | ArrayLike<number>;
  /** Colliders the scene starts with. Default: none. */
  colliders?: ColliderSpec[];
}

/** The scenes of `Simulation.preset`. */
export type PresetName = "cloth" | "rope" | "double-pendulum" | "balloon" | "soft-body" | "flag" | "cloth-over-ball";
"#;

/// Most entries any array of a scene may have: more is refused before anything
/// is copied.
const MAX_SCENE_ARRAY: usize = 2 * crate::scene::MAX_SCENE_CONSTRAINTS;

/// Reads `name` of `object` (`undefined` when absent or when its getter throws).
fn property(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn scene_error(field: &'static str, index: Option<usize>, problem: String) -> JsValue {
    cloth_error(ClothError::InvalidScene {
        field,
        index,
        problem,
    })
}

/// Reads a plain array of numbers or any typed array of numbers as `f64`s;
/// `what` is said in the wrong-type message. Refuses a non-number element
/// naming it (`positions[3]`).
fn numbers(field: &'static str, value: &JsValue) -> Result<Vec<f64>, JsValue> {
    let expected = "an array of numbers or a typed array";
    let length = if js_sys::Array::is_array(value) || js_sys::ArrayBuffer::is_view(value) {
        property(value, "length").as_f64().unwrap_or(0.0)
    } else {
        return Err(wrong_type(field, value, expected));
    };
    if value.is_instance_of::<js_sys::DataView>()
        || value.is_instance_of::<js_sys::BigInt64Array>()
        || value.is_instance_of::<js_sys::BigUint64Array>()
    {
        return Err(wrong_type(field, value, expected));
    }
    if length > MAX_SCENE_ARRAY as f64 {
        return Err(scene_error(
            field,
            None,
            format!(
                "has {} entries, at most {MAX_SCENE_ARRAY} are allowed",
                Number(length)
            ),
        ));
    }
    let length = length as usize;
    let mut values = room(field, length)?;
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

/// Room for `length` values of `field`, or the out-of-memory error.
fn room<T>(field: &'static str, length: usize) -> Result<Vec<T>, JsValue> {
    crate::memory::with_capacity(length).map_err(|_| {
        cloth_error(ClothError::OutOfMemory {
            field,
            what: format!("{field} of {length} numbers"),
        })
    })
}

/// Numbers as `f32` (out-of-range values become infinite and are refused by
/// the scene's checks).
fn floats(field: &'static str, value: &JsValue) -> Result<Vec<f32>, JsValue> {
    let values = numbers(field, value)?;
    let mut result = room(field, values.len())?;
    result.extend(values.into_iter().map(|v| v as f32));
    Ok(result)
}

/// Numbers as particle indices: whole numbers from 0 to 2³² - 1; `entry`
/// says which entry of `field` index `i` belongs to (`i / 2` for pairs).
fn indices(
    field: &'static str,
    value: &JsValue,
    entry: impl Fn(usize) -> usize,
) -> Result<Vec<u32>, JsValue> {
    let values = numbers(field, value)?;
    let mut result = room(field, values.len())?;
    for (i, v) in values.into_iter().enumerate() {
        if !(v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= u32::MAX as f64) {
            return Err(scene_error(
                field,
                Some(entry(i)),
                format!(
                    "names particle {}, expected a whole-number particle index",
                    Number(v)
                ),
            ));
        }
        result.push(v as u32);
    }
    Ok(result)
}

/// A number property of a scene's entry, or `default` when absent.
fn entry_number(
    object: &JsValue,
    name: &str,
    field: &'static str,
    default: Option<f64>,
) -> Result<f64, JsValue> {
    let value = property(object, name);
    match (value.as_f64(), default) {
        (Some(v), _) => Ok(v),
        (None, Some(d)) if value.is_undefined() => Ok(d),
        (None, _) => Err(wrong_type(&format!("{field}.{name}"), &value, "a number")),
    }
}

/// The entries of an optional array of objects (`areas`, `colliders`).
fn objects(field: &'static str, value: &JsValue) -> Result<Vec<JsValue>, JsValue> {
    if value.is_undefined() {
        return Ok(Vec::new());
    }
    if !js_sys::Array::is_array(value) {
        return Err(wrong_type(field, value, "an array of objects"));
    }
    let length = property(value, "length").as_f64().unwrap_or(0.0);
    if length > MAX_SCENE_ARRAY as f64 {
        return Err(scene_error(
            field,
            None,
            format!(
                "has {} entries, at most {MAX_SCENE_ARRAY} are allowed",
                Number(length)
            ),
        ));
    }
    let mut items = Vec::new();
    for i in 0..length as u32 {
        let item = Reflect::get_u32(value, i).unwrap_or(JsValue::UNDEFINED);
        if !item.is_object() {
            return Err(wrong_type(&format!("{field}[{i}]"), &item, "an object"));
        }
        items.push(item);
    }
    Ok(items)
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
    let positions = floats("positions", &property(spec, "positions"))?;
    let masses = match property(spec, "masses") {
        v if v.is_undefined() => {
            vec![params::MASS.default_number() as f32; positions.len() / 2]
        }
        v => floats("masses", &v)?,
    };
    let distances = match property(spec, "distances") {
        v if v.is_undefined() => Vec::new(),
        v => indices("distances", &v, |k| k / 2)?,
    };
    let rest_lengths = match property(spec, "restLengths") {
        v if v.is_undefined() => None,
        v => Some(floats("restLengths", &v)?),
    };
    let stiffness = property(spec, "distanceStiffness");
    let distance_stiffness = if stiffness.is_undefined() {
        DistanceStiffness::Uniform(params::STIFFNESS.default_number())
    } else if let Some(k) = stiffness.as_f64() {
        DistanceStiffness::Uniform(k)
    } else if js_sys::Array::is_array(&stiffness) || js_sys::ArrayBuffer::is_view(&stiffness) {
        DistanceStiffness::PerConstraint(numbers("distanceStiffness", &stiffness)?)
    } else {
        return Err(wrong_type(
            "distanceStiffness",
            &stiffness,
            "a number or an array of numbers",
        ));
    };
    let mut areas = Vec::new();
    for (i, area) in objects("areas", &property(spec, "areas"))?
        .iter()
        .enumerate()
    {
        let particles = property(area, "particles");
        if particles.is_undefined() {
            return Err(scene_error(
                "areas",
                Some(i),
                "has no particles, expected an array of at least 3 particle indices".into(),
            ));
        }
        areas.push(AreaSpec {
            particles: indices("areas", &particles, |_| i)?,
            stiffness: entry_number(area, "stiffness", "areas", Some(0.0))?,
            pressure: entry_number(area, "pressure", "areas", Some(1.0))?,
        });
    }
    let bending = property(spec, "bending");
    let bending = match bending.as_string().as_deref() {
        _ if bending.is_undefined() || bending.is_null() => Bending::None,
        Some("none") => Bending::None,
        Some("auto") => Bending::Auto,
        Some(_) => {
            return Err(wrong_type(
                "bending",
                &bending,
                "\"auto\", \"none\" or an array of particle index pairs",
            ))
        }
        None => Bending::Pairs(indices("bending", &bending, |k| k / 2)?),
    };
    let mut colliders = Vec::new();
    for (i, collider) in objects("colliders", &property(spec, "colliders"))?
        .iter()
        .enumerate()
    {
        let shape = property(collider, "shape").as_string();
        let number = |name| entry_number(collider, name, "colliders", None).map(|v| v as f32);
        colliders.push(match shape.as_deref() {
            Some("ground") => Shape::Ground { y: number("y")? },
            Some("circle") => Shape::Circle {
                x: number("x")?,
                y: number("y")?,
                radius: number("radius")?,
            },
            Some("box") => Shape::Box {
                x: number("x")?,
                y: number("y")?,
                width: number("width")?,
                height: number("height")?,
            },
            _ => {
                return Err(scene_error(
                    "colliders",
                    Some(i),
                    "has no shape \"ground\", \"circle\" or \"box\"".into(),
                ))
            }
        });
    }
    Ok(Scene {
        positions,
        masses,
        distances,
        rest_lengths,
        distance_stiffness,
        colors: None,
        areas,
        bending,
        colliders,
    })
}

/// Reads the options object of `Simulation.preset`: each own property a
/// number, string or boolean, named as the parameter table names it.
fn read_options(options: &JsValue) -> Result<Vec<(String, Value)>, JsValue> {
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
        let value = if let Some(v) = value.as_f64() {
            Value::Number(v)
        } else if let Some(b) = value.as_bool() {
            Value::Flag(b)
        } else if let Some(text) = value.dyn_ref::<JsString>() {
            let parameter = params::PARAMETERS
                .iter()
                .find(|p| p.name == name && matches!(p.rule, params::Rule::Words(_)));
            let start = string_start(text);
            let word = match parameter {
                Some(p) => p.check_word(&start, text.length() as usize),
                None => Err(params::invalid(
                    "options",
                    params::quoted(&name, name.len()),
                    "a parameter that takes a string (solverOrder)",
                )),
            };
            let word = word.map_err(cloth_error)?;
            // the table's own word, which lives as long as the program
            let word = match parameter.map(|p| p.rule) {
                Some(params::Rule::Words(words)) => {
                    words.iter().copied().find(|w| *w == word).unwrap_or("")
                }
                _ => "",
            };
            Value::Word(word)
        } else if value.is_undefined() {
            continue;
        } else {
            let field = if params::PARAMETERS.iter().any(|p| p.name == name) {
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
    /// or per-constraint stiffness, area and bending constraints, colliders.
    /// Every malformed entry throws an Error with `code` `"invalid_scene"`
    /// whose message names it (`invalid scene: distances[7] joins particle 3
    /// to itself`); a value of the wrong type throws `"wrong_type"`.
    #[wasm_bindgen(js_name = fromScene)]
    pub fn from_scene(
        #[wasm_bindgen(unchecked_param_type = "SceneSpec")] scene: JsValue,
    ) -> Result<Simulation, JsValue> {
        console_error_panic_hook::set_once();
        let scene = read_scene(&scene)?;
        let cloth = Cloth::from_scene(&scene).map_err(cloth_error)?;
        Ok(Simulation {
            cloth,
            frame: Frame::default(),
            last_drawn: Rect::default(),
        })
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
        let Some(text) = name.dyn_ref::<JsString>() else {
            return Err(wrong_type(
                params::PRESET.name,
                &name,
                &format!("the string {}", params::PRESET.expected()),
            ));
        };
        let name = string_start(text);
        let name = params::PRESET
            .check_word(&name, text.length() as usize)
            .map_err(cloth_error)?;
        let options = read_options(&options)?;
        let options: Vec<(&str, Value)> = options.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let cloth = Cloth::from_preset(name, &options).map_err(cloth_error)?;
        Ok(Simulation {
            cloth,
            frame: Frame::default(),
            last_drawn: Rect::default(),
        })
    }
}
