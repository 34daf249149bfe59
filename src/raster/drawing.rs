//! A picture drawn in pieces ([`Drawing`]): the stages in the order they are
//! drawn, how many shapes each has, and where the picture stands between
//! pieces.

use super::shapes::{draw_backdrop, draw_body, draw_line};
use super::{point, Cloth, Frame, Rect, Style, View};
use crate::kinds::bodies::Bodies;

/// Where a picture drawn in pieces stands, so that a long drawing can leave
/// its thread free between pieces: the same shapes in the same order as one
/// [`draw`](super::draw), each piece at most so many of them. Every piece must see the same
/// cloth, view and style (the caller starts over when one changed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drawing {
    /// What to draw next.
    stage: Stage,
    /// The next constraint or particle of `stage`.
    next: usize,
    /// The rectangle the whole picture draws in, colliders included once drawn.
    drawn: Rect,
    /// The shapes left to draw.
    left: usize,
}

/// The parts of a picture, in the order they are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Colliders and axes, under the cloth: one shape in all.
    Backdrop,
    /// A filled outline per body.
    Bodies,
    /// A line per constraint.
    Lines,
    /// A disc per particle.
    Discs,
    /// The held particle's larger disc.
    Grabbed,
    Done,
}

impl Drawing {
    /// A picture of `cloth` about to be drawn onto `frame`; nothing drawn yet.
    pub fn start(frame: &Frame, cloth: &Cloth, view: View, style: &Style) -> Drawing {
        let origin = (view.origin_x, view.origin_y);
        let mut min = (origin.0, origin.1 - style.axis_length);
        let mut max = (origin.0 + style.axis_length, origin.1);
        // comparisons, not `f32::min`: a NaN position is skipped all the same,
        // in fewer instructions
        for p in cloth.positions.chunks_exact(2) {
            let (x, y) = view.to_pixels(p[0], p[1]);
            if x < min.0 {
                min.0 = x;
            }
            if y < min.1 {
                min.1 = y;
            }
            if x > max.0 {
                max.0 = x;
            }
            if y > max.1 {
                max.1 = y;
            }
        }
        let margin = style
            .grabbed_radius
            .max(style.particle_radius)
            .max(style.line_width)
            + 3.0;
        Drawing {
            stage: Stage::Backdrop,
            next: 0,
            drawn: Rect::around(min, max, margin, frame.width(), frame.height()),
            // the backdrop and the held particle are one shape each
            left: 2 + body_count(cloth) + line_count(cloth) + disc_count(cloth, style),
        }
    }

    /// The rectangle the picture draws in (so far: colliders count once drawn).
    pub fn drawn(&self) -> Rect {
        self.drawn
    }

    /// Whether every shape is drawn.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The shapes left to draw: a line per constraint, a disc per particle
    /// (none when the style draws no particles), and one each for the backdrop
    /// and the held particle while they are.
    pub fn shapes_left(&self) -> usize {
        self.left
    }

    /// Draws the next shapes, at most `most` of them (at least one while any
    /// is left); returns how many it drew.
    pub fn draw_some(
        &mut self,
        frame: &mut Frame,
        cloth: &Cloth,
        view: View,
        style: &Style,
        most: usize,
    ) -> usize {
        let most = most.max(1);
        let mut drew = 0;
        while drew < most && self.stage != Stage::Done {
            let room = most - drew;
            match self.stage {
                Stage::Backdrop => {
                    self.drawn = self.drawn.union(draw_backdrop(frame, cloth, view, style));
                    drew += 1;
                    self.enter(Stage::Bodies);
                }
                Stage::Bodies => {
                    let end = self.next.saturating_add(room).min(body_count(cloth));
                    for k in self.next..end {
                        draw_body(frame, cloth, k, view, style);
                    }
                    drew += end - self.next;
                    self.next = end;
                    if end == body_count(cloth) {
                        self.enter(Stage::Lines);
                    }
                }
                Stage::Lines => {
                    let end = self.next.saturating_add(room).min(line_count(cloth));
                    for k in self.next..end {
                        draw_line(frame, cloth, k, view, style);
                    }
                    drew += end - self.next;
                    self.next = end;
                    if end == line_count(cloth) {
                        self.enter(Stage::Discs);
                    }
                }
                Stage::Discs => {
                    let end = self.next.saturating_add(room).min(disc_count(cloth, style));
                    for p in cloth.positions[2 * self.next..2 * end].chunks_exact(2) {
                        frame.disc(
                            view.to_pixels(p[0], p[1]),
                            style.particle_radius,
                            style.particle,
                        );
                    }
                    drew += end - self.next;
                    self.next = end;
                    if end == disc_count(cloth, style) {
                        self.enter(Stage::Grabbed);
                    }
                }
                Stage::Grabbed => {
                    if let Some(center) = cloth.grabbed.and_then(|k| point(cloth, view, k)) {
                        frame.disc(center, style.grabbed_radius, style.grabbed);
                    }
                    drew += 1;
                    self.enter(Stage::Done);
                }
                Stage::Done => {}
            }
        }
        self.left -= drew;
        drew
    }

    fn enter(&mut self, stage: Stage) {
        self.stage = stage;
        self.next = 0;
    }
}

/// The bodies drawn.
fn body_count(cloth: &Cloth) -> usize {
    cloth.bodies.map_or(0, Bodies::len)
}

/// The constraints drawn: each with its two ends and its rest length.
fn line_count(cloth: &Cloth) -> usize {
    (cloth.constraint_ids.len() / 2).min(cloth.rest_lengths.len())
}

/// The particles drawn as discs: all of them, or none at a radius of 0.
fn disc_count(cloth: &Cloth, style: &Style) -> usize {
    if style.particle_radius > 0.0 {
        cloth.positions.len() / 2
    } else {
        0
    }
}
