//! Reading JavaScript arrays without letting JavaScript throw through the
//! wasm stack: a typed array is copied by the engine into a fresh one of
//! ours (`set`, through an import that catches), so a buffer transferred to
//! a worker (detached), a Proxy, or a `length` getter that throws or calls
//! back into the same object is refused with an `Error` naming the field,
//! and the object called stays usable.

use js_sys::{Array, ArrayBuffer, Float32Array, Function, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::convert::{room, unreadable, wrong_type};

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray(value)`, which throws for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn try_is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// `ours.set(source)` on a typed array of ours, through `Reflect.apply`,
/// which catches what the copy throws (a detached buffer, an unreadable
/// element).
fn fill_from(ours: &JsValue, source: &JsValue) -> Result<(), JsValue> {
    let set = Reflect::get(ours, &JsValue::from_str("set"))?.dyn_into::<Function>()?;
    Reflect::apply(&set, ours, &Array::of1(source)).map(|_| ())
}

/// Whether `value` is an array (`Array.isArray`); false for a revoked Proxy,
/// whose check throws.
pub(super) fn is_array(value: &JsValue) -> bool {
    try_is_array(value).unwrap_or(false)
}

/// A typed array a call copies, and the Rust values it copies into.
pub(super) trait TypedArray: JsCast + Clone {
    /// Its element type.
    type Value: Copy + Default;
    /// Its name, for a message about a value of another type.
    const NAME: &'static str;
    /// A new array of ours with `length` zeros.
    fn zeros(length: u32) -> Self;
    /// Copies this array of ours into `to` (of its length), bits kept exactly.
    fn copy_into(&self, to: &mut [Self::Value]);
}

impl TypedArray for Float32Array {
    type Value = f32;
    const NAME: &'static str = "a Float32Array";
    fn zeros(length: u32) -> Self {
        Float32Array::new_with_length(length)
    }
    fn copy_into(&self, to: &mut [f32]) {
        self.copy_to(to)
    }
}

impl TypedArray for Uint32Array {
    type Value = u32;
    const NAME: &'static str = "a Uint32Array";
    fn zeros(length: u32) -> Self {
        Uint32Array::new_with_length(length)
    }
    fn copy_into(&self, to: &mut [u32]) {
        self.copy_to(to)
    }
}

/// The length of `value`, a typed array `A` (a real one: a Proxy of one is
/// refused, since reading it runs the Proxy's code), read with `Reflect`;
/// the error names `field`. A detached array is refused.
pub(super) fn typed_length<A: TypedArray>(field: &str, value: &JsValue) -> Result<u32, JsValue> {
    let zeros = A::zeros(0);
    length_of(
        field,
        value,
        value.is_instance_of::<A>(),
        zeros.as_ref(),
        A::NAME,
    )
}

/// [`typed_length`] for a value that `is_a` typed array of the kind of
/// `zeros` (empty), named `name`.
fn length_of(
    field: &str,
    value: &JsValue,
    is_a: bool,
    zeros: &JsValue,
    name: &str,
) -> Result<u32, JsValue> {
    // ArrayBuffer.isView reads no property: false for a Proxy of a typed array
    if !ArrayBuffer::is_view(value) || !is_a {
        return Err(wrong_type(field, value, name));
    }
    let length = match Reflect::get(value, &JsValue::from_str("length")).map(|v| v.as_f64()) {
        Ok(Some(length)) if length >= 0.0 && length <= u32::MAX as f64 => length as u32,
        _ => return Err(unreadable(field)),
    };
    // a detached array reads as empty; copying it throws
    if length == 0 && fill_from(zeros, value).is_err() {
        return Err(unreadable(field));
    }
    Ok(length)
}

/// Copies `value`, a typed array `A` of `length` elements (as
/// [`typed_length`] read), into a new `Vec`; a detached buffer or any other
/// throw while copying is refused naming `field`.
pub(super) fn copy_typed<A: TypedArray>(
    field: &'static str,
    value: &JsValue,
    length: u32,
) -> Result<Vec<A::Value>, JsValue> {
    let mut values: Vec<A::Value> = room(field, length as usize)?;
    values.resize(length as usize, A::Value::default());
    let ours = A::zeros(length);
    fill_from(ours.as_ref(), value).map_err(|_| unreadable(field))?;
    ours.copy_into(&mut values);
    Ok(values)
}
