//! Moving the entries of the per-constraint arrays in place: a permutation,
//! torn constraints behind the live ones and back, through one scratch word
//! per constraint, so tearing and reordering never allocate.

/// Marks the first entry of one tear in the tear log (positions are below 2³¹).
pub(super) const TEAR_START: u32 = 1 << 31;

/// A value that fits in one `u32` word of the scratch buffer.
pub(super) trait Word: Copy {
    fn to_word(self) -> u32;
    fn from_word(word: u32) -> Self;
}

impl Word for u32 {
    fn to_word(self) -> u32 {
        self
    }
    fn from_word(word: u32) -> Self {
        word
    }
}

impl Word for f32 {
    fn to_word(self) -> u32 {
        self.to_bits()
    }
    fn from_word(word: u32) -> Self {
        f32::from_bits(word)
    }
}

impl Word for u8 {
    fn to_word(self) -> u32 {
        self as u32
    }
    fn from_word(word: u32) -> Self {
        word as u8
    }
}

/// One per-constraint array seen as `stride` interleaved columns (`ids` has two).
pub(super) struct Column<'a, T> {
    data: &'a mut [T],
    stride: usize,
    lane: usize,
}

impl<'a, T: Word> Column<'a, T> {
    pub(super) fn new(data: &'a mut [T], stride: usize, lane: usize) -> Self {
        Column { data, stride, lane }
    }

    #[inline(always)]
    fn get(&self, c: usize) -> T {
        self.data[self.stride * c + self.lane]
    }

    #[inline(always)]
    fn set(&mut self, c: usize, value: T) {
        self.data[self.stride * c + self.lane] = value;
    }

    /// Entry `k` becomes entry `permutation[k]`, for `k < permutation.len()`.
    pub(super) fn permute(&mut self, permutation: &[u32], scratch: &mut [u32]) {
        let (stride, lane) = (self.stride, self.lane);
        for (slot, &from) in scratch.iter_mut().zip(permutation) {
            *slot = self.data[stride * from as usize + lane].to_word();
        }
        // (`skip`, not `[lane..]`: the data of a set without constraints is empty)
        let entries = self.data.iter_mut().skip(lane).step_by(stride);
        for (entry, &word) in entries.zip(&scratch[..permutation.len()]) {
            *entry = T::from_word(word);
        }
    }

    /// Moves the entries at `torn` (ascending, below `live`) behind the other
    /// live ones, keeping the order of both groups.
    fn move_behind(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]) {
        let Some(&first) = torn.first() else { return };
        let first = (first & !TEAR_START) as usize;
        let (mut next, mut write) = (0, first);
        for c in first..live {
            if next < torn.len() && (torn[next] & !TEAR_START) as usize == c {
                scratch[next] = self.get(c).to_word();
                next += 1;
            } else {
                let value = self.get(c);
                self.set(write, value);
                write += 1;
            }
        }
        for (t, &word) in scratch[..torn.len()].iter().enumerate() {
            self.set(write + t, T::from_word(word));
        }
    }

    /// Undoes [`Column::move_behind`]: the `torn.len()` entries right behind the
    /// first `live` go back to the positions `torn`, the others close up around them.
    fn move_back(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]) {
        let k = torn.len();
        for (t, slot) in scratch[..k].iter_mut().enumerate() {
            *slot = self.get(live + t).to_word();
        }
        let (mut source, mut dest, mut t) = (live, live + k, k);
        while t > 0 {
            dest -= 1;
            if (torn[t - 1] & !TEAR_START) as usize == dest {
                t -= 1;
                self.set(dest, T::from_word(scratch[t]));
            } else {
                source -= 1;
                let value = self.get(source);
                self.set(dest, value);
            }
        }
    }
}

/// The per-constraint arrays of a set, borrowed apart from its buffers.
pub(super) struct Arrays<'a> {
    pub(super) ids: &'a mut [u32],
    pub(super) rest_lengths: &'a mut [f32],
    pub(super) lambdas: &'a mut [f32],
    pub(super) creation: &'a mut [u32],
    pub(super) colors: &'a mut [u8],
}

impl Arrays<'_> {
    /// Entry `k` of the endpoints, rest lengths and colours becomes entry
    /// `permutation[k]`, for `k < permutation.len()` (the multipliers and
    /// creation indices are the caller's to move, or to set).
    pub(super) fn permute_constraints(&mut self, permutation: &[u32], scratch: &mut [u32]) {
        for lane in 0..2 {
            Column::new(&mut *self.ids, 2, lane).permute(permutation, scratch);
        }
        Column::new(&mut *self.rest_lengths, 1, 0).permute(permutation, scratch);
        Column::new(&mut *self.colors, 1, 0).permute(permutation, scratch);
    }

    /// Calls `f` on every column of every array (two for `ids`).
    pub(super) fn for_each_column(&mut self, mut f: impl FnMut(&mut dyn ColumnOps)) {
        for lane in 0..2 {
            f(&mut Column::new(&mut *self.ids, 2, lane));
        }
        f(&mut Column::new(&mut *self.rest_lengths, 1, 0));
        f(&mut Column::new(&mut *self.lambdas, 1, 0));
        f(&mut Column::new(&mut *self.creation, 1, 0));
        f(&mut Column::new(&mut *self.colors, 1, 0));
    }
}

/// The moves of [`Column`], whatever its element type.
pub(super) trait ColumnOps {
    fn move_behind(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]);
    fn move_back(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]);
}

impl<T: Word> ColumnOps for Column<'_, T> {
    fn move_behind(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]) {
        Column::move_behind(self, torn, live, scratch)
    }
    fn move_back(&mut self, torn: &[u32], live: usize, scratch: &mut [u32]) {
        Column::move_back(self, torn, live, scratch)
    }
}
