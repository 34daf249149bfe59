//! Every solver parameter through one getter and one setter, by name.
//!
//! The module exports `parameterValue(name)` and `setParameterValue(name,
//! value)` instead of a getter and a setter per parameter; `www/lib/wasm.js`
//! turns them into the `Simulation` properties (`sim.stiffness = 5`) from the
//! generated table (`www/lib/parameters.js`), and the TypeScript section below
//! declares those properties, generated from the same list as `Params`. The
//! getter returns the live value; the setter checks the type, lets the `Cloth`
//! setter check the rule, and throws (keeping the old value) when either
//! refuses. Two exports instead of forty-four keep the module smaller.

use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, read_value, to_js};
use super::Simulation;
use crate::error;
use crate::params::{with_solver_parameters, Parameter, Value};

macro_rules! solver_property_types {
    ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
        /// The `Simulation` properties that `www/lib/wasm.js` defines, for
        /// the `.d.ts` (an interface merged with the class).
        #[wasm_bindgen(typescript_custom_section)]
        const SOLVER_PROPERTIES: &str = concat!(
            "export interface Simulation {\n",
            $("    ", stringify!($js), ": ", $ts, ";\n",)*
            "}\n"
        );
    };
}

with_solver_parameters!(solver_property_types);

#[wasm_bindgen]
impl Simulation {
    /// The live value of the solver parameter called `name` (its property
    /// name); what the property getters of `www/lib/wasm.js` call.
    #[wasm_bindgen(js_name = parameterValue, skip_typescript)]
    pub fn parameter_value(&self, name: &str) -> Result<JsValue, JsValue> {
        let (_, value) = self.solver_parameter(name)?;
        Ok(to_js(value))
    }

    /// Sets the solver parameter called `name` to `value`: its type checked
    /// here, its rule by the `Cloth` setter of the same parameter; on an
    /// error nothing changes. What the property setters of `www/lib/wasm.js`
    /// call.
    #[wasm_bindgen(js_name = setParameterValue, skip_typescript)]
    pub fn set_parameter_value(&mut self, name: &str, value: JsValue) -> Result<(), JsValue> {
        let (parameter, _) = self.solver_parameter(name)?;
        let value = read_value(parameter, &value)?;
        self.cloth
            .set_parameter(parameter.name, value)
            .map_err(cloth_error)
    }
}

impl Simulation {
    /// The table entry and live value of the solver parameter called `name`.
    fn solver_parameter(&self, name: &str) -> Result<(&'static Parameter, Value), JsValue> {
        self.cloth
            .params()
            .values()
            .into_iter()
            .find(|(parameter, _)| parameter.name == name)
            .ok_or_else(|| {
                cloth_error(error::invalid(
                    "name",
                    error::quoted(name, name.len()),
                    "the name of a solver parameter".to_string(),
                ))
            })
    }
}
