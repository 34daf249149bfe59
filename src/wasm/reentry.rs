//! How deep calls that read JavaScript objects may nest. Reading an object
//! runs its getters and Proxy traps, which may call back into the module; a
//! getter that calls `fromScene` on its own scene would recurse until the
//! module's stack overflows, and after that no call of any object survives.
//! Each reading call holds a [`Reading`] while it reads; past [`MAX_DEPTH`]
//! nested ones the innermost is refused (`code` `"reentrant"`) and the
//! outer calls go on as the refusal leaves them.

use std::cell::Cell;

use wasm_bindgen::JsValue;

use super::convert::error;

/// The reading calls that may be under way at once: far below what the
/// module's stack holds (several hundred nested scene readings).
pub(super) const MAX_DEPTH: u32 = 8;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Held by a call while it reads a JavaScript object (see the module's text).
pub(super) struct Reading(());

impl Reading {
    /// Starts a reading of `field`; refused when [`MAX_DEPTH`] are under way.
    pub(super) fn begin(field: &str) -> Result<Reading, JsValue> {
        DEPTH.with(|depth| {
            if depth.get() >= MAX_DEPTH {
                return Err(error(
                    field,
                    "reentrant",
                    &format!(
                        "invalid {field}: its getters or Proxy call back into the module too deeply"
                    ),
                ));
            }
            depth.set(depth.get() + 1);
            Ok(Reading(()))
        })
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        DEPTH.with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}
