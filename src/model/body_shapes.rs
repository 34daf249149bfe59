//! Bodies to build scenes from: a box and a ball of particles packed
//! `spacing` apart (twice the particle radius makes them solid to any other
//! particle), what the presets and `addBody` drop into a scene.

use super::circle;
use super::scene::{BodySpec, Scene};

/// A body's behaviour: compliance and plasticity (its particles are filled in
/// by the shape).
pub type Behaviour = BodySpec;

/// A rigid, elastic body.
pub fn rigid() -> Behaviour {
    BodySpec {
        particles: Vec::new(),
        compliance: 0.0,
        plastic: None,
    }
}

impl Scene {
    /// Adds a particle at `(x, y)` of `mass` (0: pinned); returns its index.
    /// Out of line: the scenes call it from many places, each of which would
    /// otherwise carry its own copy of two vectors' growth.
    #[inline(never)]
    pub fn add_particle(&mut self, x: f32, y: f32, mass: f32) -> u32 {
        self.positions.extend([x, y]);
        self.masses.push(mass);
        (self.masses.len() - 1) as u32
    }

    /// Adds a distance constraint between particles `a` and `b` (out of
    /// line, as [`Scene::add_particle`]).
    #[inline(never)]
    pub fn add_distance(&mut self, a: u32, b: u32) {
        self.distances.extend([a, b]);
    }

    /// Adds a box of `columns × rows` particles `spacing` apart, of `mass`
    /// each, centred at `(x, y)` and turned by `angle` radians (within two
    /// turns), as a body that behaves as `behaviour` says; returns the
    /// particles' indices, row after row from the bottom left (before the
    /// turn).
    pub fn add_box(
        &mut self,
        centre: (f32, f32),
        size: (usize, usize),
        layout: (f32, f32, f32),
        behaviour: Behaviour,
    ) -> Vec<u32> {
        self.push_box(centre, size, layout, behaviour);
        self.last_body()
    }

    /// [`Scene::add_box`], returning the index of its first particle (its
    /// particles follow it in order).
    pub(crate) fn push_box(
        &mut self,
        (x, y): (f32, f32),
        (columns, rows): (usize, usize),
        (spacing, mass, angle): (f32, f32, f32),
        behaviour: Behaviour,
    ) -> u32 {
        let (sin, cos) = circle::sin_cos(angle);
        let first = self.num_particles() as u32;
        for i in 0..rows {
            for j in 0..columns {
                let u = spacing * (j as f32 - (columns - 1) as f32 / 2.0);
                let v = spacing * (i as f32 - (rows - 1) as f32 / 2.0);
                self.add_particle(x + cos * u - sin * v, y + sin * u + cos * v, mass);
            }
        }
        self.push_body(first, behaviour);
        first
    }

    /// Makes the particles from `first` to the last one added a body that
    /// behaves as `behaviour` says.
    #[inline(never)]
    pub(crate) fn push_body(&mut self, first: u32, behaviour: Behaviour) {
        let particles = (first..self.num_particles() as u32).collect();
        self.bodies.push(BodySpec {
            particles,
            ..behaviour
        });
    }

    /// The particles of the last body added.
    fn last_body(&self) -> Vec<u32> {
        self.bodies
            .last()
            .map_or_else(Vec::new, |b| b.particles.clone())
    }

    /// Adds a ball: the particles of a hexagonal packing `spacing` apart
    /// within `radius` of `(x, y)` (the centre one of them, and at least
    /// seven), of `mass` each, as a body that behaves as `behaviour` says;
    /// returns the particles' indices, the topmost last.
    pub fn add_ball(
        &mut self,
        centre: (f32, f32),
        radius: f32,
        layout: (f32, f32),
        behaviour: Behaviour,
    ) -> Vec<u32> {
        self.push_ball(centre, radius, layout, behaviour);
        self.last_body()
    }

    /// [`Scene::add_ball`], returning the index of its first particle (its
    /// particles follow it in order, up to the scene's last).
    pub(crate) fn push_ball(
        &mut self,
        (x, y): (f32, f32),
        radius: f32,
        (spacing, mass): (f32, f32),
        behaviour: Behaviour,
    ) -> u32 {
        let first = self.num_particles() as u32;
        let radius = radius.max(spacing);
        let row = spacing * 3f32.sqrt() / 2.0;
        let reach = (radius / row).floor() as i32;
        for i in -reach..=reach {
            let v = row * i as f32;
            let shift = if i % 2 == 0 { 0.0 } else { spacing / 2.0 };
            let across = (radius / spacing).ceil() as i32 + 1;
            for j in -across..=across {
                let u = spacing * j as f32 + shift;
                if u * u + v * v <= radius * radius * (1.0 + 1e-4) {
                    self.add_particle(x + u, y + v, mass);
                }
            }
        }
        self.push_body(first, behaviour);
        first
    }
}

/// The points of a square grid `spacing` apart inside the closed polygon
/// `outline` (`[x0, y0, x1, y1, ...]`, its corners in order, either way
/// round; a point inside by the even-odd rule), interleaved: the grid centred
/// on the outline's bounding box, row after row from the bottom. `None` when
/// the bounding box holds more than `most` grid points (nothing is filled).
pub fn grid_inside(outline: &[f32], spacing: f32, most: usize) -> Option<Vec<f32>> {
    let corners = outline.len() / 2;
    let (mut low, mut high) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for c in 0..corners {
        let (x, y) = (outline[2 * c], outline[2 * c + 1]);
        low = (low.0.min(x), low.1.min(y));
        high = (high.0.max(x), high.1.max(y));
    }
    let step = f64::from(spacing);
    let columns = (f64::from(high.0 - low.0) / step).floor() + 1.0;
    let rows = (f64::from(high.1 - low.1) / step).floor() + 1.0;
    if (columns * rows).is_nan() || columns * rows > most as f64 {
        return None;
    }
    let (columns, rows) = (columns as usize, rows as usize);
    let centre = (
        (f64::from(low.0) + f64::from(high.0)) / 2.0,
        (f64::from(low.1) + f64::from(high.1)) / 2.0,
    );
    let start = (
        centre.0 - step * (columns - 1) as f64 / 2.0,
        centre.1 - step * (rows - 1) as f64 / 2.0,
    );
    let mut points = Vec::new();
    for i in 0..rows {
        let y = start.1 + step * i as f64;
        for j in 0..columns {
            let x = start.0 + step * j as f64;
            if inside(outline, (x, y)) {
                points.extend([x as f32, y as f32]);
            }
        }
    }
    Some(points)
}

/// Whether `(x, y)` is inside the closed polygon `outline` by the even-odd
/// rule (a ray to the right crosses its sides an odd number of times).
fn inside(outline: &[f32], (x, y): (f64, f64)) -> bool {
    let corners = outline.len() / 2;
    let corner = |c: usize| (f64::from(outline[2 * c]), f64::from(outline[2 * c + 1]));
    let mut odd = false;
    for c in 0..corners {
        let (a, b) = (corner(c), corner((c + 1) % corners));
        if (a.1 > y) != (b.1 > y) {
            let crossing = a.0 + (y - a.1) / (b.1 - a.1) * (b.0 - a.0);
            if x < crossing {
                odd = !odd;
            }
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_a_grid_and_a_ball_a_disc_of_discs() {
        let mut scene = Scene::default();
        let ids = scene.add_box((1.0, 2.0), (4, 3), (0.1, 0.5, 0.0), rigid());
        assert_eq!(ids.len(), 12);
        assert!((scene.positions[0] - 0.85).abs() < 1e-6);
        assert!((scene.positions[1] - 1.9).abs() < 1e-6);
        let ball = scene.add_ball((0.0, 0.0), 0.3, (0.1, 1.0), rigid());
        // a hexagonal packing of discs of diameter 0.1 within 0.3: 37 centres
        assert_eq!(ball.len(), 37);
        assert_eq!(scene.bodies.len(), 2);
    }

    #[test]
    fn a_polygon_is_filled_by_the_grid_points_inside_it() {
        // a 1 × 1 square at spacing 0.25: 5 × 5 points, its sides included
        // only where the even-odd rule puts them (left and bottom)
        let square = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let points = grid_inside(&square, 0.25, 100).unwrap();
        assert_eq!(points.len() / 2, 16);
        assert_eq!(&points[..4], &[0.0, 0.0, 0.25, 0.0]);
        // a triangle, clockwise: the points below its diagonal
        let triangle = [0.0, 0.0, 0.0, 1.0, 1.0, 0.0];
        let points = grid_inside(&triangle, 0.25, 100).unwrap();
        assert!(points.chunks(2).all(|p| p[0] + p[1] < 1.0));
        assert_eq!(points.len() / 2, 10);
        // more grid points than allowed: nothing
        assert!(grid_inside(&square, 0.001, 100).is_none());
    }
}
