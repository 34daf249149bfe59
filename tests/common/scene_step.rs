//! A scene stepped with the crate's own pieces (prediction, the distance
//! sweep in creation order, [`Extras`], the velocity update), for the
//! constraint kinds a grid cloth does not have (area constraints).

// Each test file uses some of these, not all.
#![allow(dead_code)]

use xpbd_cloth::extras::Extras;
use xpbd_cloth::scene::{Bending, DistanceStiffness, Scene};
use xpbd_cloth::solver::{self, Constraints};
use xpbd_cloth::Params;

/// A scene in motion.
pub struct SceneSim {
    pub positions: Vec<f32>,
    pub previous: Vec<f32>,
    pub velocities: Vec<f32>,
    pub inverse_mass: Vec<f32>,
    pub ids: Vec<u32>,
    pub rest_lengths: Vec<f32>,
    pub lambdas: Vec<f32>,
    pub extras: Extras,
    pub params: Params,
}

impl SceneSim {
    /// `scene` (uniform distance stiffness: `params.stiffness`) with `params`.
    pub fn new(scene: &Scene, params: Params) -> SceneSim {
        let rest_lengths = scene
            .distances
            .chunks(2)
            .map(|p| {
                let (a, b) = (p[0] as usize, p[1] as usize);
                let dx = scene.positions[2 * a] - scene.positions[2 * b];
                let dy = scene.positions[2 * a + 1] - scene.positions[2 * b + 1];
                (dx * dx + dy * dy).sqrt()
            })
            .collect::<Vec<_>>();
        SceneSim {
            positions: scene.positions.clone(),
            previous: scene.positions.clone(),
            velocities: vec![0.0; scene.positions.len()],
            inverse_mass: scene
                .masses
                .iter()
                .map(|&m| if m == 0.0 { 0.0 } else { 1.0 / m })
                .collect(),
            ids: scene.distances.clone(),
            lambdas: vec![0.0; rest_lengths.len()],
            rest_lengths,
            extras: Extras::try_new(scene).unwrap(),
            params,
        }
    }

    /// One time step of `params.substeps` substeps.
    pub fn step(&mut self) {
        let p = self.params;
        let h = p.substep_size();
        let alpha_tilde = solver::alpha_tilde(p.compliance(), h);
        for _ in 0..p.substeps {
            self.extras.begin_substep(
                &self.positions,
                &mut self.velocities,
                &self.inverse_mass,
                &self.ids,
                &p,
                h,
            );
            solver::predict(
                &mut self.positions,
                &mut self.previous,
                &mut self.velocities,
                &self.inverse_mass,
                h as f32,
                p.gravity as f32,
            );
            self.lambdas.fill(0.0);
            for _ in 0..p.iterations {
                let constraints = Constraints {
                    ids: &self.ids,
                    rest_lengths: &self.rest_lengths,
                    lambdas: &mut self.lambdas,
                };
                solver::solve_sweep(
                    &mut self.positions,
                    &self.previous,
                    &self.inverse_mass,
                    constraints,
                    alpha_tilde,
                    0.0,
                );
                self.extras.solve(
                    self.positions.as_mut_slice(),
                    &self.previous,
                    &self.inverse_mass,
                    &p,
                    h,
                );
            }
            self.extras.end_substep(
                &mut self.positions,
                &self.previous,
                &self.inverse_mass,
                &p,
                h,
            );
            solver::update_velocities(
                &self.positions,
                &self.previous,
                &mut self.velocities,
                &self.inverse_mass,
                h as f32,
            );
        }
    }
}

/// A closed ring of `n` particles of `mass` kg on a circle of `radius` metres
/// around `(0, 0)`, counter-clockwise, joined by distance constraints, with
/// one area constraint over the whole ring.
pub fn ring(n: usize, radius: f32, mass: f32, pressure: f64, stiffness: f64) -> Scene {
    let positions = (0..n)
        .flat_map(|k| {
            let t = std::f32::consts::TAU * k as f32 / n as f32;
            [radius * t.cos(), radius * t.sin()]
        })
        .collect();
    let distances = (0..n as u32)
        .flat_map(|k| [k, (k + 1) % n as u32])
        .collect();
    Scene {
        positions,
        masses: vec![mass; n],
        distances,
        rest_lengths: None,
        distance_stiffness: DistanceStiffness::Uniform(Params::default().stiffness),
        colors: None,
        areas: vec![xpbd_cloth::scene::AreaSpec {
            particles: (0..n as u32).collect(),
            stiffness,
            pressure,
        }],
        bending: Bending::None,
        colliders: Vec::new(),
    }
}
