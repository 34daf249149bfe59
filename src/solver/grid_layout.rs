//! The grid in coloured order, for a solver that runs each colour's constraints
//! in parallel (the WebGPU backend): positions, and the constraints of each
//! colour with their rest lengths, exactly as [`grid`] builds them and in the
//! order [`ConstraintSet`] sweeps them in [`SolverOrder::Colored`].
//!
//! [`grid`] builds grids of up to [`MAX_PARTICLES`], the CPU's limit; the
//! parameter table allows 1000 × 1000. A larger grid is built in bands of
//! whole rows, each within the limit, that overlap by one row: band `b` covers
//! rows `first..first + rows`, its constraints move down by `first * width`
//! particles, and the horizontal edges of its first row, which the band above
//! already has, are left out. Every band starts at an even row, so its rows'
//! colours (`2 + i % 2`, ...) are the whole grid's. Positions come from the
//! grid's own rule for each row and column; the rest lengths of a band below
//! the first are measured in the band's coordinates, within a few f32 ulps of
//! the cloth's height (2e-5 m at 1000 rows) of the distances in the whole grid.

use super::order::ConstraintSet;
use crate::error::ClothError;
use crate::model::footprint::cloth_out_of_memory;
use crate::model::grid::{self, Grid};
use crate::params::{self, FixedPreset, GridSize, SolverOrder, MAX_PARTICLES};

/// The constraints of one colour: no two share a particle.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColorBlock {
    /// Interleaved constraint ends `[a0, b0, a1, b1, ...]`.
    pub ends: Vec<u32>,
    /// Rest length of each constraint, metres.
    pub rest_lengths: Vec<f32>,
}

/// A grid cloth laid out for a colour-by-colour solver.
#[derive(Debug, Clone, PartialEq)]
pub struct ColoredGrid {
    /// Interleaved positions `[x0, y0, x1, y1, ...]`, metres (particle `i * width + j`).
    pub positions: Vec<f32>,
    /// The constraints of colour `c` in `colors[c]`, in the CPU's coloured order
    /// (a colour absent from the grid is an empty block).
    pub colors: Vec<ColorBlock>,
    /// The particles the preset fixes, in [`grid`]'s order.
    pub fixed: Vec<usize>,
}

impl ColoredGrid {
    /// Number of constraints, all colours together.
    pub fn num_constraints(&self) -> usize {
        self.colors
            .iter()
            .map(|block| block.rest_lengths.len())
            .sum()
    }
}

/// Builds the `width × height` grid with the `preset` corners fixed, each side
/// within the table's rule ([`params::WIDTH`], [`params::HEIGHT`]) but with no
/// limit on the particles beyond that. Refuses a size outside the rule, or one
/// whose arrays do not fit in memory.
pub fn build(width: usize, height: usize, preset: FixedPreset) -> Result<ColoredGrid, ClothError> {
    params::WIDTH.check_count(width as u64)?;
    params::HEIGHT.check_count(height as u64)?;
    let size = GridSize { width, height };
    let out_of_memory = |_| cloth_out_of_memory(size);
    let mut layout = ColoredGrid {
        positions: grid::rest_positions(size).map_err(out_of_memory)?,
        colors: Vec::new(),
        fixed: Vec::new(),
    };
    let step = band_step(width, height);
    let mut first = 0;
    loop {
        let rows = (step + 1).min(height - first);
        let last = first + step >= height - 1;
        let Grid {
            constraint_ids,
            rest_lengths,
            colors,
            fixed,
            ..
        } = grid::try_build(GridSize::new(width, rows)?, preset)?;
        let set =
            ConstraintSet::try_new(constraint_ids, rest_lengths, colors, SolverOrder::Colored)
                .map_err(out_of_memory)?;
        add_band(&mut layout, &set, width, first * width, first > 0).map_err(out_of_memory)?;
        // the corners: the first band's top row, the last band's bottom row
        let local_row = |k: usize| k / width;
        for k in fixed {
            if (first == 0 && local_row(k) == 0) || (last && local_row(k) == rows - 1) {
                layout.fixed.push(k + first * width);
            }
        }
        if last {
            return Ok(layout);
        }
        first += step;
    }
}

/// The rows from one band's first row to the next's, for a `width × height`
/// grid: band `b` covers rows `b * step` to `b * step + step` (fewer in the
/// last band), and the last band is the first to reach row `height - 1`.
/// One band (`height` rows) when the grid is within [`MAX_PARTICLES`];
/// otherwise bands of an odd number of rows (each starting on an even row)
/// overlapping by one row.
fn band_step(width: usize, height: usize) -> usize {
    if width * height <= MAX_PARTICLES {
        return height;
    }
    // (step + 1) rows of `width` fit in MAX_PARTICLES; step is even
    (MAX_PARTICLES / width - 1) & !1
}

/// Appends a band's constraints (a grid `width` wide), in its coloured order,
/// to their colours' blocks, moved down by `offset` particles; `skip_top_row`:
/// without the edges of its first row (both ends below `width` in the band's
/// own numbering), which the band above already has.
fn add_band(
    layout: &mut ColoredGrid,
    set: &ConstraintSet,
    width: usize,
    offset: usize,
    skip_top_row: bool,
) -> Result<(), std::collections::TryReserveError> {
    let live = set.len();
    let pairs = set.ids()[..2 * live].chunks_exact(2);
    for ((pair, &rest), &color) in pairs.zip(set.rest_lengths()).zip(set.colors()) {
        let (a, b) = (pair[0], pair[1]);
        if skip_top_row && (b as usize) < width {
            continue;
        }
        let color = color as usize;
        if layout.colors.len() <= color {
            layout.colors.resize_with(color + 1, ColorBlock::default);
        }
        let block = &mut layout.colors[color];
        block.ends.try_reserve(2)?;
        block.rest_lengths.try_reserve(1)?;
        block.ends.extend([a + offset as u32, b + offset as u32]);
        block.rest_lengths.push(rest);
    }
    Ok(())
}
