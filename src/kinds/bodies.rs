//! Bodies: clusters of particles held in a rest shape by shape matching
//! (M. Müller, B. Heidelberger, M. Teschner, M. Gross, "Meshless Deformations
//! Based on Shape Matching", SIGGRAPH 2005), rigid or soft, elastic or
//! plastic. A plank, a ball or a can is made of particles like the cloth's
//! and meets the cloth through the particle contacts (`src/contacts/`), as in
//! FleX (Macklin, Müller, Chentanez, Kim 2014). docs/physics.md, "Shape
//! matching", derives what follows.
//!
//! A body has particles `i` with masses `m_i`, positions `x_i` and rest
//! positions `r_i` (its start positions; a plastic body's change). Each pass:
//!
//! * the centres `c = Σ m_i x_i / M` and `c0 = Σ m_i r_i / M`; a body with
//!   pinned or held particles (`w_i = 0`) turns about them instead: `c` and
//!   `c0` are their mean, and each weighs as much as the body's mean particle
//!   in the sums below;
//! * `p_i = x_i - c`, `q_i = r_i - c0`, and the rotation `R(θ)` that best
//!   maps the rest shape onto the particles (least `Σ m_i |p_i - R q_i|²`),
//!   in closed form in 2D: `(cos θ, sin θ) = (dot, cross) / |(dot, cross)|`
//!   with `dot = Σ m_i q_i · p_i` and `cross = Σ m_i q_i × p_i`;
//! * the goals `g_i = c + R q_i`;
//! * the constraint of each particle `C_i = √m_i (x_i - g_i)`, whose energy
//!   `Σ |C_i|² / (2α) = Σ m_i |x_i - g_i|² / (2α)` has compliance `α` (s²;
//!   a particle pulled from its goal oscillates at `ω = 1/√α`), solved as XPBD
//!   solves any constraint with the goals held fixed: `alpha_tilde = α / h²`,
//!   and with `u_i = λ_i / √m_i` (metres) each free particle moves by
//!   `delta_u = (g_i - x_i - alpha_tilde u_i) / (1 + alpha_tilde)`. At `α = 0`
//!   (rigid) every particle goes to its goal.
//!
//! The moves keep the momentum (`Σ m_i (g_i - x_i) = 0`, since `c` is the
//! centre of the goals) and the angular momentum (`Σ m_i p_i × R q_i = 0` is
//! what makes `θ` the best rotation) of a free body.
//!
//! **Prediction along the arc.** The substep's prediction moves every particle
//! in a straight line; a spinning body's particles should move along arcs, and
//! the best rotation of the straight-line prediction is short of the body's
//! turn (by a factor `1 - ⅔(ωh)²` per substep, which would slow every spin
//! down). Before prediction each body whose particles are free (or that turns
//! about one pinned particle) gets the centripetal velocity change of its
//! spin: with the angular velocity `ω = L / I` of its particles' velocities
//! about `c` (the turn of the last substep, `sin(Δθ) / h`), each particle's
//! velocity changes by `-2 (1 - cos Δθ) p_i / h`, so that prediction puts the
//! particles of a rigid body exactly on their arcs. It is radial, so it keeps
//! momentum and angular momentum (`arcs.rs`).
//!
//! **Plasticity** (`plasticity.rs`): a plastic body's rest shape takes on the
//! part of its deformation beyond a yield.

use std::collections::TryReserveError;

use super::{on_points, Addition, ConstraintKind, Cost, Now, Particles, Positions, Sizes};
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::model::{BodySpec, Plasticity, Scene};
use crate::params::{self, Params};
use crate::solver::Points;

mod arcs;
mod checks;
mod outline;
mod plasticity;

pub use checks::check_scene_bodies;
use outline::hull;
pub use outline::thickness;
pub use plasticity::{check_plasticity, MAX_CREEP, MAX_STRAIN};

/// Work units of one body's shape-matching solve, per pass, on top of its
/// particles (see [`crate::params::work`]; measured natively and scaled by
/// about three for wasm, like the other kinds).
pub const BODY_SOLVE: u64 = 40;
/// Work units of each particle of a body, per pass: its share of the centres
/// and the rotation, and its move towards its goal (three visits); the same
/// per substep for a plastic body's flow.
pub const BODY_PARTICLE: u64 = 12;
/// Work units of each particle of a body, per substep: its multiplier back to
/// 0 and its share of the prediction along the body's arcs.
pub const BODY_PREDICT: u64 = 8;

/// Most bodies a simulation may have (those of its scene and those added).
pub const MAX_BODIES: usize = 10_000;

/// Largest compliance of a body, s²: a particle pulled from its goal
/// oscillates about once in 600 s.
pub const MAX_COMPLIANCE: f64 = 1e4;

/// Thinnest a body may be: its RMS width across over its RMS length, at
/// least this (below it its particles are on one line, and no rotation is
/// defined).
pub const MIN_THICKNESS: f64 = 1e-4;

/// Every body of a simulation: their particles, rest shapes, multipliers and
/// outlines.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bodies {
    /// Each body's particles, body after body: the body's *slots*.
    particles: Vec<u32>,
    /// The rest position of each slot, interleaved, metres (a plastic
    /// body's change as it deforms).
    rest: Vec<f32>,
    /// The rest position each slot started with, interleaved.
    original: Vec<f32>,
    /// `u_i = λ_i / √m_i` of each slot, interleaved, metres: reset each substep.
    lambdas: Vec<f32>,
    /// The particles of each body's outline, in order around it, counter-clockwise.
    outlines: Vec<u32>,
    /// Each body.
    bodies: Vec<Body>,
    /// Scratch of the outlines' convex hulls: room for the largest body
    /// three times, empty between uses.
    scratch: [Vec<u32>; 3],
}

/// One body: where its slots and outline are, and how it behaves.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Body {
    /// Its slots: `slots.0..slots.1`.
    slots: (u32, u32),
    /// Its outline: `outlines[outline.0..outline.1]`.
    outline: (u32, u32),
    /// `α`, s².
    compliance: f64,
    /// Its plasticity, if plastic.
    plastic: Option<Plasticity>,
    /// `ρ`: the RMS distance of its first rest shape's particles from their
    /// centre (mass-weighted), metres.
    radius: f64,
}

/// A body's frame in a pass: its centres, its rotation, and how its pinned
/// particles weigh.
#[derive(Debug, Clone, Copy)]
struct Frame {
    c: (f64, f64),
    c0: (f64, f64),
    /// `(cos θ, sin θ)`.
    rotation: (f64, f64),
}

impl Bodies {
    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// Particles in all bodies together.
    pub fn slot_count(&self) -> usize {
        self.particles.len()
    }

    /// The particles of body `k`.
    pub fn particles(&self, k: usize) -> &[u32] {
        let (a, b) = self.bodies[k].slots;
        &self.particles[a as usize..b as usize]
    }

    /// The particles of body `k`'s outline, in order, counter-clockwise (the
    /// convex hull of its first rest shape, with the particles on its sides).
    pub fn outline(&self, k: usize) -> &[u32] {
        let (a, b) = self.bodies[k].outline;
        &self.outlines[a as usize..b as usize]
    }

    /// The rest positions of body `k`'s particles, interleaved, metres.
    pub fn rest(&self, k: usize) -> &[f32] {
        let (a, b) = self.bodies[k].slots;
        &self.rest[2 * a as usize..2 * b as usize]
    }

    /// The rest positions body `k` started with, interleaved, metres.
    pub fn original_rest(&self, k: usize) -> &[f32] {
        let (a, b) = self.bodies[k].slots;
        &self.original[2 * a as usize..2 * b as usize]
    }

    /// Body `k`'s compliance `α`, s².
    pub fn compliance(&self, k: usize) -> f64 {
        self.bodies[k].compliance
    }

    /// Body `k`'s RMS radius `ρ`, metres.
    pub fn radius(&self, k: usize) -> f64 {
        self.bodies[k].radius
    }

    /// Reserves room for `bodies` more, of `slots` particles and `outline`
    /// outline particles in all; nothing changes on failure but capacity.
    fn reserve(
        &mut self,
        bodies: usize,
        slots: usize,
        outline: usize,
    ) -> Result<(), TryReserveError> {
        memory::reserve_more(&mut self.particles, slots)?;
        for values in [&mut self.rest, &mut self.original, &mut self.lambdas] {
            memory::reserve_more(values, 2 * slots)?;
        }
        memory::reserve_more(&mut self.outlines, outline)?;
        memory::reserve_more(&mut self.bodies, bodies)
    }

    /// Reserves room for `specs` more bodies (a scene's, or an addition's),
    /// their outlines and the scratch their outlines are found in; nothing
    /// changes but capacity.
    fn reserve_for(&mut self, specs: &[BodySpec]) -> Result<(), TryReserveError> {
        let (mut slots, mut largest) = (0, 0);
        for spec in specs {
            slots += spec.particles.len();
            largest = largest.max(spec.particles.len());
        }
        for buffer in &mut self.scratch {
            memory::reserve_len(buffer, largest)?;
        }
        self.reserve(specs.len(), slots, slots)
    }

    /// Appends the checked `specs` in room reserved for them
    /// ([`Bodies::reserve_for`]), their rest shapes read from `positions` and
    /// their masses from `masses` (both indexed from particle `first`: the
    /// particles they name are at `k - first`).
    fn push(&mut self, specs: &[BodySpec], positions: &[f32], masses: &[f32], first: usize) {
        let index = |k: u32| k as usize - first;
        let at = |k: u32| point(positions, index(k));
        for spec in specs {
            let start = self.particles.len() as u32;
            let outline_start = self.outlines.len() as u32;
            self.particles.extend_from_slice(&spec.particles);
            let rest_start = self.rest.len();
            for &k in &spec.particles {
                let i = index(k);
                self.rest.extend_from_slice(&positions[2 * i..2 * i + 2]);
            }
            self.original.extend_from_slice(&self.rest[rest_start..]);
            self.lambdas.resize(self.rest.len(), 0.0);
            hull(&spec.particles, at, &mut self.scratch, &mut self.outlines);
            let mass = |k: u32| f64::from(masses[index(k)]);
            self.bodies.push(Body {
                slots: (start, self.particles.len() as u32),
                outline: (outline_start, self.outlines.len() as u32),
                compliance: spec.compliance,
                plastic: spec.plastic,
                radius: rms_radius(&spec.particles, at, mass),
            });
        }
    }

    /// Body `k`'s frame on `points`: its centres and best rotation, or `None`
    /// when no particle of it is free (nothing to move).
    fn frame<P: Points + ?Sized>(
        &self,
        k: usize,
        points: &P,
        inverse_mass: &[f32],
    ) -> Option<Frame> {
        let (a, b) = self.bodies[k].slots;
        let slots = a as usize..b as usize;
        // centres: of the free particles by mass, or of the pinned ones
        let (mut mass, mut free, mut pinned) = (0.0, (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0));
        let (mut n_free, mut n_pinned) = (0usize, 0usize);
        for s in slots.clone() {
            let k = self.particles[s] as usize;
            let (x, y) = points.point(k);
            let (rx, ry) = (self.rest[2 * s], self.rest[2 * s + 1]);
            let w = inverse_mass[k];
            let sums = if w > 0.0 {
                let m = 1.0 / f64::from(w);
                mass += m;
                n_free += 1;
                free.0 += m * f64::from(x);
                free.1 += m * f64::from(y);
                free.2 += m * f64::from(rx);
                free.3 += m * f64::from(ry);
                continue;
            } else {
                n_pinned += 1;
                &mut pinned
            };
            sums.0 += f64::from(x);
            sums.1 += f64::from(y);
            sums.2 += f64::from(rx);
            sums.3 += f64::from(ry);
        }
        if n_free == 0 {
            return None;
        }
        let (sums, total) = if n_pinned > 0 {
            (pinned, n_pinned as f64)
        } else {
            (free, mass)
        };
        let c = (sums.0 / total, sums.1 / total);
        let c0 = (sums.2 / total, sums.3 / total);
        let pinned_weight = mass / n_free as f64;
        // the best rotation
        let (mut dot, mut cross) = (0.0, 0.0);
        for s in slots {
            let k = self.particles[s] as usize;
            let (x, y) = points.point(k);
            let w = inverse_mass[k];
            let m = if w > 0.0 {
                1.0 / f64::from(w)
            } else {
                pinned_weight
            };
            let p = (f64::from(x) - c.0, f64::from(y) - c.1);
            let q = (
                f64::from(self.rest[2 * s]) - c0.0,
                f64::from(self.rest[2 * s + 1]) - c0.1,
            );
            dot += m * (q.0 * p.0 + q.1 * p.1);
            cross += m * (q.0 * p.1 - q.1 * p.0);
        }
        let length = (dot * dot + cross * cross).sqrt();
        let rotation = if length > 0.0 && length.is_finite() {
            (dot / length, cross / length)
        } else {
            (1.0, 0.0)
        };
        Some(Frame { c, c0, rotation })
    }

    /// One pass over every body, in order, with substep size `h`: each free
    /// particle moves towards its goal.
    pub fn pass<P: Points + ?Sized>(&mut self, points: &mut P, inverse_mass: &[f32], h: f64) {
        for k in 0..self.bodies.len() {
            let Some(frame) = self.frame(k, points, inverse_mass) else {
                continue;
            };
            let body = self.bodies[k];
            let alpha_tilde = f64::from(crate::solver::alpha_tilde(body.compliance, h));
            let (cos, sin) = frame.rotation;
            for s in body.slots.0 as usize..body.slots.1 as usize {
                let i = self.particles[s] as usize;
                if inverse_mass[i] == 0.0 {
                    continue;
                }
                let q = (
                    f64::from(self.rest[2 * s]) - frame.c0.0,
                    f64::from(self.rest[2 * s + 1]) - frame.c0.1,
                );
                let goal = (
                    frame.c.0 + cos * q.0 - sin * q.1,
                    frame.c.1 + sin * q.0 + cos * q.1,
                );
                let (x, y) = points.point(i);
                if alpha_tilde == 0.0 {
                    points.set_point(i, (goal.0 as f32, goal.1 as f32));
                    continue;
                }
                let u = (
                    f64::from(self.lambdas[2 * s]),
                    f64::from(self.lambdas[2 * s + 1]),
                );
                let delta_u = (
                    (goal.0 - f64::from(x) - alpha_tilde * u.0) / (1.0 + alpha_tilde),
                    (goal.1 - f64::from(y) - alpha_tilde * u.1) / (1.0 + alpha_tilde),
                );
                points.set_point(
                    i,
                    (
                        (f64::from(x) + delta_u.0) as f32,
                        (f64::from(y) + delta_u.1) as f32,
                    ),
                );
                self.lambdas[2 * s] = (u.0 + delta_u.0) as f32;
                self.lambdas[2 * s + 1] = (u.1 + delta_u.1) as f32;
            }
        }
    }
}

/// Particle `i`'s position in `positions` (interleaved), in `f64`.
fn point(positions: &[f32], i: usize) -> (f64, f64) {
    (f64::from(positions[2 * i]), f64::from(positions[2 * i + 1]))
}

/// The mass-weighted RMS distance of `particles` from their centre.
fn rms_radius(particles: &[u32], at: impl Fn(u32) -> (f64, f64), mass: impl Fn(u32) -> f64) -> f64 {
    let mean = mean_mass(particles, &mass);
    let weight = |k: u32| if mass(k) > 0.0 { mass(k) } else { mean };
    let total: f64 = particles.iter().map(|&k| weight(k)).sum();
    let c = particles.iter().fold((0.0, 0.0), |c, &k| {
        let (x, y) = at(k);
        (c.0 + weight(k) * x, c.1 + weight(k) * y)
    });
    let c = (c.0 / total, c.1 / total);
    let spread: f64 = particles
        .iter()
        .map(|&k| {
            let (x, y) = at(k);
            weight(k) * ((x - c.0).powi(2) + (y - c.1).powi(2))
        })
        .sum();
    (spread / total).sqrt()
}

/// The mean mass of the free particles of `particles` (1 when all are pinned).
fn mean_mass(particles: &[u32], mass: &impl Fn(u32) -> f64) -> f64 {
    let free = particles.iter().map(|&k| mass(k)).filter(|&m| m > 0.0);
    let (sum, count) = free.fold((0.0, 0usize), |(sum, count), m| (sum + m, count + 1));
    if count == 0 {
        1.0
    } else {
        sum / count as f64
    }
}

impl ConstraintKind for Bodies {
    /// The scene's `bodies`, checked: at most [`MAX_BODIES`], each of at
    /// least three particles of the scene not on one line, no particle in two
    /// bodies (or twice in one), compliance and plasticity in range.
    fn from_scene(scene: &Scene) -> Result<Bodies, ClothError> {
        let mut bodies = Bodies::default();
        if scene.bodies.is_empty() {
            return Ok(bodies);
        }
        check_scene_bodies(scene, 0)?;
        bodies
            .reserve_for(&scene.bodies)
            .map_err(|_| scene.out_of_memory())?;
        bodies.push(&scene.bodies, &scene.positions, &scene.masses, 0);
        Ok(bodies)
    }

    /// On whenever there is a body: no parameter switches them.
    fn is_on(&self, _p: &Params) -> bool {
        !self.is_empty()
    }

    fn cost(&self, _p: &Params, _sizes: Sizes) -> Cost {
        let (count, slots) = (self.len() as u64, self.slot_count() as u64);
        let plastic = if self.any_plastic() {
            count * BODY_SOLVE + slots * BODY_PARTICLE
        } else {
            0
        };
        Cost {
            begin: slots * BODY_PREDICT,
            pass: count * BODY_SOLVE + slots * BODY_PARTICLE,
            end: plastic,
            tear: 0,
        }
    }

    fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.particles)
            + bytes(&self.rest)
            + bytes(&self.original)
            + bytes(&self.lambdas)
            + bytes(&self.outlines)
            + bytes(&self.bodies)
            + self.scratch.iter().map(bytes).sum::<u64>()
    }

    /// Every multiplier back to 0, and each spinning body's prediction along
    /// its arcs.
    fn begin_substep(&mut self, particles: &mut Particles, now: &Now) {
        self.lambdas.fill(0.0);
        self.predict_arcs(particles, now.h);
    }

    fn solve(&mut self, positions: Positions, _previous: &[f32], inverse_mass: &[f32], now: &Now) {
        on_points!(positions, |points| self.pass(points, inverse_mass, now.h))
    }

    /// Plastic flow.
    fn end_substep(&mut self, particles: &mut Particles, now: &Now) {
        if self.any_plastic() {
            self.flow(particles.positions, particles.inverse_mass, now.h);
        }
    }

    /// The rest positions of every body (a plastic body's change).
    fn saved(&self) -> &[f32] {
        &self.rest
    }

    /// The rest positions of every body: as many as this simulation's, each
    /// finite and within ±1e6 m; an elastic body's as it started.
    fn check_saved(&self, values: &[f32]) -> Result<(), String> {
        if values.len() != self.rest.len() {
            return Err(format!(
                "has {} numbers, expected {} (x and y of the rest position of each particle of a body)",
                values.len(),
                self.rest.len()
            ));
        }
        let limit = params::MAX_COORDINATE as f32;
        if let Some(i) = values.iter().position(|v| v.is_nan() || v.abs() > limit) {
            return Err(format!(
                "has {} at {i}, expected a finite coordinate within ±{} m",
                Number(f64::from(values[i])),
                Plain(params::MAX_COORDINATE)
            ));
        }
        for (k, body) in self.bodies.iter().enumerate() {
            let (a, b) = (2 * body.slots.0 as usize, 2 * body.slots.1 as usize);
            if body.plastic.is_none() && values[a..b] != self.original[a..b] {
                return Err(format!(
                    "changes the rest shape of body {k}, which is not plastic"
                ));
            }
        }
        Ok(())
    }

    fn restore_saved(&mut self, values: &[f32]) {
        self.rest.copy_from_slice(values);
    }

    /// Room for the bodies of `addition`, and their outlines.
    fn reserve_addition(&mut self, addition: &Addition) -> Result<(), TryReserveError> {
        self.reserve_for(addition.bodies)
    }

    /// The bodies of `addition`, after those there are.
    fn add(&mut self, addition: &Addition) {
        let (positions, masses) = (addition.positions, addition.masses);
        self.push(addition.bodies, positions, masses, addition.first);
    }

    /// Not kept: the bodies of `addition` go again.
    fn finish_addition(&mut self, addition: &Addition, kept: bool) {
        if !kept {
            self.truncate(self.bodies.len() - addition.bodies.len());
        }
    }
}

impl Bodies {
    /// Back to the first `count` bodies: those after them go, with their
    /// particles' slots and outlines.
    pub fn truncate(&mut self, count: usize) {
        let Some(&first) = self.bodies.get(count) else {
            return;
        };
        self.bodies.truncate(count);
        let slots = first.slots.0 as usize;
        self.particles.truncate(slots);
        self.rest.truncate(2 * slots);
        self.original.truncate(2 * slots);
        self.lambdas.truncate(2 * slots);
        self.outlines.truncate(first.outline.0 as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_outline_goes_round_its_sides() {
        // a 3 × 3 block: the outline is the 8 particles around the middle one
        let positions: Vec<f32> = (0..9)
            .flat_map(|k| [(k % 3) as f32, (k / 3) as f32])
            .collect();
        let spec = BodySpec {
            particles: (0..9).collect(),
            compliance: 0.0,
            plastic: None,
        };
        let mut bodies = Bodies::default();
        bodies.reserve_for(std::slice::from_ref(&spec)).unwrap();
        bodies.push(&[spec], &positions, &[1.0; 9], 0);
        assert_eq!(bodies.outline(0), &[0, 1, 2, 5, 8, 7, 6, 3]);
        assert!(bodies.scratch.iter().all(|buffer| buffer.is_empty()));
    }

    #[test]
    fn a_line_has_no_thickness_and_a_triangle_has() {
        let line = [0.0, 0.0, 1.0, 1.0, 2.0, 2.0];
        assert_eq!(thickness(&[0, 1, 2], |k| point(&line, k as usize)), 0.0);
        let triangle = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        assert!(thickness(&[0, 1, 2], |k| point(&triangle, k as usize)) > 0.3);
    }
}
