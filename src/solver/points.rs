//! Where particle positions live, so one solve serves every layout.

/// Where particle positions live: interleaved `[x0, y0, x1, y1, ...]` (a plain
/// `[f32]`, the cloth's own layout) or split into separate `x` and `y` arrays
/// ([`Split`], what the coloured SIMD sweep loads four at a time).
pub trait Points {
    /// Particle `k`'s position.
    fn point(&self, k: usize) -> (f32, f32);
    /// Moves particle `k` to `p`.
    fn set_point(&mut self, k: usize, p: (f32, f32));
}

impl Points for [f32] {
    #[inline(always)]
    fn point(&self, k: usize) -> (f32, f32) {
        (self[2 * k], self[2 * k + 1])
    }
    #[inline(always)]
    fn set_point(&mut self, k: usize, (x, y): (f32, f32)) {
        self[2 * k] = x;
        self[2 * k + 1] = y;
    }
}

/// Positions split into an `x` and a `y` array.
pub struct Split<'a> {
    /// `x` of every particle, metres.
    pub xs: &'a mut [f32],
    /// `y` of every particle, metres.
    pub ys: &'a mut [f32],
}

impl Points for Split<'_> {
    #[inline(always)]
    fn point(&self, k: usize) -> (f32, f32) {
        (self.xs[k], self.ys[k])
    }
    #[inline(always)]
    fn set_point(&mut self, k: usize, (x, y): (f32, f32)) {
        self.xs[k] = x;
        self.ys[k] = y;
    }
}
