//! Plasticity of bodies. At the end of a substep, a particle of a plastic
//! body whose deformation `e_i = Rᵀ p_i - q_i` (in the rest frame) is larger
//! than the yield `Y` times the body's RMS radius `ρ` (of its first rest
//! shape) moves its rest position by `k (1 - Y ρ / |e_i|) e_i` with
//! `k = min(1, creep · h)`: the part beyond the yield shrinks by `1 - k` per
//! substep, and the rest position moves at most `max · ρ` from where it
//! started. Below the yield nothing changes, and the body springs back
//! exactly.
//!
//! The values of a plastic body (yield, cap and creep) are checked here too,
//! for a scene's bodies and for those added.

use super::Bodies;
use crate::error::{Number, Plain};
use crate::model::Plasticity;

/// Largest creep rate of a plastic body, 1/s.
pub const MAX_CREEP: f64 = 1e6;

/// Largest yield and cap of a plastic body, as multiples of its RMS radius.
pub const MAX_STRAIN: f64 = 100.0;

/// Checks a body's plasticity; the problem as the value given
/// (`plastic.yield -1`) and what is allowed.
pub fn check_plasticity(plastic: &Plasticity) -> Result<(), (String, String)> {
    let strain = |name: &str, v: f64| {
        if v.is_finite() && (0.0..=MAX_STRAIN).contains(&v) {
            Ok(())
        } else {
            Err((
                format!("plastic.{name} {}", Number(v)),
                format!(
                    "a number from 0 to {} (a fraction of the body's radius)",
                    Plain(MAX_STRAIN)
                ),
            ))
        }
    };
    strain("yield", plastic.yield_strain)?;
    strain("max", plastic.max)?;
    if !(plastic.creep.is_finite() && (0.0..=MAX_CREEP).contains(&plastic.creep)) {
        return Err((
            format!("plastic.creep {}", Number(plastic.creep)),
            format!("a rate from 0 to {} per second", Plain(MAX_CREEP)),
        ));
    }
    Ok(())
}

impl Bodies {
    /// Whether any body is plastic.
    pub(super) fn any_plastic(&self) -> bool {
        self.bodies.iter().any(|b| b.plastic.is_some())
    }

    /// At the end of a substep of size `h`: each plastic body's rest shape
    /// takes on the part of its deformation beyond the yield (see the module
    /// documentation).
    pub(super) fn flow(&mut self, positions: &[f32], inverse_mass: &[f32], h: f64) {
        for k in 0..self.bodies.len() {
            let body = self.bodies[k];
            let Some(plastic) = body.plastic else {
                continue;
            };
            let Some(frame) = self.frame(k, positions, inverse_mass) else {
                continue;
            };
            let rate = (plastic.creep * h).min(1.0);
            let (yield_length, cap) = (
                plastic.yield_strain * body.radius,
                plastic.max * body.radius,
            );
            let (cos, sin) = frame.rotation;
            for s in body.slots.0 as usize..body.slots.1 as usize {
                let i = self.particles[s] as usize;
                let p = (
                    f64::from(positions[2 * i]) - frame.c.0,
                    f64::from(positions[2 * i + 1]) - frame.c.1,
                );
                let (rx, ry) = (f64::from(self.rest[2 * s]), f64::from(self.rest[2 * s + 1]));
                // Rᵀ p - q
                let e = (
                    cos * p.0 + sin * p.1 - (rx - frame.c0.0),
                    -sin * p.0 + cos * p.1 - (ry - frame.c0.1),
                );
                let size = (e.0 * e.0 + e.1 * e.1).sqrt();
                if size.is_nan() || size <= yield_length {
                    continue;
                }
                let moved = rate * (1.0 - yield_length / size);
                let (ox, oy) = (
                    f64::from(self.original[2 * s]),
                    f64::from(self.original[2 * s + 1]),
                );
                let mut d = (rx + moved * e.0 - ox, ry + moved * e.1 - oy);
                let far = (d.0 * d.0 + d.1 * d.1).sqrt();
                if far > cap {
                    let scale = if far > 0.0 { cap / far } else { 0.0 };
                    d = (d.0 * scale, d.1 * scale);
                }
                self.rest[2 * s] = (ox + d.0) as f32;
                self.rest[2 * s + 1] = (oy + d.1) as f32;
            }
        }
    }
}
