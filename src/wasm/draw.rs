//! `drawInto`: the cloth rasterized in wasm (see [`crate::raster`]) and copied
//! onto a canvas in one `putImageData`, whole or in pieces, and the strain
//! colours for other renderers. Everything about a call (the context, the
//! canvas' size, the view, the colours) is read and checked before anything
//! is drawn.

use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData, OffscreenCanvasRenderingContext2d};

use super::convert::{error, property, string_start, wrong_type};
use super::reentry::Reading;
use super::Simulation;
use crate::contacts::MAX_COLLIDERS;
use crate::error::{quoted, Number, Plain};
use crate::model::Shape;
use crate::raster::{self, Drawing, Frame, Rect, Style, View, MAX_FRAME_PIXELS};

/// Largest `view.pixelRatio` (backing-store pixels per CSS pixel).
const MAX_PIXEL_RATIO: f64 = 16.0;
/// Largest `view.particleRadius`, CSS pixels.
const MAX_PARTICLE_RADIUS: f64 = 100.0;
/// Largest `view.originX`/`originY` magnitude and `view.scale`, CSS pixels.
const MAX_VIEW_PX: f64 = 1e7;

#[wasm_bindgen]
impl Simulation {
    /// Draws the cloth onto the whole canvas of `ctx` in one `putImageData`,
    /// rasterized in wasm (faster than canvas paths for big cloths; see README).
    /// `view` is `{ originX, originY, scale, pixelRatio = 1, particleRadius = 2.5,
    /// strainColors = false, full = false }`: origin in CSS pixels from the
    /// canvas' top-left corner, `scale` in CSS pixels per metre, `pixelRatio`
    /// backing-store pixels per CSS pixel, `particleRadius` in CSS pixels.
    /// Between calls only the area the cloth covered changes on the canvas; pass
    /// `full: true` when something else has drawn on it (or cleared it) since.
    ///
    /// In pieces: with `maxShapes` (a whole number from 1), a call draws at
    /// most that many shapes (a line per constraint, a disc per particle) and
    /// returns how many are left; the next calls with the same context and
    /// view go on, and the one that draws the last puts the picture on the
    /// canvas and returns 0. Until then the canvas shows the last picture. A
    /// call after anything changed the simulation (a step, a drag, a setter)
    /// or with another context, canvas size, view or colours starts the
    /// picture over, so it never mixes two states. Without `maxShapes` a call
    /// draws everything left (the picture in progress, if it can go on) and
    /// returns 0. May grow wasm memory: re-fetch views afterwards.
    #[wasm_bindgen(js_name = drawInto)]
    pub fn draw_into(
        &mut self,
        #[wasm_bindgen(
            unchecked_param_type = "CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D"
        )]
        ctx: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ originX: number; originY: number; scale: number; pixelRatio?: number; particleRadius?: number; strainColors?: boolean; full?: boolean; maxShapes?: number }"
        )]
        view: JsValue,
    ) -> Result<u32, JsValue> {
        // An exception thrown by JavaScript in the middle of this call would leave
        // the simulation borrowed for good, so check everything before calling out.
        let reading = Reading::begin("view")?;
        let request = DrawRequest::read(&ctx, &view)?;
        drop(reading);
        match request {
            Some(request) => self.present(&request, &ctx),
            None => Ok(0), // a canvas without pixels: nothing to draw
        }
    }
}

/// The numbers of a `drawInto` view, in the order they are read and checked:
/// field, default (`None`: required) and range.
const VIEW_NUMBERS: [(&str, Option<f64>, (f64, f64)); 5] = [
    ("view.pixelRatio", Some(1.0), (1e-3, MAX_PIXEL_RATIO)),
    ("view.originX", None, (-MAX_VIEW_PX, MAX_VIEW_PX)),
    ("view.originY", None, (-MAX_VIEW_PX, MAX_VIEW_PX)),
    ("view.scale", None, (1e-6, MAX_VIEW_PX)),
    ("view.particleRadius", Some(2.5), (0.0, MAX_PARTICLE_RADIUS)),
];

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
    /// `maxShapes`: the most shapes this call draws; all that are left if `None`.
    most: Option<usize>,
}

impl<'a> DrawRequest<'a> {
    /// Reads `ctx` and `view` of a `drawInto` call with every check; `None`
    /// when the canvas has no pixels. Never calls into JavaScript code that
    /// could throw (getters are read through `Reflect`).
    fn read(ctx: &'a JsValue, view: &JsValue) -> Result<Option<Self>, JsValue> {
        let ctx = context_2d(ctx).ok_or_else(|| {
            wrong_type(
                "ctx",
                ctx,
                "a CanvasRenderingContext2D or OffscreenCanvasRenderingContext2D (canvas.getContext('2d'))",
            )
        })?;
        if !view.is_object() {
            return Err(wrong_type(
                "view",
                view,
                "an object { originX, originY, scale, ... }",
            ));
        }
        let mut numbers = [0.0; VIEW_NUMBERS.len()];
        for (number, &(field, default, range)) in numbers.iter_mut().zip(&VIEW_NUMBERS) {
            *number = view_number(view, field, default, range, false)?;
        }
        let [ratio, origin_x, origin_y, scale, radius] = numbers;
        let flag = |name: &str| property(view, name).is_truthy();
        let (strain, full) = (flag("strainColors"), flag("full"));
        let most = read_max_shapes(view)?;
        let Some((width, height)) = canvas_size(ctx)? else {
            return Ok(None); // a canvas without pixels
        };
        let style = read_style(view, ratio, radius, strain)?;
        Ok(Some(DrawRequest {
            ctx,
            width,
            height,
            view: View {
                origin_x: (origin_x * ratio) as f32,
                origin_y: (origin_y * ratio) as f32,
                scale: (scale * ratio) as f32,
            },
            style,
            full,
            most,
        }))
    }
}

/// The largest `view.maxShapes`.
const MAX_SHAPES: f64 = u32::MAX as f64;

/// `view.maxShapes`: a whole number from 1 to 2^32 - 1, or `None` when absent.
fn read_max_shapes(view: &JsValue) -> Result<Option<usize>, JsValue> {
    // NaN stands for absent: a NaN given is refused by `view_number`
    let most = view_number(
        view,
        "view.maxShapes",
        Some(f64::NAN),
        (1.0, MAX_SHAPES),
        true,
    )?;
    if most.is_nan() {
        return Ok(None);
    }
    Ok(Some(most as usize))
}

/// A picture being drawn in pieces: what it was begun with, and where it stands.
pub(super) struct Pending {
    /// The context it is for (compared with `===`).
    ctx: JsValue,
    width: usize,
    height: usize,
    view: View,
    style: Style,
    /// Begun over a frame repainted whole.
    full: bool,
    /// The cloth's change count when it began.
    changes: u64,
    /// What the canvas must have copied again with it: where the last picture was.
    stale: Rect,
    drawing: Drawing,
}

impl Pending {
    /// Whether a call of `request` on `ctx`, the cloth at `changes`, goes on
    /// with this picture: nothing it was begun with differs, and no full
    /// repaint is asked of one begun without.
    fn goes_on_with(&self, request: &DrawRequest, ctx: &JsValue, changes: u64) -> bool {
        self.ctx == *ctx
            && (self.width, self.height) == (request.width, request.height)
            && self.view == request.view
            && self.style == request.style
            && (self.full || !request.full)
            && self.changes == changes
    }
}

/// `ctx` as a 2D context: a page canvas' or an `OffscreenCanvas`' (in a
/// worker). The calls made on it (`canvas`, `putImageData`) are structural,
/// so the page's binding serves both.
fn context_2d(ctx: &JsValue) -> Option<&CanvasRenderingContext2d> {
    if let Some(page) = ctx.dyn_ref::<CanvasRenderingContext2d>() {
        return Some(page);
    }
    ctx.dyn_ref::<OffscreenCanvasRenderingContext2d>()
        .map(|_| ctx.unchecked_ref::<CanvasRenderingContext2d>())
}

/// The size in pixels of the canvas of `ctx`, each side and their product at
/// most [`MAX_FRAME_PIXELS`] (so is every pixel index); `None` when it has no
/// pixels.
fn canvas_size(ctx: &CanvasRenderingContext2d) -> Result<Option<(usize, usize)>, JsValue> {
    // `property` catches what a patched getter might throw.
    let canvas = property(ctx, "canvas");
    // The size stays an f64 until it is known to be small: in usize (32
    // bits in wasm) width × height wraps, and 65536 × 65536 would pass as 0.
    let size = |name: &str| property(&canvas, name).as_f64().filter(|v| *v >= 0.0);
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
    Ok(Some((width as usize, height as usize)))
}

/// The style of a `drawInto` view: the sizes for `ratio` backing-store pixels
/// per CSS pixel and a particle radius of `radius` CSS pixels, strain colours
/// on or off, and each colour the view gives (the look's own otherwise).
fn read_style(view: &JsValue, ratio: f64, radius: f64, strain: bool) -> Result<Style, JsValue> {
    let mut style = Style::with_pixel_ratio(ratio as f32, radius as f32);
    style.strain_colors = strain;
    let Style {
        background,
        constraint,
        particle,
        grabbed,
        axes,
        collider,
        body,
        ..
    } = &mut style;
    // in the order of `VIEW_COLORS`
    let colors = [
        background,
        constraint,
        particle,
        grabbed,
        &mut axes.0,
        &mut axes.1,
        &mut collider.0,
        &mut collider.1,
        &mut body.0,
        &mut body.1,
    ];
    for (field, color) in VIEW_COLORS.iter().zip(colors) {
        *color = view_color(view, field, *color)?;
    }
    Ok(style)
}

/// The colours of a `drawInto` view, in the order they are read and checked.
static VIEW_COLORS: [&str; 10] = [
    "view.backgroundColor",
    "view.constraintColor",
    "view.particleColor",
    "view.grabbedColor",
    "view.xAxisColor",
    "view.yAxisColor",
    "view.colliderColor",
    "view.colliderEdgeColor",
    "view.bodyColor",
    "view.bodyEdgeColor",
];

/// Reads colour `field` (`"view.particleColor"`, ...) of a `drawInto` view: a
/// string `"#rrggbb"` (opaque), or `default` when absent. Never throws from a
/// getter (it counts as absent).
fn view_color(
    view: &JsValue,
    field: &'static str,
    default: raster::Rgba,
) -> Result<raster::Rgba, JsValue> {
    let name = field.strip_prefix("view.").unwrap_or(field);
    let value = property(view, name);
    if value.is_undefined() {
        return Ok(default);
    }
    let Some(text) = value.dyn_ref::<JsString>() else {
        return Err(wrong_type(field, &value, r##"a colour string "#rrggbb""##));
    };
    let start = string_start(text);
    // six hex digits, read digit by digit (no `from_str_radix` in the module)
    let rgb = start
        .strip_prefix('#')
        .filter(|h| text.length() == 7 && h.len() == 6)
        .and_then(|h| {
            h.bytes()
                .try_fold(0, |rgb, b| Some(rgb << 4 | char::from(b).to_digit(16)?))
        });
    match rgb {
        Some(rgb) => Ok(raster::rgb(rgb)),
        None => Err(error(
            field,
            "invalid_value",
            &format!(
                "invalid {field}: got {}, expected a colour \"#rrggbb\"",
                quoted(&start, text.length() as usize)
            ),
        )),
    }
}

impl Simulation {
    /// Draws the cloth as `request` says into the frame, in one piece or the
    /// next piece of a picture in progress (see `drawInto`), and once the
    /// picture is whole copies the part that changed since the last one onto
    /// the canvas. Returns the shapes left to draw.
    fn present(&mut self, request: &DrawRequest, ctx: &JsValue) -> Result<u32, JsValue> {
        let DrawRequest {
            ctx: context,
            view,
            ref style,
            most,
            ..
        } = *request;
        // the shapes on the stack: drawing allocates nothing but its frame
        // (filled by a loop: a constant array would be written out store by
        // store, a kilobyte of code)
        let colliders = self.cloth.colliders();
        let shapes: [Shape; MAX_COLLIDERS] = std::array::from_fn(|k| {
            colliders
                .get(k)
                .map_or(Shape::Ground { y: 0.0 }, |collider| collider.shape)
        });
        let cloth = raster::Cloth {
            positions: self.cloth.positions(),
            constraint_ids: self.cloth.constraint_ids(),
            rest_lengths: self.cloth.rest_lengths(),
            grabbed: self.cloth.grabbed(),
            colliders: &shapes[..colliders.len().min(MAX_COLLIDERS)],
            bodies: Some(&self.cloth.kinds().bodies),
        };
        let changes = self.cloth.changes();
        let goes_on = self
            .pending
            .as_ref()
            .is_some_and(|pending| pending.goes_on_with(request, ctx, changes));
        let mut pending = match self.pending.take() {
            Some(pending) if goes_on => pending,
            abandoned => begin_picture(
                &mut self.frame,
                self.last_drawn,
                abandoned,
                request,
                ctx,
                &cloth,
                changes,
            )?,
        };
        let most = most.unwrap_or(usize::MAX);
        pending
            .drawing
            .draw_some(&mut self.frame, &cloth, view, style, most);
        if !pending.drawing.is_done() {
            let left = pending.drawing.shapes_left();
            self.pending = Some(pending);
            return Ok(u32::try_from(left).unwrap_or(u32::MAX));
        }
        let drawn = pending.drawing.drawn();
        self.last_drawn = drawn;
        let dirty = pending.stale.union(drawn);
        if dirty.is_empty() {
            return Ok(0);
        }
        put(context, &self.frame, dirty)?;
        Ok(0)
    }
}

/// A new picture for `request` on `ctx`, the cloth at `changes`: the frame is
/// repainted whole (a new size, or `full`), or cleared where the canvas shows
/// the last picture and where an `abandoned` one drew (the canvas never saw it).
/// Only what the last picture and this one cover changes on the canvas: that
/// is cleared and copied, not the whole image (the copy is most of the cost).
fn begin_picture(
    frame: &mut Frame,
    last_drawn: Rect,
    abandoned: Option<Pending>,
    request: &DrawRequest,
    ctx: &JsValue,
    cloth: &raster::Cloth,
    changes: u64,
) -> Result<Pending, JsValue> {
    let (width, height, style) = (request.width, request.height, &request.style);
    let resized = (frame.width(), frame.height()) != (width, height);
    let stale = if resized || request.full {
        frame
            .resize(width, height, style.background) // `canvas_size` checked the size
            .map_err(|e| error(e.field(), e.code(), &format!("drawInto: {e}")))?;
        Rect {
            x0: 0,
            y0: 0,
            x1: width,
            y1: height,
        }
    } else {
        let stale = abandoned.as_ref().map_or(last_drawn, |p| p.stale);
        let partial = abandoned.map_or(Rect::default(), |p| p.drawing.drawn());
        frame.clear(stale.union(partial), style.background);
        stale
    };
    Ok(Pending {
        ctx: ctx.clone(),
        width,
        height,
        view: request.view,
        style: *style,
        full: request.full || resized,
        changes,
        stale,
        drawing: Drawing::start(frame, cloth, request.view, style),
    })
}

/// Copies the `dirty` rectangle of `frame` onto the canvas of `ctx`.
fn put(ctx: &CanvasRenderingContext2d, frame: &Frame, dirty: Rect) -> Result<(), JsValue> {
    let image = ImageData::new_with_u8_clamped_array_and_sh(
        Clamped(frame.bytes()),
        frame.width() as u32,
        frame.height() as u32,
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

/// Reads `field` (`"view.scale"`, ...) of the view object: a number from
/// `min` to `max` (a whole number if `whole`), or `default` when absent.
/// Reading never throws (a throwing getter counts as absent), so the
/// simulation is never left mid-call.
fn view_number(
    view: &JsValue,
    field: &'static str,
    default: Option<f64>,
    (min, max): (f64, f64),
    whole: bool,
) -> Result<f64, JsValue> {
    let name = field.strip_prefix("view.").unwrap_or(field);
    let value = property(view, name);
    let expected = |kind: &str| format!("a {kind}number from {} to {}", Plain(min), Plain(max));
    let in_range = |v: f64| v.is_finite() && (min..=max).contains(&v);
    match (value.as_f64(), default) {
        (Some(v), _) if in_range(v) && !(whole && v.fract() != 0.0) => Ok(v),
        (Some(v), _) => Err(error(
            field,
            "invalid_value",
            &format!(
                "invalid {field}: got {}, expected {}",
                Number(v),
                // in range, it is not whole
                expected(if in_range(v) { "whole " } else { "" })
            ),
        )),
        (None, Some(d)) if value.is_undefined() => Ok(d),
        (None, _) => Err(wrong_type(field, &value, &expected(""))),
    }
}

/// The strain colour ramp used by `drawInto` with `strainColors`, for legends
/// and other renderers: `[[stretch, "#rrggbb"], ...]`, stretch relative
/// (`0.2` = 20 % longer than at rest); below the first stop the first colour,
/// beyond the last the last.
#[wasm_bindgen(js_name = strainRamp, unchecked_return_type = "[number, string][]")]
pub fn strain_ramp() -> js_sys::Array {
    // a slice read as data (`black_box`), not the loop unrolled five times
    let stops: &[(f32, u32)] = std::hint::black_box(&raster::STRAIN_RAMP);
    stops
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
