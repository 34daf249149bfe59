//! Parameters of the cloth and their validation.
//!
//! [`PARAMETERS`] (in `table.rs`) is the one description of every parameter:
//! its JavaScript name, element attribute, label, unit, meaning, accepted
//! values, default and how it takes effect. [`Params`], its defaults, the
//! checks, the `Simulation` accessors (`src/wasm/parameters.rs`) and the
//! JavaScript table `www/lib/parameters.js` (with its types and the README's
//! parameter table, checked by `tests/generated.rs`) are all made from it.
//!
//! Every value a user can type reaches the simulation through
//! [`Parameter::check_number`] or [`Parameter::check_word`]. Each either returns
//! the accepted value or a [`ClothError`] that names the field, the rejected value
//! and what is allowed, so the caller can show it next to the input and keep
//! running with the old value.
//!
//! The ranges are wider than anything physically sensible, but narrow enough
//! that every derived quantity (`1/mass`, `compliance/dt²`, `dt*gravity`) stays
//! finite in `f32`, and that no single input can freeze a browser tab.
//!
//! * `parameter.rs`: one parameter ([`Parameter`]) and its rule ([`Rule`]);
//! * `table.rs`: every parameter, and the list of the solver parameters;
//! * `field.rs`: the Rust types of the solver parameters ([`ParameterValue`]);
//! * `grid_size.rs`, `solver_order.rs`, `solver_kind.rs`: [`GridSize`] and
//!   [`FixedPreset`] (the grid a cloth is built as), [`SolverOrder`],
//!   [`SolverKind`];
//! * `limits.rs`: the bounds of coordinates and particle indices;
//! * [`work`]: what a step costs, and the limits of a step and a call.

mod field;
mod grid_size;
mod limits;
mod parameter;
mod solver_kind;
mod solver_order;
mod table;
pub mod work;

pub use field::{wrong_kind, ParameterValue};
pub use grid_size::{FixedPreset, GridSize, MAX_PARTICLES};
pub use limits::{index_error, validate_coordinate, validate_index, MAX_COORDINATE, MAX_TIME};
pub use parameter::{Applies, Group, Parameter, Rule, Value};
pub use solver_kind::SolverKind;
pub use solver_order::SolverOrder;
pub(crate) use table::with_solver_parameters;
pub use table::*;
pub use work::{MAX_WORK_PER_CALL, MAX_WORK_PER_STEP};

use crate::error::{invalid, quoted, ClothError};

macro_rules! define_params {
    ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
        /// The live parameters of the solver: each can change while the cloth
        /// runs. Meaning, unit, range and default of each field: its entry in
        /// [`PARAMETERS`] (the field's doc names it).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Params {
            $(
                #[doc = concat!("See [`", stringify!($entry), "`].")]
                pub $field: $ty,
            )*
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $($field: <$ty as ParameterValue>::from_default(&$entry),)* }
            }
        }

        /// The table entries of the solver parameters, in the order of
        /// [`Params`]' fields.
        pub const SOLVER_PARAMETERS: &[&Parameter] = &[$(&$entry,)*];

        impl Params {
            /// Each field with its table entry, as JavaScript sees it.
            pub fn values(&self) -> Vec<(&'static Parameter, Value)> {
                vec![$((&$entry, self.$field.to_value()),)*]
            }
        }
    };
}

with_solver_parameters!(define_params);

impl Params {
    /// Compliance `α = 1/k` in m/N of the distance constraints, or 0 for
    /// PBD (stiffness 0).
    pub fn compliance(&self) -> f64 {
        compliance(self.stiffness)
    }

    /// Plain PBD's stiffness coefficient for the distance constraints of
    /// `stiffness`: [`Params::pbd_coefficient`] in PBD mode (stiffness 0),
    /// else 1 (XPBD's constraints ignore it).
    pub fn pbd_scale(&self) -> f64 {
        if self.stiffness == 0.0 {
            self.pbd_coefficient
        } else {
            1.0
        }
    }

    /// Whether wind acts: a drag above 0 and a wind velocity other than
    /// zero, gusts or turbulence.
    pub fn wind_blows(&self) -> bool {
        self.wind_drag > 0.0
            && (self.wind_x != 0.0
                || self.wind_y != 0.0
                || self.wind_gust > 0.0
                || self.wind_turbulence > 0.0)
    }

    /// The substep size `h = dt / substeps`, in seconds.
    pub fn substep_size(&self) -> f64 {
        self.time_step / self.substeps as f64
    }

    /// Checks every field; the first invalid one is reported.
    pub fn validate(&self) -> Result<(), ClothError> {
        for (parameter, value) in self.values() {
            if let Value::Number(v) = value {
                parameter.check_number(v)?;
            }
        }
        Ok(())
    }
}

/// Compliance `α = 1/k` in m/N of stiffness `k` in N/m, or 0 for stiffness 0
/// (rigid: plain PBD).
pub fn compliance(stiffness: f64) -> f64 {
    if stiffness == 0.0 {
        0.0
    } else {
        1.0 / stiffness
    }
}

/// Whether `name` is `expected`: out of line, so that the lookups of a
/// solver parameter by name ([`Params::set_named`],
/// `Cloth::set_parameter`) compare in one call each instead of an inlined
/// comparison per parameter (0.7 KB of the module).
#[inline(never)]
pub fn is_named(name: &str, expected: &str) -> bool {
    name == expected
}

impl Params {
    /// Sets the field of the solver parameter called `name` to `value`
    /// without checking its range (see [`Params::validate`]); a name that is
    /// no solver parameter, or a value of the wrong kind, is refused naming it.
    pub fn set_named(&mut self, name: &str, value: Value) -> Result<(), ClothError> {
        // each field with its entry, so that one lookup and one call per
        // Rust type serve every parameter
        macro_rules! fields {
            ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
                [$((&$entry, &mut self.$field as &mut dyn SetValue)),*]
            };
        }
        let fields: [(&Parameter, &mut dyn SetValue); _] = with_solver_parameters!(fields);
        match fields
            .into_iter()
            .find(|(entry, _)| is_named(name, entry.name))
        {
            Some((entry, field)) => field.set_value(entry, value),
            None => Err(invalid(
                "params",
                quoted(name, name.len()),
                "the name of a solver parameter".to_string(),
            )),
        }
    }
}

/// A field of [`Params`] set from a table value (see [`ParameterValue::from_value`]).
trait SetValue {
    fn set_value(&mut self, parameter: &Parameter, value: Value) -> Result<(), ClothError>;
}

impl<T: ParameterValue> SetValue for T {
    fn set_value(&mut self, parameter: &Parameter, value: Value) -> Result<(), ClothError> {
        *self = T::from_value(parameter, value)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::quoted;

    #[test]
    fn messages_name_field_value_and_range() {
        let err = MASS.check_number(0.0).unwrap_err().to_string();
        assert!(err.contains("mass"), "{err}");
        assert!(err.contains("got 0"), "{err}");
        assert!(err.contains("greater than 0"), "{err}");
        let err = TIME_STEP.check_number(-1.0).unwrap_err().to_string();
        assert!(
            err.contains("timeStepSize") && err.contains("got -1"),
            "{err}"
        );
        let err = GridSize::new(0, 30).unwrap_err().to_string();
        assert!(err.contains("width") && err.contains("got 0"), "{err}");
    }

    #[test]
    fn messages_echo_a_short_beginning_of_long_strings() {
        assert_eq!(quoted("fast", 4), "\"fast\"");
        let long = "x".repeat(1_000_000);
        let err = SolverOrder::from_name(&long).unwrap_err().to_string();
        assert!(err.len() < 200, "{} bytes", err.len());
        assert!(
            err.starts_with(&format!(
                "invalid solverOrder: got \"{}\"… (1000000 characters)",
                "x".repeat(40)
            )),
            "{err}"
        );
        // cut by characters, not bytes: no panic inside a multi-byte character
        let wide = "é".repeat(100);
        assert_eq!(
            quoted(&wide, 100),
            format!("{:?}… (100 characters)", "é".repeat(40))
        );
        // a beginning of a longer string says so even when it is short itself
        assert_eq!(quoted("abc", 5000), "\"abc\"… (5000 characters)");
    }

    #[test]
    fn errors_carry_their_field_and_code() {
        let err = MASS.check_number(0.0).unwrap_err();
        assert_eq!((err.field(), err.code()), ("mass", "invalid_value"));
        let err = validate_index(4, 4).unwrap_err();
        assert_eq!((err.field(), err.code()), ("index", "particle_index"));
        let err = GridSize::new(2, usize::MAX).unwrap_err();
        assert_eq!((err.field(), err.code()), ("height", "invalid_value"));
    }

    #[test]
    fn particle_ceiling_applies_to_the_product() {
        assert!(GridSize::new(500, 500).is_ok());
        assert!(GridSize::new(501, 500).is_err());
        assert!(GridSize::new(100000, 2).is_err());
    }

    #[test]
    fn non_numbers_are_rejected_everywhere() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(TIME_STEP.check_number(bad).is_err());
            assert!(STIFFNESS.check_number(bad).is_err());
            assert!(GRAVITY.check_number(bad).is_err());
            assert!(MASS.check_number(bad).is_err());
        }
    }

    #[test]
    fn counts_and_indices_are_checked_against_their_rules() {
        assert_eq!(
            ITERATIONS.check_count(0),
            Err(ITERATIONS.check_number(0.0).unwrap_err())
        );
        assert!(ITERATIONS.check_count(1001).is_err());
        assert_eq!(ITERATIONS.check_count(1000), Ok(1000));
        assert!(SUBSTEPS.check_count(0).is_err());
        assert_eq!(SUBSTEPS.check_count(100), Ok(100));
        assert!(SUBSTEPS.check_count(101).is_err());
        assert_eq!(validate_index(9, 10), Ok(9));
        assert_eq!(
            validate_index(10, 10).unwrap_err().to_string(),
            "invalid particle index: got 10, expected a whole number from 0 to 9"
        );
        for count in [0, 3, 5, usize::MAX] {
            let err = FixedPreset::from_count(count).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with(&format!("invalid fixed: got {count}, expected 1, 2 or 4")),
                "{err}"
            );
        }
        assert_eq!(FixedPreset::from_count(4), Ok(FixedPreset::Four));
        let err = GridSize::new(1, 30).unwrap_err().to_string();
        assert_eq!(
            err,
            "invalid width: got 1, expected a whole number from 2 to 1000 particles"
        );
    }
}
