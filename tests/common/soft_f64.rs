//! An independent double-precision soft step (Catto's Solver2D, as Box2D v3
//! runs it) for the tests, written from its equations: the particles and
//! links of a [`Reference`] (its grid and chain builders), stepped by its own
//! loops. Each substep: `v += h g`, `x += h v`; the warm start (each link's
//! impulse of the last substep applied again); `iterations` sweeps of soft
//! solves (frequency `hertz`, damping ratio `zeta`, direction and error at
//! the substep's start); `v = (x - x_old) / h`; one relax sweep on the
//! velocities (no bias). Multipliers are impulses times `h`.
#![allow(dead_code)]

use super::reference_f64::{Link, Particle, Reference};

/// Distance below which a link is skipped (its direction is undefined).
const SHORTEST: f64 = 0.001;

/// `(bias_rate, mass_scale, impulse_scale)` of a soft constraint of
/// frequency `hertz` and damping ratio `zeta` over a substep `h`.
pub fn softness(hertz: f64, zeta: f64, h: f64) -> (f64, f64, f64) {
    let omega = 2.0 * std::f64::consts::PI * hertz;
    let stiff = h * omega * (2.0 * zeta + h * omega);
    (
        omega / (2.0 * zeta + h * omega),
        stiff / (1.0 + stiff),
        1.0 / (1.0 + stiff),
    )
}

/// One soft-step time step of `r` (its `dt`, substeps, iterations, gravity
/// and sweep order) with links of `hertz` and `zeta`.
pub fn soft_step(r: &mut Reference, hertz: f64, zeta: f64) {
    let h = r.s.dt / r.s.substeps as f64;
    let order = r.sweep_order();
    let (bias_rate, mass_scale, impulse_scale) = softness(hertz, zeta, h);
    for _ in 0..r.s.substeps {
        for p in r.particles.iter_mut().filter(|p| p.w > 0.0) {
            p.x_old = p.x;
            p.v[1] += h * r.s.gravity;
            p.x[0] += h * p.v[0];
            p.x[1] += h * p.v[1];
        }
        for &c in &order {
            let link = r.links[c];
            if let Some((n, _)) = direction(&r.particles, &link, |p| p.x_old) {
                push(&mut r.particles, &link, n, link.lambda, |p| &mut p.x);
            }
        }
        for _ in 0..r.s.iterations {
            for &c in &order {
                let link = &mut r.links[c];
                let Some((n, length)) = direction(&r.particles, link, |p| p.x_old) else {
                    continue;
                };
                let (pa, pb) = (r.particles[link.a], r.particles[link.b]);
                let w = pa.w + pb.w;
                let h_rate = (0..2)
                    .map(|i| n[i] * ((pa.x[i] - pa.x_old[i]) - (pb.x[i] - pb.x_old[i])))
                    .sum::<f64>();
                let error = length - link.rest;
                let delta = -mass_scale * (h_rate + h * bias_rate * error) / w
                    - impulse_scale * link.lambda;
                link.lambda += delta;
                let link = *link;
                push(&mut r.particles, &link, n, delta, |p| &mut p.x);
            }
        }
        for p in r.particles.iter_mut().filter(|p| p.w > 0.0) {
            p.v = [(p.x[0] - p.x_old[0]) / h, (p.x[1] - p.x_old[1]) / h];
        }
        for &c in &order {
            let link = &mut r.links[c];
            let Some((n, _)) = direction(&r.particles, link, |p| p.x) else {
                continue;
            };
            let (pa, pb) = (r.particles[link.a], r.particles[link.b]);
            let rate = (0..2).map(|i| n[i] * (pa.v[i] - pb.v[i])).sum::<f64>();
            let impulse = -rate / (pa.w + pb.w);
            link.lambda += h * impulse;
            let link = *link;
            push(&mut r.particles, &link, n, impulse, |p| &mut p.v);
        }
    }
    r.time += r.s.dt;
}

/// The unit direction from `b` to `a` of `link` and its length, at the
/// positions `at` picks; `None` for a link too short or between two pins.
fn direction(
    particles: &[Particle],
    link: &Link,
    at: impl Fn(&Particle) -> [f64; 2],
) -> Option<([f64; 2], f64)> {
    let (a, b) = (at(&particles[link.a]), at(&particles[link.b]));
    let d = [a[0] - b[0], a[1] - b[1]];
    let length = d[0].hypot(d[1]);
    let w = particles[link.a].w + particles[link.b].w;
    (length > SHORTEST && w > 0.0).then(|| ([d[0] / length, d[1] / length], length))
}

/// `a += w_a amount n`, `b -= w_b amount n` on the vector `field` picks.
fn push(
    particles: &mut [Particle],
    link: &Link,
    n: [f64; 2],
    amount: f64,
    field: impl Fn(&mut Particle) -> &mut [f64; 2],
) {
    let (w_a, w_b) = (particles[link.a].w, particles[link.b].w);
    let a = field(&mut particles[link.a]);
    a[0] += w_a * amount * n[0];
    a[1] += w_a * amount * n[1];
    let b = field(&mut particles[link.b]);
    b[0] -= w_b * amount * n[0];
    b[1] -= w_b * amount * n[1];
}

/// The energy of `r` with its links as the soft step's springs: kinetic,
/// gravitational, and `½ m_eff ω² C²` for each link of effective mass
/// `m_eff = 1 / (w_a + w_b)`.
pub fn soft_energy(r: &Reference, hertz: f64) -> f64 {
    let omega = 2.0 * std::f64::consts::PI * hertz;
    let springs: f64 = r
        .links
        .iter()
        .filter_map(|link| {
            let w = r.particles[link.a].w + r.particles[link.b].w;
            let (a, b) = (r.particles[link.a].x, r.particles[link.b].x);
            let c = (a[0] - b[0]).hypot(a[1] - b[1]) - link.rest;
            (w > 0.0).then(|| 0.5 * omega * omega * c * c / w)
        })
        .sum();
    r.kinetic() + r.gravitational() + springs
}
