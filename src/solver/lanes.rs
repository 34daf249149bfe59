//! Four `f32` lanes: the one type the vectorised solver kernel is written in.
//!
//! On `wasm32` built with `+simd128` (as `scripts/build.sh` does) an [`F4`] is a
//! wasm `v128` and every operation below is one SIMD instruction. Everywhere
//! else it is a plain `[f32; 4]`, operated on lane by lane, so the same kernel
//! runs (and is tested) natively. `+ - * /` and unary `-` are the standard
//! operators, so a kernel reads like the scalar formula it vectorises. Both give bit-identical results: each lane
//! performs exactly the scalar IEEE operations, in the same order, without fused
//! multiply-add.

/// `impl core::ops::Trait for F4` for each `Trait method |a, b| body`: the
/// arithmetic operators, so kernels written in [`F4`] read like the scalar math.
macro_rules! binary_operators {
    ($($trait:ident $method:ident |$a:ident, $b:ident| $body:expr,)*) => {$(
        impl core::ops::$trait for F4 {
            type Output = F4;
            #[inline(always)]
            fn $method(self, other: F4) -> F4 {
                let ($a, $b) = (self, other);
                $body
            }
        }
    )*};
}
use binary_operators;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    /// Four `f32` lanes in one wasm `v128`.
    #[derive(Clone, Copy)]
    pub struct F4(v128);

    /// A per-lane condition (all bits set where true).
    #[derive(Clone, Copy)]
    pub struct Mask(v128);

    impl F4 {
        #[inline(always)]
        pub fn new(a: f32, b: f32, c: f32, d: f32) -> F4 {
            F4(f32x4(a, b, c, d))
        }
        #[inline(always)]
        pub fn splat(v: f32) -> F4 {
            F4(f32x4_splat(v))
        }
        /// The first four values of `s` (one unaligned vector load).
        #[inline(always)]
        pub fn load(s: &[f32]) -> F4 {
            let s = &s[..4];
            // SAFETY: `s` holds four f32 (checked above); v128 loads need no alignment.
            F4(unsafe { v128_load(s.as_ptr() as *const v128) })
        }
        /// Writes the four lanes to the first four places of `s`.
        #[inline(always)]
        pub fn store(self, s: &mut [f32]) {
            let s = &mut s[..4];
            // SAFETY: as for `load`.
            unsafe { v128_store(s.as_mut_ptr() as *mut v128, self.0) }
        }
        /// Lanes picked from `a ‖ b` (indices 0–3 from `a`, 4–7 from `b`).
        #[inline(always)]
        pub fn shuffle<const I: usize, const J: usize, const K: usize, const L: usize>(
            a: F4,
            b: F4,
        ) -> F4 {
            F4(i32x4_shuffle::<I, J, K, L>(a.0, b.0))
        }
        #[inline(always)]
        pub fn to_array(self) -> [f32; 4] {
            [
                f32x4_extract_lane::<0>(self.0),
                f32x4_extract_lane::<1>(self.0),
                f32x4_extract_lane::<2>(self.0),
                f32x4_extract_lane::<3>(self.0),
            ]
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            F4(f32x4_sqrt(self.0))
        }
        #[inline(always)]
        pub fn gt(self, o: F4) -> Mask {
            Mask(f32x4_gt(self.0, o.0))
        }
        /// `o` where `self < o`, else `self`: one `maxps` on x86, unlike `max`,
        /// which must also order NaN and signed zeros.
        #[inline(always)]
        pub fn pmax(self, o: F4) -> F4 {
            F4(f32x4_pmax(self.0, o.0))
        }
        #[inline(always)]
        pub fn abs(self) -> F4 {
            F4(f32x4_abs(self.0))
        }
        /// Lanes `<= o` (false for NaN).
        #[inline(always)]
        pub fn le(self, o: F4) -> Mask {
            Mask(f32x4_le(self.0, o.0))
        }
    }

    super::binary_operators! {
        Add add |a, b| F4(f32x4_add(a.0, b.0)),
        Sub sub |a, b| F4(f32x4_sub(a.0, b.0)),
        Mul mul |a, b| F4(f32x4_mul(a.0, b.0)),
        Div div |a, b| F4(f32x4_div(a.0, b.0)),
    }

    impl core::ops::Neg for F4 {
        type Output = F4;
        #[inline(always)]
        fn neg(self) -> F4 {
            F4(f32x4_neg(self.0))
        }
    }

    impl Mask {
        #[inline(always)]
        pub fn and(self, o: Mask) -> Mask {
            Mask(v128_and(self.0, o.0))
        }
        /// 1.0 where true, 0.0 where false.
        #[inline(always)]
        pub fn to_unit(self) -> F4 {
            F4(v128_and(self.0, f32x4_splat(1.0)))
        }
        /// `a` where true, `b` where false, bit for bit.
        #[inline(always)]
        pub fn select(self, a: F4, b: F4) -> F4 {
            F4(v128_bitselect(a.0, b.0, self.0))
        }
        /// Lanes picked from this mask (indices 0–3).
        #[inline(always)]
        pub fn shuffle<const I: usize, const J: usize, const K: usize, const L: usize>(
            self,
        ) -> Mask {
            Mask(i32x4_shuffle::<I, J, K, L>(self.0, self.0))
        }
        /// Whether every lane is true.
        #[inline(always)]
        pub fn all(self) -> bool {
            i32x4_all_true(self.0)
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    /// Four `f32` lanes, operated on one by one.
    #[derive(Clone, Copy)]
    pub struct F4([f32; 4]);

    /// A per-lane condition.
    #[derive(Clone, Copy)]
    pub struct Mask([bool; 4]);

    #[inline(always)]
    fn map(a: F4, b: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        F4([
            f(a.0[0], b.0[0]),
            f(a.0[1], b.0[1]),
            f(a.0[2], b.0[2]),
            f(a.0[3], b.0[3]),
        ])
    }

    impl F4 {
        #[inline(always)]
        pub fn new(a: f32, b: f32, c: f32, d: f32) -> F4 {
            F4([a, b, c, d])
        }
        #[inline(always)]
        pub fn splat(v: f32) -> F4 {
            F4([v; 4])
        }
        /// The first four values of `s`.
        #[inline(always)]
        pub fn load(s: &[f32]) -> F4 {
            F4([s[0], s[1], s[2], s[3]])
        }
        /// Writes the four lanes to the first four places of `s`.
        #[inline(always)]
        pub fn store(self, s: &mut [f32]) {
            s[..4].copy_from_slice(&self.0);
        }
        /// Lanes picked from `a ‖ b` (indices 0–3 from `a`, 4–7 from `b`).
        #[inline(always)]
        pub fn shuffle<const I: usize, const J: usize, const K: usize, const L: usize>(
            a: F4,
            b: F4,
        ) -> F4 {
            let pick = |i: usize| if i < 4 { a.0[i] } else { b.0[i - 4] };
            F4([pick(I), pick(J), pick(K), pick(L)])
        }
        #[inline(always)]
        pub fn to_array(self) -> [f32; 4] {
            self.0
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            F4(self.0.map(f32::sqrt))
        }
        #[inline(always)]
        pub fn gt(self, o: F4) -> Mask {
            Mask([0, 1, 2, 3].map(|i| self.0[i] > o.0[i]))
        }
        /// `o` where `self < o`, else `self` (wasm's `pmax`).
        #[inline(always)]
        pub fn pmax(self, o: F4) -> F4 {
            map(self, o, |a, b| if a < b { b } else { a })
        }
        #[inline(always)]
        pub fn abs(self) -> F4 {
            F4(self.0.map(f32::abs))
        }
        /// Lanes `<= o` (false for NaN).
        #[inline(always)]
        pub fn le(self, o: F4) -> Mask {
            Mask([0, 1, 2, 3].map(|i| self.0[i] <= o.0[i]))
        }
    }

    super::binary_operators! {
        Add add |a, b| map(a, b, |a, b| a + b),
        Sub sub |a, b| map(a, b, |a, b| a - b),
        Mul mul |a, b| map(a, b, |a, b| a * b),
        Div div |a, b| map(a, b, |a, b| a / b),
    }

    impl core::ops::Neg for F4 {
        type Output = F4;
        #[inline(always)]
        fn neg(self) -> F4 {
            F4(self.0.map(|a| -a))
        }
    }

    impl Mask {
        #[inline(always)]
        pub fn and(self, o: Mask) -> Mask {
            Mask([0, 1, 2, 3].map(|i| self.0[i] && o.0[i]))
        }
        /// 1.0 where true, 0.0 where false.
        #[inline(always)]
        pub fn to_unit(self) -> F4 {
            F4(self.0.map(|m| if m { 1.0 } else { 0.0 }))
        }
        /// `a` where true, `b` where false, bit for bit.
        #[inline(always)]
        pub fn select(self, a: F4, b: F4) -> F4 {
            F4([0, 1, 2, 3].map(|i| if self.0[i] { a.0[i] } else { b.0[i] }))
        }
        /// Lanes picked from this mask (indices 0–3).
        #[inline(always)]
        pub fn shuffle<const I: usize, const J: usize, const K: usize, const L: usize>(
            self,
        ) -> Mask {
            Mask([self.0[I], self.0[J], self.0[K], self.0[L]])
        }
        /// Whether every lane is true.
        #[inline(always)]
        pub fn all(self) -> bool {
            self.0.iter().all(|&m| m)
        }
    }
}

pub use imp::F4;

/// Whether this build runs [`F4`] as real SIMD instructions.
pub const SIMD: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// Whether loops that need no SIMD to be correct go four at a time: everywhere
/// but the wasm build without SIMD, where four lanes would be four scalar
/// operations in more code (natively the four-wide loops run on plain arrays,
/// so the tests check them).
pub const FOUR_WIDE: bool = !cfg!(all(target_arch = "wasm32", not(target_feature = "simd128")));
