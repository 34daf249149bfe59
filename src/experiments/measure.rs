//! What the experiments measure on a cloth, through its public methods only.

use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::{FixedPreset, GridSize, Params};

/// `(length, rest length)` of each constraint, in order, in metres.
fn lengths(cloth: &Cloth) -> impl Iterator<Item = (f64, f64)> + '_ {
    let (positions, ids, rest) = (
        cloth.positions(),
        cloth.constraint_ids(),
        cloth.rest_lengths(),
    );
    rest.iter().enumerate().map(|(c, &r)| {
        let (a, b) = (ids[2 * c] as usize, ids[2 * c + 1] as usize);
        let dx = positions[2 * a] as f64 - positions[2 * b] as f64;
        let dy = positions[2 * a + 1] as f64 - positions[2 * b + 1] as f64;
        ((dx * dx + dy * dy).sqrt(), r as f64)
    })
}

/// The mean relative stretch `(length − rest)/rest` over every constraint.
pub fn mean_stretch(cloth: &Cloth) -> f64 {
    let count = cloth.rest_lengths().len();
    if count == 0 {
        return 0.0;
    }
    let sum: f64 = lengths(cloth).map(|(l, r)| l / r - 1.0).sum();
    sum / count as f64
}

/// Elastic energy `Σ ½ k (length − rest)²` of the constraints, in joules (0 for
/// rigid constraints, stiffness 0).
pub fn elastic_energy(cloth: &Cloth) -> f64 {
    let k = cloth.params().stiffness;
    if k == 0.0 {
        return 0.0;
    }
    lengths(cloth)
        .map(|(l, r)| {
            let d = l - r;
            0.5 * k * d * d
        })
        .sum()
}

/// Kinetic + gravitational + elastic energy, in joules.
pub fn total_energy(cloth: &Cloth) -> f64 {
    cloth.kinetic_energy() + cloth.potential_energy() + elastic_energy(cloth)
}

/// The root mean square of the constraints' residuals: `C + α̃λ`, which
/// XPBD's iterations drive to 0 (`C` alone for rigid constraints). With the
/// tension `F = −λ/h²` the cloth reports, `α̃λ = (1/k)(1/h²)(−F h²) = −F/k`.
pub fn rms_residual(cloth: &mut Cloth) -> f64 {
    let k = cloth.params().stiffness;
    let forces = cloth.constraint_forces().to_vec();
    let count = cloth.rest_lengths().len();
    if count == 0 {
        return 0.0;
    }
    let sum: f64 = lengths(cloth)
        .zip(forces)
        .map(|((l, r), force)| {
            let stretch = l - r;
            let residual = if k == 0.0 {
                stretch
            } else {
                stretch - force as f64 / k
            };
            residual * residual
        })
        .sum();
    (sum / count as f64).sqrt()
}

/// `[x, depth]` of each particle of the top row of a `width`-wide grid: how
/// far it hangs below the straight line between the row's two ends (the fixed
/// corners), in metres.
pub fn top_edge_depths(positions: &[f32], width: usize) -> Vec<[f64; 2]> {
    let p = positions;
    let (x0, y0) = (p[0] as f64, p[1] as f64);
    let (x1, y1) = (p[2 * (width - 1)] as f64, p[2 * (width - 1) + 1] as f64);
    (0..width)
        .map(|j| {
            let (x, y) = (p[2 * j] as f64, p[2 * j + 1] as f64);
            let t = if x1 != x0 { (x - x0) / (x1 - x0) } else { 0.0 };
            [x, y0 + t * (y1 - y0) - y]
        })
        .collect()
}

/// How far the top row of a `width`-wide grid sags at its lowest point, in
/// metres.
pub fn top_edge_sag(cloth: &Cloth, width: usize) -> f64 {
    top_edge_depths(cloth.positions(), width)
        .iter()
        .map(|p| p[1])
        .fold(0.0, f64::max)
}

/// A grid cloth of `width × height` with `fixed` corners and the parameters
/// `params` (checked as the cloth's setters check them).
pub fn grid_cloth(
    width: u32,
    height: u32,
    fixed: FixedPreset,
    params: Params,
) -> Result<Cloth, ClothError> {
    let mut cloth = Cloth::try_new(GridSize::new(width as usize, height as usize)?, fixed)?;
    cloth.set_params(params)?;
    Ok(cloth)
}
