//! The JavaScript face of the crate: `Simulation`, a thin `wasm-bindgen` layer over
//! [`Cloth`].
//!
//! Everything exported to JavaScript lives in the one `#[wasm_bindgen] impl` block
//! below; the plain `impl` holds Rust-side helpers. Numbers arrive as `JsValue`
//! and are checked to really be numbers, so `sim.mass = "heavy"` throws an `Error`
//! instead of being silently coerced to `NaN` or `0`. Every error is a JavaScript
//! `Error` whose message names the argument; a refused call changes nothing.
//!
//! Big arrays stay in wasm memory: [`Simulation::positions`] and
//! [`Simulation::constraints`] return typed-array *views* over it, without
//! copying. A view dies when wasm memory grows (any call that allocates: building
//! a new `Simulation`, for instance), so fetch a fresh one each frame.

use js_sys::{Float32Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData};

use crate::cloth::Cloth;
use crate::params::{self, ClothError, Parameter, ParameterValue, SolverOrder, Value};
use crate::raster::{self, Frame, Rect, Style, View};

/// Largest canvas `drawInto` rasterizes, in pixels (4096 × 4096: 64 MiB of frame).
const MAX_FRAME_PIXELS: usize = 4096 * 4096;
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

fn js_error(error: ClothError) -> JsError {
    JsError::new(&error.to_string())
}

/// Reads a JavaScript number, refusing every other type by name.
fn number(field: &str, value: &JsValue) -> Result<f64, JsError> {
    value.as_f64().ok_or_else(|| {
        let got = value
            .js_typeof()
            .as_string()
            .unwrap_or_else(|| "unknown".into());
        JsError::new(&format!(
            "invalid {field}: got a value of type {got}, expected a number"
        ))
    })
}

/// How a solver parameter's setter reads its JavaScript value: numbers as
/// numbers (the table's rule is checked by the `Cloth` setter), words as short
/// strings.
trait FromJs: Sized {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<Self, JsError>;
}

impl FromJs for f64 {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<f64, JsError> {
        number(parameter.name, value)
    }
}

impl FromJs for SolverOrder {
    fn from_js(parameter: &Parameter, value: &JsValue) -> Result<SolverOrder, JsError> {
        let word = word(parameter, value)?;
        let name = parameter.check_word(&word).map_err(js_error)?;
        SolverOrder::from_name(name).map_err(js_error)
    }
}

/// Longest string a word parameter reads into wasm memory; anything longer is
/// refused before it is copied.
const MAX_WORD_CHARS: u32 = 64;

/// Reads a short JavaScript string for `parameter`, refusing other types and
/// long strings without copying them.
fn word(parameter: &Parameter, value: &JsValue) -> Result<String, JsError> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
        return Err(JsError::new(&format!(
            "invalid {}: expected {}",
            parameter.name,
            parameter.kind()
        )));
    };
    // Only a prefix of a long string is copied: enough for the message, which
    // shows no more than `Prefix::MAX_CHARS` characters of it.
    let end = text.length().min(MAX_WORD_CHARS + 1);
    Ok(String::from(text.slice(0, end)))
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
                ) -> Result<(), JsError> {
                    let value = FromJs::from_js(&params::$entry, &value)?;
                    self.cloth.$setter(value).map_err(js_error)
                }
            )*
        }
    };
}

crate::with_solver_parameters!(solver_accessors);

impl Simulation {
    /// Reads field `name` of the view object: a number from `min` to `max`, or
    /// `default` when absent. Reading never throws (a throwing getter counts as
    /// absent), so the simulation is never left mid-call.
    fn view_number(
        view: &JsValue,
        name: &str,
        default: Option<f64>,
        (min, max): (f64, f64),
    ) -> Result<f64, JsError> {
        let value = Reflect::get(view, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        match (value.as_f64(), default) {
            (Some(v), _) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
            (None, Some(d)) if value.is_undefined() => Ok(d),
            _ => Err(JsError::new(&format!(
                "invalid view.{name}: expected a number from {min} to {max}"
            ))),
        }
    }
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a `width × height` cloth (2..=1000 each, at most 250000 particles)
    /// with 1, 2 or 4 fixed corners and default parameters. Throws an `Error`
    /// naming the bad argument.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
        #[wasm_bindgen(js_name = fixed, unchecked_param_type = "number")] fixed: JsValue,
    ) -> Result<Simulation, JsError> {
        console_error_panic_hook::set_once();
        let width = number("width", &width)?;
        let height = number("height", &height)?;
        let fixed = number(params::FIXED.name, &fixed)?;
        let cloth = Cloth::from_numbers(width, height, fixed).map_err(js_error)?;
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

    /// Advances `n` time steps in one call; `n` is a whole number 0..=10000.
    pub fn steps(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> Result<(), JsError> {
        let n = number("steps", &n)?;
        self.cloth.steps(n).map_err(js_error)
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

    /// Constraint endpoints `[a0, b0, a1, b1, ...]`: a `Uint32Array` view over wasm
    /// memory, with the same lifetime rules as `positions()`.
    pub fn constraints(&self) -> Uint32Array {
        // SAFETY: as for `positions`.
        unsafe { Uint32Array::view(self.cloth.constraint_ids()) }
    }

    /// Rest length of each constraint in metres, in the order of `constraints()`:
    /// a `Float32Array` view, same lifetime rules as `positions()`.
    #[wasm_bindgen(js_name = restLengths)]
    pub fn rest_lengths(&self) -> Float32Array {
        // SAFETY: as for `positions`; the array changes only when constraints tear
        // or the order changes, after which views must be re-fetched.
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
    ) -> Result<(), JsError> {
        // An exception thrown by JavaScript in the middle of this call would leave
        // the simulation borrowed for good, so check everything before calling out.
        let ctx = ctx.dyn_ref::<CanvasRenderingContext2d>().ok_or_else(|| {
            JsError::new(
                "invalid ctx: expected a CanvasRenderingContext2D (canvas.getContext('2d'))",
            )
        })?;
        let ratio = Self::view_number(&view, "pixelRatio", Some(1.0), (1e-3, MAX_PIXEL_RATIO))?;
        let origin_x = Self::view_number(&view, "originX", None, (-MAX_VIEW_PX, MAX_VIEW_PX))?;
        let origin_y = Self::view_number(&view, "originY", None, (-MAX_VIEW_PX, MAX_VIEW_PX))?;
        let scale = Self::view_number(&view, "scale", None, (1e-6, MAX_VIEW_PX))?;
        let radius = Self::view_number(
            &view,
            "particleRadius",
            Some(2.5),
            (0.0, MAX_PARTICLE_RADIUS),
        )?;
        let flag = |name: &str| {
            Reflect::get(&view, &JsValue::from_str(name))
                .map(|v| v.is_truthy())
                .unwrap_or(false)
        };
        let (strain, full) = (flag("strainColors"), flag("full"));
        // Reflect::get catches what a patched getter might throw.
        let read = |object: &JsValue, name: &str| {
            Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let canvas = read(ctx, "canvas");
        let size = |name: &str| read(&canvas, name).as_f64().filter(|v| *v >= 0.0);
        let (Some(width), Some(height)) = (size("width"), size("height")) else {
            return Err(JsError::new(
                "drawInto: the context has no canvas with a size",
            ));
        };
        let (width, height) = (width as usize, height as usize);
        if width == 0 || height == 0 {
            return Ok(());
        }
        if width * height > MAX_FRAME_PIXELS {
            return Err(JsError::new(&format!(
                "drawInto: the canvas is {width} × {height} pixels; the wasm renderer draws at \
                 most {MAX_FRAME_PIXELS} (use a smaller canvas or canvas-2D drawing)"
            )));
        }
        let view = View {
            origin_x: (origin_x * ratio) as f32,
            origin_y: (origin_y * ratio) as f32,
            scale: (scale * ratio) as f32,
        };
        let mut style = Style::with_pixel_ratio(ratio as f32, radius as f32);
        style.strain_colors = strain;
        let cloth = raster::Cloth {
            positions: self.cloth.positions(),
            constraint_ids: self.cloth.constraint_ids(),
            rest_lengths: self.cloth.rest_lengths(),
            grabbed: self.cloth.grabbed(),
        };
        // Only what the last frame and this one cover changes on the canvas:
        // clear and copy that, not the whole image (the copy is most of the cost).
        let resized = (self.frame.width(), self.frame.height()) != (width, height);
        let stale = if resized || full {
            self.frame.reset(width, height, style.background);
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
        let drawn = raster::draw(&mut self.frame, &cloth, view, &style);
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
        .map_err(|_| JsError::new("drawInto: could not make an ImageData"))?;
        ctx.put_image_data_with_dirty_x_and_dirty_y_and_dirty_width_and_dirty_height(
            &image,
            0.0,
            0.0,
            dirty.x0 as f64,
            dirty.y0 as f64,
            (dirty.x1 - dirty.x0) as f64,
            (dirty.y1 - dirty.y0) as f64,
        )
        .map_err(|_| JsError::new("drawInto: putImageData failed"))
    }

    /// Index of the particle nearest to `(x, y)` (metres) within `radius` metres,
    /// or -1 when none is that close.
    pub fn pick(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] radius: JsValue,
    ) -> Result<i32, JsError> {
        let found = self
            .cloth
            .pick(
                number("x", &x)?,
                number("y", &y)?,
                number("radius", &radius)?,
            )
            .map_err(js_error)?;
        Ok(found.map_or(-1, |k| k as i32))
    }

    /// Holds particle `index`: it stops moving on its own and follows `drag`.
    pub fn grab(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<(), JsError> {
        let index = number("index", &index)?;
        self.cloth.grab(index).map_err(js_error)
    }

    /// Puts the held particle exactly at `(x, y)`, in metres (no-op if none is held).
    pub fn drag(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] x: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] y: JsValue,
    ) -> Result<(), JsError> {
        let (x, y) = (number("x", &x)?, number("y", &y)?);
        self.cloth.drag(x, y).map_err(js_error)
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
    ) -> Result<(), JsError> {
        let index = number("index", &index)?;
        let pinned = pinned
            .as_bool()
            .ok_or_else(|| JsError::new("invalid pinned: expected true or false"))?;
        self.cloth.set_pinned(index, pinned).map_err(js_error)
    }

    /// Whether particle `index` is pinned.
    #[wasm_bindgen(js_name = isPinned)]
    pub fn is_pinned(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> Result<bool, JsError> {
        let index = number("index", &index)?;
        self.cloth.is_pinned(index).map_err(js_error)
    }
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
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
