//! The grid a cloth is built as: its size and which corners are fixed, both
//! applied when the cloth is built (changed by a restart).

use super::table::{FIXED, HEIGHT, WIDTH};
use crate::error::{invalid, ClothError};

/// Largest number of particles (`width * height`), a rule across two table
/// entries ([`WIDTH`], [`HEIGHT`]). 500 × 500 steps in a few milliseconds in
/// wasm; beyond that one animation frame takes too long.
pub const MAX_PARTICLES: usize = 250_000;

/// Which particles are fixed when the cloth is built (the original page's select).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FixedPreset {
    /// Particle 0, the top-left corner.
    One,
    /// The two top corners, `0` and `width - 1`. The default.
    #[default]
    Two,
    /// All four corners.
    Four,
}

impl FixedPreset {
    /// How many particles this preset fixes.
    pub fn count(self) -> usize {
        match self {
            FixedPreset::One => 1,
            FixedPreset::Two => 2,
            FixedPreset::Four => 4,
        }
    }

    /// The preset for a count of 1, 2 or 4 (the rule of [`FIXED`]).
    pub fn from_count(count: usize) -> Result<Self, ClothError> {
        match count {
            1 => Ok(FixedPreset::One),
            2 => Ok(FixedPreset::Two),
            4 => Ok(FixedPreset::Four),
            _ => Err(FIXED
                .check_count(count as u64)
                .err()
                .unwrap_or_else(|| invalid(FIXED.name, count, "1, 2 or 4"))),
        }
    }
}

/// The shape of the grid: fixed when the cloth is built (changed by a restart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSize {
    /// Particles per row. Default 40.
    pub width: usize,
    /// Number of rows. Default 30.
    pub height: usize,
}

impl Default for GridSize {
    fn default() -> Self {
        GridSize {
            width: 40,
            height: 30,
        }
    }
}

impl GridSize {
    /// A grid of `width × height` particles, each side within the rule of
    /// [`WIDTH`] and [`HEIGHT`], at most [`MAX_PARTICLES`] in all.
    pub fn new(width: usize, height: usize) -> Result<Self, ClothError> {
        WIDTH.check_count(width as u64)?;
        HEIGHT.check_count(height as u64)?;
        if width * height > MAX_PARTICLES {
            return Err(invalid(
                "width",
                format!(
                    "{width} (with height {height}: {} particles)",
                    width * height
                ),
                format!("width × height at most {MAX_PARTICLES} particles"),
            ));
        }
        Ok(GridSize { width, height })
    }

    /// Number of particles, `width * height`.
    pub fn num_particles(self) -> usize {
        self.width.saturating_mul(self.height)
    }
}
