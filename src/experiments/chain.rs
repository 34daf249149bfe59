//! The chains two experiments hang: particles joined in a line by distance
//! constraints, built as a scene, and their exact static equilibrium.

use super::equilibrium::{self, Springs};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::model::{DistanceStiffness, Scene};
use crate::params::Params;

/// A chain of `links` links of `link` metres with `mass` kg per free particle.
#[derive(Debug, Clone, Copy)]
pub struct Chain {
    pub links: usize,
    pub link: f64,
    pub mass: f64,
    /// The distance between the two pinned ends as a fraction of the chain's
    /// length; `None`: pinned at the top only, hanging straight down.
    pub span: Option<f64>,
}

impl Chain {
    /// The starting positions: straight down from the top, or, pinned at both
    /// ends, a U (down, across, up) with the ends `span` × length apart.
    pub fn start(&self) -> Vec<f64> {
        let n = self.links;
        let length = n as f64 * self.link;
        let Some(span) = self.span else {
            return (0..=n)
                .flat_map(|k| [0.0, -(k as f64) * self.link])
                .collect();
        };
        let (across, down) = (span * length, (1.0 - span) * length / 2.0);
        (0..=n)
            .flat_map(|k| {
                let s = k as f64 * self.link;
                if s <= down {
                    [0.0, -s]
                } else if s <= down + across {
                    [s - down, -down]
                } else {
                    [across, -(length - s)]
                }
            })
            .collect()
    }

    /// Inverse masses: the ends (or the top) pinned.
    pub fn inverse_masses(&self) -> Vec<f64> {
        let n = self.links;
        (0..=n)
            .map(|k| {
                let pinned = k == 0 || (k == n && self.span.is_some());
                if pinned {
                    0.0
                } else {
                    1.0 / self.mass
                }
            })
            .collect()
    }

    /// `[0, 1, 1, 2, ...]`: link `k` joins particles `k` and `k + 1`.
    pub fn pairs(&self) -> Vec<u32> {
        (0..self.links as u32).flat_map(|k| [k, k + 1]).collect()
    }

    /// The chain as a cloth with `params` (its stiffness for every link).
    pub fn cloth(&self, params: Params) -> Result<Cloth, ClothError> {
        let inverse = self.inverse_masses();
        let scene = Scene {
            positions: self.start().iter().map(|&v| v as f32).collect(),
            masses: inverse
                .iter()
                .map(|&w| if w > 0.0 { self.mass as f32 } else { 0.0 })
                .collect(),
            distances: self.pairs(),
            rest_lengths: Some(vec![self.link as f32; self.links]),
            distance_stiffness: DistanceStiffness::Uniform(params.stiffness),
            ..Scene::default()
        };
        let mut cloth = Cloth::from_scene(&scene)?;
        cloth.set_params(params)?;
        Ok(cloth)
    }

    /// The exact static equilibrium for springs of `stiffness` (> 0) under
    /// `gravity`: positions and the largest force left on a particle.
    pub fn equilibrium(&self, stiffness: f64, gravity: f64) -> equilibrium::Equilibrium {
        let (positions, inverse, pairs) = (self.start(), self.inverse_masses(), self.pairs());
        let rest = vec![self.link; self.links];
        equilibrium::solve(&Springs {
            positions: &positions,
            inverse_masses: &inverse,
            pairs: &pairs,
            rest_lengths: &rest,
            stiffness,
            gravity,
        })
    }
}

/// The root mean square distance between `positions` (f32, as the cloth
/// holds them) and `exact`, metres.
pub fn rms_gap(positions: &[f32], exact: &[f64]) -> f64 {
    let sum: f64 = positions
        .chunks_exact(2)
        .zip(exact.chunks_exact(2))
        .map(|(p, e)| (p[0] as f64 - e[0]).powi(2) + (p[1] as f64 - e[1]).powi(2))
        .sum();
    (sum / (positions.len() / 2).max(1) as f64).sqrt()
}
