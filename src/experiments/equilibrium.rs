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

/// The equilibrium of `springs`, from their positions, in one call: a
/// [`Newton`] solve run to its end.
pub fn solve(springs: &Springs) -> Equilibrium {
    let mut newton = Newton::new(springs);
    while !newton.advance(u64::MAX) {}
    newton.result()
}

/// Work units of the solve's pieces, each about a nanosecond of the wasm
/// build (see [`Newton::advance`]): per spring or particle visited by the
/// gradient, the energy or the Hessian's assembly; per multiply-add of the
/// Cholesky factorisation and of the two substitutions.
mod work {
    pub const SPRING: u64 = 20;
    pub const PARTICLE: u64 = 4;
    pub const ASSEMBLE_SPRING: u64 = 120;
    /// Zeroing or pinning one entry of the band.
    pub const BAND_ENTRY: u64 = 1;
    pub const MULTIPLY_ADD: u64 = 2;
    /// A row of the factorisation, beside its multiply-adds (a square root
    /// or a division per entry).
    pub const ROW_ENTRY: u64 = 4;
}

/// A Newton solve in pieces: [`Newton::advance`] does a bounded amount of
/// work per call, and the pieces are the steps of [`solve`] in the same
/// order, so the result is the same bit for bit however the calls fall.
///
/// Each Newton step: the gradient (stop when its largest entry is under
/// the tolerance, 10⁻¹¹ of the heaviest particle's weight, or after
/// [`MAX_NEWTON_STEPS`]); the Hessian assembled; its Cholesky factors, a
/// few rows at a time; the two substitutions, giving the direction; then
/// the backtracking line search, one trial point per piece.
pub struct Newton {
    inverse_masses: Vec<f64>,
    pairs: Vec<u32>,
    rest_lengths: Vec<f64>,
    stiffness: f64,
    gravity: f64,
    x: Vec<f64>,
    weight: f64,
    tolerance: f64,
    steps: usize,
    stage: Stage,
    work_done: u64,
}

/// Where a [`Newton`] solve is.
enum Stage {
    /// A Newton step begins with its gradient.
    Gradient,
    /// The Hessian at `x` is to be assembled; `gradient` is at `x`.
    Assemble { gradient: Vec<f64> },
    /// Rows `row..` of `h` are still to be factored.
    Factor {
        gradient: Vec<f64>,
        h: Banded,
        row: usize,
    },
    /// The line search along `direction`, from energy `start`, tries the
    /// step `t` next.
    Search {
        direction: Vec<f64>,
        start: f64,
        t: f64,
    },
    /// Done, with the largest force left.
    Done { largest_force: f64 },
}

impl Newton {
    /// A solve of `springs` from their positions (nothing computed yet).
    pub fn new(springs: &Springs) -> Newton {
        let weight = springs
            .inverse_masses
            .iter()
            .filter(|&&w| w > 0.0)
            .map(|w| -springs.gravity / w)
            .fold(0.0, f64::max);
        Newton {
            inverse_masses: springs.inverse_masses.to_vec(),
            pairs: springs.pairs.to_vec(),
            rest_lengths: springs.rest_lengths.to_vec(),
            stiffness: springs.stiffness,
            gravity: springs.gravity,
            x: springs.positions.to_vec(),
            weight,
            tolerance: 1e-11 * weight.max(1e-300),
            steps: 0,
            stage: Stage::Gradient,
            work_done: 0,
        }
    }

    /// The springs, at the solve's present positions.
    fn springs(&self) -> Springs<'_> {
        Springs {
            positions: &self.x,
            inverse_masses: &self.inverse_masses,
            pairs: &self.pairs,
            rest_lengths: &self.rest_lengths,
            stiffness: self.stiffness,
            gravity: self.gravity,
        }
    }

    /// Work units of a pass over every spring and particle (the gradient's,
    /// the energy's).
    fn pass_work(&self) -> u64 {
        self.rest_lengths.len() as u64 * work::SPRING
            + self.inverse_masses.len() as u64 * work::PARTICLE
    }

    /// Work units one Newton step takes at most, beside its line search's
    /// halvings: the gradient, the assembly, the factorisation, the
    /// substitutions and one trial point.
    pub fn step_work(&self) -> u64 {
        let n = self.x.len() as u64;
        let band = band_of(&self.springs()) as u64;
        let factor = n * (band * band / 2 * work::MULTIPLY_ADD + band * work::ROW_ENTRY);
        let assemble =
            n * band * work::BAND_ENTRY + self.rest_lengths.len() as u64 * work::ASSEMBLE_SPRING;
        let substitute = 2 * n * band * work::MULTIPLY_ADD;
        2 * self.pass_work() + assemble + factor + substitute
    }

    /// Work units the whole solve takes at most, beside its line searches'
    /// halvings: [`MAX_NEWTON_STEPS`] steps.
    pub fn most_work(&self) -> u64 {
        MAX_NEWTON_STEPS as u64 * self.step_work() + self.pass_work()
    }

    /// Works until `budget` work units are spent (at least one piece) or the
    /// solve is done; returns whether it is done.
    pub fn advance(&mut self, budget: u64) -> bool {
        let mut spent = 0u64;
        while !self.is_done() && (spent == 0 || spent < budget) {
            spent += self.piece(budget.saturating_sub(spent)).max(1);
        }
        self.work_done += spent;
        self.is_done()
    }

    /// Whether the solve is done.
    pub fn is_done(&self) -> bool {
        matches!(self.stage, Stage::Done { .. })
    }

    /// The work units spent so far.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }

    /// The equilibrium found (the positions so far, if not done).
    pub fn result(self) -> Equilibrium {
        let largest_force = match self.stage {
            Stage::Done { largest_force } => largest_force,
            _ => largest(&gradient(&self.springs(), &self.x)),
        };
        Equilibrium {
            positions: self.x,
            largest_force,
            weight: self.weight,
        }
    }

    /// One piece of the solve (as many rows of a factorisation as `budget`
    /// takes, at least one); returns its work units.
    fn piece(&mut self, budget: u64) -> u64 {
        let pass = self.pass_work();
        let n = self.x.len();
        match std::mem::replace(&mut self.stage, Stage::Gradient) {
            Stage::Gradient => {
                let gradient = gradient(&self.springs(), &self.x);
                let left = largest(&gradient);
                self.stage = if self.steps == MAX_NEWTON_STEPS || left <= self.tolerance {
                    Stage::Done {
                        largest_force: left,
                    }
                } else {
                    Stage::Assemble { gradient }
                };
                pass
            }
            Stage::Assemble { gradient } => {
                let h = hessian(&self.springs(), &self.x);
                let work = (h.values.len() as u64) * work::BAND_ENTRY
                    + self.rest_lengths.len() as u64 * work::ASSEMBLE_SPRING;
                self.stage = Stage::Factor {
                    gradient,
                    h,
                    row: 0,
                };
                work
            }
            Stage::Factor {
                gradient,
                mut h,
                mut row,
            } => {
                let mut work = 0u64;
                while row < n && (work == 0 || work < budget) {
                    work += h.factor_row(row);
                    row += 1;
                }
                self.stage = if row < n {
                    Stage::Factor { gradient, h, row }
                } else {
                    let rhs: Vec<f64> = gradient.iter().map(|g| -g).collect();
                    let direction = h.substitute(rhs);
                    work += 2 * (n * h.band) as u64 * work::MULTIPLY_ADD + pass;
                    Stage::Search {
                        direction,
                        start: energy(&self.springs(), &self.x),
                        t: 1.0,
                    }
                };
                work
            }
            Stage::Search {
                direction,
                start,
                t,
            } => {
                self.search(direction, start, t);
                pass + n as u64 * work::PARTICLE
            }
            done @ Stage::Done { .. } => {
                self.stage = done;
                0
            }
        }
    }

    /// One trial point of the line search along `direction` from energy
    /// `start`, at step `t`: taken when it lowers the energy (or `t` is tiny),
    /// else the search goes on at half the step.
    fn search(&mut self, direction: Vec<f64>, start: f64, t: f64) {
        let trial: Vec<f64> = self
            .x
            .iter()
            .zip(&direction)
            .map(|(a, d)| a + t * d)
            .collect();
        if energy(&self.springs(), &trial) <= start || t < 1e-6 {
            self.x = trial;
            self.steps += 1;
            self.stage = Stage::Gradient;
        } else {
            self.stage = Stage::Search {
                direction,
                start,
                t: t * 0.5,
            };
        }
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

/// The band of the Hessian of `s`: one more than the largest distance
/// between the rows of a spring's two ends' coordinates.
fn band_of(s: &Springs) -> usize {
    springs_of(s)
        .map(|(a, b, _)| 2 * a.abs_diff(b) + 2)
        .max()
        .unwrap_or(1)
}

/// The Hessian of `E` at `x`, regularised by a 10⁻¹² share of the
/// stiffness on every free coordinate, with the rows and columns of pinned
/// particles the identity's (so the Newton step `−H⁻¹∇E` leaves them).
fn hessian(s: &Springs, x: &[f64]) -> Banded {
    let mut h = Banded::new(x.len(), band_of(s));
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
    h
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

    /// Replaces row `i` of the lower half by its row of the Cholesky factor
    /// `L` (`A = L Lᵀ`, `A` positive definite), rows `..i` done already;
    /// returns its work units.
    fn factor_row(&mut self, i: usize) -> u64 {
        let band = self.band;
        let first = i.saturating_sub(band - 1);
        let mut multiply_adds = 0;
        for j in first..=i {
            let mut sum = self.values[self.at(i, j)];
            let from = first.max(j.saturating_sub(band - 1));
            for k in from..j {
                sum -= self.values[self.at(i, k)] * self.values[self.at(j, k)];
            }
            multiply_adds += j - from;
            let k = self.at(i, j);
            self.values[k] = if j == i {
                sum.max(1e-300).sqrt()
            } else {
                sum / self.values[self.at(j, j)]
            };
        }
        multiply_adds as u64 * work::MULTIPLY_ADD + (i - first + 1) as u64 * work::ROW_ENTRY
    }

    /// Solves `L Lᵀ y = rhs` with every row factored.
    fn substitute(&self, mut rhs: Vec<f64>) -> Vec<f64> {
        let (n, band) = (rhs.len(), self.band);
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

    /// A stiff `width × height` grid of 0.1 m links, rows, columns and both
    /// diagonals, held by its two top corners: (positions, inverse masses,
    /// pairs, rest lengths).
    fn stiff_grid(width: usize, height: usize) -> (Vec<f64>, Vec<f64>, Vec<u32>, Vec<f64>) {
        let at = |i: usize, j: usize| (j * width + i) as u32;
        let mut positions = Vec::new();
        let mut inverse = Vec::new();
        for j in 0..height {
            for i in 0..width {
                positions.extend([0.1 * i as f64, -0.1 * j as f64]);
                inverse.push(if j == 0 && (i == 0 || i == width - 1) {
                    0.0
                } else {
                    10.0
                });
            }
        }
        let (mut pairs, mut rest) = (Vec::new(), Vec::new());
        for j in 0..height {
            for i in 0..width {
                let mut link = |b: u32, length: f64| {
                    pairs.extend([at(i, j), b]);
                    rest.push(length);
                };
                if i + 1 < width {
                    link(at(i + 1, j), 0.1);
                }
                if j + 1 < height {
                    link(at(i, j + 1), 0.1);
                }
                if i + 1 < width && j + 1 < height {
                    link(at(i + 1, j + 1), 0.1 * 2f64.sqrt());
                }
                if i > 0 && j + 1 < height {
                    link(at(i - 1, j + 1), 0.1 * 2f64.sqrt());
                }
            }
        }
        (positions, inverse, pairs, rest)
    }

    #[test]
    fn a_solve_in_pieces_is_the_solve_in_one_call_bit_for_bit() {
        // stiff enough that round-off keeps the force left above the
        // tolerance: every one of the most Newton steps is taken
        let (positions, inverse, pairs, rest) = stiff_grid(8, 6);
        let springs = Springs {
            positions: &positions,
            inverse_masses: &inverse,
            pairs: &pairs,
            rest_lengths: &rest,
            stiffness: 1e7,
            gravity: -9.81,
        };
        let whole = solve(&springs);
        for budget in [1, 1000, 100_000] {
            let mut newton = Newton::new(&springs);
            // the factorisation, most of a step, goes a row at a time: no
            // piece is half a step
            let piece = newton.step_work() / 2;
            let (mut calls, mut before) = (0u64, 0u64);
            while !newton.advance(budget) {
                calls += 1;
                let spent = newton.work_done() - before;
                before = newton.work_done();
                assert!(
                    spent < budget + piece,
                    "a call of budget {budget} spent {spent} (half a step: {piece})"
                );
            }
            assert!(
                calls as f64 > newton.work_done() as f64 / (budget + piece) as f64 / 2.0,
                "{calls} calls for {} work units at budget {budget}",
                newton.work_done()
            );
            assert_eq!(newton.steps, MAX_NEWTON_STEPS, "round-off stalls it");
            let pieces = newton.result();
            let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
            assert_eq!(
                bits(&pieces.positions),
                bits(&whole.positions),
                "budget {budget}"
            );
            assert_eq!(
                pieces.largest_force.to_bits(),
                whole.largest_force.to_bits()
            );
        }
    }
}
