//! Gusts and turbulence: the wind's velocity at a point and a time.
//!
//! The steady wind `W` (`windX`, `windY`) becomes
//!
//! `u(p, t) = W + gust · g(t) · d + turbulence · (nx(q, t), ny(q, t))`
//!
//! * `d` is the wind's direction `W/|W|` (x while the air is still);
//! * `g` is a smooth noise of time in [-1, 1] taking a new value every
//!   [`GUST_PERIOD`] seconds: the wind rises and falls by up to `gust`;
//! * `nx`, `ny` are smooth noises in [-1, 1] of space and time, on a lattice of
//!   [`EDDY_SIZE`] metres and [`EDDY_TIME`] seconds, read at `q = p − W t`, the
//!   point carried back with the wind, so the eddies drift along with it.
//!
//! The noises are value noise: a number in [-1, 1] for each lattice point,
//! from an integer hash of its coordinates and a fixed seed, blended between
//! neighbouring points with smoothstep. They depend only on the position and
//! the simulated time, so every run of the same scene is the same, bit for bit.
//! With `gust` and `turbulence` both 0 the wind is `W` exactly.

/// Seconds between two independent values of the gust noise.
pub const GUST_PERIOD: f64 = 1.0;
/// Metres between two independent values of the turbulence noise.
pub const EDDY_SIZE: f64 = 1.0;
/// Seconds between two independent values of the turbulence noise.
pub const EDDY_TIME: f64 = 0.5;

/// The seeds of the three noises (gust, turbulence x, turbulence y).
const SEEDS: [u32; 3] = [0x9e37_79b9, 0x85eb_ca6b, 0xc2b2_ae35];

/// The wind of one substep: steady plus gust, and the turbulence's lattice
/// position at the substep's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gusts {
    /// Steady wind plus the gust at this time, m/s.
    base: [f32; 2],
    /// Turbulence amplitude, m/s.
    turbulence: f32,
    /// Whole lattice cells the wind has carried the eddies, x and y.
    drift_cells: [i32; 2],
    /// The rest of that drift, in cells.
    drift_fraction: [f32; 2],
    /// The time's lattice cell and the fraction of it gone.
    time_cell: i32,
    time_fraction: f32,
}

impl Gusts {
    /// The wind `wind` with `gust` and `turbulence` (m/s) at time `time` (s).
    pub fn new(wind: [f64; 2], gust: f64, turbulence: f64, time: f64) -> Gusts {
        let speed = wind[0].hypot(wind[1]);
        let direction = if speed > 0.0 {
            [wind[0] / speed, wind[1] / speed]
        } else {
            [1.0, 0.0]
        };
        let g = if gust > 0.0 {
            gust * noise_1d(time / GUST_PERIOD, SEEDS[0])
        } else {
            0.0
        };
        let drift = [wind[0] * time / EDDY_SIZE, wind[1] * time / EDDY_SIZE];
        let (time_cell, time_fraction) = split(time / EDDY_TIME);
        let (dx, fx) = split(drift[0]);
        let (dy, fy) = split(drift[1]);
        Gusts {
            base: [
                (wind[0] + g * direction[0]) as f32,
                (wind[1] + g * direction[1]) as f32,
            ],
            turbulence: turbulence as f32,
            drift_cells: [dx, dy],
            drift_fraction: [fx, fy],
            time_cell,
            time_fraction,
        }
    }

    /// Whether the wind is the same everywhere (no turbulence).
    pub fn is_uniform(&self) -> bool {
        self.turbulence == 0.0
    }

    /// The wind velocity where the wind does not vary in space.
    pub fn base(&self) -> [f32; 2] {
        self.base
    }

    /// The wind velocity at `(x, y)`, m/s.
    pub fn at(&self, x: f32, y: f32) -> [f32; 2] {
        if self.turbulence == 0.0 {
            return self.base;
        }
        let scale = 1.0 / EDDY_SIZE as f32;
        let (cx, fx) = split_f32(x * scale - self.drift_fraction[0]);
        let (cy, fy) = split_f32(y * scale - self.drift_fraction[1]);
        let cell = [
            cx.wrapping_sub(self.drift_cells[0]),
            cy.wrapping_sub(self.drift_cells[1]),
            self.time_cell,
        ];
        let fraction = [fx, fy, self.time_fraction];
        [
            self.base[0] + self.turbulence * noise_3d(cell, fraction, SEEDS[1]),
            self.base[1] + self.turbulence * noise_3d(cell, fraction, SEEDS[2]),
        ]
    }
}

/// `v` as its lattice cell (wrapping past ±2³¹ cells) and the fraction of it.
fn split(v: f64) -> (i32, f32) {
    let floor = v.floor();
    ((floor as i64) as i32, (v - floor) as f32)
}

/// `v` as its lattice cell and the fraction of it.
fn split_f32(v: f32) -> (i32, f32) {
    let floor = v.floor();
    (floor as i32, v - floor)
}

/// A number in [-1, 1] for the lattice point `(x, y, z)`.
fn lattice(x: i32, y: i32, z: i32, seed: u32) -> f32 {
    let mut h = seed
        ^ (x as u32).wrapping_mul(0x27d4_eb2d)
        ^ (y as u32).wrapping_mul(0x1656_67b1)
        ^ (z as u32).wrapping_mul(0x9e37_79b1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    (h >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// Smoothstep: 0 at 0, 1 at 1, flat at both ends.
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

fn mix(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// Value noise of one variable, in [-1, 1].
fn noise_1d(v: f64, seed: u32) -> f64 {
    let (cell, fraction) = split(v);
    let t = smooth(fraction);
    let (a, b) = (
        lattice(cell, 0, 0, seed),
        lattice(cell.wrapping_add(1), 0, 0, seed),
    );
    f64::from(mix(a, b, t))
}

/// Value noise of three variables, in [-1, 1], at `cell + fraction`.
fn noise_3d(cell: [i32; 3], fraction: [f32; 3], seed: u32) -> f32 {
    let [x, y, z] = cell;
    let (x1, y1, z1) = (x.wrapping_add(1), y.wrapping_add(1), z.wrapping_add(1));
    let [tx, ty, tz] = fraction.map(smooth);
    let plane = |z| {
        let bottom = mix(lattice(x, y, z, seed), lattice(x1, y, z, seed), tx);
        let top = mix(lattice(x, y1, z, seed), lattice(x1, y1, z, seed), tx);
        mix(bottom, top, ty)
    };
    mix(plane(z), plane(z1), tz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_gust_or_turbulence_the_wind_is_the_steady_wind_exactly() {
        for time in [0.0, 0.37, 12.5, 1e6] {
            let gusts = Gusts::new([8.0, -0.3], 0.0, 0.0, time);
            assert!(gusts.is_uniform());
            assert_eq!(gusts.at(0.3, -4.0), [8.0, -0.3]);
        }
    }

    #[test]
    fn the_noise_stays_in_its_bounds_and_varies() {
        let mut seen = [f32::MAX, f32::MIN];
        for k in 0..2000 {
            let t = k as f64 * 0.013;
            let gusts = Gusts::new([8.0, 0.0], 2.0, 3.0, t);
            let [u, v] = gusts.at(0.1 * (k % 37) as f32, -0.07 * (k % 23) as f32);
            // steady 8, gust at most 2, turbulence at most 3 per component
            assert!(
                (3.0..=13.0).contains(&u) && (-3.0..=3.0).contains(&v),
                "{u} {v}"
            );
            seen = [seen[0].min(v), seen[1].max(v)];
        }
        assert!(seen[0] < -1.0 && seen[1] > 1.0, "turbulence spans {seen:?}");
    }

    #[test]
    fn the_noise_is_continuous_in_space_and_time() {
        let (a, b) = (
            Gusts::new([8.0, 0.0], 2.0, 3.0, 4.0),
            Gusts::new([8.0, 0.0], 2.0, 3.0, 4.0 + 1e-4),
        );
        let (p, q) = (a.at(1.0, -1.0), b.at(1.0 + 1e-4, -1.0));
        assert!((p[0] - q[0]).abs() < 0.01 && (p[1] - q[1]).abs() < 0.01);
    }
}
