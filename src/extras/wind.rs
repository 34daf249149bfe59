//! Wind: aerodynamic drag and lift of the edges.
//!
//! Each distance constraint is an edge of length `L` with unit normal `n`.
//! The air moves at the wind velocity `w` (`windX`, `windY`), the edge at the
//! mean velocity `v` of its two particles, so the air meets it at
//! `u = w − v`. Only the normal part pushes: the force is
//! `F = windDrag · L · (u·n) |u·n| · n` (quadratic drag of a flat plate; on a
//! slanted edge its direction is the normal, so it lifts as well as drags).
//! Each of the two particles gets half of it as a velocity change
//! `h · F/2 · w_i` (`w_i` its inverse mass) at the start of the substep.
//!
//! The change is capped so it never reverses the edge's normal velocity
//! relative to the air in one substep (the explicit force would overshoot
//! for a light edge in a strong wind); an edge then moves with the air.
//!
//! Still air (`windX = windY = 0`) applies no force: wind is off, and the
//! cloth steps exactly as without it.

/// Whether wind acts: a wind velocity other than zero and a drag above 0.
pub fn is_active(wind: [f64; 2], drag: f64) -> bool {
    drag > 0.0 && (wind[0] != 0.0 || wind[1] != 0.0)
}

/// Applies the wind's velocity change over a substep `h` to the free
/// particles of the edges `ids` (flat pairs).
pub fn apply(
    positions: &[f32],
    velocities: &mut [f32],
    inverse_mass: &[f32],
    ids: &[u32],
    wind: [f32; 2],
    drag: f32,
    h: f32,
) {
    for pair in ids.chunks_exact(2) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let (wa, wb) = (inverse_mass[a], inverse_mass[b]);
        if wa + wb == 0.0 {
            continue;
        }
        let (ex, ey) = (
            positions[2 * b] - positions[2 * a],
            positions[2 * b + 1] - positions[2 * a + 1],
        );
        let length = (ex * ex + ey * ey).sqrt();
        if length <= 0.0 {
            continue;
        }
        let (nx, ny) = (-ey / length, ex / length);
        let vx = 0.5 * (velocities[2 * a] + velocities[2 * b]);
        let vy = 0.5 * (velocities[2 * a + 1] + velocities[2 * b + 1]);
        let un = (wind[0] - vx) * nx + (wind[1] - vy) * ny;
        // normal velocity change of the edge's mean: h · F · (wa + wb) / 4
        let force = drag * length * un * un.abs();
        let mut impulse = h * force * 0.5;
        let change = impulse * 0.5 * (wa + wb);
        if change.abs() > un.abs() {
            impulse *= un.abs() / change.abs();
        }
        velocities[2 * a] += impulse * wa * nx;
        velocities[2 * a + 1] += impulse * wa * ny;
        velocities[2 * b] += impulse * wb * nx;
        velocities[2 * b + 1] += impulse * wb * ny;
    }
}
