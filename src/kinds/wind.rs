//! Wind: aerodynamic drag and lift of the edges.
//!
//! Each distance constraint is an edge of length `L` with unit normal `n`.
//! The air moves at the wind velocity `w` (`windX`, `windY`), the edge at the
//! mean velocity `v` of its two particles, so the air meets it at
//! `u = w − v`. Only the normal part pushes: the force is
//! `F = windDrag · L · (u·n) |u·n| · n` (quadratic drag of a flat plate; on a
//! slanted edge its direction is the normal, so it lifts as well as drags).
//! Each of the two particles gets half of it as a velocity change
//! `h · F/2 · w_i` (`w_i` its inverse mass) at the start of the substep.
//!
//! The change is capped so it never reverses the edge's normal velocity
//! relative to the air in one substep (the explicit force would overshoot
//! for a light edge in a strong wind); an edge then moves with the air.
//!
//! The air's velocity comes from [`Gusts`]: the steady wind, or with gusts
//! and turbulence a wind that varies in time and space, read at each edge's
//! midpoint. Still air (`windX = windY = 0`, no gusts, no turbulence) applies
//! no force: wind is off, and the cloth steps exactly as without it.

use super::gusts::Gusts;
use super::{ConstraintKind, Cost, Now, Particles, Sizes};
use crate::error::ClothError;
use crate::model::Scene;
use crate::params::Params;

/// Work units per live constraint per substep with wind on (see
/// [`crate::params::work`]).
pub const WIND_EDGE: u64 = 20;
/// Work units per live constraint per substep with gusts or turbulence on,
/// besides [`WIND_EDGE`]: the noise of the wind at the edge (two 3D value
/// noises, 16 lattice hashes).
pub const GUSTY_WIND_EDGE: u64 = 40;

/// The wind: no state of its own, only the parameters (`windX`, `windY`,
/// `windDrag`, `windGust`, `windTurbulence`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Wind;

impl ConstraintKind for Wind {
    fn from_scene(_scene: &Scene) -> Result<Wind, ClothError> {
        Ok(Wind)
    }

    /// On while the air moves (see [`Params::wind_blows`]).
    fn is_on(&self, p: &Params) -> bool {
        p.wind_blows()
    }

    /// Each edge every substep, and the noise at its midpoint with gusts or
    /// turbulence.
    fn cost(&self, p: &Params, sizes: Sizes) -> Cost {
        let m = sizes.constraints as u64;
        let gusty = p.wind_gust > 0.0 || p.wind_turbulence > 0.0;
        let per_edge = WIND_EDGE + if gusty { GUSTY_WIND_EDGE } else { 0 };
        Cost {
            begin: m * per_edge,
            ..Cost::default()
        }
    }

    fn heap_bytes(&self) -> u64 {
        0
    }

    /// The velocity change of the substep on every live edge.
    fn begin_substep(&mut self, particles: &mut Particles, now: &Now) {
        let p = &now.p;
        let gusts = Gusts::new(
            [p.wind_x, p.wind_y],
            p.wind_gust,
            p.wind_turbulence,
            now.time,
        );
        let Particles {
            positions,
            velocities,
            inverse_mass,
            edges,
            ..
        } = particles;
        let (drag, h) = (p.wind_drag as f32, now.h as f32);
        apply(positions, velocities, inverse_mass, edges, &gusts, drag, h);
    }
}

/// Applies the wind's velocity change over a substep `h` to the free
/// particles of the edges `ids` (flat pairs).
pub fn apply(
    positions: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    ids: &[u32],
    gusts: &Gusts,
    drag: f32,
    h: f32,
) {
    let edges = Edges {
        positions,
        velocities,
        inverse_mass,
        ids,
    };
    if gusts.is_uniform() {
        let wind = gusts.base();
        edges.push(|_, _| wind, drag, h);
    } else {
        edges.push(|x, y| gusts.at(x, y), drag, h);
    }
}

/// The edges the wind pushes and the particles' state.
struct Edges<'a> {
    positions: &'a [f32],
    velocities: &'a mut [f32],
    inverse_mass: &'a [f32],
    ids: &'a [u32],
}

impl Edges<'_> {
    /// Pushes every edge with the air velocity `wind_at(midpoint)`.
    fn push(self, wind_at: impl Fn(f32, f32) -> [f32; 2], drag: f32, h: f32) {
        let Edges {
            positions,
            velocities,
            inverse_mass,
            ids,
        } = self;
        for pair in ids.chunks_exact(2) {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            let (wa, wb) = (inverse_mass[a], inverse_mass[b]);
            if wa + wb == 0.0 {
                continue;
            }
            let (ex, ey) = (
                positions[2 * b] - positions[2 * a],
                positions[2 * b + 1] - positions[2 * a + 1],
            );
            let length = (ex * ex + ey * ey).sqrt();
            if length <= 0.0 {
                continue;
            }
            let (nx, ny) = (-ey / length, ex / length);
            let vx = 0.5 * (velocities[2 * a] + velocities[2 * b]);
            let vy = 0.5 * (velocities[2 * a + 1] + velocities[2 * b + 1]);
            let wind = wind_at(
                0.5 * (positions[2 * a] + positions[2 * b]),
                0.5 * (positions[2 * a + 1] + positions[2 * b + 1]),
            );
            let un = (wind[0] - vx) * nx + (wind[1] - vy) * ny;
            // normal velocity change of the edge's mean: h · F · (wa + wb) / 4
            let force = drag * length * un * un.abs();
            let mut impulse = h * force * 0.5;
            let change = impulse * 0.5 * (wa + wb);
            if change.abs() > un.abs() {
                impulse *= un.abs() / change.abs();
            }
            velocities[2 * a] += impulse * wa * nx;
            velocities[2 * a + 1] += impulse * wa * ny;
            velocities[2 * b] += impulse * wb * nx;
            velocities[2 * b + 1] += impulse * wb * ny;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steady wind as it is without gusts: one wind for every edge,
    /// written out again here as the reference.
    fn steady(p: &[f32], v: &mut [f32], w: &[f32], ids: &[u32], wind: [f32; 2]) {
        let (drag, h) = (1.3f32, 0.01f32);
        for pair in ids.chunks_exact(2) {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            let (ex, ey) = (p[2 * b] - p[2 * a], p[2 * b + 1] - p[2 * a + 1]);
            let length = (ex * ex + ey * ey).sqrt();
            let (nx, ny) = (-ey / length, ex / length);
            let vx = 0.5 * (v[2 * a] + v[2 * b]);
            let vy = 0.5 * (v[2 * a + 1] + v[2 * b + 1]);
            let un = (wind[0] - vx) * nx + (wind[1] - vy) * ny;
            let force = drag * length * un * un.abs();
            let mut impulse = h * force * 0.5;
            let change = impulse * 0.5 * (w[a] + w[b]);
            if change.abs() > un.abs() {
                impulse *= un.abs() / change.abs();
            }
            v[2 * a] += impulse * w[a] * nx;
            v[2 * a + 1] += impulse * w[a] * ny;
            v[2 * b] += impulse * w[b] * nx;
            v[2 * b + 1] += impulse * w[b] * ny;
        }
    }

    #[test]
    fn zero_gust_and_turbulence_is_the_steady_wind_bit_for_bit() {
        // a ragged strip of 12 particles, every one free, moving
        let p: Vec<f32> = (0..24).map(|k| ((k * 37 % 11) as f32) * 0.13).collect();
        let v0: Vec<f32> = (0..24).map(|k| ((k * 53 % 7) as f32) - 3.1).collect();
        let w: Vec<f32> = (0..12).map(|k| 0.5 + k as f32 * 0.25).collect();
        let ids: Vec<u32> = (0..11).flat_map(|k| [k, k + 1]).collect();
        for (wind, time) in [([8.0, 0.0], 0.0), ([-3.7, 2.2], 4.37), ([0.1, -9.0], 1e5)] {
            let mut expected = v0.clone();
            steady(&p, &mut expected, &w, &ids, wind.map(|c: f64| c as f32));
            let mut got = v0.clone();
            let gusts = Gusts::new(wind, 0.0, 0.0, time);
            apply(&p, &mut got, &w, &ids, &gusts, 1.3, 0.01);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&expected));
            // and gusts change it
            let gusty = Gusts::new(wind, 2.0, 1.0, time + 0.3);
            let mut changed = v0.clone();
            apply(&p, &mut changed, &w, &ids, &gusty, 1.3, 0.01);
            assert_ne!(bits(&changed), bits(&expected));
        }
    }
}
