//! Fallible allocation.
//!
//! Building a big cloth or a big frame asks for tens of MiB at once, and wasm
//! memory ends at 4 GiB (sooner when the browser refuses to grow it). A plain
//! `Vec` that cannot allocate aborts, which in wasm is a trap: the module's
//! objects stay borrowed for good and every later call fails. The helpers below
//! report the failure instead, so a caller can refuse the request and keep
//! running. Everything else (the steps, drawing into a frame that exists) works
//! in buffers reserved up front and allocates nothing proportional to the cloth.

use std::collections::TryReserveError;
use std::mem::size_of;

/// The wasm build's allocator: talc (a well-kept allocator for WebAssembly)
/// instead of Rust's default dlmalloc, for a smaller module and faster
/// allocation. It grows wasm memory on demand as dlmalloc does and answers a
/// refused growth with a null pointer, so the helpers below still report it
/// as an error. Native builds (and their counting allocator in
/// `tests/memory.rs`) keep the system allocator.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// An empty `Vec` with room for exactly `capacity` elements.
pub fn with_capacity<T>(capacity: usize) -> Result<Vec<T>, TryReserveError> {
    let mut values = Vec::new();
    values.try_reserve_exact(capacity)?;
    Ok(values)
}

/// `len` copies of `value`.
pub fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>, TryReserveError> {
    let mut values = with_capacity(len)?;
    values.resize(len, value);
    Ok(values)
}

/// A copy of `values`.
pub fn copied<T: Copy>(values: &[T]) -> Result<Vec<T>, TryReserveError> {
    let mut copy = with_capacity(values.len())?;
    copy.extend_from_slice(values);
    Ok(copy)
}

/// The first `len` items, in room reserved for exactly `len` (never more, so
/// collecting cannot reallocate).
pub fn collect<T>(
    len: usize,
    items: impl IntoIterator<Item = T>,
) -> Result<Vec<T>, TryReserveError> {
    let mut values = with_capacity(len)?;
    values.extend(items.into_iter().take(len));
    Ok(values)
}

/// Reserves room in `values` for `len` values in all (nothing changes but
/// capacity). Out of line: its growth path is compiled once per element
/// type, not at each of the buffers a cloth reserves (the helpers above,
/// which return the `Vec`, cost more as calls than inlined).
#[inline(never)]
pub fn reserve_len<T>(values: &mut Vec<T>, len: usize) -> Result<(), TryReserveError> {
    values.try_reserve_exact(len.saturating_sub(values.len()))
}

/// Reserves room in `values` for `more` values beyond its length, as
/// `try_reserve_exact` does, through [`reserve_len`]'s one growth path.
pub fn reserve_more<T>(values: &mut Vec<T>, more: usize) -> Result<(), TryReserveError> {
    let len = values.len().saturating_add(more);
    reserve_len(values, len)
}

/// Bytes `values` holds allocated (its capacity, not its length).
#[allow(clippy::ptr_arg)] // the capacity is the point
pub fn capacity_bytes<T>(values: &Vec<T>) -> u64 {
    (values.capacity() * size_of::<T>()) as u64
}

/// `bytes` in MiB, rounded up (a message never says 0 MiB for something that
/// did not fit).
pub fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}
