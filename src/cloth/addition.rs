//! Adding particles and bodies to a running simulation (a box or a ball
//! dropped into the scene): checked whole, room reserved in every array and
//! kind, then taken in; refused as a whole, with nothing changed, when it is
//! wrong, does not fit in memory or would make a step too much work.

use std::collections::TryReserveError;
use std::fmt;

use super::{Added, Cloth};
use crate::error::{ClothError, Number, Plain};
use crate::kinds::bodies::{self, check_plasticity, check_scene_bodies};
use crate::kinds::Addition;
use crate::memory;
use crate::model::body_shapes::grid_inside;
use crate::model::scene::mass_range;
use crate::model::{Bending, BodySpec, Plasticity, Scene};
use crate::params::{self, MAX_PARTICLES};
use crate::solver::order::ConstraintSet;

/// Most corners of a body's outline ([`Cloth::add_body`]).
pub const MAX_OUTLINE_CORNERS: usize = 10_000;

/// Most particles of one body filled from an outline.
pub const MAX_FILLED_PARTICLES: usize = 10_000;

/// Most grid points the bounding box of an outline may hold at its spacing
/// (the points tried for the fill).
const MAX_GRID_POINTS: usize = 1_000_000;

/// Smallest and largest spacing of the particles of a filled body, m.
pub const SPACING_RANGE: (f64, f64) = (1e-3, 10.0);

/// The density of a body filled from an outline when none is given, kg/m²:
/// a particle 0.1 m from its neighbours weighs 0.15 kg, as in the presets.
pub const DEFAULT_DENSITY: f64 = 15.0;

/// A body given by its outline, what `addBody` takes: the particles of a
/// square grid `spacing` apart inside the closed polygon `outline`, each
/// weighing `density · spacing²`, held in their shape by shape matching.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyOutline {
    /// The polygon's corners, `[x0, y0, x1, y1, ...]`, metres, in order
    /// (either way round), at least 3: the last joins the first.
    pub outline: Vec<f64>,
    /// The particles' spacing, m; `None`: twice the particle radius (so that
    /// the body is solid to every other particle).
    pub spacing: Option<f64>,
    /// kg/m²; `None`: [`DEFAULT_DENSITY`].
    pub density: Option<f64>,
    /// Compliance `α` of the shape, s² (0: rigid).
    pub compliance: f64,
    /// Plasticity; `None`: elastic.
    pub plastic: Option<Plasticity>,
}

/// The refusal of an addition's scene field that must be empty.
fn not_empty(field: &'static str) -> ClothError {
    ClothError::InvalidScene {
        field,
        index: None,
        problem: "is not empty: particles added to a running simulation join it through \
                  bodies, contacts and ropes only"
            .into(),
    }
}

/// A copy of an addition's `scene`, checked ([`Cloth::check_addition`]): the
/// fields an addition may have, the others empty as they are in it.
fn addition_copy(scene: &Scene) -> Scene {
    Scene {
        positions: scene.positions.clone(),
        masses: scene.masses.clone(),
        distances: scene.distances.clone(),
        distance_stiffness: scene.distance_stiffness.clone(),
        colors: scene.colors.clone(),
        bodies: scene.bodies.clone(),
        ..Scene::default()
    }
}

/// The refusal of an addition's `field`, which got `value`: written out
/// here, once, rather than at every refusal.
#[cold]
#[inline(never)]
pub(super) fn refuse_value(
    field: &'static str,
    value: fmt::Arguments,
    allowed: fmt::Arguments,
) -> ClothError {
    ClothError::InvalidValue {
        field,
        value: value.to_string(),
        allowed: allowed.to_string(),
    }
}

impl Cloth {
    /// Adds the particles of `scene` (positions, masses, at rest) after the
    /// simulation's own, with its `bodies` (which name the particles by their
    /// index in `scene`, from 0); returns the index the first of them has in
    /// the simulation. The added particles meet the others through the
    /// contacts (see [`crate::contacts`]); their start positions are no rest
    /// distance to any other particle.
    ///
    /// A step in progress is finished first. Refused, with nothing changed
    /// ([`ClothError::InvalidScene`] naming the field, or `OutOfMemory`, or
    /// `InvalidValue` naming `bodies` when a step would then exceed the work
    /// limit): a scene with distance, area or bending constraints or
    /// colliders (added particles join through bodies), wrong positions,
    /// masses or bodies (as [`Cloth::from_scene`] refuses them), more than
    /// [`MAX_PARTICLES`] particles or
    /// [`MAX_BODIES`](crate::kinds::bodies::MAX_BODIES) bodies in all.
    pub fn add_bodies(&mut self, scene: &Scene) -> Result<usize, ClothError> {
        if !scene.distances.is_empty() {
            return Err(not_empty("distances"));
        }
        self.add_scene(scene, "bodies")
    }

    /// Adds the particles of `scene` with its bodies and its distance
    /// constraints (at the rest lengths of their start positions, with the
    /// `stiffness` parameter's compliance), as [`Cloth::add_bodies`] and
    /// [`Cloth::add_rope`] do; `field` names a refusal over the work limit.
    pub(super) fn add_scene(
        &mut self,
        scene: &Scene,
        field: &'static str,
    ) -> Result<usize, ClothError> {
        let bodies = self.check_addition(scene)?;
        let out_of_memory = |_| scene.out_of_memory();
        self.added.try_reserve(1).map_err(out_of_memory)?;
        let record = Added {
            scene: addition_copy(scene),
            mass: self.params.mass,
        };
        if self.step_in_progress() {
            self.advance(1, u64::MAX);
        }
        let first = self.num_particles();
        let distances = self.added_distances(first, scene)?;
        let addition = Addition {
            first,
            positions: &scene.positions,
            masses: &scene.masses,
            bodies: &bodies,
            constraints_after: distances
                .as_ref()
                .map_or(self.constraints.built_with(), |set| set.built_with()),
        };
        let uniform = self.masses.is_none() && self.masses_are_parameter(&scene.masses);
        let list = self.reserve_addition(&addition, uniform)?;
        let listed = list.is_some();
        let before = distances.map(|set| std::mem::replace(&mut self.constraints, set));
        let compliances = self.compliances.as_ref().map(Vec::len);
        if let Some(own) = &mut self.compliances {
            let compliance = params::compliance(self.params.stiffness);
            own.resize(self.constraints.built_with(), compliance);
        }
        self.take_in(&addition, uniform, list);
        let p = self.params;
        let added = format!("{} particles more", scene.num_particles());
        let within = self.validate_work(field, &added, &p);
        self.kinds.finish_addition(&addition, within.is_ok());
        if let Err(error) = within {
            if let Some(before) = before {
                self.constraints = before;
            }
            if let (Some(own), Some(len)) = (&mut self.compliances, compliances) {
                own.truncate(len);
            }
            self.take_out(first, listed);
            return Err(error);
        }
        self.added.push(record);
        Ok(first)
    }

    /// The constraint set with the distance constraints of `scene` added
    /// (its particles from `first` on), or `None` when it has none; each
    /// new constraint's rest length is its start length, the colours
    /// alternate along it (a chain: its particles are new, so the
    /// colouring stays proper).
    fn added_distances(
        &self,
        first: usize,
        scene: &Scene,
    ) -> Result<Option<ConstraintSet>, ClothError> {
        if scene.distances.is_empty() {
            return Ok(None);
        }
        let count = scene.num_distances();
        let chain = (0..count as u32).flat_map(|k| [k, k + 1]);
        if !scene.bodies.is_empty() || !scene.distances.iter().copied().eq(chain) {
            return Err(ClothError::InvalidScene {
                field: "distances",
                index: None,
                problem: "is not a chain [0, 1, 1, 2, ...] without bodies: distance constraints \
                          are added as ropes only"
                    .into(),
            });
        }
        let out_of_memory = |_| scene.out_of_memory();
        let lengths =
            super::start_lengths(&scene.distances, &scene.positions).map_err(out_of_memory)?;
        let set = self
            .constraints
            .try_extended(&scene.distances, first as u32, &lengths)
            .map_err(out_of_memory)?;
        Ok(Some(set))
    }

    /// Adds a body filled from its outline ([`BodyOutline`]) and returns its
    /// index among the bodies. Refused, with nothing changed, naming the
    /// field (`outline`, `spacing`, `density`, `compliance`, `plastic`): an
    /// outline of fewer than 3 or more than [`MAX_OUTLINE_CORNERS`] corners
    /// or of a coordinate that is not finite within ±1e6 m, a spacing outside
    /// [`SPACING_RANGE`], a density whose particles' mass is outside the
    /// `mass` parameter's range, a compliance or plasticity out of range, an
    /// outline enclosing fewer than 3 grid points not on one line or more
    /// than [`MAX_FILLED_PARTICLES`]; and as [`Cloth::add_bodies`] refuses
    /// (too many particles or bodies, the work limit).
    pub fn add_body(&mut self, body: &BodyOutline) -> Result<usize, ClothError> {
        let scene = self.filled_body(body)?;
        self.add_bodies(&scene)?;
        Ok(self.kinds.bodies.len() - 1)
    }

    /// Checks all of `body` but what its outline encloses; returns the
    /// particles' spacing and mass.
    fn check_outline(&self, body: &BodyOutline) -> Result<(f64, f64), ClothError> {
        let corners = body.outline.len() / 2;
        if body.outline.len() % 2 != 0 || !(3..=MAX_OUTLINE_CORNERS).contains(&corners) {
            return Err(refuse_value(
                "outline",
                format_args!("{} numbers", body.outline.len()),
                format_args!(
                    "[x0, y0, x1, y1, ...]: 3 to {MAX_OUTLINE_CORNERS} corners, two numbers each"
                ),
            ));
        }
        let spacing = self.check_points("outline", &body.outline, body.spacing)?;
        let density = body.density.unwrap_or(DEFAULT_DENSITY);
        let mass = density * spacing * spacing;
        let (least, most) = mass_range();
        if !(mass.is_finite() && (least..=most).contains(&mass)) {
            return Err(refuse_value(
                "density",
                format_args!("{} kg/m²", Number(density)),
                format_args!(
                    "a density from {} to {} kg/m² at spacing {} m (each particle weighs \
                     density · spacing², from {} to {} kg)",
                    Number(least / (spacing * spacing)),
                    Number(most / (spacing * spacing)),
                    Number(spacing),
                    Plain(least),
                    Plain(most)
                ),
            ));
        }
        let compliance = body.compliance;
        if !(compliance.is_finite() && (0.0..=bodies::MAX_COMPLIANCE).contains(&compliance)) {
            return Err(refuse_value(
                "compliance",
                format_args!("{}", Number(compliance)),
                format_args!(
                    "a number from 0 to {} s² (0 = rigid)",
                    Plain(bodies::MAX_COMPLIANCE)
                ),
            ));
        }
        if let Some(plastic) = &body.plastic {
            check_plasticity(plastic).map_err(|(value, allowed)| ClothError::InvalidValue {
                field: "plastic",
                value,
                allowed,
            })?;
        }
        Ok((spacing, mass))
    }

    /// Checks the coordinates `values` of an addition's `field` (finite,
    /// within ±1e6 m) and its `spacing` (given, or twice the particle radius;
    /// within [`SPACING_RANGE`]); returns the spacing.
    pub(super) fn check_points(
        &self,
        field: &'static str,
        values: &[f64],
        spacing: Option<f64>,
    ) -> Result<f64, ClothError> {
        let limit = params::MAX_COORDINATE;
        if let Some(i) = values
            .iter()
            .position(|v| !(v.is_finite() && v.abs() <= limit))
        {
            return Err(refuse_value(
                field,
                format_args!("{} at {i}", Number(values[i])),
                format_args!("finite coordinates within ±{} m", Plain(limit)),
            ));
        }
        let (low, high) = SPACING_RANGE;
        let spacing = spacing.unwrap_or((2.0 * self.params.particle_radius).max(low));
        if !(spacing.is_finite() && (low..=high).contains(&spacing)) {
            return Err(refuse_value(
                "spacing",
                format_args!("{}", Number(spacing)),
                format_args!("a spacing from {} to {} m", Plain(low), Plain(high)),
            ));
        }
        Ok(spacing)
    }

    /// The scene of one body that [`Cloth::add_body`] adds, checked.
    fn filled_body(&self, body: &BodyOutline) -> Result<Scene, ClothError> {
        let (spacing, mass) = self.check_outline(body)?;
        let mut outline = Vec::with_capacity(body.outline.len());
        // one by one: cold code, not unrolled
        for &v in &body.outline {
            outline.push(v as f32);
        }
        let Some(positions) = grid_inside(&outline, spacing as f32, MAX_GRID_POINTS) else {
            return Err(refuse_value(
                "spacing",
                format_args!("{}", Number(spacing)),
                format_args!(
                    "a spacing at which the outline's bounding box holds at most \
                     {MAX_GRID_POINTS} grid points"
                ),
            ));
        };
        let count = positions.len() / 2;
        let ids: Vec<u32> = (0..count as u32).collect();
        let at = |k: u32| {
            let k = k as usize;
            (f64::from(positions[2 * k]), f64::from(positions[2 * k + 1]))
        };
        if count > MAX_FILLED_PARTICLES {
            return Err(refuse_value(
                "spacing",
                format_args!("{} m, at which the outline encloses {count} grid points", Number(spacing)),
                format_args!(
                    "a spacing at which it encloses at most {MAX_FILLED_PARTICLES} (one particle each)"
                ),
            ));
        }
        let thin = count >= 3 && bodies::thickness(&ids, at) < bodies::MIN_THICKNESS;
        if count < 3 || thin {
            return Err(refuse_value(
                "outline",
                format_args!(
                    "an outline enclosing {count} grid point{}{} at spacing {} m",
                    if count == 1 { "" } else { "s" },
                    if thin { " on one line" } else { "" },
                    Number(spacing)
                ),
                format_args!(
                    "one enclosing at least 3 not on one line (draw it larger, or give a \
                     smaller spacing)"
                ),
            ));
        }
        let scene = Scene {
            masses: vec![mass as f32; count],
            positions,
            bodies: vec![BodySpec {
                particles: ids,
                compliance: body.compliance,
                plastic: body.plastic,
            }],
            ..Scene::default()
        };
        Ok(scene)
    }

    /// Checks an addition: nothing but particles and bodies, each valid, within
    /// the limits together with the simulation's own. Returns its bodies with
    /// the particles' indices in the simulation.
    fn check_addition(&self, scene: &Scene) -> Result<Vec<BodySpec>, ClothError> {
        let refuse = not_empty;
        if scene.rest_lengths.is_some() {
            return Err(refuse("rest_lengths"));
        }
        if !scene.areas.is_empty() {
            return Err(refuse("areas"));
        }
        if scene.bending != Bending::None {
            return Err(refuse("bending"));
        }
        if !scene.colliders.is_empty() {
            return Err(refuse("colliders"));
        }
        scene.validate()?;
        let (n, added) = (self.num_particles(), scene.num_particles());
        if n + added > MAX_PARTICLES {
            return Err(ClothError::InvalidScene {
                field: "positions",
                index: None,
                problem: format!(
                    "has {added} particles, which would make {}: at most {MAX_PARTICLES} are allowed",
                    n + added
                ),
            });
        }
        check_scene_bodies(scene, self.kinds.bodies.len())?;
        let out_of_memory = |_| scene.out_of_memory();
        let mut bodies = memory::with_capacity(scene.bodies.len()).map_err(out_of_memory)?;
        for body in &scene.bodies {
            let mut particles =
                memory::with_capacity(body.particles.len()).map_err(out_of_memory)?;
            // one by one, in the room reserved: cold code, not unrolled
            for &k in &body.particles {
                particles.push(k + n as u32);
            }
            bodies.push(BodySpec {
                particles,
                compliance: body.compliance,
                plastic: body.plastic,
            });
        }
        Ok(bodies)
    }

    /// Whether `masses` (0: pinned) are all what the `mass` parameter gives
    /// a particle now.
    fn masses_are_parameter(&self, masses: &[f32]) -> bool {
        let mass = self.params.mass as f32;
        masses.iter().all(|&m| m == 0.0 || m == mass)
    }

    /// Reserves room for `addition` in every array and kind; returns the list
    /// of masses the cloth needs when it has none and the addition is not
    /// `uniform`.
    fn reserve_addition(
        &mut self,
        addition: &Addition,
        uniform: bool,
    ) -> Result<Option<Vec<f32>>, ClothError> {
        let list = self
            .reserve_particles(addition.particles_after(), uniform)
            .map_err(|_| ClothError::OutOfMemory {
                field: "bodies",
                what: format!(
                    "room for {} particles more among {}",
                    addition.masses.len(),
                    addition.first
                ),
            })?;
        self.kinds.reserve_addition(addition, "bodies")?;
        Ok(list)
    }

    /// Reserves room for `n` particles in all in every array of particles;
    /// returns the list of masses the cloth needs when it has none and the
    /// particles to come are not `uniform`. Nothing changes but capacity.
    #[inline(never)]
    pub(super) fn reserve_particles(
        &mut self,
        n: usize,
        uniform: bool,
    ) -> Result<Option<Vec<f32>>, TryReserveError> {
        for array in [
            &mut self.positions,
            &mut self.previous,
            &mut self.step_start,
            &mut self.step_start_velocities,
            &mut self.velocities,
        ] {
            memory::reserve_len(array, 2 * n)?;
        }
        for array in [&mut self.inverse_mass, &mut self.xs, &mut self.ys] {
            memory::reserve_len(array, n)?;
        }
        memory::reserve_len(&mut self.pinned, n)?;
        match &mut self.masses {
            Some(masses) => memory::reserve_len(masses, n).map(|()| None),
            None if uniform => Ok(None),
            None => memory::with_capacity(n).map(Some),
        }
    }

    /// Takes `addition` in, in the room reserved for it: its particles at
    /// rest, pinned where their mass is 0. `uniform`: every particle still
    /// has the `mass` parameter's mass (no list of masses is needed); `list`:
    /// the list of masses the cloth needs from now on, when it had none.
    fn take_in(&mut self, addition: &Addition, uniform: bool, list: Option<Vec<f32>>) {
        self.positions.extend_from_slice(addition.positions);
        // the masses, which become the inverse masses
        self.inverse_mass.extend_from_slice(addition.masses);
        self.take_particles(addition.first, uniform, list);
        self.kinds.add(addition);
        self.topology_changed();
    }

    /// Takes in the particles from `first` on, whose positions are in
    /// `positions` and whose masses (kg, 0: pinned) are in `inverse_mass`, in
    /// the room [`Cloth::reserve_particles`] reserved: at rest, pinned where
    /// their mass is 0, with their inverse masses. `uniform` and `list` as
    /// [`Cloth::reserve_particles`] says.
    #[inline(never)]
    pub(super) fn take_particles(&mut self, first: usize, uniform: bool, list: Option<Vec<f32>>) {
        let n = self.inverse_mass.len();
        let (positions, masses) = (&self.positions[2 * first..], &self.inverse_mass[first..]);
        self.previous.extend_from_slice(positions);
        self.step_start.extend_from_slice(positions);
        self.step_start_velocities.resize(2 * n, 0.0);
        self.velocities.resize(2 * n, 0.0);
        // pushed one by one, in the room reserved: cold code, not unrolled
        for &m in masses {
            self.pinned.push(m == 0.0);
        }
        if let Some(mut list) = list {
            // the particles there were keep the `mass` parameter's mass (0)
            list.resize(first, 0.0);
            self.masses = Some(list);
            self.masses_mean = self.params.mass;
        }
        if let (false, Some(own)) = (uniform, &mut self.masses) {
            // a particle's mass is `masses[k] · mass / masses_mean`
            let scale = (self.masses_mean / self.params.mass) as f32;
            for &m in masses {
                own.push(m * scale);
            }
        }
        for k in first..n {
            self.update_inverse_mass(k);
        }
    }

    /// Takes the particles from `first` on out again (the kinds have undone
    /// their part already); `listed`: the cloth had no list of masses before.
    pub(super) fn take_out(&mut self, first: usize, listed: bool) {
        for array in [
            &mut self.positions,
            &mut self.previous,
            &mut self.step_start,
            &mut self.step_start_velocities,
            &mut self.velocities,
        ] {
            array.truncate(2 * first);
        }
        self.inverse_mass.truncate(first);
        self.pinned.truncate(first);
        if listed {
            self.masses = None;
        } else if let Some(masses) = &mut self.masses {
            masses.truncate(first);
        }
        self.topology_changed();
    }
}
