//! The exact static equilibrium of particles joined by springs under gravity,
//! by Newton's method in double precision: what a hanging cloth or chain
//! settles to when every constraint is solved exactly (no iteration count, no
//! time step). The experiments measure how far XPBD's settled state is from it.
//!
//! The energy is `E = Σ ½k(|x_a − x_b| − L)² − Σ m g y`; a spring's Hessian
//! block is `k[n nᵀ + max(0, 1 − L/l)(I − n nᵀ)]` (the bending term of a
//! compressed spring clamped to 0, so the matrix stays positive definite and
//! the equilibrium, where the gradient is 0, is the same). Each Newton step
//! solves the banded system by Cholesky and backtracks until `E` falls.

/// Springs and particles: positions `[x0, y0, ...]`, inverse masses (0 =
/// pinned), pairs `[a0, b0, ...]` and rest lengths.
pub struct Springs<'a> {
    pub positions: &'a [f64],
    pub inverse_masses: &'a [f64],
    pub pairs: &'a [u32],
    pub rest_lengths: &'a [f64],
    /// Stiffness of every spring, N/m (> 0).
    pub stiffness: f64,
    /// Vertical acceleration, m/s² (negative: down).
    pub gravity: f64,
}

/// The equilibrium found: positions and the largest force left on a free
/// particle (newtons), and the heaviest free particle's weight, to judge it by.
pub struct Equilibrium {
    pub positions: Vec<f64>,
    pub largest_force: f64,
    pub weight: f64,
}

/// The most Newton steps taken.
const MAX_NEWTON_STEPS: usize = 200;

/// The equilibrium of `springs`, from their positions.
pub fn solve(springs: &Springs) -> Equilibrium {
    let mut x = springs.positions.to_vec();
    let weight = springs
        .inverse_masses
        .iter()
        .filter(|&&w| w > 0.0)
        .map(|w| -springs.gravity / w)
        .fold(0.0, f64::max);
    let tolerance = 1e-11 * weight.max(1e-300);
    for _ in 0..MAX_NEWTON_STEPS {
        let gradient = gradient(springs, &x);
        if largest(&gradient) <= tolerance {
            break;
        }
        let direction = newton_direction(springs, &x, &gradient);
        let start = energy(springs, &x);
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = x.iter().zip(&direction).map(|(a, d)| a + t * d).collect();
            if energy(springs, &trial) <= start || t < 1e-6 {
                x = trial;
                break;
            }
            t *= 0.5;
        }
    }
    let largest_force = largest(&gradient(springs, &x));
    Equilibrium {
        positions: x,
        largest_force,
        weight,
    }
}

/// The largest force (newtons) left on a free particle of `springs` at
/// their positions: 0 at equilibrium.
pub fn force_left(springs: &Springs) -> f64 {
    largest(&gradient(springs, springs.positions))
}

fn largest(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |m, v| m.max(v.abs()))
}

/// `(a, b, rest length)` of each spring.
fn springs_of<'a>(s: &'a Springs) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
    s.pairs
        .chunks_exact(2)
        .zip(s.rest_lengths)
        .map(|(p, &l)| (p[0] as usize, p[1] as usize, l))
}

/// The energy of `s` at `x`: elastic `Σ ½k(l − L)²` plus gravitational
/// `−Σ m g y`, joules.
pub fn energy(s: &Springs, x: &[f64]) -> f64 {
    let mut e = 0.0;
    for (a, b, rest) in springs_of(s) {
        let l = (x[2 * a] - x[2 * b]).hypot(x[2 * a + 1] - x[2 * b + 1]);
        e += 0.5 * s.stiffness * (l - rest) * (l - rest);
    }
    for (k, &w) in s.inverse_masses.iter().enumerate() {
        if w > 0.0 {
            e -= s.gravity / w * x[2 * k + 1];
        }
    }
    e
}

/// `∇E`, with 0 for pinned particles.
fn gradient(s: &Springs, x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for (a, b, rest) in springs_of(s) {
        let (dx, dy) = (x[2 * a] - x[2 * b], x[2 * a + 1] - x[2 * b + 1]);
        let l = dx.hypot(dy);
        if l == 0.0 {
            continue;
        }
        let f = s.stiffness * (l - rest) / l;
        g[2 * a] += f * dx;
        g[2 * a + 1] += f * dy;
        g[2 * b] -= f * dx;
        g[2 * b + 1] -= f * dy;
    }
    for (k, &w) in s.inverse_masses.iter().enumerate() {
        if w > 0.0 {
            g[2 * k + 1] -= s.gravity / w;
        } else {
            g[2 * k] = 0.0;
            g[2 * k + 1] = 0.0;
        }
    }
    g
}

/// The Newton step `−H⁻¹∇E` (pinned particles stay).
fn newton_direction(s: &Springs, x: &[f64], gradient: &[f64]) -> Vec<f64> {
    let n = x.len();
    let band = springs_of(s)
        .map(|(a, b, _)| 2 * a.abs_diff(b) + 2)
        .max()
        .unwrap_or(1);
    let mut h = Banded::new(n, band);
    for (a, b, rest) in springs_of(s) {
        let (dx, dy) = (x[2 * a] - x[2 * b], x[2 * a + 1] - x[2 * b + 1]);
        let l = dx.hypot(dy);
        if l == 0.0 {
            continue;
        }
        let (nx, ny) = (dx / l, dy / l);
        let t = (1.0 - rest / l).max(0.0);
        let block = [
            [nx * nx + t * (1.0 - nx * nx), nx * ny * (1.0 - t)],
            [nx * ny * (1.0 - t), ny * ny + t * (1.0 - ny * ny)],
        ];
        for (p, q, sign) in [(a, a, 1.0), (b, b, 1.0), (a, b, -1.0), (b, a, -1.0)] {
            for (i, row) in block.iter().enumerate() {
                for (j, value) in row.iter().enumerate() {
                    h.add(2 * p + i, 2 * q + j, sign * s.stiffness * value);
                }
            }
        }
    }
    let scale = s.stiffness * 1e-12;
    for (k, &w) in s.inverse_masses.iter().enumerate() {
        for i in [2 * k, 2 * k + 1] {
            if w > 0.0 {
                h.add(i, i, scale);
            } else {
                h.pin(i);
            }
        }
    }
    let rhs: Vec<f64> = gradient.iter().map(|g| -g).collect();
    h.solve(rhs)
}

/// A symmetric band matrix (lower half kept: `(i, j)` with `i − band < j ≤ i`).
struct Banded {
    band: usize,
    values: Vec<f64>,
}

impl Banded {
    fn new(n: usize, band: usize) -> Banded {
        Banded {
            band,
            values: vec![0.0; n * band],
        }
    }

    fn at(&self, i: usize, j: usize) -> usize {
        i * self.band + (i - j)
    }

    /// Adds `value` at `(i, j)` (the upper half is the lower's mirror).
    fn add(&mut self, i: usize, j: usize, value: f64) {
        if j <= i {
            let k = self.at(i, j);
            self.values[k] += value;
        }
    }

    /// Row and column `i` become the identity's.
    fn pin(&mut self, i: usize) {
        let n = self.values.len() / self.band;
        for j in i.saturating_sub(self.band - 1)..=i {
            let k = self.at(i, j);
            self.values[k] = if j == i { 1.0 } else { 0.0 };
        }
        for r in i + 1..(i + self.band).min(n) {
            let k = self.at(r, i);
            self.values[k] = 0.0;
        }
    }

    /// Solves `A y = rhs` by Cholesky (`A` positive definite).
    fn solve(mut self, mut rhs: Vec<f64>) -> Vec<f64> {
        let (n, band) = (rhs.len(), self.band);
        for i in 0..n {
            let first = i.saturating_sub(band - 1);
            for j in first..=i {
                let mut sum = self.values[self.at(i, j)];
                for k in first.max(j.saturating_sub(band - 1))..j {
                    sum -= self.values[self.at(i, k)] * self.values[self.at(j, k)];
                }
                let k = self.at(i, j);
                self.values[k] = if j == i {
                    sum.max(1e-300).sqrt()
                } else {
                    sum / self.values[self.at(j, j)]
                };
            }
        }
        for i in 0..n {
            let first = i.saturating_sub(band - 1);
            let sum: f64 = (first..i)
                .map(|k| self.values[self.at(i, k)] * rhs[k])
                .sum();
            rhs[i] = (rhs[i] - sum) / self.values[self.at(i, i)];
        }
        for i in (0..n).rev() {
            let last = (i + band).min(n);
            let sum: f64 = (i + 1..last)
                .map(|k| self.values[self.at(k, i)] * rhs[k])
                .sum();
            rhs[i] = (rhs[i] - sum) / self.values[self.at(i, i)];
        }
        rhs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vertical_chain_stretches_by_the_weight_below_each_link() {
        // pinned at the top, three 1 kg particles 1 m apart, k = 100 N/m:
        // link i carries the weight of the particles below it
        let positions = [0.0, 0.0, 0.0, -1.0, 0.0, -2.0, 0.0, -3.0];
        let springs = Springs {
            positions: &positions,
            inverse_masses: &[0.0, 1.0, 1.0, 1.0],
            pairs: &[0, 1, 1, 2, 2, 3],
            rest_lengths: &[1.0, 1.0, 1.0],
            stiffness: 100.0,
            gravity: -10.0,
        };
        let e = solve(&springs);
        let y: Vec<f64> = e.positions.iter().skip(1).step_by(2).copied().collect();
        let expected = [0.0, -1.3, -2.5, -3.6];
        for (got, want) in y.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{y:?}");
        }
        assert!(e.largest_force < 1e-9);
    }
}
