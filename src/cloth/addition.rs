//! Adding particles and bodies to a running simulation (a box or a ball
//! dropped into the scene): checked whole, room reserved in every array and
//! kind, then taken in; refused as a whole, with nothing changed, when it is
//! wrong, does not fit in memory or would make a step too much work.

use super::Cloth;
use crate::error::ClothError;
use crate::kinds::bodies::{check_bodies, check_body_count};
use crate::kinds::Addition;
use crate::memory;
use crate::model::{Bending, BodySpec, Scene};
use crate::params::MAX_PARTICLES;

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
        let bodies = self.check_addition(scene)?;
        if self.step_in_progress() {
            self.advance(1, u64::MAX);
        }
        let first = self.num_particles();
        let addition = Addition {
            first,
            positions: &scene.positions,
            masses: &scene.masses,
            bodies: &bodies,
        };
        let uniform = self.masses.is_none() && self.masses_are_parameter(&scene.masses);
        let list = self.reserve_addition(&addition, uniform)?;
        let listed = list.is_some();
        self.take_in(&addition, uniform, list);
        let p = self.params;
        let added = format!("{} particles more", scene.num_particles());
        let within = self.validate_work("bodies", &added, &p);
        self.kinds.finish_addition(&addition, within.is_ok());
        if let Err(error) = within {
            self.take_out(first, listed);
            return Err(error);
        }
        Ok(first)
    }

    /// Checks an addition: nothing but particles and bodies, each valid, within
    /// the limits together with the simulation's own. Returns its bodies with
    /// the particles' indices in the simulation.
    fn check_addition(&self, scene: &Scene) -> Result<Vec<BodySpec>, ClothError> {
        let refuse = |field: &'static str| ClothError::InvalidScene {
            field,
            index: None,
            problem: "is not empty: particles added to a running simulation join it through \
                      bodies and contacts only"
                .into(),
        };
        if !scene.distances.is_empty() || scene.rest_lengths.is_some() {
            return Err(refuse("distances"));
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
        check_body_count(scene.bodies.len(), self.kinds.bodies.len())?;
        let out_of_memory = |_| scene.out_of_memory();
        let mut taken = memory::filled(added, false).map_err(out_of_memory)?;
        let first_index = self.kinds.bodies.len();
        check_bodies(&scene.bodies, &scene.positions, 0, first_index, &mut taken)?;
        let mut bodies = memory::with_capacity(scene.bodies.len()).map_err(out_of_memory)?;
        for body in &scene.bodies {
            let particles = body.particles.iter().map(|&k| k + n as u32);
            bodies.push(BodySpec {
                particles: memory::collect(body.particles.len(), particles)
                    .map_err(out_of_memory)?,
                ..body.clone()
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
        let added = addition.masses.len();
        let n = addition.particles_after();
        let out_of_memory = |_| ClothError::OutOfMemory {
            field: "bodies",
            what: format!("room for {added} particles more among {}", addition.first),
        };
        for array in [
            &mut self.positions,
            &mut self.previous,
            &mut self.step_start,
            &mut self.step_start_velocities,
            &mut self.velocities,
        ] {
            array.try_reserve_exact(2 * added).map_err(out_of_memory)?;
        }
        self.inverse_mass
            .try_reserve_exact(added)
            .map_err(out_of_memory)?;
        self.pinned
            .try_reserve_exact(added)
            .map_err(out_of_memory)?;
        let list = match &mut self.masses {
            Some(masses) => {
                masses.try_reserve_exact(added).map_err(out_of_memory)?;
                None
            }
            None if uniform => None,
            None => Some(memory::with_capacity(n).map_err(out_of_memory)?),
        };
        for split in [&mut self.xs, &mut self.ys] {
            split
                .try_reserve_exact(n.saturating_sub(split.len()))
                .map_err(out_of_memory)?;
        }
        self.kinds.reserve_addition(addition, "bodies")?;
        Ok(list)
    }

    /// Takes `addition` in, in the room reserved for it: its particles at
    /// rest, pinned where their mass is 0. `uniform`: every particle still
    /// has the `mass` parameter's mass (no list of masses is needed); `list`:
    /// the list of masses the cloth needs from now on, when it had none.
    fn take_in(&mut self, addition: &Addition, uniform: bool, list: Option<Vec<f32>>) {
        let (first, n) = (addition.first, addition.particles_after());
        let positions = addition.positions;
        self.positions.extend_from_slice(positions);
        self.previous.extend_from_slice(positions);
        self.step_start.extend_from_slice(positions);
        self.step_start_velocities.resize(2 * n, 0.0);
        self.velocities.resize(2 * n, 0.0);
        self.pinned
            .extend(addition.masses.iter().map(|&m| m == 0.0));
        self.inverse_mass.resize(n, 0.0);
        if let Some(mut list) = list {
            // the particles there were keep the `mass` parameter's mass (0)
            list.resize(first, 0.0);
            self.masses = Some(list);
            self.masses_mean = self.params.mass;
        }
        if let (false, Some(masses)) = (uniform, &mut self.masses) {
            // a particle's mass is `masses[k] · mass / masses_mean`
            let scale = (self.masses_mean / self.params.mass) as f32;
            masses.extend(addition.masses.iter().map(|&m| m * scale));
        }
        self.kinds.add(addition);
        for k in first..n {
            self.update_inverse_mass(k);
        }
        self.topology_changed();
    }

    /// Takes the particles from `first` on out again (the kinds have undone
    /// their part already); `listed`: the cloth had no list of masses before.
    fn take_out(&mut self, first: usize, listed: bool) {
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
