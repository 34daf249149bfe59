//! Area constraints: a triangle's area, or the area enclosed by a closed ring
//! of particles with a pressure factor (the 2D form of a balloon's global
//! volume constraint).
//!
//! For a polygon of corners `x_0 … x_{n-1}` (in order, closed), the signed
//! shoelace area is `A = ½ Σ (x_i y_{i+1} - x_{i+1} y_i)`, positive
//! counter-clockwise (y up). The constraint keeps it at `pressure` times its
//! start area `A₀`:
//!
//! * `C = A(x) - pressure · A₀`;
//! * `∂A/∂x_i = ½ (y_{i+1} - y_{i-1})`, `∂A/∂y_i = ½ (x_{i-1} - x_{i+1})`;
//! * `delta_lambda = (-C - alpha_tilde λ) / (Σ w_i |∇_i C|² + alpha_tilde)`
//!   with `alpha_tilde = 1 / (stiffness h²)` (0 for a rigid constraint,
//!   `stiffness = 0`), and every corner moves by `w_i delta_lambda ∇_i C`.
//!
//! The gradients are taken once per solve, before any corner moves (one
//! constraint is one Newton-like step on all its corners at once). Sums run in
//! `f64`: a ring of hundreds of particles adds many products of similar size.
//! The multipliers `λ` are reset at the start of each substep, like those of
//! the distance constraints.

use std::collections::TryReserveError;

use super::{on_points, ConstraintKind, Cost, Now, Particles, Positions, Sizes};
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::model::scene::MAX_SCENE_CONSTRAINTS;
use crate::model::{AreaSpec, Scene};
use crate::params::{self, work, Params};
use crate::solver::{self, Points};

/// Work units of one area constraint solve, per pass, on top of its corners
/// (see [`crate::params::work`]).
pub const AREA_SOLVE: u64 = 30;
/// Work units of each corner of an area constraint, per pass (gradient, area,
/// move).
pub const AREA_CORNER: u64 = 12;

/// Smallest start area of an area constraint, m²: below it the polygon is
/// degenerate (its corners in a line) and its gradient says nothing.
pub const MIN_AREA: f64 = 1e-8;

/// Largest pressure of an area constraint (target area over start area).
pub const MAX_PRESSURE: f64 = 100.0;

/// The area constraints of a scene, their targets and multipliers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Areas {
    /// The corners of every polygon, one after the other.
    corners: Vec<u32>,
    /// Polygon `k` is `corners[starts[k]..starts[k + 1]]` (one more entry
    /// than polygons).
    starts: Vec<u32>,
    /// `pressure · A₀` of each polygon, m².
    targets: Vec<f64>,
    /// Compliance `1/stiffness` of each polygon (0 = rigid), m⁴/J.
    compliances: Vec<f64>,
    /// Lagrange multiplier of each polygon, accumulated over one substep.
    lambdas: Vec<f64>,
    /// Scratch: the gradient of the polygon being solved (room for the
    /// largest one, so solving never allocates).
    gradient: Vec<(f64, f64)>,
}

impl Areas {
    /// The constraints of `specs` (already validated: at least three corners,
    /// indices in range), with start areas measured on `positions`.
    pub fn try_new(specs: &[AreaSpec], positions: &[f32]) -> Result<Areas, TryReserveError> {
        let total: usize = specs.iter().map(|s| s.particles.len()).sum();
        let largest = specs.iter().map(|s| s.particles.len()).max().unwrap_or(0);
        let mut areas = Areas {
            corners: memory::with_capacity(total)?,
            starts: memory::with_capacity(specs.len() + 1)?,
            targets: memory::with_capacity(specs.len())?,
            compliances: memory::with_capacity(specs.len())?,
            lambdas: memory::filled(specs.len(), 0.0)?,
            gradient: memory::filled(largest, (0.0, 0.0))?,
        };
        areas.starts.push(0);
        for spec in specs {
            areas.corners.extend_from_slice(&spec.particles);
            areas.starts.push(areas.corners.len() as u32);
            let start_area = signed_area(positions, &spec.particles);
            areas.targets.push(spec.pressure * start_area);
            let compliance = if spec.stiffness == 0.0 {
                0.0
            } else {
                1.0 / spec.stiffness
            };
            areas.compliances.push(compliance);
        }
        Ok(areas)
    }

    /// Number of area constraints.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Corners of all polygons together (what a pass costs).
    pub fn corner_count(&self) -> usize {
        self.corners.len()
    }

    /// The corners of polygon `k`.
    pub fn polygon(&self, k: usize) -> &[u32] {
        &self.corners[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// The signed area of polygon `k` on `positions` (interleaved), m².
    pub fn area(&self, k: usize, positions: &[f32]) -> f64 {
        signed_area(positions, self.polygon(k))
    }

    /// The area polygon `k` is kept at, `pressure · A₀`, m².
    pub fn target(&self, k: usize) -> f64 {
        self.targets[k]
    }

    /// The compliance of polygon `k`, `1/stiffness` in m⁴/J (0: rigid), so
    /// that its elastic energy is `½ C² / compliance`.
    pub fn compliance(&self, k: usize) -> f64 {
        self.compliances[k]
    }

    /// One Gauss–Seidel pass over every area constraint, in order, with
    /// substep size `h`.
    pub fn pass<P: Points + ?Sized>(&mut self, points: &mut P, inverse_mass: &[f32], h: f64) {
        for k in 0..self.len() {
            let corners = &self.corners[self.starts[k] as usize..self.starts[k + 1] as usize];
            let alpha_tilde = solver::alpha_tilde(self.compliances[k], h) as f64;
            let target = self.targets[k];
            self.lambdas[k] += solve_area(
                points,
                inverse_mass,
                corners,
                (target, self.lambdas[k], alpha_tilde),
                &mut self.gradient,
            );
        }
    }
}

impl ConstraintKind for Areas {
    /// The scene's `areas`, checked: at least three corners each, each a
    /// particle of the scene and named once, a valid stiffness and pressure,
    /// and a start area of at least [`MIN_AREA`].
    fn from_scene(scene: &Scene) -> Result<Areas, ClothError> {
        check_areas(scene)?;
        Areas::try_new(&scene.areas, &scene.positions).map_err(|_| scene.out_of_memory())
    }

    /// On whenever the scene has any: no parameter switches them.
    fn is_on(&self, _p: &Params) -> bool {
        !self.is_empty()
    }

    fn cost(&self, _p: &Params, _sizes: Sizes) -> Cost {
        let (count, corners) = (self.len() as u64, self.corner_count() as u64);
        Cost {
            begin: count * work::CONSTRAINT_SUBSTEP,
            pass: count * AREA_SOLVE + corners * AREA_CORNER,
            ..Cost::default()
        }
    }

    fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.corners)
            + bytes(&self.starts)
            + bytes(&self.targets)
            + bytes(&self.compliances)
            + bytes(&self.lambdas)
            + bytes(&self.gradient)
    }

    /// Every multiplier back to 0.
    fn begin_substep(&mut self, _particles: &mut Particles, _now: &Now) {
        self.lambdas.fill(0.0);
    }

    fn solve(&mut self, positions: Positions, _previous: &[f32], inverse_mass: &[f32], now: &Now) {
        on_points!(positions, |points| self.pass(points, inverse_mass, now.h))
    }
}

/// Checks that a scene's areas have `corners` corners in all, at most
/// `most`: [`MAX_SCENE_CONSTRAINTS`] for any scene, and
/// [`MAX_SCENE_CORNERS`](crate::model::scene::MAX_SCENE_CORNERS) for one read
/// from JavaScript, which checks it before it reads the corners.
pub fn check_corners(corners: usize, most: usize) -> Result<(), ClothError> {
    if corners > most {
        return Err(refuse(
            None,
            format!("have {corners} corners in all, at most {most} are allowed"),
        ));
    }
    Ok(())
}

/// The refusal of the scene's `areas` (entry `index`, when it is one area's).
fn refuse(index: Option<usize>, problem: String) -> ClothError {
    ClothError::InvalidScene {
        field: "areas",
        index,
        problem,
    }
}

/// Checks the area constraints of `scene` (see [`Areas::from_scene`]).
fn check_areas(scene: &Scene) -> Result<(), ClothError> {
    let n = scene.num_particles();
    let corners = scene.areas.iter().map(|a| a.particles.len()).sum();
    check_corners(corners, MAX_SCENE_CONSTRAINTS)?;
    // which particles the ring being checked has named so far (cleared
    // after each ring): a repeated corner is found in one pass
    let mut named = if scene.areas.is_empty() {
        Vec::new()
    } else {
        memory::filled(n, false).map_err(|_| ClothError::OutOfMemory {
            field: "areas",
            what: format!("checking the corners of areas among {n} particles"),
        })?
    };
    for (i, area) in scene.areas.iter().enumerate() {
        let count = area.particles.len();
        if count < 3 {
            let problem = format!("has {count} particles, expected at least 3");
            return Err(refuse(Some(i), problem));
        }
        check_ring(i, &area.particles, &mut named)?;
        if params::STIFFNESS.check_number(area.stiffness).is_err() {
            return Err(refuse(
                Some(i),
                format!(
                    "has stiffness {}, expected a finite number from 0 to 1e15 J/m⁴ (0 = rigid)",
                    Number(area.stiffness)
                ),
            ));
        }
        if !(area.pressure.is_finite() && area.pressure > 0.0 && area.pressure <= MAX_PRESSURE) {
            return Err(refuse(
                Some(i),
                format!(
                    "has pressure {}, expected a number above 0 up to {}",
                    Number(area.pressure),
                    Plain(MAX_PRESSURE)
                ),
            ));
        }
        let start = polygon_area(&scene.positions, &area.particles);
        if start.abs() < MIN_AREA {
            return Err(refuse(
                Some(i),
                format!(
                    "encloses {} m² at the start, expected at least {} m²",
                    Number(start),
                    Plain(MIN_AREA)
                ),
            ));
        }
    }
    Ok(())
}

/// Checks the ring of area `i`: each corner a particle of the scene (`named`
/// has one flag per particle, all clear) and none named twice. Leaves the
/// flags clear again.
fn check_ring(i: usize, particles: &[u32], named: &mut [bool]) -> Result<(), ClothError> {
    let n = named.len();
    for &k in particles {
        if k as usize >= n {
            let problem = format!("names particle {k}, expected an index from 0 to {}", n - 1);
            return Err(refuse(Some(i), problem));
        }
        if named[k as usize] {
            return Err(refuse(Some(i), format!("names particle {k} twice")));
        }
        named[k as usize] = true;
    }
    for &k in particles {
        named[k as usize] = false;
    }
    Ok(())
}

/// The signed area enclosed by `particles` at `positions` (shoelace formula,
/// counter-clockwise positive), m², summed as the scene's checks sum it.
pub fn polygon_area(positions: &[f32], particles: &[u32]) -> f64 {
    let point = |k: u32| {
        let k = k as usize;
        (positions[2 * k] as f64, positions[2 * k + 1] as f64)
    };
    let count = particles.len();
    (0..count)
        .map(|i| {
            let (a, b) = (point(particles[i]), point(particles[(i + 1) % count]));
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f64>()
        / 2.0
}

/// The signed shoelace area of the polygon `corners` on `points`, m²
/// (counter-clockwise positive).
pub fn signed_area<P: Points + ?Sized>(points: &P, corners: &[u32]) -> f64 {
    let n = corners.len();
    let mut twice = 0.0;
    for i in 0..n {
        let (x0, y0) = points.point(corners[i] as usize);
        let (x1, y1) = points.point(corners[(i + 1) % n] as usize);
        twice += x0 as f64 * y1 as f64 - x1 as f64 * y0 as f64;
    }
    0.5 * twice
}

/// Solves one area constraint `A(x) = target` on the polygon `corners` with
/// multiplier `lambda` and `alpha_tilde`, moves its corners and returns
/// `delta_lambda` (0 when it cannot move: every corner fixed, or a degenerate
/// gradient). `gradient` is scratch with room for every corner.
pub fn solve_area<P: Points + ?Sized>(
    points: &mut P,
    inverse_mass: &[f32],
    corners: &[u32],
    (target, lambda, alpha_tilde): (f64, f64, f64),
    gradient: &mut [(f64, f64)],
) -> f64 {
    let n = corners.len();
    let mut denominator = alpha_tilde;
    for i in 0..n {
        let (x_prev, y_prev) = points.point(corners[(i + n - 1) % n] as usize);
        let (x_next, y_next) = points.point(corners[(i + 1) % n] as usize);
        let g = (
            0.5 * (y_next as f64 - y_prev as f64),
            0.5 * (x_prev as f64 - x_next as f64),
        );
        gradient[i] = g;
        denominator += inverse_mass[corners[i] as usize] as f64 * (g.0 * g.0 + g.1 * g.1);
    }
    if denominator <= 0.0 || !denominator.is_finite() {
        return 0.0;
    }
    let constraint = signed_area(points, corners) - target;
    let delta_lambda = (-constraint - alpha_tilde * lambda) / denominator;
    for (i, &k) in corners.iter().enumerate() {
        let w = inverse_mass[k as usize] as f64;
        if w == 0.0 {
            continue;
        }
        let (x, y) = points.point(k as usize);
        let (gx, gy) = gradient[i];
        let moved = (
            (x as f64 + w * delta_lambda * gx) as f32,
            (y as f64 + w * delta_lambda * gy) as f32,
        );
        points.set_point(k as usize, moved);
    }
    delta_lambda
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shoelace_area_is_signed() {
        let square = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        assert_eq!(signed_area(&square[..], &[0, 1, 2, 3]), 1.0);
        assert_eq!(signed_area(&square[..], &[3, 2, 1, 0]), -1.0);
    }

    /// One solve of the rigid triangle `0, 1, 2` of `points` towards 1 m²,
    /// with inverse masses `w`.
    fn solve_to_one_square_metre(points: &mut [f32; 6], w: [f32; 3]) {
        let mut gradient = [(0.0, 0.0); 3];
        solve_area(
            &mut points[..],
            &w,
            &[0, 1, 2],
            (1.0, 0.0, 0.0),
            &mut gradient,
        );
    }

    #[test]
    fn a_rigid_triangle_gets_its_area_back_in_one_solve() {
        let mut points = [0.0, 0.0, 1.0, 0.0, 0.0, 0.5];
        // target 1 m², start 0.25 m²: one solve is linear in each coordinate
        // but the area is quadratic, so it gets close, not exact
        for _ in 0..20 {
            solve_to_one_square_metre(&mut points, [1.0, 1.0, 1.0]);
        }
        let area = signed_area(&points[..], &[0, 1, 2]);
        assert!((area - 1.0).abs() < 1e-5, "{area}");
    }

    #[test]
    fn fixed_corners_do_not_move() {
        let mut points = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        solve_to_one_square_metre(&mut points, [0.0, 0.0, 1.0]);
        assert_eq!(&points[..4], &[0.0, 0.0, 1.0, 0.0]);
        // the free corner moved straight up: ∇ = (½(y0 - y1), ½(x1 - x0)) = (0, ½)
        assert_eq!(points[4], 0.0);
        assert!((points[5] - 2.0).abs() < 1e-6, "{points:?}");
    }
}
