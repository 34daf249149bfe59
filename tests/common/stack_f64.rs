//! An independent double-precision stack of rigid boxes for the box-stack
//! experiment's check, written from the equations and sharing no code with
//! the crate. Each box is one rigid body (centre `c`, angle `θ`, velocity `v`,
//! spin `ω`, mass `M`, moment of inertia `I` of its particles as point
//! masses), its particles the circles of radius `r` it touches the world
//! with: XPBD for rigid bodies (Müller et al. 2020) with the contact rules
//! docs/physics.md gives the particles:
//!
//! * per substep: speeds checked against the speed limit, prediction
//!   (`v += g h`, `c += h v`, `θ += h ω`), `iterations` passes of the
//!   contacts and one more, velocities from positions, the contacts'
//!   velocity pass, velocity damping `1 − d h`;
//! * a contact moves its body at the particle by a positional impulse of the
//!   body's generalized inverse mass `w = 1/M + (p × n)²/I`;
//! * ground: a particle below `r` moves up to it, an overlap it already had
//!   when the substep began no faster than 0.25 m/s; between boxes, the pairs
//!   of particles of different boxes within 3r after the prediction are
//!   pushed to 2r apart, shared by generalized inverse mass, an overlap they
//!   began the substep with no faster than 0.25 m/s; each pass visits the
//!   pairs (every other pass in reverse order, so their order biases
//!   nothing), then the ground;
//! * positional Coulomb friction: of a contact's tangential motion over the
//!   substep, up to `μ` times its normal push of the substep so far is
//!   cancelled;
//! * velocity pass (restitution 0): a contact's normal velocity becomes
//!   `max(u_n − push/h, 0)`.
#![allow(dead_code)]

/// Fastest a contact undoes an overlap its particle began the substep with, m/s.
const MAX_DEPENETRATION: f64 = 0.25;
/// Most a particle moves in a substep with contacts, in particle radii.
const MAX_TRAVEL: f64 = 0.5;

/// One rigid box.
#[derive(Clone, Debug)]
pub struct Body {
    pub c: [f64; 2],
    pub theta: f64,
    pub v: [f64; 2],
    pub omega: f64,
    c_old: [f64; 2],
    theta_old: f64,
    pub mass: f64,
    pub inertia: f64,
    /// The particles' offsets from the centre at θ = 0.
    pub q: Vec<[f64; 2]>,
}

impl Body {
    fn rotate(theta: f64, q: [f64; 2]) -> [f64; 2] {
        let (s, c) = theta.sin_cos();
        [c * q[0] - s * q[1], s * q[0] + c * q[1]]
    }

    /// Particle `k`'s position now, and at the substep's start.
    pub fn point(&self, k: usize) -> [f64; 2] {
        let r = Body::rotate(self.theta, self.q[k]);
        [self.c[0] + r[0], self.c[1] + r[1]]
    }

    fn point_old(&self, k: usize) -> [f64; 2] {
        let r = Body::rotate(self.theta_old, self.q[k]);
        [self.c_old[0] + r[0], self.c_old[1] + r[1]]
    }

    /// The inverse mass a push along the unit `n` at `p` meets.
    fn inverse_mass(&self, p: [f64; 2], n: [f64; 2]) -> f64 {
        let arm = cross(sub(p, self.c), n);
        1.0 / self.mass + arm * arm / self.inertia
    }

    /// A positional impulse `j` (a vector) at `p`.
    fn shift(&mut self, p: [f64; 2], j: [f64; 2]) {
        let arm = sub(p, self.c);
        self.c = [self.c[0] + j[0] / self.mass, self.c[1] + j[1] / self.mass];
        self.theta += cross(arm, j) / self.inertia;
    }

    /// A velocity impulse `j` at `p`.
    fn kick(&mut self, p: [f64; 2], j: [f64; 2]) {
        let arm = sub(p, self.c);
        self.v = [self.v[0] + j[0] / self.mass, self.v[1] + j[1] / self.mass];
        self.omega += cross(arm, j) / self.inertia;
    }

    /// The velocity of the body's point at `p`.
    fn velocity_at(&self, p: [f64; 2]) -> [f64; 2] {
        let arm = sub(p, self.c);
        [
            self.v[0] - self.omega * arm[1],
            self.v[1] + self.omega * arm[0],
        ]
    }
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn scale(a: [f64; 2], s: f64) -> [f64; 2] {
    [a[0] * s, a[1] * s]
}

/// A contact of the substep: ground (`b` none) or a pair, its normal push
/// so far.
struct Contact {
    a: (usize, usize),
    b: Option<(usize, usize)>,
    /// The distance to keep: r from the ground; 2r for a pair, less what an
    /// overlap it began the substep with may not undo.
    target: f64,
    pushed: f64,
    normal: [f64; 2],
}

/// The settings of a run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub dt: f64,
    pub substeps: usize,
    pub iterations: usize,
    pub gravity: f64,
    pub radius: f64,
    pub friction: f64,
    pub velocity_damping: f64,
}

pub struct Stack {
    pub bodies: Vec<Body>,
    pub s: Settings,
    pub time: f64,
    /// The fastest a particle moved at a substep's start, against the speed
    /// limit (`MAX_TRAVEL · r / h` less the substep's gravity): this
    /// reference does not clamp, so a run must stay below it.
    pub fastest_over_limit: f64,
    /// The contact passes so far.
    passes: usize,
}

impl Stack {
    /// Boxes of `columns × rows` particles `spacing` apart, `mass` each, at
    /// the given centres (angle 0); the ground line at y = 0.
    pub fn boxes(
        centres: &[[f64; 2]],
        (columns, rows): (usize, usize),
        spacing: f64,
        mass: f64,
        s: Settings,
    ) -> Stack {
        let mut q = Vec::new();
        for i in 0..rows {
            for j in 0..columns {
                q.push([
                    (j as f64 - (columns - 1) as f64 / 2.0) * spacing,
                    (i as f64 - (rows - 1) as f64 / 2.0) * spacing,
                ]);
            }
        }
        let inertia = q.iter().map(|p| mass * dot(*p, *p)).sum();
        let bodies = centres
            .iter()
            .map(|&c| Body {
                c,
                theta: 0.0,
                v: [0.0; 2],
                omega: 0.0,
                c_old: c,
                theta_old: 0.0,
                mass: mass * q.len() as f64,
                inertia,
                q: q.clone(),
            })
            .collect();
        Stack {
            bodies,
            s,
            time: 0.0,
            fastest_over_limit: 0.0,
            passes: 0,
        }
    }

    pub fn step(&mut self) {
        let h = self.s.dt / self.s.substeps as f64;
        for _ in 0..self.s.substeps {
            self.check_speeds(h);
            for b in &mut self.bodies {
                b.c_old = b.c;
                b.theta_old = b.theta;
                b.v[1] += h * self.s.gravity;
                b.c = [b.c[0] + h * b.v[0], b.c[1] + h * b.v[1]];
                b.theta += h * b.omega;
            }
            let (mut pairs, mut ground) = self.find_contacts();
            for _ in 0..=self.s.iterations {
                // the pairs, every other pass backwards (no bias from their
                // order), then the ground
                let backwards = self.passes % 2 == 1;
                self.passes += 1;
                for j in 0..pairs.len() {
                    let i = if backwards { pairs.len() - 1 - j } else { j };
                    self.solve(&mut pairs[i], h);
                }
                for contact in &mut ground {
                    self.solve(contact, h);
                }
            }
            let contacts: Vec<Contact> = pairs.into_iter().chain(ground).collect();
            let keep = (1.0 - self.s.velocity_damping * h).max(0.0);
            for b in &mut self.bodies {
                b.v = scale(sub(b.c, b.c_old), 1.0 / h);
                b.omega = (b.theta - b.theta_old) / h;
            }
            for contact in &contacts {
                self.stop(contact, h);
            }
            for b in &mut self.bodies {
                b.v = scale(b.v, keep);
                b.omega *= keep;
            }
        }
        self.time += self.s.dt;
    }

    fn check_speeds(&mut self, h: f64) {
        let limit = MAX_TRAVEL * self.s.radius / h - self.s.gravity.abs() * h;
        for b in &self.bodies {
            for k in 0..b.q.len() {
                let u = b.velocity_at(b.point(k));
                self.fastest_over_limit = self.fastest_over_limit.max(u[0].hypot(u[1]) / limit);
            }
        }
    }

    /// The pairs of particles of different boxes within 3r after the
    /// prediction, and every particle's ground contact.
    fn find_contacts(&self) -> (Vec<Contact>, Vec<Contact>) {
        let r = self.s.radius;
        let mut ground = Vec::new();
        for (a, body) in self.bodies.iter().enumerate() {
            for k in 0..body.q.len() {
                ground.push(Contact {
                    a: (a, k),
                    b: None,
                    target: r,
                    pushed: 0.0,
                    normal: [0.0, 1.0],
                });
            }
        }
        let mut pairs = Vec::new();
        for a in 0..self.bodies.len() {
            for b in a + 1..self.bodies.len() {
                for k in 0..self.bodies[a].q.len() {
                    let pa = self.bodies[a].point(k);
                    for l in 0..self.bodies[b].q.len() {
                        let d = sub(pa, self.bodies[b].point(l));
                        if d[0].hypot(d[1]) < 3.0 * r {
                            pairs.push(Contact {
                                a: (a, k),
                                b: Some((b, l)),
                                target: 2.0 * r,
                                pushed: 0.0,
                                normal: [0.0; 2],
                            });
                        }
                    }
                }
            }
        }
        (pairs, ground)
    }

    /// One pass of a contact: the normal push, then friction.
    fn solve(&mut self, contact: &mut Contact, h: f64) {
        let (a, k) = contact.a;
        let pa = self.bodies[a].point(k);
        let Some((b, l)) = contact.b else {
            let depth = contact.target - pa[1];
            if depth <= 0.0 {
                return;
            }
            let overlap = (contact.target - self.bodies[a].point_old(k)[1]).max(0.0);
            let push = depth - (overlap - MAX_DEPENETRATION * h).max(0.0);
            if push <= 0.0 {
                return;
            }
            contact.pushed += push;
            let n = [0.0, 1.0];
            let w = self.bodies[a].inverse_mass(pa, n);
            self.bodies[a].shift(pa, scale(n, push / w));
            // friction against the ground's tangent
            let body = &self.bodies[a];
            let (p, old) = (body.point(k), body.point_old(k));
            let slide = p[0] - old[0];
            let limit = self.s.friction * contact.pushed;
            let cancel = if slide.abs() <= limit {
                slide
            } else {
                slide * limit / slide.abs()
            };
            let t = [1.0, 0.0];
            let w = self.bodies[a].inverse_mass(p, t);
            self.bodies[a].shift(p, scale(t, -cancel / w));
            return;
        };
        let pb = self.bodies[b].point(l);
        let d = sub(pa, pb);
        let distance = d[0].hypot(d[1]);
        if distance >= contact.target || distance == 0.0 {
            return;
        }
        let n = scale(d, 1.0 / distance);
        let mut push = contact.target - distance;
        if contact.pushed == 0.0 {
            // an overlap the pair began the substep with comes apart no
            // faster than the depenetration speed; its distance to keep
            // is then where this push leaves it
            let before = sub(self.bodies[a].point_old(k), self.bodies[b].point_old(l));
            let overlap = contact.target - before[0].hypot(before[1]);
            push -= (overlap - MAX_DEPENETRATION * h).max(0.0);
            if push <= 0.0 {
                return;
            }
            contact.target = distance + push;
        }
        contact.pushed += push;
        contact.normal = n;
        let (wa, wb) = (
            self.bodies[a].inverse_mass(pa, n),
            self.bodies[b].inverse_mass(pb, n),
        );
        let j = push / (wa + wb);
        self.bodies[a].shift(pa, scale(n, j));
        self.bodies[b].shift(pb, scale(n, -j));
        // friction: the relative tangential motion over the substep
        let (pa, pb) = (self.bodies[a].point(k), self.bodies[b].point(l));
        let moved = sub(
            sub(pa, self.bodies[a].point_old(k)),
            sub(pb, self.bodies[b].point_old(l)),
        );
        let t = [-n[1], n[0]];
        let slide = dot(moved, t);
        let limit = self.s.friction * contact.pushed;
        let cancel = if slide.abs() <= limit {
            slide
        } else {
            slide * limit / slide.abs()
        };
        let (wa, wb) = (
            self.bodies[a].inverse_mass(pa, t),
            self.bodies[b].inverse_mass(pb, t),
        );
        let j = -cancel / (wa + wb);
        self.bodies[a].shift(pa, scale(t, j));
        self.bodies[b].shift(pb, scale(t, -j));
    }

    /// The velocity pass of a contact pushed this substep (restitution 0).
    fn stop(&mut self, contact: &Contact, h: f64) {
        if contact.pushed <= 0.0 {
            return;
        }
        let (a, k) = contact.a;
        let pa = self.bodies[a].point(k);
        match contact.b {
            None => {
                let n = [0.0, 1.0];
                let u = dot(self.bodies[a].velocity_at(pa), n);
                let target = (u - contact.pushed / h).max(0.0);
                let w = self.bodies[a].inverse_mass(pa, n);
                self.bodies[a].kick(pa, scale(n, (target - u) / w));
            }
            Some((b, l)) => {
                let pb = self.bodies[b].point(l);
                let n = contact.normal;
                let u = dot(
                    sub(
                        self.bodies[a].velocity_at(pa),
                        self.bodies[b].velocity_at(pb),
                    ),
                    n,
                );
                let target = (u - contact.pushed / h).max(0.0);
                let (wa, wb) = (
                    self.bodies[a].inverse_mass(pa, n),
                    self.bodies[b].inverse_mass(pb, n),
                );
                let j = (target - u) / (wa + wb);
                self.bodies[a].kick(pa, scale(n, j));
                self.bodies[b].kick(pb, scale(n, -j));
            }
        }
    }
}
