//! The speed limit that keeps contacts from being tunnelled through.
//!
//! Instead of continuous collision detection, a substep may move no free
//! particle farther than [`MAX_TRAVEL`] times the particle radius: while any
//! contact is on (a collider exists, or self-collision is on) each free
//! particle's speed is clamped when its substep begins so that, with the
//! substep's gravity added, it is at most `MAX_TRAVEL · r / h` (when gravity
//! alone adds more, `|g|·h`, the speed before it is clamped to 0). With the
//! defaults (`r` = 0.05 m, one substep of 0.01 s) that is 2.5 m/s; more
//! substeps raise it (ten: 25 m/s).

use crate::params::Params;

/// Most a free particle moves in one substep with contacts on, as a fraction
/// of the particle radius.
pub const MAX_TRAVEL: f64 = 0.5;

/// The most a free particle may move per second in a substep of `h` seconds.
pub fn max_speed(p: &Params, h: f64) -> f64 {
    MAX_TRAVEL * p.particle_radius / h
}

/// Clamps the speed of every free particle (`inverse_mass > 0`) before the
/// prediction of a substep of `h` seconds, so that with the substep's
/// gravity added it stays within [`max_speed`].
pub fn limit_speeds(velocities: &mut [f32], inverse_mass: &[f32], p: &Params, h: f64) {
    let limit = (max_speed(p, h) - p.gravity.abs() * h).max(0.0) as f32;
    for (v, &w) in velocities.chunks_exact_mut(2).zip(inverse_mass) {
        let speed2 = v[0] * v[0] + v[1] * v[1];
        if w > 0.0 && speed2 > limit * limit {
            let scale = limit / speed2.sqrt();
            v[0] *= scale;
            v[1] *= scale;
        }
    }
}
