//! Which solver steps the distance constraints: XPBD (plain PBD at
//! stiffness 0) or Catto's soft step.

use crate::error::{invalid, quoted, ClothError};

/// The solver of the distance constraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolverKind {
    /// XPBD: compliant position constraints, multipliers reset every
    /// substep; plain PBD at stiffness 0. The default.
    #[default]
    Xpbd,
    /// Soft step (Catto, Solver2D): soft constraints of a frequency and a
    /// damping ratio, warm started, with a relax pass ending each substep
    /// (see `src/solver/soft.rs`).
    SoftStep,
}

impl SolverKind {
    /// The name used by the JavaScript API: `"xpbd"` or `"softStep"`.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Xpbd => "xpbd",
            SolverKind::SoftStep => "softStep",
        }
    }

    /// Parses `"xpbd"` or `"softStep"`.
    pub fn from_name(name: &str) -> Result<Self, ClothError> {
        match name {
            "xpbd" => Ok(SolverKind::Xpbd),
            "softStep" => Ok(SolverKind::SoftStep),
            _ => Err(invalid(
                "solver",
                quoted(name, name.chars().count()),
                "\"xpbd\" or \"softStep\"",
            )),
        }
    }
}
