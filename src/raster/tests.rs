//! The rasterizer's tests: lines, discs, polygons and colliders on small
//! frames, views and indices at their extremes, and a picture drawn in
//! pieces against the same picture drawn in one.

use super::*;

fn frame(w: usize, h: usize) -> Frame {
    let mut f = Frame::default();
    f.reset(w, h, rgb(0xffffff)).unwrap();
    f
}

/// Every pixel of `f` outside `drawn` is still the white it was reset to.
fn assert_untouched_outside(f: &Frame, drawn: Rect) {
    for y in 0..f.height() {
        for x in 0..f.width() {
            let inside = (drawn.x0..drawn.x1).contains(&x) && (drawn.y0..drawn.y1).contains(&y);
            assert!(
                inside || f.pixel(x, y) == rgb(0xffffff),
                "({x}, {y}) outside {drawn:?}"
            );
        }
    }
}

#[test]
fn a_polygon_is_filled_inside_by_the_even_odd_rule_even_where_it_is_concave() {
    let mut f = frame(20, 20);
    let red = rgb(0xff0000);
    // an L: the square 2..18 without its upper right quarter 10..18 × 2..10
    let corners = [
        (2.0, 2.0),
        (10.0, 2.0),
        (10.0, 10.0),
        (18.0, 10.0),
        (18.0, 18.0),
        (2.0, 18.0),
    ];
    f.fill_polygon(corners.len(), |k| corners[k], red);
    assert_eq!(f.pixel(5, 5), red);
    assert_eq!(f.pixel(15, 15), red);
    assert_eq!(f.pixel(15, 5), rgb(0xffffff), "the notch stays empty");
    assert_eq!(f.pixel(1, 10), rgb(0xffffff));
    assert_eq!(f.pixel(18, 10), rgb(0xffffff));
    // off the frame and NaN corners: nothing, and no panic
    let far = [(-50.0, -50.0), (100.0, -50.0), (100.0, 100.0)];
    f.fill_polygon(far.len(), |k| far[k], red);
    f.fill_polygon(3, |_| (f32::NAN, f32::NAN), red);
    f.fill_polygon(2, |k| corners[k], red);
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
        bodies: None,
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
        bodies: None,
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
    assert_untouched_outside(&f, drawn);
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
        bodies: None,
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
    assert_untouched_outside(&f, drawn);
    assert!(
        drawn.x1 - drawn.x0 < 80 && drawn.y1 - drawn.y0 < 50,
        "{drawn:?}"
    );
}

/// A cloth of `n × n` particles 0.1 m apart with its grid constraints.
fn grid(n: usize) -> (Vec<f32>, Vec<u32>, Vec<f32>) {
    let mut positions = Vec::new();
    for row in 0..n {
        for col in 0..n {
            positions.extend([
                col as f32 * 0.1,
                -(row as f32) * 0.1 + 0.05 * (col % 3) as f32,
            ]);
        }
    }
    let mut ids = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let k = (row * n + col) as u32;
            if col + 1 < n {
                ids.extend([k, k + 1]);
            }
            if row + 1 < n {
                ids.extend([k, k + n as u32]);
            }
        }
    }
    let rest = vec![0.1; ids.len() / 2];
    (positions, ids, rest)
}

#[test]
fn a_drawing_in_pieces_is_the_drawing_in_one() {
    let (positions, constraint_ids, rest_lengths) = grid(9);
    let cloth = Cloth {
        positions: &positions,
        constraint_ids: &constraint_ids,
        rest_lengths: &rest_lengths,
        grabbed: Some(40),
        colliders: &[Shape::Circle {
            x: 0.4,
            y: -0.4,
            radius: 0.15,
        }],
        bodies: None,
    };
    let view = View {
        origin_x: 10.0,
        origin_y: 15.0,
        scale: 90.0,
    };
    for strain_colors in [false, true] {
        let mut style = Style::with_pixel_ratio(1.0, 2.5);
        style.strain_colors = strain_colors;
        let mut whole = frame(100, 100);
        let drawn = draw(&mut whole, &cloth, view, &style);
        for most in [1, 2, 7, 144, 145, 1000] {
            let mut pieces = frame(100, 100);
            let mut drawing = Drawing::start(&pieces, &cloth, view, &style);
            let total = drawing.shapes_left();
            assert_eq!(total, 1 + 144 + 81 + 1);
            let mut calls = 0;
            while !drawing.is_done() {
                let left = drawing.shapes_left();
                let drew = drawing.draw_some(&mut pieces, &cloth, view, &style, most);
                assert_eq!(drew, most.min(left), "most {most}");
                assert_eq!(drawing.shapes_left(), left - drew);
                calls += 1;
            }
            assert_eq!(calls, total.div_ceil(most), "most {most}");
            assert_eq!(drawing.drawn(), drawn, "most {most}");
            assert!(pieces.bytes() == whole.bytes(), "most {most}: other pixels");
            assert_eq!(
                drawing.draw_some(&mut pieces, &cloth, view, &style, most),
                0
            );
        }
    }
}

#[test]
fn no_particle_discs_are_no_shapes() {
    let (positions, constraint_ids, rest_lengths) = grid(3);
    let cloth = Cloth {
        positions: &positions,
        constraint_ids: &constraint_ids,
        rest_lengths: &rest_lengths,
        grabbed: None,
        colliders: &[],
        bodies: None,
    };
    let style = Style::with_pixel_ratio(1.0, 0.0);
    let f = frame(20, 20);
    let drawing = Drawing::start(
        &f,
        &cloth,
        View {
            origin_x: 1.0,
            origin_y: 1.0,
            scale: 10.0,
        },
        &style,
    );
    assert_eq!(drawing.shapes_left(), 1 + 12 + 1);
}
