//! Reading JavaScript arrays without letting JavaScript throw through the
//! wasm stack: a typed array is copied by the engine into a fresh one of
//! ours (`set`, through an import that catches), so a buffer transferred to
//! a worker (detached), a Proxy, or a `length` getter that throws or calls
//! back into the same object is refused with an `Error` naming the field,
//! and the object called stays usable.

use js_sys::{
    Array, ArrayBuffer, Float32Array, Float64Array, Function, Object, Reflect, Uint32Array,
};
use wasm_bindgen::prelude::*;

use super::convert::{room, unreadable, wrong_type};

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray(value)`, which throws for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn try_is_array(value: &JsValue) -> Result<bool, JsValue>;

    /// `Reflect.get(target, key, receiver)`: a getter of `target` run with
    /// `receiver` as its `this`; what it throws is caught.
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn get_as(target: &JsValue, key: &JsValue, receiver: &JsValue) -> Result<JsValue, JsValue>;

    /// A typed array of ours, filled with its `set`.
    #[wasm_bindgen(js_name = Object)]
    type Ours;
    #[wasm_bindgen(method, catch)]
    fn set(this: &Ours, source: &JsValue) -> Result<(), JsValue>;

    /// An array, read for its `every` (`Array.prototype.every` on an array
    /// of ours).
    #[wasm_bindgen(js_name = Array)]
    type Every;
    #[wasm_bindgen(method, getter, catch)]
    fn every(this: &Every) -> Result<Function, JsValue>;

    /// The `Number` constructor, read for its `isFinite`.
    #[wasm_bindgen(js_name = Number)]
    type Numbers;
    #[wasm_bindgen(static_method_of = Numbers, js_class = Number, getter, catch, js_name = isFinite)]
    fn is_finite() -> Result<JsValue, JsValue>;
}

/// `ours.set(source)` on a typed array of ours, which catches what the copy
/// throws (a detached buffer, an unreadable element).
fn fill_from(ours: &JsValue, source: &JsValue) -> Result<(), JsValue> {
    ours.unchecked_ref::<Ours>().set(source)
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

/// The length a typed array really has: `%TypedArray%.prototype.length`'s
/// getter applied to it (`Reflect.get` with the array as receiver), not a
/// `length` property it may have been given; 0 when its buffer is detached,
/// `None` when it is no typed array.
pub(super) fn own_typed_length(value: &JsValue) -> Option<f64> {
    let ours: JsValue = Float64Array::new_with_length(0).into();
    let typed_prototype = Object::get_prototype_of(&Object::get_prototype_of(&ours));
    get_as(&typed_prototype, &JsValue::from_str("length"), value)
        .ok()?
        .as_f64()
}

/// Whether every element of the array `value` is a finite number:
/// `Array.prototype.every(Number.isFinite)` through `Reflect.apply`, which
/// converts nothing and catches what a Proxy or getter throws (false then).
fn every_finite_number(value: &JsValue) -> bool {
    let every = Array::new().unchecked_into::<Every>().every();
    match (every, Numbers::is_finite()) {
        (Ok(every), Ok(is_finite)) => Reflect::apply(&every, value, &Array::of1(&is_finite))
            .map(|all| all.as_bool() == Some(true))
            .unwrap_or(false),
        _ => false,
    }
}

/// Reads `length` numbers of `value` into `values` (empty, with room for
/// them) in one copy by the engine (a typed array of ours filled with `set`)
/// instead of one call per element: for a typed array of numbers, or a plain
/// array whose every element is a finite number. `None`, with `values` left
/// empty, when the copy threw or cannot be trusted (a hole, a string or an
/// object that `set` would convert, a Proxy whose length changed): the caller
/// then reads element by element and names what it refuses.
pub(super) fn numbers_in_bulk(
    value: &JsValue,
    typed: bool,
    length: usize,
    values: &mut Vec<f64>,
) -> Option<()> {
    if !typed && !every_finite_number(value) {
        return None;
    }
    let ours = Float64Array::new_with_length(length as u32);
    if !typed {
        // what `set` leaves unwritten stays NaN, and is refused below
        ours.fill(f64::NAN, 0, length as u32);
    }
    fill_from(ours.as_ref(), value).ok()?;
    values.resize(length, 0.0);
    ours.copy_to(values);
    // a hole of a plain array passes `every` and becomes NaN
    if !typed && values.iter().any(|v| !v.is_finite()) {
        values.clear();
        return None;
    }
    Some(())
}
