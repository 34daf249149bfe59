//! The cloth behind a change counter. A drawing in pieces (`drawInto` with
//! `maxShapes`) may go on only while the cloth it began with is unchanged;
//! rather than have every mutating method remember to say so, the
//! `Simulation` holds its cloth in a [`Tracked`], whose mutable access
//! (`DerefMut`, which any `&mut Cloth` method call goes through) counts a
//! change. Reading through `Deref` counts nothing.

use std::ops::{Deref, DerefMut};

/// A value and the number of times it was borrowed mutably.
pub(super) struct Tracked<T> {
    value: T,
    changes: u64,
}

impl<T> Tracked<T> {
    pub(super) fn new(value: T) -> Tracked<T> {
        Tracked { value, changes: 0 }
    }

    /// Mutable borrows so far: equal counts mean an unchanged value.
    pub(super) fn changes(&self) -> u64 {
        self.changes
    }
}

impl<T> Deref for Tracked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Tracked<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.changes = self.changes.wrapping_add(1);
        &mut self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutable_borrows_count_and_reads_do_not() {
        let mut tracked = Tracked::new(vec![1, 2]);
        assert_eq!(tracked.len(), 2);
        assert_eq!(tracked.changes(), 0);
        tracked.push(3);
        assert_eq!(tracked.changes(), 1);
        let _ = tracked.iter().sum::<i32>();
        assert_eq!(tracked.changes(), 1);
        tracked[0] = 5;
        assert_eq!(tracked.changes(), 2);
    }
}
