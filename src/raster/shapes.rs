//! Each shape of the picture, drawn into a [`Frame`]: a collider, the
//! backdrop (colliders and axes), a body's filled outline and a constraint's
//! line.

use super::{point, strain_color, Cloth, Frame, Rect, Style, View};
use crate::model::Shape;

/// Draws one collider (an outlined solid shape; the ground as a line over a
/// band) and returns the rectangle it drew in.
fn draw_collider(frame: &mut Frame, shape: &Shape, view: View, style: &Style) -> Rect {
    let (fill, edge) = style.collider;
    let outline = style.collider_edge_width;
    // the ground and a box: a rectangle in the outline's colour, then one in
    // the inside's (a box's inside over its whole; the ground's band under its line)
    let (outer, inner) = match *shape {
        Shape::Ground { y } => {
            let (_, line_y) = view.to_pixels(0.0, y);
            let right = frame.width() as f32;
            (
                ((0.0, line_y - outline), (right, line_y)),
                ((0.0, line_y), (right, line_y + style.ground_band)),
            )
        }
        Shape::Circle { x, y, radius } => {
            let center = view.to_pixels(x, y);
            let r = radius * view.scale;
            frame.disc(center, r, edge);
            frame.disc(center, r - outline, fill);
            return Rect::around(center, center, r + 2.0, frame.width(), frame.height());
        }
        Shape::Box {
            x,
            y,
            width,
            height,
        } => {
            let (cx, cy) = view.to_pixels(x, y);
            let (hw, hh) = (width * view.scale / 2.0, height * view.scale / 2.0);
            let inset = outline.min(hw).min(hh);
            (
                ((cx - hw, cy - hh), (cx + hw, cy + hh)),
                (
                    (cx - hw + inset, cy - hh + inset),
                    (cx + hw - inset, cy + hh - inset),
                ),
            )
        }
    };
    let drawn = frame.fill_rect(outer.0, outer.1, edge);
    drawn.union(frame.fill_rect(inner.0, inner.1, fill))
}

/// The colliders and the axes, under the cloth; returns the rectangle the
/// colliders drew in (the axes are within the picture's own).
pub(super) fn draw_backdrop(frame: &mut Frame, cloth: &Cloth, view: View, style: &Style) -> Rect {
    let drawn = cloth
        .colliders
        .iter()
        .fold(Rect::default(), |drawn, shape| {
            drawn.union(draw_collider(frame, shape, view, style))
        });
    let origin = (view.origin_x, view.origin_y);
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
    drawn
}

/// Body `k`: its outline (the particles around it, in order) filled in the
/// body colour and traced in the body's edge colour, so that it shows the body
/// as it turns and dents.
pub(super) fn draw_body(frame: &mut Frame, cloth: &Cloth, k: usize, view: View, style: &Style) {
    let Some(bodies) = cloth.bodies else {
        return;
    };
    let outline = bodies.outline(k);
    // an index that names no particle puts the corner at the origin
    let at = |i: usize| point(cloth, view, outline[i] as usize).unwrap_or((0.0, 0.0));
    let (fill, edge) = style.body;
    frame.fill_polygon(outline.len(), at, fill);
    for i in 0..outline.len() {
        frame.line(
            at(i),
            at((i + 1) % outline.len()),
            edge,
            style.collider_edge_width,
        );
    }
}

/// Constraint `k`'s line, in its strain colour or the constraint colour.
pub(super) fn draw_line(frame: &mut Frame, cloth: &Cloth, k: usize, view: View, style: &Style) {
    let (Some(pa), Some(pb)) = (
        point(cloth, view, cloth.constraint_ids[2 * k] as usize),
        point(cloth, view, cloth.constraint_ids[2 * k + 1] as usize),
    ) else {
        return;
    };
    let color = if style.strain_colors {
        let rest_length = cloth.rest_lengths[k];
        let metres = view.scale.max(1e-12);
        let length = ((pa.0 - pb.0).powi(2) + (pa.1 - pb.1).powi(2)).sqrt() / metres;
        strain_color((length - rest_length) / rest_length)
    } else {
        style.constraint
    };
    frame.line(pa, pb, color, style.line_width);
}
