//! The live distance constraints as neighbour lists: what the tethers'
//! shortest paths walk and how bending pairs tell a torn middle.

use std::collections::TryReserveError;

use crate::memory;

/// The live distance constraints as neighbour lists (compressed rows), with
/// room for every constraint a cloth was built with; rest lengths in `R`
/// (`f32` in a cloth, `f64` for the camera's estimate of a scene's reach).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Neighbours<R = f32> {
    /// Particle `k`'s neighbours are `to[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    to: Vec<u32>,
    /// Rest length of the constraint to each neighbour, metres.
    rest: Vec<R>,
}

impl<R: Copy + Default> Neighbours<R> {
    /// Room for `n` particles and `constraints` constraints.
    pub fn try_new(n: usize, constraints: usize) -> Result<Neighbours<R>, TryReserveError> {
        Ok(Neighbours {
            starts: memory::filled(n + 1, 0)?,
            to: memory::with_capacity(2 * constraints)?,
            rest: memory::with_capacity(2 * constraints)?,
        })
    }

    /// Whether it has room (built by [`Neighbours::try_new`], not the empty default).
    pub fn is_reserved(&self) -> bool {
        !self.starts.is_empty()
    }

    /// Reserves room for `n` particles, once reserved (nothing changes but
    /// capacity); [`Neighbours::grow`] takes it.
    pub fn reserve_particles(&mut self, n: usize) -> Result<(), TryReserveError> {
        if self.is_reserved() {
            self.starts
                .try_reserve_exact((n + 1).saturating_sub(self.starts.len()))?;
        }
        Ok(())
    }

    /// Room for `constraints` constraints in all (when it has room at all).
    pub fn reserve_constraints(&mut self, constraints: usize) -> Result<(), TryReserveError> {
        if self.is_reserved() {
            let more = (2 * constraints).saturating_sub(self.to.len());
            self.to.try_reserve_exact(more)?;
            self.rest.try_reserve_exact(more)?;
        }
        Ok(())
    }

    /// Lists for `n` particles (more, in the room
    /// [`Neighbours::reserve_particles`] reserved, or fewer): added ones have
    /// no neighbours until the next rebuild, which follows at once.
    pub fn grow(&mut self, n: usize) {
        if self.is_reserved() {
            let last = *self.starts.last().unwrap_or(&0);
            self.starts.resize(n + 1, last);
        }
    }

    /// Bytes its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.starts) + bytes(&self.to) + bytes(&self.rest)
    }

    /// Fills the lists from the constraints `ids` (flat pairs) with rest
    /// lengths `rest_lengths`, at most as many as there is room for. Never
    /// allocates.
    pub fn rebuild(&mut self, ids: &[u32], rest_lengths: &[R]) {
        let n = self.starts.len() - 1;
        let count = (ids.len() / 2).min(self.to.capacity() / 2);
        let ids = &ids[..2 * count];
        self.starts.fill(0);
        for &k in ids {
            self.starts[k as usize + 1] += 1;
        }
        for k in 0..n {
            self.starts[k + 1] += self.starts[k];
        }
        self.to.clear();
        self.to.resize(2 * count, 0);
        self.rest.clear();
        self.rest.resize(2 * count, R::default());
        // starts[k] serves as the fill cursor of k, and ends as starts[k + 1]
        for (pair, &rest) in ids.chunks_exact(2).zip(rest_lengths) {
            for (from, to) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let slot = self.starts[from as usize] as usize;
                self.to[slot] = to;
                self.rest[slot] = rest;
                self.starts[from as usize] += 1;
            }
        }
        for k in (0..n).rev() {
            self.starts[k + 1] = self.starts[k];
        }
        self.starts[0] = 0;
    }

    /// The neighbours of `k` and the rest lengths to them.
    pub fn of(&self, k: usize) -> impl Iterator<Item = (u32, R)> + '_ {
        let range = self.starts[k] as usize..self.starts[k + 1] as usize;
        self.to[range.clone()]
            .iter()
            .copied()
            .zip(self.rest[range].iter().copied())
    }

    /// The compressed rows: `starts` (`n + 1`), the neighbours `to` and the
    /// rest lengths to them.
    pub fn rows(&self) -> (&[u32], &[u32], &[R]) {
        (&self.starts, &self.to, &self.rest)
    }

    /// Whether a live constraint joins `a` and `b`.
    pub fn joined(&self, a: u32, b: u32) -> bool {
        self.of(a as usize).any(|(k, _)| k == b)
    }
}
