//! What a grid cloth costs in memory: the buffers it keeps once built, what
//! must be free while it is built, and the refusal of one that does not fit.

use std::mem::size_of;

use super::grid;
use crate::error::ClothError;
use crate::memory::mib;
use crate::params::GridSize;

/// Bytes of the buffers a cloth of `size` keeps once built: per particle the
/// positions, previous, step-start and start (rest) positions, velocities and
/// step-start velocities (`2 × f32` each), the inverse mass and the split `xs`/`ys`
/// scratch (`f32` each) and the pinned flag; per constraint its two ends (`u32`),
/// rest length, multiplier and force scratch (`f32`), creation index, tear-log
/// entry and permutation scratch (`u32`) and colour (`u8`). The small run list
/// of the coloured order comes on top (a few KiB).
pub fn cloth_bytes(size: GridSize) -> u64 {
    let (n, c) = counts(size);
    let (f32s, u32s) = (size_of::<f32>() as u64, size_of::<u32>() as u64);
    let per_particle = 6 * 2 * f32s + 3 * f32s + size_of::<bool>() as u64;
    let per_constraint = 2 * u32s + 3 * f32s + 3 * u32s + size_of::<u8>() as u64;
    n * per_particle + c * per_constraint
}

/// Bytes that must be free at once while a cloth of `size` is built: the
/// finished cloth itself (putting the constraints in solver order works in
/// buffers the cloth keeps, its tear log and scratch, and needs no copy), and
/// room for the coloured order's run list while it grows (well
/// under 1 % of it for a big cloth, a few KiB for a small one).
pub fn cloth_build_bytes(size: GridSize) -> u64 {
    let cloth = cloth_bytes(size);
    cloth + cloth / 128 + (64 << 10)
}

/// The error for a cloth of `size` that does not fit in memory.
pub fn cloth_out_of_memory(size: GridSize) -> ClothError {
    ClothError::OutOfMemory {
        field: "width",
        what: format!(
            "a {} × {} cloth needs {} MiB",
            size.width,
            size.height,
            mib(cloth_build_bytes(size)),
        ),
    }
}

/// Particles and constraints of a `size` grid, in `u64` so that no size,
/// however wrong, overflows.
fn counts(size: GridSize) -> (u64, u64) {
    let (w, h) = (size.width as u64, size.height as u64);
    let n = w.saturating_mul(h);
    let c = grid::constraint_count_u64(w, h);
    (n, c)
}
