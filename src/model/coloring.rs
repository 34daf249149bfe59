//! Colours of the distance constraints: no two constraints of one colour
//! share a particle, so the coloured sweep can solve a colour four at a time
//! (see `src/solver/colored.rs`). A scene may give its own (the grid does),
//! checked by [`Scene::validate`]; otherwise [`greedy_colors`] makes them.

use super::scene::Scene;
use super::validate::{at, refuse};
use crate::error::ClothError;
use crate::memory;

/// Most colours a greedy colouring may use: colours are `u8`.
const COLORS: usize = 256;

impl Scene {
    /// Checks given colours: one per constraint, and a proper colouring (no
    /// particle in two constraints of one colour), which the coloured sweep
    /// relies on.
    pub(super) fn validate_colors(&self, colors: &[u8]) -> Result<(), ClothError> {
        let m = self.num_distances();
        if colors.len() != m {
            return Err(refuse(
                "colors",
                None,
                format!(
                    "has {} entries, expected one per distance constraint ({m})",
                    colors.len()
                ),
            ));
        }
        let mut used = colour_sets(self.num_particles(), "colors", m)?;
        for (c, (pair, &color)) in self.distances.chunks_exact(2).zip(colors).enumerate() {
            let bit = 1u64 << (color % 64);
            let word = color as usize / 64;
            for k in [pair[0] as usize, pair[1] as usize] {
                if used[k][word] & bit != 0 {
                    return Err(at(
                        "colors",
                        c,
                        format!(
                            "is {color}, which particle {k} has in another constraint: \
                             constraints of one colour may not share a particle"
                        ),
                    ));
                }
                used[k][word] |= bit;
            }
        }
        Ok(())
    }
}

/// A greedy edge colouring of the constraints `pairs` of `n` particles: each
/// constraint takes the lowest colour neither of its particles has yet, so
/// no two constraints of one colour share a particle. A particle in more than
/// 128 constraints may leave none of the 256 colours free: the error names the
/// constraint and says so.
pub fn greedy_colors(field: &'static str, pairs: &[u32], n: usize) -> Result<Vec<u8>, ClothError> {
    let mut used = colour_sets(n, field, pairs.len() / 2)?;
    let mut colors = memory::with_capacity(pairs.len() / 2)
        .map_err(|_| colouring_out_of_memory(field, n, pairs.len() / 2))?;
    for (c, pair) in pairs.chunks_exact(2).enumerate() {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let taken: [u64; COLORS / 64] = std::array::from_fn(|w| used[a][w] | used[b][w]);
        let free = taken
            .iter()
            .enumerate()
            .find(|(_, &bits)| bits != u64::MAX)
            .map(|(w, &bits)| 64 * w + (!bits).trailing_zeros() as usize);
        let Some(color) = free else {
            return Err(at(
                field,
                c,
                format!(
                    "joins particles {a} and {b}, which are in too many constraints between them \
                     (all {COLORS} colours of the solver taken); give a particle at most 128"
                ),
            ));
        };
        used[a][color / 64] |= 1 << (color % 64);
        used[b][color / 64] |= 1 << (color % 64);
        colors.push(color as u8);
    }
    Ok(colors)
}

/// The colours each particle has, 256 bits per particle, all clear.
fn colour_sets(
    n: usize,
    field: &'static str,
    constraints: usize,
) -> Result<Vec<[u64; COLORS / 64]>, ClothError> {
    memory::filled(n, [0; COLORS / 64]).map_err(|_| colouring_out_of_memory(field, n, constraints))
}

fn colouring_out_of_memory(field: &'static str, n: usize, constraints: usize) -> ClothError {
    ClothError::OutOfMemory {
        field,
        what: format!(
            "colouring {constraints} constraints of {n} particles needs {} MiB",
            memory::mib((COLORS / 8 * n + constraints) as u64)
        ),
    }
}
