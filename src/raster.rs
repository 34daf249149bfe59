//! A small software rasterizer that draws the cloth into an RGBA pixel buffer.
//!
//! Canvas 2D is slow at tens of thousands of tiny anti-aliased lines, above all
//! without a GPU: every segment goes through the general path machinery. A
//! cloth needs only three shapes (1-pixel lines, small discs, short axes), so
//! drawing them here, straight into pixels, and handing the finished image to
//! the canvas in one `putImageData` is several times faster (`scripts/bench.sh`
//! measures both). Lines use Xiaolin Wu's algorithm: two pixels per step along
//! the major axis, each weighted by its coverage, so edges stay smooth.
//!
//! Pure Rust, no browser types: the wasm layer only hands the buffer over.

use crate::error::ClothError;
use crate::memory;
use crate::model::Shape;

/// Largest frame, in pixels (4096 × 4096: 64 MiB). Every index into a frame is
/// below it, so no pixel arithmetic overflows, even in 32 bits.
pub const MAX_FRAME_PIXELS: usize = 4096 * 4096;

/// A colour as `0xAABBGGRR`: the byte order `R, G, B, A` of `ImageData` on a
/// little-endian machine (wasm is little-endian).
pub type Rgba = u32;

/// Builds an opaque colour from `0xRRGGBB`.
pub const fn rgb(hex: u32) -> Rgba {
    let (r, g, b) = ((hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff);
    0xff00_0000 | (b << 16) | (g << 8) | r
}

/// The picture's colours (`0xRRGGBB`) and sizes (CSS pixels), written once: the
/// rasterizer draws with them ([`Style::with_pixel_ratio`]) and the canvas-2D
/// renderer reads them from `www/style.js`, generated from this by
/// `tests/generated.rs`. Strain colours are [`STRAIN_RAMP`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// Background.
    pub background: u32,
    /// Constraints (when not coloured by strain).
    pub constraint: u32,
    /// Particles.
    pub particle: u32,
    /// The held particle.
    pub grabbed: u32,
    /// The x axis at the origin.
    pub x_axis: u32,
    /// The y axis at the origin.
    pub y_axis: u32,
    /// Constraint line width.
    pub line_width: f32,
    /// Particle radius.
    pub particle_radius: f32,
    /// Largest particle radius in metres, so particles zoomed far out do not
    /// merge into a blob (0.3 × the 0.2 m grid spacing).
    pub particle_radius_metres: f32,
    /// Smallest particle radius, however far out.
    pub min_particle_radius: f32,
    /// Radius of the held particle.
    pub grabbed_radius: f32,
    /// Length of each axis.
    pub axis_length: f32,
    /// Width of the axes.
    pub axis_width: f32,
    /// Inside of a collider.
    pub collider: u32,
    /// Outline of a collider.
    pub collider_edge: u32,
    /// Width of a collider's outline; the ground's is this, and a band of
    /// [`Look::ground_band`] below it is filled.
    pub collider_edge_width: f32,
    /// Height of the filled band under the ground line.
    pub ground_band: f32,
}

/// The original demo's look.
pub const LOOK: Look = Look {
    background: 0xffffff,
    constraint: 0x999999,
    particle: 0x1f5fd1,
    grabbed: 0xe01b1b,
    x_axis: 0xe01b1b,
    y_axis: 0x1a9c2a,
    line_width: 1.0,
    particle_radius: 2.5,
    particle_radius_metres: 0.06,
    min_particle_radius: 0.75,
    grabbed_radius: 6.0,
    axis_length: 30.0,
    axis_width: 2.0,
    collider: 0xdfe4ec,
    collider_edge: 0x5b6472,
    collider_edge_width: 2.0,
    ground_band: 12.0,
};

/// Colours and sizes of the picture, in device pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Background colour.
    pub background: Rgba,
    /// Constraint colour (when not coloured by strain).
    pub constraint: Rgba,
    /// Constraint line width, device pixels.
    pub line_width: f32,
    /// Particle colour.
    pub particle: Rgba,
    /// Particle radius, device pixels (0 draws no particles).
    pub particle_radius: f32,
    /// Grabbed particle colour.
    pub grabbed: Rgba,
    /// Grabbed particle radius, device pixels.
    pub grabbed_radius: f32,
    /// Colours of the x and y axes.
    pub axes: (Rgba, Rgba),
    /// Length of the axes at the origin, device pixels.
    pub axis_length: f32,
    /// Width of the axes, device pixels.
    pub axis_width: f32,
    /// Colour constraints by their stretch (see [`strain_color`]).
    pub strain_colors: bool,
    /// Inside and outline colours of colliders.
    pub collider: (Rgba, Rgba),
    /// Width of a collider's outline, device pixels.
    pub collider_edge_width: f32,
    /// Height of the band under the ground line, device pixels.
    pub ground_band: f32,
}

impl Style {
    /// [`LOOK`] at a given pixel ratio, with particles of `particle_radius` CSS
    /// pixels (the caller caps it for the zoom, see `LOOK.particle_radius_metres`).
    pub fn with_pixel_ratio(pixel_ratio: f32, particle_radius: f32) -> Style {
        Style {
            background: rgb(LOOK.background),
            constraint: rgb(LOOK.constraint),
            line_width: LOOK.line_width * pixel_ratio,
            particle: rgb(LOOK.particle),
            particle_radius: particle_radius * pixel_ratio,
            grabbed: rgb(LOOK.grabbed),
            grabbed_radius: LOOK.grabbed_radius * pixel_ratio,
            axes: (rgb(LOOK.x_axis), rgb(LOOK.y_axis)),
            axis_length: LOOK.axis_length * pixel_ratio,
            axis_width: LOOK.axis_width * pixel_ratio,
            collider: (rgb(LOOK.collider), rgb(LOOK.collider_edge)),
            collider_edge_width: LOOK.collider_edge_width * pixel_ratio,
            ground_band: LOOK.ground_band * pixel_ratio,
            strain_colors: false,
        }
    }
}

/// Where the world is in the image: origin in device pixels, y up, and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Device pixels from the left edge to the world origin.
    pub origin_x: f32,
    /// Device pixels from the top edge to the world origin.
    pub origin_y: f32,
    /// Device pixels per metre.
    pub scale: f32,
}

impl View {
    fn to_pixels(self, x: f32, y: f32) -> (f32, f32) {
        (
            self.origin_x + x * self.scale,
            self.origin_y - y * self.scale,
        )
    }
}

/// Stretch at which the strain ramp reaches its last colour (100 %).
pub const STRAIN_RAMP_MAX: f32 = 1.0;

/// Stops of the strain colour ramp: (relative stretch, colour). Compressed
/// constraints take the first colour, beyond the last stop the last one.
pub const STRAIN_RAMP: [(f32, u32); 5] = [
    (0.0, 0x4575b4),
    (0.05, 0x74add1),
    (0.2, 0xfee090),
    (0.5, 0xf46d43),
    (STRAIN_RAMP_MAX, 0xa50026),
];

/// The ramp colour of a relative stretch `(length - rest) / rest`.
pub fn strain_color(stretch: f32) -> Rgba {
    rgb(strain_rgb(stretch))
}

/// [`strain_color`] as `0xRRGGBB`: what the canvas-2D renderer gets (through
/// `strainColor` in wasm), so both renderers share one interpolation.
pub fn strain_rgb(stretch: f32) -> u32 {
    let (first, last) = (STRAIN_RAMP[0], STRAIN_RAMP[STRAIN_RAMP.len() - 1]);
    // NaN and compression take the first colour
    if stretch.is_nan() || stretch <= first.0 {
        return first.1;
    }
    if stretch >= last.0 {
        return last.1;
    }
    let upper = STRAIN_RAMP
        .iter()
        .position(|&(s, _)| s > stretch)
        .unwrap_or(STRAIN_RAMP.len() - 1);
    let ((s0, c0), (s1, c1)) = (STRAIN_RAMP[upper - 1], STRAIN_RAMP[upper]);
    let t = (stretch - s0) / (s1 - s0);
    let channel = |shift: u32| {
        let (a, b) = (((c0 >> shift) & 0xff) as f32, ((c1 >> shift) & 0xff) as f32);
        ((a + (b - a) * t).round() as u32) << shift
    };
    channel(16) | channel(8) | channel(0)
}

/// `0xRRGGBB` as CSS `#rrggbb`.
pub fn css_hex(rgb: u32) -> String {
    format!("#{rgb:06x}")
}

/// A rectangle of pixels: columns `x0..x1`, rows `y0..y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    /// First column.
    pub x0: usize,
    /// First row.
    pub y0: usize,
    /// One past the last column.
    pub x1: usize,
    /// One past the last row.
    pub y1: usize,
}

impl Rect {
    /// Whether no pixel is inside.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// The smallest rectangle holding both.
    pub fn union(self, other: Rect) -> Rect {
        if self.is_empty() {
            return other;
        }
        if other.is_empty() {
            return self;
        }
        Rect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// Pixels from `(min_x, min_y)` to `(max_x, max_y)`, grown by `margin` and
    /// clipped to a `width × height` image.
    fn around(min: (f32, f32), max: (f32, f32), margin: f32, width: usize, height: usize) -> Rect {
        let clip = |v: f32, size: usize| v.clamp(0.0, size as f32) as usize;
        Rect {
            x0: clip((min.0 - margin).floor(), width),
            y0: clip((min.1 - margin).floor(), height),
            x1: clip((max.0 + margin).ceil(), width),
            y1: clip((max.1 + margin).ceil(), height),
        }
    }
}

/// An RGBA image being drawn.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    width: usize,
    height: usize,
    pixels: Vec<Rgba>,
}

impl Frame {
    /// Resizes (keeping the allocation when it is big enough) and fills with
    /// `color`. Refuses a frame of more than [`MAX_FRAME_PIXELS`], and returns
    /// [`ClothError::OutOfMemory`] when its pixels do not fit in memory; the
    /// frame is unchanged then.
    pub fn reset(&mut self, width: usize, height: usize, color: Rgba) -> Result<(), ClothError> {
        let Some(count) = width
            .checked_mul(height)
            .filter(|&count| count <= MAX_FRAME_PIXELS)
        else {
            return Err(ClothError::InvalidValue {
                field: "ctx",
                value: format!("a {width} × {height} pixel canvas"),
                allowed: format!("at most {MAX_FRAME_PIXELS} pixels"),
            });
        };
        // reserving relative to the current length leaves the pixels as they are on failure
        let more = count.saturating_sub(self.pixels.len());
        if self.pixels.try_reserve_exact(more).is_err() {
            let bytes = (count * std::mem::size_of::<Rgba>()) as u64;
            return Err(ClothError::OutOfMemory {
                field: "ctx",
                what: format!(
                    "a {width} × {height} pixel frame needs {} MiB",
                    memory::mib(bytes)
                ),
            });
        }
        self.width = width;
        self.height = height;
        self.pixels.clear();
        self.pixels.resize(count, color);
        Ok(())
    }

    /// Fills `rect` with `color`.
    pub fn clear(&mut self, rect: Rect, color: Rgba) {
        let rect = Rect::around(
            (rect.x0 as f32, rect.y0 as f32),
            (rect.x1 as f32, rect.y1 as f32),
            0.0,
            self.width,
            self.height,
        );
        for y in rect.y0..rect.y1 {
            self.pixels[y * self.width + rect.x0..y * self.width + rect.x1].fill(color);
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The pixel at `(x, y)`.
    pub fn pixel(&self, x: usize, y: usize) -> Rgba {
        self.pixels[y * self.width + x]
    }

    /// The image as bytes `R, G, B, A, R, G, B, A, ...`, as `ImageData` wants them.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: a `[u32]` is a valid `[u8]` four times as long (u8 has no
        // alignment needs); on little-endian wasm `0xAABBGGRR` lays out as R,G,B,A.
        unsafe {
            std::slice::from_raw_parts(self.pixels.as_ptr() as *const u8, self.pixels.len() * 4)
        }
    }

    /// Blends `color` over the pixel at `(x, y)` with `coverage` in 0..=1.
    #[inline(always)]
    fn blend(&mut self, x: i32, y: i32, color: Rgba, coverage: f32) {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return;
        }
        let index = y as usize * self.width + x as usize;
        if coverage >= 1.0 {
            self.pixels[index] = color;
            return;
        }
        let a = (coverage.clamp(0.0, 1.0) * 256.0) as u32;
        let under = self.pixels[index];
        let mix = |shift: u32| {
            let (u, c) = ((under >> shift) & 0xff, (color >> shift) & 0xff);
            ((u * (256 - a) + c * a) >> 8) << shift
        };
        self.pixels[index] = 0xff00_0000 | mix(16) | mix(8) | mix(0);
    }

    /// An anti-aliased line about `width` pixels wide (Wu's algorithm, with
    /// parallel strokes for widths above one pixel). Lines far outside the
    /// image or with non-finite ends are skipped.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), color: Rgba, width: f32) {
        let limit = 4.0 * (self.width + self.height) as f32 + 1e4;
        let finite = [from.0, from.1, to.0, to.1]
            .iter()
            .all(|v| v.is_finite() && v.abs() < limit);
        if !finite {
            return;
        }
        // wider than 32 pixels is a caller's mistake; do not spend seconds on it
        let strokes = width.round().clamp(1.0, 32.0) as i32;
        let steep = (to.1 - from.1).abs() > (to.0 - from.0).abs();
        for s in 0..strokes {
            let offset = s as f32 - (strokes - 1) as f32 / 2.0;
            let (dx, dy) = if steep { (offset, 0.0) } else { (0.0, offset) };
            self.wu_line(from.0 + dx, from.1 + dy, to.0 + dx, to.1 + dy, color);
        }
    }

    fn wu_line(&mut self, mut x0: f32, mut y0: f32, mut x1: f32, mut y1: f32, color: Rgba) {
        let steep = (y1 - y0).abs() > (x1 - x0).abs();
        if steep {
            std::mem::swap(&mut x0, &mut y0);
            std::mem::swap(&mut x1, &mut y1);
        }
        if x0 > x1 {
            std::mem::swap(&mut x0, &mut x1);
            std::mem::swap(&mut y0, &mut y1);
        }
        let gradient = if x1 - x0 < 1e-6 {
            0.0
        } else {
            (y1 - y0) / (x1 - x0)
        };
        // clip the major axis to the image, so off-screen lines cost nothing
        let major_size = if steep { self.height } else { self.width } as f32;
        let start = x0.round().max(-1.0);
        let end = x1.round().min(major_size);
        let plot = |major: i32, minor: i32, coverage: f32, frame: &mut Frame| {
            if steep {
                frame.blend(minor, major, color, coverage)
            } else {
                frame.blend(major, minor, color, coverage)
            }
        };
        // Count in integers: `x += 1.0` stops growing at 2^24, and `start` and
        // `end` lie within -1..=size (at most MAX_FRAME_PIXELS), exact in f32.
        for major in start as i32..=end as i32 {
            let x = major as f32;
            let y = y0 + gradient * (x - x0);
            let floor = y.floor();
            let fraction = y - floor;
            plot(major, floor as i32, 1.0 - fraction, self);
            plot(major, (floor as i32).saturating_add(1), fraction, self);
        }
    }

    /// A filled, anti-aliased disc.
    pub fn disc(&mut self, center: (f32, f32), radius: f32, color: Rgba) {
        let (cx, cy) = center;
        if !(cx.is_finite() && cy.is_finite()) || radius <= 0.0 {
            return;
        }
        let reach = radius + 1.0;
        if cx + reach < 0.0 || cy + reach < 0.0 {
            return;
        }
        if cx - reach > self.width as f32 || cy - reach > self.height as f32 {
            return;
        }
        // only the part of the disc's square that lies on the image
        let x_min = (cx - reach).floor().max(0.0) as i32;
        let y_min = (cy - reach).floor().max(0.0) as i32;
        let x_max = (cx + reach).ceil().min(self.width as f32) as i32;
        let y_max = (cy + reach).ceil().min(self.height as f32) as i32;
        // coverage falls from 1 to 0 across the one pixel at the rim; inside and
        // outside that ring no square root is needed
        let (inner, outer) = ((radius - 0.5).max(0.0), radius + 0.5);
        let (inner2, outer2) = (inner * inner, outer * outer);
        for y in y_min..=y_max {
            for x in x_min..=x_max {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                let d2 = dx * dx + dy * dy;
                if d2 >= outer2 {
                    continue;
                }
                let coverage = if d2 <= inner2 { 1.0 } else { outer - d2.sqrt() };
                self.blend(x, y, color, coverage);
            }
        }
    }
}

impl Frame {
    /// Fills the pixels whose centres lie in `rect_min..rect_max` (device
    /// pixels) with `color`; the part off the image is skipped.
    pub fn fill_rect(&mut self, rect_min: (f32, f32), rect_max: (f32, f32), color: Rgba) -> Rect {
        let finite = [rect_min.0, rect_min.1, rect_max.0, rect_max.1]
            .iter()
            .all(|v| !v.is_nan());
        if !finite {
            return Rect::default();
        }
        let clip = |v: f32, size: usize| (v - 0.5).ceil().clamp(0.0, size as f32) as usize;
        let rect = Rect {
            x0: clip(rect_min.0, self.width),
            y0: clip(rect_min.1, self.height),
            x1: clip(rect_max.0, self.width),
            y1: clip(rect_max.1, self.height),
        };
        if !rect.is_empty() {
            self.clear(rect, color);
        }
        rect
    }
}

/// Draws one collider (an outlined solid shape; the ground as a line over a
/// band) and returns the rectangle it drew in.
fn draw_collider(frame: &mut Frame, shape: &Shape, view: View, style: &Style) -> Rect {
    let (fill, edge) = style.collider;
    let outline = style.collider_edge_width;
    match *shape {
        Shape::Ground { y } => {
            let (_, line_y) = view.to_pixels(0.0, y);
            let right = frame.width() as f32;
            let band = frame.fill_rect((0.0, line_y), (right, line_y + style.ground_band), fill);
            let line = frame.fill_rect((0.0, line_y - outline), (right, line_y), edge);
            band.union(line)
        }
        Shape::Circle { x, y, radius } => {
            let center = view.to_pixels(x, y);
            let r = radius * view.scale;
            frame.disc(center, r, edge);
            frame.disc(center, r - outline, fill);
            let reach = (r + 2.0, r + 2.0);
            Rect::around(
                (center.0 - reach.0, center.1 - reach.1),
                (center.0 + reach.0, center.1 + reach.1),
                0.0,
                frame.width(),
                frame.height(),
            )
        }
        Shape::Box {
            x,
            y,
            width,
            height,
        } => {
            let (cx, cy) = view.to_pixels(x, y);
            let (hw, hh) = (width * view.scale / 2.0, height * view.scale / 2.0);
            let outer = frame.fill_rect((cx - hw, cy - hh), (cx + hw, cy + hh), edge);
            let inset = outline.min(hw).min(hh);
            frame.fill_rect(
                (cx - hw + inset, cy - hh + inset),
                (cx + hw - inset, cy + hh - inset),
                fill,
            );
            outer
        }
    }
}

/// What to draw: the cloth's current arrays.
pub struct Cloth<'a> {
    /// `[x0, y0, ...]`, metres.
    pub positions: &'a [f32],
    /// `[a0, b0, ...]`.
    pub constraint_ids: &'a [u32],
    /// Rest length of each constraint, metres (for strain colours).
    pub rest_lengths: &'a [f32],
    /// The held particle, if any.
    pub grabbed: Option<usize>,
    /// The colliders, drawn under the cloth.
    pub colliders: &'a [Shape],
}

/// Draws the picture over a frame cleared to `style.background` (see
/// [`Frame::reset`] and [`Frame::clear`]): axes, constraints, particles and the
/// grabbed particle, like the original demo. Returns the rectangle it drew in,
/// so the next frame needs to clear and copy only that area and its own.
pub fn draw(frame: &mut Frame, cloth: &Cloth, view: View, style: &Style) -> Rect {
    let origin = (view.origin_x, view.origin_y);
    let mut min = (origin.0, origin.1 - style.axis_length);
    let mut max = (origin.0 + style.axis_length, origin.1);
    for p in cloth.positions.chunks_exact(2) {
        let (x, y) = view.to_pixels(p[0], p[1]);
        min = (min.0.min(x), min.1.min(y));
        max = (max.0.max(x), max.1.max(y));
    }
    let margin = style
        .grabbed_radius
        .max(style.particle_radius)
        .max(style.line_width)
        + 3.0;
    let drawn = Rect::around(min, max, margin, frame.width(), frame.height());
    let drawn = cloth.colliders.iter().fold(drawn, |drawn, shape| {
        drawn.union(draw_collider(frame, shape, view, style))
    });
    let axis = style.axis_length;
    frame.line(
        origin,
        (origin.0 + axis, origin.1),
        style.axes.0,
        style.axis_width,
    );
    frame.line(
        origin,
        (origin.0, origin.1 - axis),
        style.axes.1,
        style.axis_width,
    );

    // Indices come from the caller: one that names no particle draws nothing.
    let point = |k: usize| {
        let i = k.checked_mul(2)?;
        let p = cloth.positions.get(i..i.checked_add(2)?)?;
        Some(view.to_pixels(p[0], p[1]))
    };
    let pairs = cloth.constraint_ids.chunks_exact(2);
    for (pair, &rest_length) in pairs.zip(cloth.rest_lengths) {
        let (Some(pa), Some(pb)) = (point(pair[0] as usize), point(pair[1] as usize)) else {
            continue;
        };
        let color = if style.strain_colors {
            let metres = view.scale.max(1e-12);
            let length = ((pa.0 - pb.0).powi(2) + (pa.1 - pb.1).powi(2)).sqrt() / metres;
            strain_color((length - rest_length) / rest_length)
        } else {
            style.constraint
        };
        frame.line(pa, pb, color, style.line_width);
    }
    if style.particle_radius > 0.0 {
        for p in cloth.positions.chunks_exact(2) {
            frame.disc(
                view.to_pixels(p[0], p[1]),
                style.particle_radius,
                style.particle,
            );
        }
    }
    if let Some(center) = cloth.grabbed.and_then(point) {
        frame.disc(center, style.grabbed_radius, style.grabbed);
    }
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: usize, h: usize) -> Frame {
        let mut f = Frame::default();
        f.reset(w, h, rgb(0xffffff)).unwrap();
        f
    }

    #[test]
    fn colours_are_laid_out_as_image_data_bytes() {
        let mut f = frame(1, 1);
        f.reset(1, 1, rgb(0x123456)).unwrap();
        assert_eq!(f.bytes(), &[0x12, 0x34, 0x56, 0xff]);
    }

    #[test]
    fn a_horizontal_line_covers_its_pixels_and_nothing_else() {
        let mut f = frame(10, 5);
        f.line((1.0, 2.5), (8.0, 2.5), rgb(0x000000), 1.0);
        // y = 2.5 is the boundary between rows 2 and 3: half coverage on each
        let grey = f.pixel(4, 2) & 0xff;
        assert!((100..160).contains(&grey), "{grey}");
        assert_eq!(f.pixel(4, 2), f.pixel(4, 3));
        assert_eq!(f.pixel(4, 0), rgb(0xffffff));
        assert_eq!(f.pixel(4, 4), rgb(0xffffff));
    }

    #[test]
    fn a_disc_is_solid_inside_and_soft_at_the_rim() {
        let mut f = frame(20, 20);
        f.disc((10.0, 10.0), 4.0, rgb(0x0000ff));
        assert_eq!(f.pixel(10, 10), rgb(0x0000ff));
        assert_eq!(f.pixel(1, 1), rgb(0xffffff));
        let rim = f.pixel(13, 12) & 0xff; // red channel at the rim: partly blue
        assert!(rim > 0 && rim < 255, "{rim}");
    }

    #[test]
    fn off_image_and_non_finite_shapes_are_ignored() {
        let mut f = frame(8, 8);
        f.line((-1e9, 0.0), (1e9, 5.0), rgb(0), 1.0);
        f.line((f32::NAN, 0.0), (3.0, 3.0), rgb(0), 1.0);
        f.disc((f32::INFINITY, 2.0), 3.0, rgb(0));
        f.disc((-50.0, -50.0), 3.0, rgb(0));
        assert!(f.bytes().iter().all(|&b| b == 0xff));
    }

    #[test]
    fn huge_shapes_cost_only_the_pixels_on_the_image() {
        let mut f = frame(20, 10);
        let started = std::time::Instant::now();
        f.disc((0.0, 0.0), 1e9, rgb(0x0000ff));
        assert_eq!(
            f.pixel(19, 9),
            rgb(0x0000ff),
            "the image is inside the disc"
        );
        f.line((0.0, 5.0), (19.0, 5.0), rgb(0), 1e9);
        assert!(
            started.elapsed().as_secs_f64() < 0.5,
            "took {:?}",
            started.elapsed()
        );
    }

    /// Runs `f` on another thread and fails if it has not finished within
    /// `seconds` (a loop that never ends must fail the test, not hang it).
    fn within<T: Send + 'static>(seconds: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(f()));
        result
            .recv_timeout(std::time::Duration::from_secs(seconds))
            .expect("still running: the loop does not end")
    }

    #[test]
    fn lines_end_on_the_widest_frames() {
        // 2^24 pixels in one row: counting x in f32 would stop at 16777216
        let width = MAX_FRAME_PIXELS;
        let (last, inked) = within(20, move || {
            let mut f = frame(width, 1);
            f.line((-5.0, 0.5), (width as f32 + 5.0, 0.5), rgb(0), 1.0);
            (f.pixel(width - 1, 0), f.pixel(width / 2, 0))
        });
        assert_ne!(last, rgb(0xffffff));
        assert_ne!(inked, rgb(0xffffff));
        let tall = within(20, || {
            let mut f = frame(1, MAX_FRAME_PIXELS);
            f.line((0.5, -1e3), (0.5, 2e7), rgb(0), 1.0);
            f.pixel(0, MAX_FRAME_PIXELS - 1)
        });
        assert_ne!(tall, rgb(0xffffff));
    }

    #[test]
    fn any_view_and_any_indices_stay_inside_the_frame() {
        let positions = [0.0, 0.0, 1.0, 0.5, -1e6, 1e6];
        // ends that name no particle, more rest lengths than constraints, a
        // grabbed particle that does not exist: drawn around, never indexed
        let cloth = Cloth {
            positions: &positions,
            constraint_ids: &[0, 1, 1, 2, 0, 7, u32::MAX, 1, 2],
            rest_lengths: &[1.0, 1.0, 1.0],
            grabbed: Some(usize::MAX),
            colliders: &[
                Shape::Ground { y: -1.0 },
                Shape::Circle {
                    x: 0.5,
                    y: 0.5,
                    radius: 1e6,
                },
                Shape::Box {
                    x: -1e6,
                    y: 1.0,
                    width: 3.0,
                    height: 1e6,
                },
            ],
        };
        let extremes = [
            0.0,
            -0.0,
            1e-6,
            1.0,
            3e4,
            -3e4,
            1.6e8,
            -1.6e8,
            f32::MAX,
            f32::MIN,
        ];
        for &origin_x in &extremes {
            for &origin_y in &extremes {
                for &scale in &[1e-6, 1.0, 50.0, 1.6e8, f32::MAX] {
                    for &(ratio, radius) in &[(1.0, 0.0), (16.0, 100.0), (0.001, 2.5)] {
                        let mut f = frame(31, 17);
                        let view = View {
                            origin_x,
                            origin_y,
                            scale,
                        };
                        let mut style = Style::with_pixel_ratio(ratio, radius);
                        style.strain_colors = scale > 1.0;
                        let drawn = draw(&mut f, &cloth, view, &style);
                        assert!(drawn.x1 <= 31 && drawn.y1 <= 17, "{drawn:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn colliders_are_drawn_where_the_view_puts_them_under_the_cloth() {
        let mut f = frame(100, 100);
        let cloth = Cloth {
            positions: &[],
            constraint_ids: &[],
            rest_lengths: &[],
            grabbed: None,
            colliders: &[
                Shape::Ground { y: -0.4 },
                Shape::Circle {
                    x: 0.0,
                    y: 0.0,
                    radius: 0.2,
                },
                Shape::Box {
                    x: 0.6,
                    y: 0.4,
                    width: 0.2,
                    height: 0.4,
                },
            ],
        };
        let view = View {
            origin_x: 30.0,
            origin_y: 50.0,
            scale: 50.0,
        };
        let style = Style::with_pixel_ratio(1.0, 2.5);
        let drawn = draw(&mut f, &cloth, view, &style);
        let (fill, edge) = style.collider;
        // circle: centre (30, 50), radius 10 px (the axes start at its centre)
        assert_eq!(f.pixel(34, 54), fill);
        assert_eq!(f.pixel(21, 50), edge);
        assert_eq!(f.pixel(18, 50), rgb(0xffffff));
        // box: centre (60, 30), 10 × 20 px
        assert_eq!(f.pixel(60, 30), fill);
        assert_eq!(f.pixel(55, 30), edge);
        assert_eq!(f.pixel(67, 30), rgb(0xffffff));
        // ground: the line at y = 70 px, the band below it, across the frame
        assert_eq!(f.pixel(95, 69), edge);
        assert_eq!(f.pixel(95, 75), fill);
        assert_eq!(f.pixel(95, 90), rgb(0xffffff));
        for y in 0..100 {
            for x in 0..100 {
                let inside = (drawn.x0..drawn.x1).contains(&x) && (drawn.y0..drawn.y1).contains(&y);
                assert!(
                    inside || f.pixel(x, y) == rgb(0xffffff),
                    "({x}, {y}) outside {drawn:?}"
                );
            }
        }
    }

    #[test]
    fn the_strain_ramp_runs_from_blue_to_red() {
        assert_eq!(strain_color(-0.3), rgb(0x4575b4));
        assert_eq!(strain_color(0.0), rgb(0x4575b4));
        assert_eq!(strain_color(0.2), rgb(0xfee090));
        assert_eq!(strain_color(5.0), rgb(0xa50026));
        assert_eq!(strain_color(f32::NAN), rgb(0x4575b4));
        let between = strain_color(0.35);
        assert_ne!(between, rgb(0xfee090));
        assert_ne!(between, rgb(0xf46d43));
    }

    #[test]
    fn the_cloth_is_drawn_where_the_view_puts_it() {
        let mut f = frame(100, 100);
        let positions = [0.0, 0.0, 1.0, 0.0];
        let cloth = Cloth {
            positions: &positions,
            constraint_ids: &[0, 1],
            rest_lengths: &[1.0],
            grabbed: Some(1),
            colliders: &[],
        };
        let view = View {
            origin_x: 20.0,
            origin_y: 50.0,
            scale: 50.0,
        };
        let drawn = draw(&mut f, &cloth, view, &Style::with_pixel_ratio(1.0, 2.5));
        // the constraint runs from (20, 50) to (70, 50); the grabbed particle is red
        assert_ne!(f.pixel(45, 49), rgb(0xffffff));
        assert_eq!(f.pixel(70, 50), rgb(0xe01b1b));
        assert_eq!(f.pixel(45, 10), rgb(0xffffff));
        // everything drawn lies in the returned rectangle
        for y in 0..100 {
            for x in 0..100 {
                let inside = (drawn.x0..drawn.x1).contains(&x) && (drawn.y0..drawn.y1).contains(&y);
                assert!(
                    inside || f.pixel(x, y) == rgb(0xffffff),
                    "({x}, {y}) outside {drawn:?}"
                );
            }
        }
        assert!(
            drawn.x1 - drawn.x0 < 80 && drawn.y1 - drawn.y0 < 50,
            "{drawn:?}"
        );
    }
}
