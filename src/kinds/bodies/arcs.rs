//! Prediction along arcs: before a substep's prediction, each body that spins
//! freely (or about one pinned particle) gets the centripetal velocity change
//! of its spin, so that prediction moves its particles along arcs (the
//! module documentation of `bodies.rs` derives it).

use super::{point, Bodies, Particles};

impl Bodies {
    /// Before prediction: each body that spins freely (or about one pinned
    /// particle) gets the centripetal velocity change of its spin, so that
    /// prediction moves its particles along arcs (see the module
    /// documentation).
    pub(super) fn predict_arcs(&self, particles: &mut Particles, h: f64) {
        for body in &self.bodies {
            let slots = &self.particles[body.slots.0 as usize..body.slots.1 as usize];
            let Some(spin) = Spin::of(slots, particles) else {
                continue;
            };
            let sin_turn = h * spin.momentum / spin.inertia;
            if sin_turn.is_nan() || sin_turn.abs() >= 1.0 {
                continue;
            }
            // 1 - cos Δθ = sin²Δθ / (1 + cos Δθ)
            let cos_turn = (1.0 - sin_turn * sin_turn).sqrt();
            let fall = sin_turn * sin_turn / (1.0 + cos_turn) / h;
            // a rigid body's radial velocity becomes the arc's, -(1 - cos Δθ)/h
            // times the offset; a soft body's is taken as the chord's, (1 -
            // cos Δθ)/h (what the velocity update makes of a turn of Δθ)
            let pull = if body.compliance == 0.0 {
                fall + spin.spread / spin.inertia
            } else {
                2.0 * fall
            };
            if pull == 0.0 {
                continue;
            }
            for &k in slots {
                let k = k as usize;
                if particles.inverse_mass[k] == 0.0 {
                    continue;
                }
                let p = spin.offset(particles.positions, k);
                let v = &mut particles.velocities[2 * k..2 * k + 2];
                v[0] = (f64::from(v[0]) - pull * p.0) as f32;
                v[1] = (f64::from(v[1]) - pull * p.1) as f32;
            }
        }
    }
}

/// How a body's free particles move about its centre: what the prediction
/// along arcs needs.
struct Spin {
    /// The centre: the body's centre of mass, or its one pinned particle.
    c: (f64, f64),
    /// `L = Σ m_i p_i × u_i`, `I = Σ m_i |p_i|²` and `Σ m_i p_i · u_i`, with
    /// `u_i` the velocity relative to the centre's.
    momentum: f64,
    inertia: f64,
    spread: f64,
}

impl Spin {
    /// The spin of the body of `slots`, when it has a free particle and at
    /// most one pinned one.
    fn of(slots: &[u32], particles: &Particles) -> Option<Spin> {
        let (x, v, w) = (
            &*particles.positions,
            &*particles.velocities,
            particles.inverse_mass,
        );
        let (mut mass, mut c, mut u) = (0.0, (0.0, 0.0), (0.0, 0.0));
        let mut pinned = (0, (0.0, 0.0));
        for &k in slots {
            let k = k as usize;
            if w[k] == 0.0 {
                pinned = (pinned.0 + 1, point(x, k));
                continue;
            }
            let (m, p, vk) = (1.0 / f64::from(w[k]), point(x, k), point(v, k));
            mass += m;
            c = (c.0 + m * p.0, c.1 + m * p.1);
            u = (u.0 + m * vk.0, u.1 + m * vk.1);
        }
        if pinned.0 > 1 || mass == 0.0 {
            return None;
        }
        // the centre it turns about, and that centre's velocity
        let (c, u) = if pinned.0 == 1 {
            (pinned.1, (0.0, 0.0))
        } else {
            ((c.0 / mass, c.1 / mass), (u.0 / mass, u.1 / mass))
        };
        let mut spin = Spin {
            c,
            momentum: 0.0,
            inertia: 0.0,
            spread: 0.0,
        };
        for &k in slots {
            let k = k as usize;
            if w[k] == 0.0 {
                continue;
            }
            let (m, p, vk) = (1.0 / f64::from(w[k]), spin.offset(x, k), point(v, k));
            let q = (vk.0 - u.0, vk.1 - u.1);
            spin.momentum += m * (p.0 * q.1 - p.1 * q.0);
            spin.spread += m * (p.0 * q.0 + p.1 * q.1);
            spin.inertia += m * (p.0 * p.0 + p.1 * p.1);
        }
        Some(spin)
    }

    /// Particle `k`'s offset from the centre, at `positions`.
    fn offset(&self, positions: &[f32], k: usize) -> (f64, f64) {
        let p = point(positions, k);
        (p.0 - self.c.0, p.1 - self.c.1)
    }
}
