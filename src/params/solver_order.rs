//! The order in which the solver sweeps the distance constraints.

use crate::error::{invalid, quoted, ClothError};

/// The order in which one Gauss–Seidel sweep visits the constraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolverOrder {
    /// Creation order, as the original demo: reproduces its results.
    Original,
    /// Grouped by graph colour so independent constraints are solved together,
    /// four at a time: faster, and an equally valid sweep. The default.
    #[default]
    Colored,
}

impl SolverOrder {
    /// The name used by the JavaScript API: `"original"` or `"colored"`.
    pub fn name(self) -> &'static str {
        match self {
            SolverOrder::Original => "original",
            SolverOrder::Colored => "colored",
        }
    }

    /// Parses `"original"` or `"colored"`.
    pub fn from_name(name: &str) -> Result<Self, ClothError> {
        match name {
            "original" => Ok(SolverOrder::Original),
            "colored" => Ok(SolverOrder::Colored),
            _ => Err(invalid(
                "solverOrder",
                quoted(name, name.chars().count()),
                "\"original\" or \"colored\"",
            )),
        }
    }
}
