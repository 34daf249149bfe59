//! The pixels being drawn: a [`Frame`] of RGBA pixels, the rectangles that
//! say which part changed ([`Rect`]), and the three shapes a cloth needs:
//! lines (Xiaolin Wu's algorithm, two pixels per step along the major axis,
//! each weighted by its coverage), discs and filled rectangles.

use super::look::Rgba;
use crate::error::ClothError;
use crate::memory;

/// Most crossings of a pixel row [`Frame::fill_polygon`] fills between.
pub const MAX_CROSSINGS: usize = 64;
/// Largest frame, in pixels (4096 × 4096: 64 MiB). Every index into a frame is
/// below it, so no pixel arithmetic overflows, even in 32 bits.
pub const MAX_FRAME_PIXELS: usize = 4096 * 4096;

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
    pub(super) fn around(
        min: (f32, f32),
        max: (f32, f32),
        margin: f32,
        width: usize,
        height: usize,
    ) -> Rect {
        let clip = |v: f32, size: usize| v.clamp(0.0, size as f32) as usize;
        Rect {
            x0: clip((min.0 - margin).floor(), width),
            y0: clip((min.1 - margin).floor(), height),
            x1: clip((max.0 + margin).ceil(), width),
            y1: clip((max.1 + margin).ceil(), height),
        }
    }
}

/// The two axes of the pixels a line walks: its major one first (x, or y
/// when steep). Sizes in pixels, steps in pixels between neighbours.
#[derive(Clone, Copy)]
struct Axes {
    size: (usize, usize),
    step: (usize, usize),
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
        if width
            .checked_mul(height)
            .is_none_or(|count| count > MAX_FRAME_PIXELS)
        {
            return Err(ClothError::InvalidValue {
                field: "ctx",
                value: format!("a {width} × {height} pixel canvas"),
                allowed: format!("at most {MAX_FRAME_PIXELS} pixels"),
            });
        }
        self.resize(width, height, color)
    }

    /// [`Frame::reset`] to a size its caller has checked: `width × height` at
    /// most [`MAX_FRAME_PIXELS`] (`drawInto` refuses a larger canvas first).
    /// Returns [`ClothError::OutOfMemory`] when the pixels do not fit in
    /// memory; the frame is unchanged then.
    pub fn resize(&mut self, width: usize, height: usize, color: Rgba) -> Result<(), ClothError> {
        debug_assert!(width
            .checked_mul(height)
            .is_some_and(|n| n <= MAX_FRAME_PIXELS));
        let count = width * height;
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
        self.pixels.resize(count, 0);
        fill(&mut self.pixels, color);
        Ok(())
    }

    /// Fills the closed polygon of `count` corners (`corner(k)`, pixels) with
    /// `color`, by the even-odd rule at pixel centres: row by row, the spans
    /// between its sides' crossings. A row crossed more than `MAX_CROSSINGS`
    /// times fills the spans of the first ones. Allocates nothing.
    pub fn fill_polygon(
        &mut self,
        count: usize,
        corner: impl Fn(usize) -> (f32, f32),
        color: Rgba,
    ) {
        if count < 3 {
            return;
        }
        let (mut low, mut high) = (f32::MAX, f32::MIN);
        for k in 0..count {
            let (_, y) = corner(k);
            if y.is_nan() {
                return;
            }
            // comparisons, not `f32::min`: `y` is a number here
            if y < low {
                low = y;
            }
            if y > high {
                high = y;
            }
        }
        let rows = (low - 0.5).ceil().max(0.0)..(high - 0.5).ceil().min(self.height as f32);
        let mut crossings = [0.0f32; MAX_CROSSINGS];
        for row in rows.start as usize..rows.end.max(rows.start) as usize {
            let y = row as f32 + 0.5;
            let mut found = 0;
            for k in 0..count {
                let (a, b) = (corner(k), corner((k + 1) % count));
                if (a.1 > y) != (b.1 > y) && found < MAX_CROSSINGS {
                    crossings[found] = a.0 + (y - a.1) / (b.1 - a.1) * (b.0 - a.0);
                    found += 1;
                }
            }
            let crossings = &mut crossings[..found - found % 2];
            // insertion sort: a handful of crossings, and no sort code in the module
            for i in 1..crossings.len() {
                let mut j = i;
                while j > 0 && crossings[j - 1] > crossings[j] {
                    crossings.swap(j - 1, j);
                    j -= 1;
                }
            }
            for span in crossings.chunks_exact(2) {
                let clip = |v: f32| (v - 0.5).ceil().clamp(0.0, self.width as f32) as usize;
                let (x0, x1) = (clip(span[0]), clip(span[1]));
                if x0 < x1 {
                    fill(
                        &mut self.pixels[row * self.width + x0..row * self.width + x1],
                        color,
                    );
                }
            }
        }
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
            fill(
                &mut self.pixels[y * self.width + rect.x0..y * self.width + rect.x1],
                color,
            );
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
        let axes = Axes {
            size: (self.width, self.height),
            step: (1, self.width),
        };
        self.blend_on(axes, x, y, color, coverage);
    }

    /// Blends `color` over the pixel `a` along the first of `axes` and `b`
    /// along the second with `coverage` in 0..=1.
    #[inline(always)]
    fn blend_on(&mut self, axes: Axes, a: i32, b: i32, color: Rgba, coverage: f32) {
        if a < 0 || b < 0 || a as usize >= axes.size.0 || b as usize >= axes.size.1 {
            return;
        }
        let index = a as usize * axes.step.0 + b as usize * axes.step.1;
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
        // the major axis first: one loop for both, no branch per pixel
        let axes = if steep {
            Axes {
                size: (self.height, self.width),
                step: (self.width, 1),
            }
        } else {
            Axes {
                size: (self.width, self.height),
                step: (1, self.width),
            }
        };
        // clip the major axis to the image, so off-screen lines cost nothing
        let major_size = axes.size.0 as f32;
        let start = x0.round().max(-1.0);
        let end = x1.round().min(major_size);
        // Count in integers: `x += 1.0` stops growing at 2^24, and `start` and
        // `end` lie within -1..=size (at most MAX_FRAME_PIXELS), exact in f32.
        for major in start as i32..=end as i32 {
            let x = major as f32;
            let y = y0 + gradient * (x - x0);
            let floor = y.floor();
            let fraction = y - floor;
            self.blend_on(axes, major, floor as i32, color, 1.0 - fraction);
            self.blend_on(
                axes,
                major,
                (floor as i32).saturating_add(1),
                color,
                fraction,
            );
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

/// Sets every pixel of `span` to `color`: sixteen at a time (four `v128`
/// stores) where wasm SIMD is on; without it, sixteen one by one and then
/// copies of what is filled, each twice as long (a `memory.copy` each in
/// wasm). The build does not vectorize or unroll loops by itself
/// (`.cargo/config.toml`), and clearing a frame writes more pixels than
/// anything else a frame draws.
#[inline(always)]
fn fill(span: &mut [Rgba], color: Rgba) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u32x4_splat, v128, v128_store};
        let four = u32x4_splat(color);
        let mut chunks = span.chunks_exact_mut(16);
        for c in &mut chunks {
            // SAFETY: `c` holds sixteen u32; v128 stores need no alignment.
            unsafe {
                let p = c.as_mut_ptr() as *mut v128;
                v128_store(p, four);
                v128_store(p.add(1), four);
                v128_store(p.add(2), four);
                v128_store(p.add(3), four);
            }
        }
        chunks.into_remainder().fill(color);
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let mut done = span.len().min(16);
        span[..done].fill(color);
        while done < span.len() {
            let more = done.min(span.len() - done);
            span.copy_within(..more, done);
            done += more;
        }
    }
}
