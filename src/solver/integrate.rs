//! Integration: the prediction that starts a (sub)step and the velocity
//! update that ends it, and the optional global velocity damping.
//!
//! Each loop over the particles is a function of its own (`#[inline(never)]`),
//! called every substep: V8 first runs a wasm function unoptimised and uses its
//! optimised code from the next call on, never within a call already running,
//! so a loop inlined into the stepping loop would run unoptimised for the whole
//! of the first long `steps(n)` call (about three times slower).

/// Prediction: every particle remembers where it was; every free one gains
/// `h * gravity` of vertical velocity and moves along its velocity.
#[inline(never)]
pub fn predict(
    positions: &mut [f32],
    previous: &mut [f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
    gravity: f32,
) {
    previous.copy_from_slice(positions);
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[y] += h * gravity;
        positions[x] += h * velocities[x];
        positions[y] += h * velocities[y];
    }
}

/// Velocity update: every free particle's velocity becomes the distance it
/// really moved this (sub)step divided by `h`, so the corrections feed back
/// into the motion.
#[inline(never)]
pub fn update_velocities(
    positions: &[f32],
    previous: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    h: f32,
) {
    let inverse_h = 1.0 / h;
    for (i, &w) in inverse_mass.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let (x, y) = (2 * i, 2 * i + 1);
        velocities[x] = (positions[x] - previous[x]) * inverse_h;
        velocities[y] = (positions[y] - previous[y]) * inverse_h;
    }
}

/// Global velocity damping: scales every velocity by `max(0, 1 - rate h)`.
#[inline(never)]
pub fn damp_velocities(velocities: &mut [f32], rate: f64, h: f64) {
    let factor = (1.0 - rate * h).max(0.0) as f32;
    for v in velocities {
        *v *= factor;
    }
}
