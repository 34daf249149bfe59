//! The Rust types of the solver parameters (`f64`, `u32`, `bool`,
//! [`SolverOrder`], [`SolverKind`]): how a table value becomes a field of [`super::Params`]
//! and back.

use super::parameter::{Parameter, Value};
use super::solver_kind::SolverKind;
use super::solver_order::SolverOrder;
use crate::error::ClothError;

/// A solver parameter's Rust type: how its table default and a number, word
/// or flag become a field value, and how the value is shown to JavaScript.
pub trait ParameterValue: Sized + Copy {
    /// The field value of the table's default.
    fn from_default(parameter: &Parameter) -> Self;
    /// The value as a JavaScript number, word or flag.
    fn to_value(self) -> Value;
    /// The field value of `value`, refused naming `parameter` when it is of
    /// the wrong kind (a whole-numbered parameter also checks its rule, so
    /// the value fits the type).
    fn from_value(parameter: &Parameter, value: Value) -> Result<Self, ClothError>;
}

/// The refusal of `value`, of the wrong kind for `parameter`: `wrong_type`
/// naming the parameter, as its setter refuses it.
pub fn wrong_kind(parameter: &Parameter, value: Value) -> ClothError {
    ClothError::WrongType {
        field: parameter.name,
        got: value.type_name(),
        expected: parameter.kind().to_string(),
    }
}

impl ParameterValue for f64 {
    fn from_default(parameter: &Parameter) -> f64 {
        parameter.default_number()
    }
    fn to_value(self) -> Value {
        Value::Number(self)
    }
    fn from_value(parameter: &Parameter, value: Value) -> Result<f64, ClothError> {
        match value {
            Value::Number(v) => Ok(v),
            other => Err(wrong_kind(parameter, other)),
        }
    }
}

impl ParameterValue for u32 {
    fn from_default(parameter: &Parameter) -> u32 {
        parameter.default_number() as u32
    }
    fn to_value(self) -> Value {
        Value::Number(self as f64)
    }
    fn from_value(parameter: &Parameter, value: Value) -> Result<u32, ClothError> {
        match value {
            Value::Number(v) => Ok(parameter.check_number(v)? as u32),
            other => Err(wrong_kind(parameter, other)),
        }
    }
}

impl ParameterValue for bool {
    fn from_default(parameter: &Parameter) -> bool {
        matches!(parameter.default, Value::Flag(true))
    }
    fn to_value(self) -> Value {
        Value::Flag(self)
    }
    fn from_value(parameter: &Parameter, value: Value) -> Result<bool, ClothError> {
        match value {
            Value::Flag(b) => Ok(b),
            other => Err(wrong_kind(parameter, other)),
        }
    }
}

/// `ParameterValue` for an enum of words with `name` and `from_name`.
macro_rules! word_value {
    ($($ty:ident),*) => {$(
        impl ParameterValue for $ty {
            fn from_default(parameter: &Parameter) -> $ty {
                match parameter.default {
                    Value::Word(name) => $ty::from_name(name).unwrap_or_default(),
                    _ => $ty::default(),
                }
            }
            fn to_value(self) -> Value {
                Value::Word(self.name())
            }
            fn from_value(parameter: &Parameter, value: Value) -> Result<$ty, ClothError> {
                match value {
                    Value::Word(w) => $ty::from_name(w),
                    other => Err(wrong_kind(parameter, other)),
                }
            }
        }
    )*};
}

word_value!(SolverOrder, SolverKind);
