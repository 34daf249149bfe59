//! The positions a contact pass reads and writes, in either layout as one
//! type.
//!
//! The passes after a sweep see the positions interleaved (`[x0, y0, x1, y1,
//! ...]`) or split into an x and a y array (the coloured sweep's layout; see
//! [`Positions`]). Most kinds compile their pass once per layout; the contact
//! pass is the largest of them (the pair search, the pairs' pushes and every
//! collider's projection), so it is compiled once for both: a particle's x
//! and y are read from two arrays of cells at `stride · k`, the interleaved
//! array being both arrays (shifted by one) at stride 2. An access costs a
//! multiplication more than either layout's own, and no branch.

use std::cell::Cell;

use super::rigid::Movable;
use crate::kinds::Positions;
use crate::solver::Points;

/// Positions in either layout: particle `k` at `(xs[stride · k],
/// ys[stride · k])`.
pub struct ContactPoints<'a> {
    xs: &'a [Cell<f32>],
    ys: &'a [Cell<f32>],
    stride: usize,
}

impl<'a> ContactPoints<'a> {
    /// The positions of `positions`, in its layout.
    pub fn of(positions: &'a mut Positions) -> ContactPoints<'a> {
        match positions {
            Positions::Interleaved(points) => {
                let cells = Cell::from_mut(&mut **points).as_slice_of_cells();
                ContactPoints {
                    xs: cells,
                    ys: cells.get(1..).unwrap_or_default(),
                    stride: 2,
                }
            }
            Positions::Split(split) => ContactPoints {
                xs: Cell::from_mut(&mut *split.xs).as_slice_of_cells(),
                ys: Cell::from_mut(&mut *split.ys).as_slice_of_cells(),
                stride: 1,
            },
        }
    }
}

impl Points for ContactPoints<'_> {
    #[inline(always)]
    fn point(&self, k: usize) -> (f32, f32) {
        let i = self.stride * k;
        (self.xs[i].get(), self.ys[i].get())
    }

    #[inline(always)]
    fn set_point(&mut self, k: usize, (x, y): (f32, f32)) {
        let i = self.stride * k;
        self.xs[i].set(x);
        self.ys[i].set(y);
    }
}

impl Movable for ContactPoints<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Split;

    #[test]
    fn both_layouts_read_and_write_the_same_particles() {
        let mut interleaved = vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        let (mut xs, mut ys) = (vec![0.0, 2.0, 4.0], vec![1.0, 3.0, 5.0]);
        let mut a = Positions::Interleaved(&mut interleaved);
        let split = Split {
            xs: &mut xs,
            ys: &mut ys,
        };
        let mut b = Positions::Split(split);
        for positions in [&mut a, &mut b] {
            let mut points = ContactPoints::of(positions);
            assert_eq!(points.point(1), (2.0, 3.0));
            assert_eq!(points.point(2), (4.0, 5.0));
            points.set_point(2, (-4.0, -5.0));
            assert_eq!(points.point(2), (-4.0, -5.0));
            assert_eq!(points.point(0), (0.0, 1.0));
        }
        assert_eq!(interleaved, [0.0, 1.0, 2.0, 3.0, -4.0, -5.0]);
        assert_eq!((xs, ys), (vec![0.0, 2.0, -4.0], vec![1.0, 3.0, -5.0]));
    }

    #[test]
    fn no_particles_in_either_layout() {
        let mut empty: Vec<f32> = Vec::new();
        let mut positions = Positions::Interleaved(&mut empty);
        let points = ContactPoints::of(&mut positions);
        assert!(points.xs.is_empty() && points.ys.is_empty());
    }
}
