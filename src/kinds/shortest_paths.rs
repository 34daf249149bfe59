//! Shortest paths from the pins: a multi-source Dijkstra from every pinned
//! particle over the neighbour lists of the distance constraints, weighted by
//! their rest lengths. Each particle learns its nearest pin along the
//! constraints and the rest length of the path to it.
//!
//! The tethers ([`super::tethers`]) hold each free particle within that
//! length of its pin; the camera of the page estimates from the same paths
//! how far a scene can hang from its pins (`pathsFromPins` in `src/wasm/`).

use std::collections::TryReserveError;

use super::neighbours::Neighbours;
use crate::memory;

/// No pin: the particle is not joined to a pinned one.
pub const NONE: u32 = u32::MAX;

/// A path length: `f32` in a cloth, `f64` for the camera. One search serves
/// both: it runs in `f64` on [`Lengths`], which rounds each sum of two `f32`
/// lengths to `f32` (exactly the `f32` sum: `f64` holds more than twice an
/// `f32`'s digits, so rounding twice rounds as once) and compares `f64`s that
/// are `f32` values, in the order `f32` compares them.
pub trait Length: Copy + Default + PartialOrd {
    /// The length of no path at all.
    const UNREACHED: Self;

    /// `lengths` as the search reads and writes them.
    fn lengths(lengths: &mut [Self]) -> Lengths<'_>;

    /// `rest` as the search reads it.
    fn rests(rest: &[Self]) -> Rests<'_>;
}

impl Length for f32 {
    const UNREACHED: f32 = f32::INFINITY;

    fn lengths(lengths: &mut [f32]) -> Lengths<'_> {
        Lengths::Single(lengths)
    }

    fn rests(rest: &[f32]) -> Rests<'_> {
        Rests::Single(rest)
    }
}

impl Length for f64 {
    const UNREACHED: f64 = f64::INFINITY;

    fn lengths(lengths: &mut [f64]) -> Lengths<'_> {
        Lengths::Double(lengths)
    }

    fn rests(rest: &[f64]) -> Rests<'_> {
        Rests::Double(rest)
    }
}

/// The path lengths a search writes, in their own precision.
pub enum Lengths<'a> {
    Single(&'a mut [f32]),
    Double(&'a mut [f64]),
}

impl Lengths<'_> {
    #[inline(always)]
    fn get(&self, k: usize) -> f64 {
        match self {
            Lengths::Single(l) => l[k] as f64,
            Lengths::Double(l) => l[k],
        }
    }

    /// `value` must be a length of this precision (a sum from [`Lengths::sum`]).
    #[inline(always)]
    fn set(&mut self, k: usize, value: f64) {
        match self {
            Lengths::Single(l) => l[k] = value as f32,
            Lengths::Double(l) => l[k] = value,
        }
    }

    /// `a + b` in this precision, for `a` and `b` of it.
    #[inline(always)]
    fn sum(&self, a: f64, b: f64) -> f64 {
        match self {
            Lengths::Single(_) => (a + b) as f32 as f64,
            Lengths::Double(_) => a + b,
        }
    }
}

/// The rest lengths of a graph's neighbours, in their own precision.
pub enum Rests<'a> {
    Single(&'a [f32]),
    Double(&'a [f64]),
}

impl Rests<'_> {
    #[inline(always)]
    fn get(&self, slot: usize) -> f64 {
        match self {
            Rests::Single(r) => r[slot] as f64,
            Rests::Double(r) => r[slot],
        }
    }
}

/// Each particle's nearest pin and the length of the path to it, with the
/// heap the search uses, reserved once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShortestPaths<L> {
    /// The pinned particle each particle is nearest to, or [`NONE`].
    pins: Vec<u32>,
    /// Rest length of the path to it, metres ([`Length::UNREACHED`] without one).
    lengths: Vec<L>,
    /// Binary min-heap of particles by `lengths`, and each particle's place
    /// in it (`NONE` when not in it).
    heap: Vec<u32>,
    place: Vec<u32>,
}

impl<L: Length> ShortestPaths<L> {
    /// Room for `n` particles.
    pub fn try_new(n: usize) -> Result<ShortestPaths<L>, TryReserveError> {
        Ok(ShortestPaths {
            pins: memory::filled(n, NONE)?,
            lengths: memory::filled(n, L::UNREACHED)?,
            heap: memory::with_capacity(n)?,
            place: memory::filled(n, NONE)?,
        })
    }

    /// Whether it has room (built by [`ShortestPaths::try_new`] for at least
    /// one particle, not the empty default).
    pub fn is_reserved(&self) -> bool {
        !self.pins.is_empty()
    }

    /// Reserves room for `n` particles, once reserved (nothing changes but
    /// capacity); [`ShortestPaths::grow`] takes it.
    pub fn reserve_particles(&mut self, n: usize) -> Result<(), TryReserveError> {
        if self.is_reserved() {
            let more = n.saturating_sub(self.pins.len());
            self.pins.try_reserve_exact(more)?;
            self.lengths.try_reserve_exact(more)?;
            self.heap
                .try_reserve_exact(n.saturating_sub(self.heap.len()))?;
            self.place.try_reserve_exact(more)?;
        }
        Ok(())
    }

    /// Room for `n` particles (more, in what
    /// [`ShortestPaths::reserve_particles`] reserved, or fewer): added ones
    /// have no pin until the next recompute.
    pub fn grow(&mut self, n: usize) {
        if self.is_reserved() {
            self.pins.resize(n, NONE);
            self.lengths.resize(n, L::UNREACHED);
            self.place.resize(n, NONE);
            self.heap.clear();
        }
    }

    /// Bytes its buffers hold.
    pub fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.pins) + bytes(&self.lengths) + bytes(&self.heap) + bytes(&self.place)
    }

    /// The pinned particle each particle is nearest to ([`NONE`]: none).
    pub fn pins(&self) -> &[u32] {
        &self.pins
    }

    /// The rest length of each particle's path to its pin.
    pub fn lengths(&self) -> &[L] {
        &self.lengths
    }

    /// Particle `k`'s pin and the length of its path, if it has one. Pinned
    /// particles are their own pin at length 0.
    pub fn path(&self, k: usize) -> Option<(usize, L)> {
        (self.pins[k] != NONE).then(|| (self.pins[k] as usize, self.lengths[k]))
    }

    /// Multi-source Dijkstra from every pinned particle over `graph`;
    /// `settled` is told each particle reached, nearest first (the pins
    /// first). Never allocates.
    pub fn recompute(
        &mut self,
        graph: &Neighbours<L>,
        pinned: &[bool],
        mut settled: impl FnMut(u32),
    ) {
        let (starts, to, rest) = graph.rows();
        let mut search = Search {
            pins: &mut self.pins,
            lengths: L::lengths(&mut self.lengths),
            heap: &mut self.heap,
            place: &mut self.place,
        };
        search.run((starts, to, L::rests(rest)), pinned, &mut settled);
    }
}

/// A search in the buffers of a [`ShortestPaths`], the same code for both
/// precisions.
struct Search<'a> {
    pins: &'a mut [u32],
    lengths: Lengths<'a>,
    heap: &'a mut Vec<u32>,
    place: &'a mut [u32],
}

impl Search<'_> {
    fn run(
        &mut self,
        (starts, to, rest): (&[u32], &[u32], Rests),
        pinned: &[bool],
        settled: &mut dyn FnMut(u32),
    ) {
        self.pins.fill(NONE);
        for k in 0..self.pins.len() {
            self.lengths.set(k, f64::INFINITY);
        }
        self.place.fill(NONE);
        self.heap.clear();
        for (k, _) in pinned.iter().enumerate().filter(|(_, &p)| p) {
            self.pins[k] = k as u32;
            self.lengths.set(k, 0.0);
            self.push(k as u32);
        }
        while let Some(k) = self.pop() {
            settled(k);
            let (pin, reached) = (self.pins[k as usize], self.lengths.get(k as usize));
            let row = starts[k as usize] as usize..starts[k as usize + 1] as usize;
            for (slot, &next) in row.clone().zip(&to[row]) {
                let next = next as usize;
                let through = self.lengths.sum(reached, rest.get(slot));
                if through < self.lengths.get(next) {
                    self.lengths.set(next, through);
                    self.pins[next] = pin;
                    if self.place[next] == NONE {
                        self.push(next as u32);
                    } else {
                        self.sift_up(self.place[next] as usize);
                    }
                }
            }
        }
    }

    fn push(&mut self, k: u32) {
        self.heap.push(k);
        let at = self.heap.len() - 1;
        self.place[k as usize] = at as u32;
        self.sift_up(at);
    }

    fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.place[top as usize] = NONE;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.place[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    #[inline(always)]
    fn key(&self, at: usize) -> f64 {
        self.lengths.get(self.heap[at] as usize)
    }

    #[inline(always)]
    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.place[self.heap[i] as usize] = i as u32;
        self.place[self.heap[j] as usize] = j as u32;
    }

    fn sift_up(&mut self, mut at: usize) {
        while at > 0 {
            let parent = (at - 1) / 2;
            if self.key(at) >= self.key(parent) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
    }

    fn sift_down(&mut self, mut at: usize) {
        loop {
            let (left, right) = (2 * at + 1, 2 * at + 2);
            let mut least = at;
            if left < self.heap.len() && self.key(left) < self.key(least) {
                least = left;
            }
            if right < self.heap.len() && self.key(right) < self.key(least) {
                least = right;
            }
            if least == at {
                break;
            }
            self.swap(at, least);
            at = least;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_particle_finds_its_nearest_pin_along_the_constraints_nearest_first() {
        // a chain 0 – 1 – 2 – 3 – 4 pinned at both ends, rest lengths 1, 2, 3, 1,
        // and particle 5 on its own
        let ids = [0, 1, 1, 2, 2, 3, 3, 4];
        let mut graph = Neighbours::try_new(6, 4).unwrap();
        graph.rebuild(&ids, &[1.0f64, 2.0, 3.0, 1.0]);
        let mut paths = ShortestPaths::<f64>::try_new(6).unwrap();
        let mut order = Vec::new();
        let pinned = [true, false, false, false, true, false];
        paths.recompute(&graph, &pinned, |k| order.push(k));
        assert_eq!(paths.path(2), Some((0, 3.0)));
        assert_eq!(paths.path(3), Some((4, 1.0)));
        assert_eq!(paths.path(5), None);
        assert_eq!(paths.lengths()[5], f64::INFINITY);
        // the pins, then 1 and 3 (at 1), then 2 (at 3); 5 never
        assert_eq!(order.len(), 5);
        assert_eq!(&order[4..], &[2]);
        let lengths: Vec<f64> = order.iter().map(|&k| paths.lengths()[k as usize]).collect();
        assert_eq!(lengths, [0.0, 0.0, 1.0, 1.0, 3.0]);
    }

    #[test]
    fn f32_paths_compare_sums_rounded_to_f32_and_f64_paths_do_not() {
        // pins 0 and 3; 2 is just past 1 from pin 0, and 1 + 6e-8 from pin 3
        // through 1: in f32 that sum rounds up to the first path's length, a
        // tie that keeps pin 0; in f64 the path through 1 is shorter
        let ids = [0, 2, 3, 1, 1, 2];
        let far = f32::from_bits(1.0f32.to_bits() + 1);
        let rest = [far, 1.0, 6e-8];
        let pinned = [true, false, false, true];
        let mut single = Neighbours::try_new(4, 3).unwrap();
        single.rebuild(&ids, &rest);
        let mut paths = ShortestPaths::<f32>::try_new(4).unwrap();
        paths.recompute(&single, &pinned, |_| {});
        assert_eq!(1.0f32 + 6e-8f32, far);
        assert_eq!(paths.path(2), Some((0, far)));
        let mut double = Neighbours::try_new(4, 3).unwrap();
        double.rebuild(&ids, &rest.map(f64::from));
        let mut paths = ShortestPaths::<f64>::try_new(4).unwrap();
        paths.recompute(&double, &pinned, |_| {});
        assert_eq!(paths.path(2), Some((3, 1.0 + 6e-8f32 as f64)));
    }
}
