//! Where JavaScript values become Rust values and back: numbers checked to be
//! numbers (and whole, finite, not negative and within their Rust type for
//! counts and indices), short strings, properties read without letting a
//! getter throw through the wasm stack, and every error as a JavaScript
//! `Error` with `field` and `code`.

use js_sys::{JsString, Reflect};
use wasm_bindgen::prelude::*;

use crate::error::{self, ClothError, Number};
use crate::memory;
use crate::params::{Parameter, Rule, Value};

#[wasm_bindgen(typescript_custom_section)]
const ERROR_TYPES: &str = r#"
/** The `code` of an Error thrown by `Simulation`: what went wrong, in words that do not change. */
export type SimulationErrorCode =
  | "invalid_value"     // a number or string out of its range, or not one of the allowed names
  | "invalid_scene"     // Simulation.fromScene: a malformed entry of the scene (the message names it)
  | "invalid_state"     // restoreState: a saved state that does not fit this simulation (the message names the field)
  | "wrong_type"        // not a number (or string, boolean, context, view object) at all
  | "particle_index"    // an index that names no particle
  | "reentrant"         // a getter or Proxy of an argument called back into the module more than 8 calls deep
  | "out_of_memory"     // the cloth, its reordering or the drawInto frame does not fit in wasm memory
  | "canvas_too_large"  // drawInto: more than 4096 × 4096 pixels
  | "draw_failed";      // drawInto: the canvas refused the image (ImageData or putImageData threw)

/**
 * Every Error a `Simulation` method, getter, setter or constructor throws for bad
 * input is a plain `Error` with two more own properties; its message starts
 * `invalid <field>:`, `invalid scene:`, `invalid particle index:`, `out of memory:` or `drawInto:`.
 * Calls on a freed Simulation, or re-entrant calls into one that is busy (from a
 * `drawInto` view getter, say), throw wasm-bindgen's plain Errors without them.
 */
export interface SimulationError extends Error {
  /** The JavaScript name of the argument: "mass", "width", "index", "solverOrder", "ctx", "view.scale", ... */
  readonly field: string;
  readonly code: SimulationErrorCode;
}
"#;

/// The `Error` JavaScript sees: `message`, plus own properties `field` (the
/// JavaScript name of the argument: `"mass"`, `"index"`, `"view.scale"`, ...)
/// and `code`, one of `"invalid_value"`, `"invalid_scene"`, `"wrong_type"`, `"particle_index"`,
/// `"reentrant"`, `"out_of_memory"`, `"canvas_too_large"` or `"draw_failed"`. Messages are
/// bounded (they echo at most a short part of any value), so building one
/// cannot fail. A `js_sys::Error` rather than a `JsError`: only a JavaScript
/// object can carry the extra properties.
pub(super) fn error(field: &str, code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Reflect.set catches anything a setter planted on Error.prototype throws
    let _ = Reflect::set(&error, &"field".into(), &field.into());
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

pub(super) fn cloth_error(error: ClothError) -> JsValue {
    self::error(error.field(), error.code(), &error.to_string())
}

/// `typeof value`: one of eight short names, so safe to echo.
pub(super) fn type_name(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "unknown".into())
}

/// The error for a value of the wrong type, naming the type (never the value).
pub(super) fn wrong_type(field: &str, value: &JsValue, expected: &str) -> JsValue {
    let got = type_name(value);
    error(
        field,
        "wrong_type",
        &format!("invalid {field}: got a value of type {got}, expected {expected}"),
    )
}

/// Reads a JavaScript number, refusing every other type by name. Out of
/// line: a call is smaller than the check and refusal it would copy.
#[inline(never)]
pub(super) fn number(field: &str, value: &JsValue) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| wrong_type(field, value, "a number"))
}

/// Numbers up to 2^53 are whole numbers exactly in `f64`: the largest count
/// or index [`whole`] reads.
pub(super) const MAX_EXACT: u64 = 1 << 53;

/// Reads a JavaScript number as a whole number from 0 to `max` (the range of the
/// Rust type it becomes): its type, finiteness, wholeness, sign and size are
/// checked here, where JavaScript values become Rust values, and nowhere else.
/// `refuse` is the core's refusal of the argument, given the number as
/// JavaScript shows it, so a message reads the same whichever side refuses.
pub(super) fn whole(
    field: &str,
    value: &JsValue,
    max: u64,
    refuse: impl FnOnce(Number) -> ClothError,
) -> Result<u64, JsValue> {
    let v = number(field, value)?;
    if v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= max.min(MAX_EXACT) as f64 {
        Ok(v as u64)
    } else {
        Err(cloth_error(refuse(Number(v))))
    }
}

/// Reads a whole-numbered parameter of the table (`iterations`, `width`,
/// `fixed`, ...) through its rule, which refuses every number that is not
/// whole or out of its range (at most 1000), so the value fits any count type.
pub(super) fn table_whole(parameter: &Parameter, value: f64) -> Result<u32, JsValue> {
    let checked = parameter.check_number(value).map_err(cloth_error)?;
    Ok(checked as u32)
}

/// Longest string any setter accepts, in UTF-16 units (`"original"` and
/// `"colored"` are shorter); a longer one is refused without being copied.
pub(super) const MAX_NAME_LENGTH: u32 = 32;

/// The string itself when it is at most [`MAX_NAME_LENGTH`] long; otherwise
/// only its beginning, one UTF-16 unit past what a message shows (so the cut is
/// visible): a huge string is never copied into wasm memory, where it would
/// grow it for good, or not fit.
pub(super) fn string_start(text: &JsString) -> String {
    let length = text.length();
    if length <= MAX_NAME_LENGTH {
        return String::from(text);
    }
    String::from(text.slice(0, error::ECHO_CHARS as u32 + 1))
}

/// Reads a solver parameter's JavaScript value as a table value, refusing a
/// value of the wrong type by name: a flag must be a boolean, a word a short
/// string among the table's words, anything else a number (whose rule the
/// `Cloth` setter checks). One function for every parameter, so each exported
/// setter is only a call.
pub(super) fn read_value(parameter: &Parameter, value: &JsValue) -> Result<Value, JsValue> {
    match parameter.rule {
        Rule::Flag => value
            .as_bool()
            .map(Value::Flag)
            .ok_or_else(|| wrong_type(parameter.name, value, parameter.kind())),
        Rule::Words(words) => {
            let Some(text) = value.dyn_ref::<JsString>() else {
                let expected = format!("the string {}", parameter.expected());
                return Err(wrong_type(parameter.name, value, &expected));
            };
            let start = string_start(text);
            let name = parameter
                .check_word(&start, text.length() as usize)
                .map_err(cloth_error)?;
            // the table's own word, which outlives the string read
            let word = words
                .iter()
                .find(|w| **w == name)
                .copied()
                .unwrap_or_default();
            Ok(Value::Word(word))
        }
        _ => number(parameter.name, value).map(Value::Number),
    }
}

/// A table value as a JavaScript value.
pub(super) fn to_js(value: Value) -> JsValue {
    match value {
        Value::Number(v) => JsValue::from_f64(v),
        Value::Word(w) => JsValue::from_str(w),
        Value::Flag(f) => JsValue::from_bool(f),
    }
}

/// Sets `name` of `object` (one of ours) to `value`: one call, out of line,
/// for every object a getter builds.
#[inline(never)]
pub(super) fn set(object: &JsValue, name: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(name), value);
}

/// Reads `name` of `object` (`undefined` when absent or when its getter throws).
pub(super) fn property(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `name` of `object` (`undefined` when absent); a getter or Proxy
/// that throws (or calls back into the object being called) is refused as
/// `wrong_type` naming `field`.
pub(super) fn read(field: &str, object: &JsValue, name: &str) -> Result<JsValue, JsValue> {
    Reflect::get(object, &JsValue::from_str(name)).map_err(|_| unreadable(field))
}

/// The refusal of a value of `field` whose reading threw (a getter or Proxy
/// that throws or calls back in, a typed array whose buffer was transferred).
pub(super) fn unreadable(field: &str) -> JsValue {
    error(
        field,
        "wrong_type",
        &format!("invalid {field}: could not be read (a getter, Proxy or detached buffer threw)"),
    )
}

/// Room for `length` values of `field`, or the out-of-memory error.
pub(super) fn room<T>(field: &'static str, length: usize) -> Result<Vec<T>, JsValue> {
    memory::with_capacity(length).map_err(|_| no_room(field, length))
}

/// The out-of-memory error of [`room`]: one copy, whatever the values' type.
#[inline(never)]
fn no_room(field: &'static str, length: usize) -> JsValue {
    cloth_error(ClothError::OutOfMemory {
        field,
        what: format!("{field} of {length} numbers"),
    })
}
