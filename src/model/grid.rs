//! Building the cloth: particle positions, distance constraints and fixed corners.
//!
//! The layout and the constraint order match the original demo exactly, because
//! Gauss–Seidel results depend on the order in which constraints are solved:
//! particle `k = i * width + j` (row `i`, column `j`) starts at `(0.2 j, -0.2 i)`,
//! and constraints are created horizontal first, then vertical, then the two
//! diagonals of each cell.

use std::collections::TryReserveError;

use super::footprint::cloth_out_of_memory;
use super::scene::{DistanceStiffness, Scene};
use crate::error::ClothError;
use crate::memory;
use crate::params::{FixedPreset, GridSize, Params};

/// Distance between neighbouring particles at rest, in metres.
pub const SPACING: f32 = 0.2;

/// A freshly built cloth, before any simulation state is attached.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Interleaved positions `[x0, y0, x1, y1, ...]`, in metres.
    pub positions: Vec<f32>,
    /// Interleaved constraint endpoints `[a0, b0, a1, b1, ...]`, in creation order.
    pub constraint_ids: Vec<u32>,
    /// Rest length of each constraint, in metres.
    pub rest_lengths: Vec<f32>,
    /// Colour of each constraint: no two constraints of one colour share a
    /// particle, so a colour can be solved in any order, four at a time.
    pub colors: Vec<u8>,
    /// Indices of the particles the preset fixes, in the original's order.
    pub fixed: Vec<usize>,
}

/// Number of distance constraints of a `width × height` grid:
/// `h(w-1)` horizontal + `(h-1)w` vertical + `2(h-1)(w-1)` diagonal.
/// Saturates at `usize::MAX` for sizes no cloth can have.
pub fn constraint_count(size: GridSize) -> usize {
    let count = constraint_count_u64(size.width as u64, size.height as u64);
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// [`constraint_count`] of a `w × h` grid in `u64`, saturating instead of
/// overflowing (0 for a grid without cells).
pub fn constraint_count_u64(w: u64, h: u64) -> u64 {
    let (w1, h1) = (w.saturating_sub(1), h.saturating_sub(1));
    h.saturating_mul(w1)
        .saturating_add(h1.saturating_mul(w))
        .saturating_add(h1.saturating_mul(w1).saturating_mul(2))
}

/// Where the particle of row `i` and column `j` of a grid starts, metres:
/// the one rule of the grid's positions.
pub fn rest_position(i: usize, j: usize) -> (f32, f32) {
    (SPACING * j as f32, -SPACING * i as f32)
}

/// The rest positions of a `size` grid, `[x0, y0, x1, y1, ...]` row by row,
/// each where [`rest_position`] places it.
pub fn rest_positions(size: GridSize) -> Result<Vec<f32>, TryReserveError> {
    let mut positions = memory::with_capacity(2 * size.width * size.height)?;
    for i in 0..size.height {
        for j in 0..size.width {
            let (x, y) = rest_position(i, j);
            positions.push(x);
            positions.push(y);
        }
    }
    Ok(positions)
}

/// Builds the grid the original demo builds. Panics where [`try_build`]
/// returns an error.
pub fn build(size: GridSize, preset: FixedPreset) -> Grid {
    try_build(size, preset).unwrap_or_else(|error| panic!("{error}"))
}

/// Builds the grid the original demo builds, or refuses: a size outside the
/// limits of [`GridSize::new`] (its fields are public, so it is checked again
/// here) or one whose arrays do not fit in memory.
pub fn try_build(size: GridSize, preset: FixedPreset) -> Result<Grid, ClothError> {
    let size = GridSize::new(size.width, size.height)?;
    allocate(size, preset).map_err(|_| cloth_out_of_memory(size))
}

/// The grid as a [`Scene`]: the `preset` corners have mass 0 (pinned), the
/// others the default `mass`; the constraints keep the grid's order, rest
/// lengths and colours, with the default `stiffness` for all. Refuses as
/// [`try_build`] does.
pub fn scene(size: GridSize, preset: FixedPreset) -> Result<Scene, ClothError> {
    let Grid {
        positions,
        constraint_ids,
        rest_lengths,
        colors,
        fixed,
    } = try_build(size, preset)?;
    let p = Params::default();
    let mut masses = memory::filled(size.num_particles(), p.mass as f32)
        .map_err(|_| cloth_out_of_memory(size))?;
    for k in fixed {
        masses[k] = 0.0;
    }
    Ok(Scene {
        positions,
        masses,
        distances: constraint_ids,
        rest_lengths: Some(rest_lengths),
        distance_stiffness: DistanceStiffness::Uniform(p.stiffness),
        colors: Some(colors),
        ..Scene::default()
    })
}

/// [`try_build`] for a valid size: every index below is at most
/// `MAX_PARTICLES + width + 1`, far from overflowing even 32 bits.
fn allocate(size: GridSize, preset: FixedPreset) -> Result<Grid, TryReserveError> {
    let (w, h) = (size.width, size.height);
    let positions = rest_positions(size)?;

    let count = constraint_count(size);
    let mut constraint_ids = memory::with_capacity(2 * count)?;
    let mut rest_lengths = memory::with_capacity(count)?;
    let mut colors = memory::with_capacity(count)?;
    // The rest length is the initial distance, measured exactly as the solver
    // measures it (0.2 or 0.1·√8 up to f32 rounding): a cloth without gravity
    // then starts with C = 0 everywhere and stays exactly at rest.
    let mut add = |a: usize, b: usize, color: usize| {
        colors.push(color as u8);
        constraint_ids.push(a as u32);
        constraint_ids.push(b as u32);
        let dx = positions[2 * a] - positions[2 * b];
        let dy = positions[2 * a + 1] - positions[2 * b + 1];
        rest_lengths.push((dx * dx + dy * dy).sqrt());
    };
    // Colours: 8 independent sets. Horizontal edges alternate by column (two
    // neighbours share a particle), vertical and diagonal edges by row.
    for i in 0..h {
        for j in 0..w - 1 {
            let k = i * w + j;
            add(k, k + 1, j % 2);
        }
    }
    for i in 0..h - 1 {
        for j in 0..w {
            let k = i * w + j;
            add(k, k + w, 2 + i % 2);
        }
    }
    for i in 0..h - 1 {
        for j in 0..w - 1 {
            let k = i * w + j;
            add(k, k + w + 1, 4 + i % 2);
            add(k + 1, k + w, 6 + i % 2);
        }
    }

    let corners = [0, w - 1, (h - 1) * w, h * w - 1];
    let fixed = memory::copied(&corners[..preset.count()])?;

    Ok(Grid {
        positions,
        constraint_ids,
        rest_lengths,
        colors,
        fixed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(width: usize, height: usize) -> GridSize {
        GridSize { width, height }
    }

    #[test]
    fn default_grid_has_the_originals_counts() {
        let grid = build(size(40, 30), FixedPreset::Two);
        assert_eq!(grid.positions.len() / 2, 1200);
        assert_eq!(grid.rest_lengths.len(), 4592);
        assert_eq!(grid.constraint_ids.len(), 2 * 4592);
        assert_eq!(constraint_count(size(40, 30)), 4592);
    }

    #[test]
    fn two_by_two_has_six_constraints_in_order() {
        let grid = build(size(2, 2), FixedPreset::Two);
        assert_eq!(
            grid.constraint_ids,
            vec![0, 1, 2, 3, 0, 2, 1, 3, 0, 3, 1, 2]
        );
        let d = 0.1 * 8f32.sqrt();
        assert_eq!(grid.rest_lengths.len(), 6);
        assert!((grid.rest_lengths[4] - d).abs() < 1e-6);
        assert!((grid.rest_lengths[5] - d).abs() < 1e-6);
        assert!((grid.rest_lengths[0] - 0.2).abs() < 1e-6);
        assert!((grid.rest_lengths[2] - 0.2).abs() < 1e-6);
    }

    #[test]
    fn positions_follow_rows_and_columns() {
        let grid = build(size(4, 3), FixedPreset::Two);
        // particle k = i*w + j sits at (0.2 j, -0.2 i)
        let k = 2 * 4 + 3;
        assert!((grid.positions[2 * k] - 0.6).abs() < 1e-6);
        assert!((grid.positions[2 * k + 1] + 0.4).abs() < 1e-6);
    }

    #[test]
    fn sizes_no_cloth_can_have_are_refused_not_overflowed() {
        // the fields are public: a GridSize need not come from GridSize::new
        for (w, h) in [
            (0, 0),
            (1, 5),
            (0, 3),
            (70_000, 70_000),
            (usize::MAX, 2),
            (1001, 2),
        ] {
            let error = try_build(size(w, h), FixedPreset::Four).unwrap_err();
            assert_eq!(error.code(), "invalid_value", "{w} × {h}: {error}");
        }
        assert_eq!(constraint_count(size(0, 0)), 0);
        assert_eq!(constraint_count(size(usize::MAX, usize::MAX)), usize::MAX);
        assert_eq!(
            constraint_count_u64(1000, 250),
            1000 * 249 + 999 * 250 + 2 * 999 * 249
        );
    }

    #[test]
    fn presets_fix_the_corners() {
        assert_eq!(build(size(5, 4), FixedPreset::One).fixed, vec![0]);
        assert_eq!(build(size(5, 4), FixedPreset::Two).fixed, vec![0, 4]);
        assert_eq!(
            build(size(5, 4), FixedPreset::Four).fixed,
            vec![0, 4, 15, 19]
        );
    }
}
