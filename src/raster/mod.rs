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
//!
//! * `look.rs`: the colours and sizes ([`LOOK`], [`Style`]) and the strain ramp;
//! * `frame.rs`: the pixel buffer ([`Frame`]) and its lines, discs and rectangles;
//! * `drawing.rs`: a picture drawn in pieces ([`Drawing`]), stage by stage;
//! * `shapes.rs`: each shape of the picture: colliders, axes, bodies, lines;
//! * this file: the view (metres to pixels), what to draw ([`Cloth`]) and
//!   drawing it in one go ([`draw`]).

mod drawing;
mod frame;
mod look;
mod shapes;
#[cfg(test)]
mod tests;

pub use drawing::Drawing;
pub use frame::{Frame, Rect, MAX_FRAME_PIXELS};
pub use look::{
    css_hex, rgb, strain_color, strain_rgb, Look, Rgba, Style, LOOK, STRAIN_RAMP, STRAIN_RAMP_MAX,
};

use crate::kinds::bodies::Bodies;
use crate::model::Shape;

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
    /// The bodies, drawn as their outlines filled, over the colliders and
    /// under the cloth's lines and particles.
    pub bodies: Option<&'a Bodies>,
}

/// Draws the picture over a frame cleared to `style.background` (see
/// [`Frame::reset`] and [`Frame::clear`]): axes, constraints, particles and the
/// grabbed particle, like the original demo. Returns the rectangle it drew in,
/// so the next frame needs to clear and copy only that area and its own.
pub fn draw(frame: &mut Frame, cloth: &Cloth, view: View, style: &Style) -> Rect {
    let mut drawing = Drawing::start(frame, cloth, view, style);
    drawing.draw_some(frame, cloth, view, style, usize::MAX);
    drawing.drawn()
}

/// Where particle `k` is in the image; `None` for an index that names no
/// particle (indices come from the caller: such a one draws nothing).
fn point(cloth: &Cloth, view: View, k: usize) -> Option<(f32, f32)> {
    let i = k.checked_mul(2)?;
    let p = cloth.positions.get(i..i.checked_add(2)?)?;
    Some(view.to_pixels(p[0], p[1]))
}
