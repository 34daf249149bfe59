//! Momentum of the free particles (pinned ones, of infinite mass, left out):
//! linear, angular about their centre of mass, and their moment of inertia.

use crate::cloth::Cloth;

/// `(mass, position, velocity)` of each free particle.
fn free(cloth: &Cloth) -> impl Iterator<Item = (f64, [f64; 2], [f64; 2])> + '_ {
    let (x, v, w) = (
        cloth.positions(),
        cloth.velocities(),
        cloth.inverse_masses(),
    );
    w.iter()
        .enumerate()
        .filter(|(_, &w)| w > 0.0)
        .map(move |(k, &w)| {
            (
                1.0 / w as f64,
                [x[2 * k] as f64, x[2 * k + 1] as f64],
                [v[2 * k] as f64, v[2 * k + 1] as f64],
            )
        })
}

/// The centre of mass of the free particles.
pub fn centre(cloth: &Cloth) -> [f64; 2] {
    let (mut m, mut c) = (0.0, [0.0; 2]);
    for (mass, x, _) in free(cloth) {
        m += mass;
        c = [c[0] + mass * x[0], c[1] + mass * x[1]];
    }
    [c[0] / m.max(1e-300), c[1] / m.max(1e-300)]
}

/// Linear momentum `Σ m v`, kg·m/s.
pub fn linear(cloth: &Cloth) -> [f64; 2] {
    free(cloth).fold([0.0; 2], |p, (m, _, v)| [p[0] + m * v[0], p[1] + m * v[1]])
}

/// Angular momentum about the centre of mass, `Σ m (x − c) × v`, kg·m²/s
/// (counter-clockwise positive).
pub fn angular(cloth: &Cloth) -> f64 {
    let c = centre(cloth);
    free(cloth)
        .map(|(m, x, v)| m * ((x[0] - c[0]) * v[1] - (x[1] - c[1]) * v[0]))
        .sum()
}

/// Moment of inertia about the centre of mass, `Σ m |x − c|²`, kg·m².
pub fn inertia(cloth: &Cloth) -> f64 {
    let c = centre(cloth);
    free(cloth)
        .map(|(m, x, _)| m * ((x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2)))
        .sum()
}

/// The rotation rate about the centre of mass, `L / I`, in degrees per second.
pub fn spin_rate(cloth: &Cloth) -> f64 {
    (angular(cloth) / inertia(cloth).max(1e-300)).to_degrees()
}
