//! The getter and setter of every solver parameter, generated from the
//! parameter table: the getter returns the live value, the setter checks the
//! type, lets the `Cloth` setter check the rule, and throws (keeping the old
//! value) when either refuses. Every setter calls the one
//! [`Simulation::set_parameter`], so the module holds that code once.

use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, read_value, to_js};
use super::Simulation;
use crate::params::{self, with_solver_parameters, Parameter, ParameterValue};

macro_rules! solver_accessors {
    ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
        #[wasm_bindgen]
        impl Simulation {
            $(
                #[wasm_bindgen(getter = $js, unchecked_return_type = $ts)]
                pub fn $field(&self) -> JsValue {
                    to_js(self.cloth.params().$field.to_value())
                }

                #[wasm_bindgen(setter = $js)]
                pub fn $js_setter(
                    &mut self,
                    #[wasm_bindgen(unchecked_param_type = $ts)] value: JsValue,
                ) -> Result<(), JsValue> {
                    self.set_parameter(&params::$entry, &value)
                }
            )*
        }
    };
}

with_solver_parameters!(solver_accessors);

impl Simulation {
    /// Sets `parameter` to a JavaScript value: its type checked here, its
    /// rule by the `Cloth` setter of the same parameter.
    #[inline(never)]
    fn set_parameter(&mut self, parameter: &Parameter, value: &JsValue) -> Result<(), JsValue> {
        let value = read_value(parameter, value)?;
        self.cloth
            .set_parameter(parameter.name, value)
            .map_err(cloth_error)
    }
}
