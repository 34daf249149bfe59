//! Errors: what can go wrong when driving a cloth, and how a message shows
//! the values it is about.
//!
//! Every refusal in the crate is a [`ClothError`]. Its message names the field
//! (or argument), the value that was rejected and what would have been
//! accepted; [`ClothError::field`] and [`ClothError::code`] give the first and a
//! stable code, which the wasm layer hands to JavaScript as an `Error`'s
//! `field` and `code`.

use std::fmt;

mod number;
mod quote;
mod typed;

pub use number::{Number, Plain, Shortest};
pub use quote::{quote, quoted, ECHO_CHARS};
pub use typed::as_typed;

/// Everything that can go wrong when driving a cloth.
///
/// The message of each variant names the field (or argument), the value that
/// was rejected and what would have been accepted.
#[derive(Debug, Clone, PartialEq)]
pub enum ClothError {
    /// A parameter or argument outside its allowed range.
    InvalidValue {
        /// Name of the field as the JavaScript API spells it (`timeStepSize`, `mass`, ...).
        field: &'static str,
        /// The rejected value, as text.
        value: String,
        /// What would have been accepted, in words.
        allowed: String,
    },
    /// A value of the wrong type (a string or a boolean for a number, ...).
    WrongType {
        /// Name of the field as the JavaScript API spells it.
        field: &'static str,
        /// The type given, as JavaScript's `typeof` names it (`"string"`).
        got: &'static str,
        /// What would have been accepted, in words.
        expected: String,
    },
    /// A particle index that does not exist in this cloth.
    ParticleIndex {
        /// The rejected index, as text (it may have been negative or fractional).
        index: String,
        /// Number of particles in the cloth.
        count: usize,
    },
    /// A scene (see [`crate::model::Scene`]) with a wrong entry.
    InvalidScene {
        /// The scene field as JavaScript spells it (`distances`, `masses`, ...).
        field: &'static str,
        /// Which entry of the field, when the problem is one entry's.
        index: Option<usize>,
        /// What is wrong with it, in words.
        problem: String,
    },
    /// A saved state (see [`crate::cloth::ClothState`]) that does not fit
    /// this cloth or holds a wrong entry; the cloth is left as it was.
    InvalidState {
        /// The state field as JavaScript spells it (`positions`, `torn`, ...).
        field: &'static str,
        /// Which entry of the field, when the problem is one entry's.
        index: Option<usize>,
        /// What is wrong with it, in words.
        problem: String,
    },
    /// Memory ran out: what was asked for was not built and nothing changed.
    OutOfMemory {
        /// The field (or argument) whose value asked for the memory.
        field: &'static str,
        /// What did not fit and how much it needs, e.g. `a 500 × 500 cloth needs 47 MiB`.
        what: String,
    },
}

impl ClothError {
    /// The JavaScript name of the field or argument the error is about
    /// (`"timeStepSize"`, `"width"`, `"index"`, ...).
    pub fn field(&self) -> &'static str {
        match self {
            ClothError::InvalidValue { field, .. }
            | ClothError::WrongType { field, .. }
            | ClothError::InvalidScene { field, .. }
            | ClothError::InvalidState { field, .. }
            | ClothError::OutOfMemory { field, .. } => field,
            ClothError::ParticleIndex { .. } => "index",
        }
    }

    /// A short code that stays the same whatever the wording of the message:
    /// `"invalid_value"`, `"wrong_type"`, `"invalid_scene"`, `"invalid_state"`,
    /// `"particle_index"` or `"out_of_memory"`.
    pub fn code(&self) -> &'static str {
        match self {
            ClothError::InvalidValue { .. } => "invalid_value",
            ClothError::WrongType { .. } => "wrong_type",
            ClothError::InvalidScene { .. } => "invalid_scene",
            ClothError::InvalidState { .. } => "invalid_state",
            ClothError::ParticleIndex { .. } => "particle_index",
            ClothError::OutOfMemory { .. } => "out_of_memory",
        }
    }
}

impl fmt::Display for ClothError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClothError::InvalidValue {
                field,
                value,
                allowed,
            } => write!(f, "invalid {field}: got {value}, expected {allowed}"),
            ClothError::WrongType {
                field,
                got,
                expected,
            } => write!(
                f,
                "invalid {field}: got a value of type {got}, expected {expected}"
            ),
            ClothError::ParticleIndex { index, count } => write!(
                f,
                "invalid particle index: got {index}, expected a whole number from 0 to {}",
                count.saturating_sub(1)
            ),
            ClothError::InvalidScene {
                field,
                index: Some(index),
                problem,
            } => write!(f, "invalid scene: {field}[{index}] {problem}"),
            ClothError::InvalidScene {
                field,
                index: None,
                problem,
            } => write!(f, "invalid scene: {field} {problem}"),
            ClothError::InvalidState {
                field,
                index: Some(index),
                problem,
            } => write!(f, "invalid state: {field}[{index}] {problem}"),
            ClothError::InvalidState {
                field,
                index: None,
                problem,
            } => write!(f, "invalid state: {field} {problem}"),
            ClothError::OutOfMemory { what, .. } => write!(f, "out of memory: {what}"),
        }
    }
}

impl std::error::Error for ClothError {}

/// The [`ClothError::InvalidValue`] of `value` for `field`, with what is `allowed`.
pub fn invalid(
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> ClothError {
    ClothError::InvalidValue {
        field,
        value: value.to_string(),
        allowed: allowed.into(),
    }
}
