//! What a scene adds to the distance constraints: bending
//! ([`bending`]), area constraints ([`area`]), tethers ([`tethers`], walking
//! the [`neighbours`] lists) and wind ([`wind`]).
//!
//! [`Extras`] joins them to a substep at two points (see `src/cloth/step.rs`):
//!
//! * [`Extras::begin_substep`], before prediction: the multipliers reset and
//!   the external forces (wind);
//! * [`Extras::solve`], after each sweep of the distance constraints (on
//!   whichever layout the sweep uses, see [`Points`]): one Gauss–Seidel pass
//!   over every additional constraint.
//!
//! Two more keep them in step with the cloth: [`Extras::prepare`] reserves and
//! derives what switching a feature on needs (the cloth calls it before it
//! accepts the new parameters, so a refusal leaves everything as it was), and
//! [`Extras::topology_changed`] follows pins and torn constraints.
//!
//! With nothing switched on ([`Extras::is_active`] is false) none of them does
//! any work, and the grid cloth steps exactly as it always has. Contacts are
//! not here: they own their data in `src/contacts/`.

pub mod area;
pub mod bending;
pub mod gusts;
pub mod neighbours;
pub mod shortest_paths;
pub mod tethers;
pub mod wind;

use area::Areas;
use bending::{BendingPair, BendingSet, NO_MIDDLE};
use neighbours::Neighbours;
use tethers::Tethers;

use crate::error::ClothError;
use crate::memory;
use crate::model::{Bending, Scene};
use crate::params::work::{self, Workload};
use crate::params::{GridSize, Params};
use crate::solver::{self, Points};

/// The additional constraints and forces of a scene, and their scratch state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extras {
    /// Bending constraints (see [`bending`]).
    bending: BendingSet,
    /// Area constraints (see [`area`]).
    areas: Areas,
    /// Tethers (see [`tethers`]); empty until switched on.
    tethers: Tethers,
    /// The live distance constraints as neighbour lists, for the tethers'
    /// paths and the bending pairs' liveness; empty until one needs them.
    neighbours: Neighbours,
}

/// The cloth's connectivity, as [`Extras::prepare`] and
/// [`Extras::topology_changed`] read it.
#[derive(Debug, Clone, Copy)]
pub struct Topology<'a> {
    /// Live distance constraints, flat pairs.
    pub ids: &'a [u32],
    /// Their rest lengths, metres.
    pub rest_lengths: &'a [f32],
    /// How many constraints the cloth was built with (torn ones come back
    /// when a diverged step is undone).
    pub built_with: usize,
    /// Which particles are pinned.
    pub pinned: &'a [bool],
}

impl Extras {
    /// What `scene` adds to its distance constraints (bending, areas), with
    /// every buffer the steps need reserved. The scene has
    /// been validated; `OutOfMemory` is the only refusal. A cloth built from
    /// it calls [`Extras::prepare`] with its parameters before it steps, so
    /// that tethers and the bending pairs' tear tracking are set up.
    pub fn try_new(scene: &Scene) -> Result<Extras, ClothError> {
        let out_of_memory = |_| scene.out_of_memory();
        let n = scene.masses.len();
        let pairs = match &scene.bending {
            Bending::None => Vec::new(),
            Bending::Auto => {
                // checked from the degrees, before the derivation's work
                let comparisons =
                    bending::auto_comparisons(&scene.distances, n).map_err(out_of_memory)?;
                if comparisons > bending::MAX_AUTO_COMPARISONS {
                    return Err(ClothError::InvalidScene {
                        field: "bending",
                        index: None,
                        problem: format!(
                            "\"auto\" would compare {comparisons} pairs of edges, at most {}",
                            bending::MAX_AUTO_COMPARISONS
                        ),
                    });
                }
                bending::derive_auto(&scene.distances, &scene.positions, n)
                    .map_err(out_of_memory)?
            }
            Bending::Pairs(ids) => {
                let pairs = ids.chunks_exact(2).map(|p| BendingPair {
                    a: p[0],
                    b: p[1],
                    middle: NO_MIDDLE,
                });
                memory::collect(ids.len() / 2, pairs).map_err(out_of_memory)?
            }
        };
        Ok(Extras {
            bending: BendingSet::try_new(pairs, &scene.positions).map_err(out_of_memory)?,
            areas: Areas::try_new(&scene.areas, &scene.positions).map_err(out_of_memory)?,
            ..Extras::default()
        })
    }

    /// Lets a grid cloth without bending constraints derive its pairs when
    /// bending is first switched on (see [`bending`]); allocates nothing.
    pub fn defer_grid_bending(&mut self, size: GridSize) {
        if self.bending.is_empty() {
            self.bending = BendingSet::pending_grid(size);
        }
    }

    /// Reserves and derives what parameters `p` switch on (the grid's bending
    /// pairs, the tethers' buffers) and brings them up to date with
    /// `topology`. On `OutOfMemory` (naming `field`) nothing changes.
    pub fn prepare(
        &mut self,
        p: &Params,
        topology: Topology,
        field: &'static str,
    ) -> Result<(), ClothError> {
        let n = topology.pinned.len();
        let out_of_memory = |_| ClothError::OutOfMemory {
            field,
            what: format!(
                "{} particles and {} constraints need {} MiB more for it",
                n,
                topology.built_with,
                memory::mib(self.prepare_bytes(n, topology.built_with)),
            ),
        };
        let bending = if p.bending_stiffness > 0.0 && self.bending.is_pending() {
            let mut derived = self.bending.clone();
            derived.prepare(topology.ids).map_err(out_of_memory)?;
            Some(derived)
        } else {
            None
        };
        let middles = bending.as_ref().unwrap_or(&self.bending).has_middles();
        let bending_on = p.bending_stiffness > 0.0 && middles;
        let neighbours = if (p.tethers || bending_on) && !self.neighbours.is_reserved() {
            Some(Neighbours::try_new(n, topology.built_with).map_err(out_of_memory)?)
        } else {
            None
        };
        let tethers = if p.tethers && !self.tethers.is_reserved() {
            Some(Tethers::try_new(n).map_err(out_of_memory)?)
        } else {
            None
        };
        // every reservation succeeded: take them
        if let Some(bending) = bending {
            self.bending = bending;
        }
        if let Some(neighbours) = neighbours {
            self.neighbours = neighbours;
        }
        if let Some(tethers) = tethers {
            self.tethers = tethers;
        }
        self.topology_changed(p, topology);
        Ok(())
    }

    /// Bytes [`Extras::prepare`] may reserve for `n` particles and
    /// `constraints` constraints, at most.
    fn prepare_bytes(&self, n: usize, constraints: usize) -> u64 {
        let bending = self.bending.len() as u64 * 21;
        let neighbours = 4 * (n as u64 + 1) + 16 * constraints as u64;
        let tethers = 16 * n as u64;
        bending + neighbours + tethers
    }

    /// Pins changed or constraints tore (or came back): the bending pairs
    /// across a torn constraint stop acting, the tethers find their anchors
    /// again (O(n + m) for the neighbour lists, and a Dijkstra search with
    /// tethers on). Nothing while both are off. Never allocates.
    pub fn topology_changed(&mut self, p: &Params, topology: Topology) {
        let in_use = self.bending_on(p) || self.tethers_on(p);
        if !self.neighbours.is_reserved() || !in_use {
            // switching one on again calls this through `prepare`
            return;
        }
        self.neighbours.rebuild(topology.ids, topology.rest_lengths);
        let neighbours = &self.neighbours;
        self.bending.update_live(|a, b| neighbours.joined(a, b));
        if self.tethers_on(p) {
            self.tethers.recompute(&self.neighbours, topology.pinned);
        }
    }

    /// Whether any of it does work with parameters `p`.
    pub fn is_active(&self, p: &Params) -> bool {
        self.bending_on(p) || !self.areas.is_empty() || self.tethers_on(p) || p.wind_blows()
    }

    fn bending_on(&self, p: &Params) -> bool {
        p.bending_stiffness > 0.0 && !self.bending.pairs().is_empty()
    }

    fn tethers_on(&self, p: &Params) -> bool {
        p.tethers && self.tethers.is_reserved()
    }

    /// Bytes of memory its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        self.bending.heap_bytes()
            + self.areas.heap_bytes()
            + self.tethers.heap_bytes()
            + self.neighbours.heap_bytes()
    }

    /// Its sizes, for the work model (the other fields of the result are 0).
    pub fn workload(&self, particles: usize) -> Workload {
        Workload {
            bending_pairs: self.bending.len(),
            area_constraints: self.areas.len(),
            area_corners: self.areas.corner_count(),
            tethered: particles,
            ..Workload::default()
        }
    }

    /// The area constraints (for readouts: current and target areas).
    pub fn areas(&self) -> &Areas {
        &self.areas
    }

    /// The bending constraints.
    pub fn bending(&self) -> &BendingSet {
        &self.bending
    }

    /// The tethers (empty until switched on).
    pub fn tethers(&self) -> &Tethers {
        &self.tethers
    }

    /// Before prediction of a substep of size `h`: the multipliers reset,
    /// and forces that change the velocities of free particles
    /// (`inverse_mass > 0`). `ids` are the live distance constraints, flat pairs;
    /// `time` is the simulated time at the substep's start (the gusts').
    #[allow(clippy::too_many_arguments)]
    pub fn begin_substep(
        &mut self,
        positions: &[f32],
        velocities: &mut [f32],
        inverse_mass: &[f32],
        ids: &[u32],
        p: &Params,
        h: f64,
        time: f64,
    ) {
        if self.bending_on(p) {
            self.bending.reset();
        }
        self.areas.reset();
        if p.wind_blows() {
            let (wind, gust, turbulence) = ([p.wind_x, p.wind_y], p.wind_gust, p.wind_turbulence);
            let gusts = gusts::Gusts::new(wind, gust, turbulence, time);
            let drag = p.wind_drag as f32;
            wind::apply(
                positions,
                velocities,
                inverse_mass,
                ids,
                &gusts,
                drag,
                h as f32,
            );
        }
    }

    /// After each sweep of the distance constraints: one pass over every
    /// additional constraint.
    pub fn solve<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        inverse_mass: &[f32],
        p: &Params,
        h: f64,
    ) {
        if self.bending_on(p) {
            let alpha_tilde = solver::alpha_tilde(1.0 / p.bending_stiffness, h);
            self.bending.solve(points, inverse_mass, alpha_tilde);
        }
        self.areas.solve(points, inverse_mass, h);
        if self.tethers_on(p) {
            self.tethers.solve(points, inverse_mass);
        }
    }

    /// Work units of one [`Extras::solve`] with parameters `p` on a cloth of
    /// `particles` particles.
    pub fn solve_work(&self, p: &Params, particles: usize) -> u64 {
        work::extras_pass_cost(p, &self.workload(particles))
    }

    /// How many multipliers [`Extras::begin_substep`] resets that count as
    /// work with parameters `p`.
    pub fn multipliers(&self, p: &Params) -> usize {
        work::extras_multipliers(p, &self.workload(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DistanceStiffness;

    fn rope(bending: Bending) -> Scene {
        Scene {
            positions: vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0],
            masses: vec![0.0, 1.0, 1.0, 1.0],
            distances: vec![0, 1, 1, 2, 2, 3],
            rest_lengths: None,
            distance_stiffness: DistanceStiffness::Uniform(1000.0),
            colors: None,
            areas: Vec::new(),
            bending,
            colliders: Vec::new(),
        }
    }

    #[test]
    fn a_scene_brings_its_bending_pairs() {
        let auto = Extras::try_new(&rope(Bending::Auto)).unwrap();
        let ends: Vec<_> = auto
            .bending()
            .pairs()
            .iter()
            .map(|p| (p.a, p.b, p.middle))
            .collect();
        assert_eq!(ends, vec![(0, 2, 1), (1, 3, 2)]);
        let given = Extras::try_new(&rope(Bending::Pairs(vec![0, 3]))).unwrap();
        let pair = given.bending().pairs()[0];
        assert_eq!((pair.a, pair.b, pair.middle), (0, 3, NO_MIDDLE));
        assert_eq!(given.bending().rest_lengths(), &[3.0]);
        let none = Extras::try_new(&rope(Bending::None)).unwrap();
        let on = Params {
            bending_stiffness: 10.0,
            ..Params::default()
        };
        assert!(!none.is_active(&on) && given.is_active(&on));
        assert!(!given.is_active(&Params::default()));
    }
}
