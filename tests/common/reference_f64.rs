//! An independent double-precision XPBD for the experiments' checks: its own
//! particles, its own grid and chain, its own loops, sharing no code with the
//! crate. It runs the step the docs describe (predict, reset the multipliers,
//! Gauss–Seidel sweeps, velocities from positions, velocity damping), with
//! substeps, constraint damping `γ = αβ/h`, the sweep in creation order or by
//! the grid's eight colours, and plain PBD with a stiffness coefficient `k`.
#![allow(dead_code)]

/// One particle: position, position at the start of the substep, velocity,
/// inverse mass (0 = pinned).
#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub x: [f64; 2],
    pub x_old: [f64; 2],
    pub v: [f64; 2],
    pub w: f64,
}

/// One distance constraint and its multiplier.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    pub rest: f64,
    pub lambda: f64,
    /// Its colour in the grid's colouring (0 for other scenes).
    pub colour: u8,
}

/// The settings of a run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub dt: f64,
    pub substeps: usize,
    pub iterations: usize,
    /// N/m; 0 = rigid.
    pub stiffness: f64,
    /// Constraint damping β, N·s/m.
    pub damping: f64,
    /// 1/s.
    pub velocity_damping: f64,
    pub gravity: f64,
    /// Sweep by colour (the crate's default) instead of creation order.
    pub coloured: bool,
    /// Plain PBD with this stiffness coefficient instead of XPBD.
    pub pbd_k: Option<f64>,
    /// Bending stiffness, N/m, of the `bends` (distance constraints between
    /// the particles two apart along rows and columns of a grid).
    pub bending: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dt: 0.01,
            substeps: 1,
            iterations: 5,
            stiffness: 1000.0,
            damping: 0.0,
            velocity_damping: 0.0,
            gravity: -9.81,
            coloured: true,
            pbd_k: None,
            bending: 0.0,
        }
    }
}

/// A rigid area constraint: the shoelace area of `corners` (counter-
/// clockwise positive) kept at `target`, solved after each sweep.
#[derive(Clone, Debug)]
pub struct Ring {
    pub corners: Vec<usize>,
    pub target: f64,
}

/// A ground line as the project defines its contacts (rigid, plain PBD):
/// a free particle of radius `radius` below `y + radius` is pushed up to it,
/// an overlap it already had when its substep began no faster than
/// `MAX_DEPENETRATION` m/s; of its sideways motion over the substep up to
/// `friction` times its upward pushes of the substep so far is cancelled
/// (Coulomb friction on positions); after the velocity update its upward
/// velocity loses what the pushes gave it, but never goes below 0
/// (restitution 0); before each substep speeds are clamped to
/// `MAX_TRAVEL · radius / h` less the substep's gravity.
#[derive(Clone, Copy, Debug)]
pub struct Ground {
    pub y: f64,
    pub radius: f64,
    pub friction: f64,
}

/// Fastest a contact undoes an overlap its particle began the substep with, m/s.
const MAX_DEPENETRATION: f64 = 0.25;
/// Most a free particle moves in a substep with contacts, in particle radii.
const MAX_TRAVEL: f64 = 0.5;

pub struct Reference {
    pub particles: Vec<Particle>,
    /// The ground, if any, and each particle's upward push this substep.
    pub ground: Option<Ground>,
    pub pushed: Vec<f64>,
    pub links: Vec<Link>,
    /// Bending pairs, solved after each sweep of the links, in their order.
    pub bends: Vec<Link>,
    pub rings: Vec<Ring>,
    pub s: Settings,
    pub time: f64,
}

/// Distance below which a link is skipped (its direction is undefined).
const SHORTEST: f64 = 0.001;

impl Reference {
    /// A `width × height` grid, 0.2 m apart, `mass` per particle, the two top
    /// corners pinned (`pins` = 2) or the corners listed by `pins` (1, 2, 4),
    /// joined horizontally, vertically and by both diagonals.
    pub fn grid(width: usize, height: usize, pins: usize, mass: f64, s: Settings) -> Reference {
        let mut particles = Vec::new();
        for i in 0..height {
            for j in 0..width {
                let x = [0.2 * j as f64, -0.2 * i as f64];
                particles.push(Particle {
                    x,
                    x_old: x,
                    v: [0.0; 2],
                    w: 1.0 / mass,
                });
            }
        }
        let corners = [0, width - 1, (height - 1) * width, height * width - 1];
        for &k in &corners[..pins] {
            particles[k].w = 0.0;
        }
        let mut links = Vec::new();
        let diagonal = (0.08f64).sqrt();
        let mut add = |a: usize, b: usize, rest: f64, colour: usize| {
            links.push(Link {
                a,
                b,
                rest,
                lambda: 0.0,
                colour: colour as u8,
            })
        };
        for i in 0..height {
            for j in 0..width - 1 {
                add(i * width + j, i * width + j + 1, 0.2, j % 2);
            }
        }
        for i in 0..height - 1 {
            for j in 0..width {
                add(i * width + j, (i + 1) * width + j, 0.2, 2 + i % 2);
            }
        }
        for i in 0..height - 1 {
            for j in 0..width - 1 {
                let k = i * width + j;
                add(k, k + width + 1, diagonal, 4 + i % 2);
                add(k + 1, k + width, diagonal, 6 + i % 2);
            }
        }
        Reference::of(particles, links, s)
    }

    /// `particles` joined by `links`, at time 0, with nothing else added.
    fn of(particles: Vec<Particle>, links: Vec<Link>, s: Settings) -> Reference {
        Reference {
            ground: None,
            pushed: vec![0.0; particles.len()],
            particles,
            links,
            bends: Vec::new(),
            rings: Vec::new(),
            s,
            time: 0.0,
        }
    }

    /// Particles at `points` with `masses` (0 = pinned) joined in a chain,
    /// each link `rest` metres long at rest.
    pub fn chain(points: &[[f64; 2]], masses: &[f64], rest: f64, s: Settings) -> Reference {
        let particles: Vec<Particle> = points
            .iter()
            .zip(masses)
            .map(|(&x, &m)| Particle {
                x,
                x_old: x,
                v: [0.0; 2],
                w: if m > 0.0 { 1.0 / m } else { 0.0 },
            })
            .collect();
        let links = points
            .windows(2)
            .enumerate()
            .map(|(k, _)| Link {
                a: k,
                b: k + 1,
                rest,
                lambda: 0.0,
                colour: 0,
            })
            .collect();
        Reference::of(particles, links, s)
    }

    /// The links in the order a sweep visits them.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.links.len()).collect();
        if self.s.coloured {
            order.sort_by_key(|&c| self.links[c].colour);
        }
        order
    }

    /// One time step.
    pub fn step(&mut self) {
        let h = self.s.dt / self.s.substeps as f64;
        let order = self.order();
        for _ in 0..self.s.substeps {
            self.limit_speeds(h);
            self.predict(h);
            for _ in 0..self.s.iterations {
                self.sweep(&order, h);
                self.solve_bends(h);
                self.solve_rings();
                self.solve_ground(h);
            }
            self.solve_ground(h);
            self.finish(h);
        }
        self.time += self.s.dt;
    }

    /// Prediction and multiplier reset.
    pub fn predict(&mut self, h: f64) {
        let g = self.s.gravity;
        for p in self.particles.iter_mut().filter(|p| p.w > 0.0) {
            p.x_old = p.x;
            p.v[1] += h * g;
            p.x[0] += h * p.v[0];
            p.x[1] += h * p.v[1];
        }
        for c in self.links.iter_mut().chain(&mut self.bends) {
            c.lambda = 0.0;
        }
    }

    /// Velocities from positions, the ground's velocity pass, then velocity
    /// damping.
    pub fn finish(&mut self, h: f64) {
        let keep = (1.0 - self.s.velocity_damping * h).max(0.0);
        for (p, pushed) in self.particles.iter_mut().zip(&self.pushed) {
            if p.w == 0.0 {
                continue;
            }
            let mut v = [(p.x[0] - p.x_old[0]) / h, (p.x[1] - p.x_old[1]) / h];
            if *pushed > 0.0 {
                v[1] = (v[1] - pushed / h).max(0.0);
            }
            p.v = [keep * v[0], keep * v[1]];
        }
    }

    /// With a ground: clamps speeds before the prediction, and clears the
    /// substep's pushes.
    fn limit_speeds(&mut self, h: f64) {
        let Some(ground) = self.ground else {
            return;
        };
        self.pushed.iter_mut().for_each(|p| *p = 0.0);
        let limit = (MAX_TRAVEL * ground.radius / h - self.s.gravity.abs() * h).max(0.0);
        for p in self.particles.iter_mut().filter(|p| p.w > 0.0) {
            let speed = p.v[0].hypot(p.v[1]);
            if speed > limit {
                p.v = [p.v[0] * limit / speed, p.v[1] * limit / speed];
            }
        }
    }

    /// One pass of the ground's contacts, with friction.
    fn solve_ground(&mut self, h: f64) {
        let Some(ground) = self.ground else {
            return;
        };
        let surface = ground.y + ground.radius;
        for (p, pushed) in self.particles.iter_mut().zip(&mut self.pushed) {
            let depth = surface - p.x[1];
            if p.w == 0.0 || depth <= 0.0 {
                continue;
            }
            let overlap = (surface - p.x_old[1]).max(0.0);
            let push = depth - (overlap - MAX_DEPENETRATION * h).max(0.0);
            if push <= 0.0 {
                continue;
            }
            *pushed += push;
            p.x[1] += push;
            let slide = p.x[0] - p.x_old[0];
            let limit = ground.friction * pushed.max(push);
            if slide.abs() <= limit {
                p.x[0] = p.x_old[0];
            } else {
                p.x[0] -= slide * limit / slide.abs();
            }
        }
    }

    /// One Gauss–Seidel sweep over the links in `order`.
    pub fn sweep(&mut self, order: &[usize], h: f64) {
        let alpha = if self.s.stiffness > 0.0 {
            1.0 / self.s.stiffness
        } else {
            0.0
        };
        let alpha_tilde = alpha / (h * h);
        let gamma = alpha * self.s.damping / h;
        let pbd_k = self.s.pbd_k;
        for &c in order {
            solve_link(
                &mut self.particles,
                &mut self.links[c],
                alpha_tilde,
                gamma,
                pbd_k,
            );
        }
    }

    /// One pass over the bending pairs: each an XPBD distance constraint of
    /// compliance `1/bending`, undamped.
    fn solve_bends(&mut self, h: f64) {
        if self.s.bending <= 0.0 {
            return;
        }
        let alpha_tilde = 1.0 / (self.s.bending * h * h);
        for bend in &mut self.bends {
            solve_link(&mut self.particles, bend, alpha_tilde, 0.0, None);
        }
    }

    /// Bending pairs for a `width × height` grid: for each particle in order,
    /// its left and right neighbours, then those above and below it.
    pub fn add_grid_bending(&mut self, width: usize, height: usize) {
        for i in 0..height {
            for j in 0..width {
                let k = i * width + j;
                if j >= 1 && j + 1 < width {
                    self.bends.push(self.bend(k - 1, k + 1));
                }
                if i >= 1 && i + 1 < height {
                    self.bends.push(self.bend(k - width, k + width));
                }
            }
        }
    }

    fn bend(&self, a: usize, b: usize) -> Link {
        let (pa, pb) = (self.particles[a].x, self.particles[b].x);
        Link {
            a,
            b,
            rest: (pa[0] - pb[0]).hypot(pa[1] - pb[1]),
            lambda: 0.0,
            colour: 0,
        }
    }

    /// One pass over the rigid area constraints.
    fn solve_rings(&mut self) {
        for ring in &self.rings {
            let n = ring.corners.len();
            let at = |i: usize| self.particles[ring.corners[i % n]].x;
            let gradient: Vec<[f64; 2]> = (0..n)
                .map(|i| {
                    let (prev, next) = (at(i + n - 1), at(i + 1));
                    [0.5 * (next[1] - prev[1]), 0.5 * (prev[0] - next[0])]
                })
                .collect();
            let area = 0.5
                * (0..n)
                    .map(|i| at(i)[0] * at(i + 1)[1] - at(i + 1)[0] * at(i)[1])
                    .sum::<f64>();
            let weight: f64 = (0..n)
                .map(|i| {
                    let g = gradient[i];
                    self.particles[ring.corners[i]].w * (g[0] * g[0] + g[1] * g[1])
                })
                .sum();
            if weight <= 0.0 {
                continue;
            }
            let delta = -(area - ring.target) / weight;
            for (i, g) in gradient.iter().enumerate() {
                let p = &mut self.particles[ring.corners[i]];
                p.x[0] += p.w * delta * g[0];
                p.x[1] += p.w * delta * g[1];
            }
        }
    }

    /// The sweep order, for callers that step sweep by sweep.
    pub fn sweep_order(&self) -> Vec<usize> {
        self.order()
    }

    fn length(&self, c: &Link) -> f64 {
        let (a, b) = (self.particles[c.a].x, self.particles[c.b].x);
        (a[0] - b[0]).hypot(a[1] - b[1])
    }

    pub fn kinetic(&self) -> f64 {
        self.particles
            .iter()
            .filter(|p| p.w > 0.0)
            .map(|p| 0.5 / p.w * (p.v[0] * p.v[0] + p.v[1] * p.v[1]))
            .sum()
    }

    pub fn gravitational(&self) -> f64 {
        self.particles
            .iter()
            .filter(|p| p.w > 0.0)
            .map(|p| -self.s.gravity / p.w * p.x[1])
            .sum()
    }

    pub fn elastic(&self) -> f64 {
        if self.s.stiffness == 0.0 {
            return 0.0;
        }
        self.links
            .iter()
            .map(|c| 0.5 * self.s.stiffness * (self.length(c) - c.rest).powi(2))
            .sum()
    }

    pub fn total(&self) -> f64 {
        self.kinetic() + self.gravitational() + self.elastic()
    }

    /// Mean of `(length − rest)/rest` over the links.
    pub fn mean_stretch(&self) -> f64 {
        let sum: f64 = self
            .links
            .iter()
            .map(|c| self.length(c) / c.rest - 1.0)
            .sum();
        sum / self.links.len() as f64
    }

    /// RMS of `C + α̃λ` over the links, for the (sub)step `h`.
    pub fn rms_residual(&self, h: f64) -> f64 {
        let alpha_tilde = if self.s.stiffness > 0.0 {
            1.0 / (self.s.stiffness * h * h)
        } else {
            0.0
        };
        let sum: f64 = self
            .links
            .iter()
            .map(|c| (self.length(c) - c.rest + alpha_tilde * c.lambda).powi(2))
            .sum();
        (sum / self.links.len() as f64).sqrt()
    }

    /// How far the top row (`width` particles) sags below its ends' line.
    pub fn top_sag(&self, width: usize) -> f64 {
        let (a, b) = (self.particles[0].x, self.particles[width - 1].x);
        (0..width)
            .map(|j| {
                let p = self.particles[j].x;
                let t = (p[0] - a[0]) / (b[0] - a[0]);
                a[1] + t * (b[1] - a[1]) - p[1]
            })
            .fold(0.0, f64::max)
    }
}

/// One distance constraint's XPBD solve (plain PBD with `pbd_k`), with
/// constraint damping `gamma`: updates its multiplier and moves its ends.
fn solve_link(
    particles: &mut [Particle],
    link: &mut Link,
    alpha_tilde: f64,
    gamma: f64,
    pbd_k: Option<f64>,
) {
    let (pa, pb) = (particles[link.a], particles[link.b]);
    let d = [pa.x[0] - pb.x[0], pa.x[1] - pb.x[1]];
    let length = d[0].hypot(d[1]);
    let w = pa.w + pb.w;
    if length <= SHORTEST || w == 0.0 {
        return;
    }
    let n = [d[0] / length, d[1] / length];
    let error = length - link.rest;
    let delta = match pbd_k {
        Some(k) => -k * error / w,
        None => {
            let moved = (pa.x[0] - pa.x_old[0] - pb.x[0] + pb.x_old[0]) * n[0]
                + (pa.x[1] - pa.x_old[1] - pb.x[1] + pb.x_old[1]) * n[1];
            -(error + alpha_tilde * link.lambda + gamma * moved) / ((1.0 + gamma) * w + alpha_tilde)
        }
    };
    link.lambda += delta;
    for (axis, n_axis) in n.iter().enumerate() {
        particles[link.a].x[axis] += pa.w * delta * n_axis;
        particles[link.b].x[axis] -= pb.w * delta * n_axis;
    }
}

/// The exact static equilibrium of a reference's particles and links: the
/// positions where every free particle's spring forces `k(l − L)` balance its
/// weight, found from the equations by damped Newton steps on the energy
/// `Σ ½k(l − L)² − Σ m g y`: a dense Cholesky solve of the Hessian (the
/// bending term of a compressed spring left out) plus `μ` on its diagonal,
/// `μ` raised when a step fails to lower the energy (a chain at rest length
/// has no sideways stiffness) and lowered when one succeeds. Written for the
/// tests on its own: it shares nothing with the crate's equilibrium.
pub fn static_equilibrium(r: &Reference, stiffness: f64) -> Vec<[f64; 2]> {
    let n = r.particles.len();
    let free: Vec<usize> = (0..n).filter(|&k| r.particles[k].w > 0.0).collect();
    let mut slot = vec![usize::MAX; n];
    for (i, &k) in free.iter().enumerate() {
        slot[k] = i;
    }
    let dofs = 2 * free.len();
    let mut x: Vec<[f64; 2]> = r.particles.iter().map(|p| p.x).collect();
    let g = r.s.gravity;
    let energy = |x: &[[f64; 2]]| -> f64 {
        let springs: f64 = r
            .links
            .iter()
            .map(|c| {
                let l = (x[c.a][0] - x[c.b][0]).hypot(x[c.a][1] - x[c.b][1]);
                0.5 * stiffness * (l - c.rest).powi(2)
            })
            .sum();
        let weight: f64 = free.iter().map(|&k| -g / r.particles[k].w * x[k][1]).sum();
        springs + weight
    };
    let weight = free
        .iter()
        .map(|&k| g.abs() / r.particles[k].w)
        .fold(0.0, f64::max);
    let mut mu = 1e-9 * stiffness;
    let (mut best, mut stalled) = (f64::INFINITY, 0);
    for _ in 0..400 {
        // gradient and Hessian over the free coordinates
        let mut grad = vec![0.0; dofs];
        let mut hess = vec![0.0; dofs * dofs];
        for &k in &free {
            grad[2 * slot[k] + 1] -= g / r.particles[k].w;
        }
        for c in &r.links {
            let d = [x[c.a][0] - x[c.b][0], x[c.a][1] - x[c.b][1]];
            let l = d[0].hypot(d[1]);
            let u = [d[0] / l, d[1] / l];
            let f = stiffness * (l - c.rest);
            let t = (f / l).max(0.0);
            let mut block = [[0.0; 2]; 2];
            for (i, row) in block.iter_mut().enumerate() {
                for (j, value) in row.iter_mut().enumerate() {
                    let identity = if i == j { 1.0 } else { 0.0 };
                    *value = stiffness * u[i] * u[j] + t * (identity - u[i] * u[j]);
                }
            }
            for (p, sign) in [(c.a, 1.0), (c.b, -1.0)] {
                if slot[p] == usize::MAX {
                    continue;
                }
                for i in 0..2 {
                    grad[2 * slot[p] + i] += sign * f * u[i];
                }
                for (q, other) in [(c.a, 1.0), (c.b, -1.0)] {
                    if slot[q] == usize::MAX {
                        continue;
                    }
                    for i in 0..2 {
                        for j in 0..2 {
                            hess[(2 * slot[p] + i) * dofs + 2 * slot[q] + j] +=
                                sign * other * block[i][j];
                        }
                    }
                }
            }
        }
        let largest = grad.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // converged, or stalled where f64 no longer lowers the energy (the
        // force left then is about a millionth of a weight: a position off
        // by about that over the stiffness)
        if largest <= 1e-10 * weight {
            break;
        }
        if largest < 0.99 * best {
            (best, stalled) = (largest, 0);
        } else {
            stalled += 1;
            if stalled >= 5 && largest <= 1e-5 * weight {
                break;
            }
        }
        for i in 0..dofs {
            hess[i * dofs + i] += mu;
        }
        let step = cholesky_solve(&mut hess, dofs, &grad);
        let before = energy(&x);
        let mut scale = 1.0;
        let mut moved = false;
        while scale > 1e-6 {
            let mut trial = x.clone();
            for &k in &free {
                trial[k][0] -= scale * step[2 * slot[k]];
                trial[k][1] -= scale * step[2 * slot[k] + 1];
            }
            if energy(&trial) <= before {
                x = trial;
                moved = true;
                break;
            }
            scale *= 0.5;
        }
        mu = if moved {
            (mu * 0.1).max(1e-12 * stiffness)
        } else {
            mu * 100.0
        };
    }
    x
}

/// Solves `A y = b` for a symmetric positive definite `A` (`n × n`, row by
/// row), by Cholesky in place.
fn cholesky_solve(a: &mut [f64], n: usize, b: &[f64]) -> Vec<f64> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-300).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= a[i * n + k] * y[k];
        }
        y[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            y[i] -= a[k * n + i] * y[k];
        }
        y[i] /= a[i * n + i];
    }
    y
}
