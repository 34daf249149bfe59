//! Parameters of the cloth and their validation.
//!
//! [`PARAMETERS`] is the one description of every parameter: its JavaScript
//! name, element attribute, label, unit, meaning, accepted values, default and
//! how it takes effect. [`Params`], its defaults, the checks, the `Simulation`
//! accessors (`src/wasm.rs`) and the JavaScript table `www/parameters.js` (with
//! its types and the README's parameter table, checked by `tests/generated.rs`)
//! are all made from it.
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

use std::fmt;

/// Largest number of particles (`width * height`), a rule across two table
/// entries ([`WIDTH`], [`HEIGHT`]). 500 × 500 steps in a few milliseconds in
/// wasm; beyond that one animation frame takes too long.
pub const MAX_PARTICLES: usize = 250_000;

/// Everything that can go wrong when driving a [`crate::Cloth`].
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
    /// A particle index that does not exist in this cloth.
    ParticleIndex {
        /// The rejected index, as text (it may have been negative or fractional).
        index: String,
        /// Number of particles in the cloth.
        count: usize,
    },
    /// A scene (see [`crate::scene::Scene`]) with a wrong entry.
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
            | ClothError::InvalidScene { field, .. }
            | ClothError::InvalidState { field, .. }
            | ClothError::OutOfMemory { field, .. } => field,
            ClothError::ParticleIndex { .. } => "index",
        }
    }

    /// A short code that stays the same whatever the wording of the message:
    /// `"invalid_value"`, `"invalid_scene"`, `"invalid_state"`, `"particle_index"`
    /// or `"out_of_memory"`.
    pub fn code(&self) -> &'static str {
        match self {
            ClothError::InvalidValue { .. } => "invalid_value",
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

/// A number shown the way JavaScript shows it in messages: `NaN`, `Infinity`,
/// `-Infinity`, and exponent form for very large or small values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(pub f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            write!(f, "NaN")
        } else if v.is_infinite() {
            write!(f, "{}Infinity", if v < 0.0 { "-" } else { "" })
        } else if v == 0.0 || (1e-7..1e21).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

/// Characters of a string an error message shows at most.
pub const ECHO_CHARS: usize = 40;

/// `text` quoted for a message, cut after [`ECHO_CHARS`] characters: a message
/// never grows with what it is about. `length` is the length of the whole
/// string (in the caller's unit: JavaScript counts UTF-16 units) when `text`
/// is only its beginning; a cut string ends in `…` and states the length.
pub fn quoted(text: &str, length: usize) -> String {
    let shown: String = text.chars().take(ECHO_CHARS).collect();
    if shown.len() == text.len() && length <= shown.chars().count() {
        format!("{shown:?}")
    } else {
        format!("{shown:?}… ({length} characters)")
    }
}

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

/// Which particles are fixed when the cloth is built (the original page's select).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FixedPreset {
    /// Particle 0, the top-left corner.
    One,
    /// The two top corners, `0` and `width - 1`. The default.
    #[default]
    Two,
    /// All four corners.
    Four,
}

impl FixedPreset {
    /// How many particles this preset fixes.
    pub fn count(self) -> usize {
        match self {
            FixedPreset::One => 1,
            FixedPreset::Two => 2,
            FixedPreset::Four => 4,
        }
    }

    /// The preset for a count of 1, 2 or 4 (the rule of [`FIXED`]).
    pub fn from_count(count: usize) -> Result<Self, ClothError> {
        match count {
            1 => Ok(FixedPreset::One),
            2 => Ok(FixedPreset::Two),
            4 => Ok(FixedPreset::Four),
            _ => Err(FIXED
                .check_count(count as u64)
                .err()
                .unwrap_or_else(|| invalid(FIXED.name, count, "1, 2 or 4"))),
        }
    }
}

/// The shape of the grid: fixed when the cloth is built (changed by a restart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSize {
    /// Particles per row. Default 40.
    pub width: usize,
    /// Number of rows. Default 30.
    pub height: usize,
}

impl Default for GridSize {
    fn default() -> Self {
        GridSize {
            width: 40,
            height: 30,
        }
    }
}

impl GridSize {
    /// A grid of `width × height` particles, each side within the rule of
    /// [`WIDTH`] and [`HEIGHT`], at most [`MAX_PARTICLES`] in all.
    pub fn new(width: usize, height: usize) -> Result<Self, ClothError> {
        WIDTH.check_count(width as u64)?;
        HEIGHT.check_count(height as u64)?;
        if width * height > MAX_PARTICLES {
            return Err(invalid(
                "width",
                format!(
                    "{width} (with height {height}: {} particles)",
                    width * height
                ),
                format!("width × height at most {MAX_PARTICLES} particles"),
            ));
        }
        Ok(GridSize { width, height })
    }

    /// Number of particles, `width * height`.
    pub fn num_particles(self) -> usize {
        self.width.saturating_mul(self.height)
    }
}

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

// ---------------------------------------------------------------- the table

/// How a parameter takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// It shapes the cloth when it is built: an argument of `new Simulation`,
    /// changed by a restart.
    Restart,
    /// A `Simulation` property of the same name, applied at once.
    Simulation,
    /// An option of the JavaScript frame loop (`mountCloth`), applied at once.
    Loop,
}

impl Applies {
    /// The name the JavaScript table uses: `"restart"`, `"simulation"` or `"loop"`.
    pub fn name(self) -> &'static str {
        match self {
            Applies::Restart => "restart",
            Applies::Simulation => "simulation",
            Applies::Loop => "loop",
        }
    }
}

/// Where the demo page shows a parameter's field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// "Cloth": the grid, applied on Restart.
    Cloth,
    /// "Solver": the original demo's solver values.
    Solver,
    /// "Beyond the original": what this project adds.
    Beyond,
    /// "Scene": bending, tethers, collisions and wind.
    Scene,
    /// Not a field of its own on the page (set from the URL or the API).
    None,
}

impl Group {
    /// The name the JavaScript table uses.
    pub fn name(self) -> &'static str {
        match self {
            Group::Cloth => "cloth",
            Group::Solver => "solver",
            Group::Beyond => "beyond",
            Group::Scene => "scene",
            Group::None => "",
        }
    }
}

/// Which values a parameter accepts. Every refusal message is written here once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// A finite number from `min` to `max`.
    Range { min: f64, max: f64 },
    /// A finite number greater than 0, from `min` to `max`; `what` names it in the
    /// message for zero or negative values ("a mass greater than 0").
    Positive {
        min: f64,
        max: f64,
        what: &'static str,
    },
    /// A whole number from `min` to `max`.
    Whole { min: f64, max: f64 },
    /// 0 (off), or a number above `above` up to `max`.
    OffOrAbove { above: f64, max: f64 },
    /// One of these numbers.
    Numbers(&'static [f64]),
    /// One of these strings.
    Words(&'static [&'static str]),
    /// `true` or `false`.
    Flag,
}

/// A parameter's default value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A number (every numeric parameter, whole or not).
    Number(f64),
    /// A word, for [`Rule::Words`].
    Word(&'static str),
    /// A flag, for [`Rule::Flag`].
    Flag(bool),
}

/// One parameter: everything the core, the wasm layer, the JavaScript table
/// (`www/parameters.js`, generated), the page's fields, the element's attributes,
/// the types and the README say about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// The JavaScript name: `Simulation` property and `mountCloth` option.
    pub name: &'static str,
    /// The `<xpbd-cloth>` attribute.
    pub attribute: &'static str,
    /// The demo page's label, without the unit.
    pub label: &'static str,
    /// The unit, as shown after values (`"s"`, `"N/m"`), or `""`.
    pub unit: &'static str,
    /// What it means, in one sentence (types, README).
    pub meaning: &'static str,
    /// A remark shown after the allowed range in messages (`"0 means PBD"`), or `""`.
    pub remark: &'static str,
    /// The values it accepts.
    pub rule: Rule,
    /// Its default: the original demo's value, or "off" for what it lacks.
    pub default: Value,
    /// How a change takes effect.
    pub applies: Applies,
    /// Where the page shows it.
    pub group: Group,
}

impl Parameter {
    /// The default of a numeric parameter (0 for others; the table test checks kinds).
    pub const fn default_number(&self) -> f64 {
        match self.default {
            Value::Number(v) => v,
            _ => 0.0,
        }
    }

    /// The unit as it follows a number in a message: `" s"`, with the remark
    /// in parentheses.
    fn unit_suffix(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        if self.remark.is_empty() {
            unit
        } else {
            format!("{unit} ({})", self.remark)
        }
    }

    /// Checks a number against [`Parameter::rule`]; the error names the
    /// parameter, the value and what is allowed.
    pub fn check_number(&self, value: f64) -> Result<f64, ClothError> {
        let unit = self.unit_suffix();
        let refuse = |allowed: String| Err(invalid(self.name, Number(value), allowed));
        match self.rule {
            Rule::Range { min, max } => {
                if value.is_finite() && (min..=max).contains(&value) {
                    Ok(value)
                } else {
                    refuse(format!("a finite number from {min} to {max}{unit}"))
                }
            }
            Rule::Positive { min, max, what } => {
                if value.is_finite() && (min..=max).contains(&value) {
                    Ok(value)
                } else if value.is_finite() && value <= 0.0 {
                    refuse(format!("{what} greater than 0, from {min} to {max}{unit}"))
                } else {
                    refuse(format!("a finite number from {min} to {max}{unit}"))
                }
            }
            Rule::Whole { min, max } => {
                if value.is_finite() && value.fract() == 0.0 && (min..=max).contains(&value) {
                    Ok(value)
                } else {
                    refuse(format!("a whole number from {min} to {max}{unit}"))
                }
            }
            Rule::OffOrAbove { above, max } => {
                if value == 0.0 || (value.is_finite() && value > above && value <= max) {
                    Ok(value)
                } else {
                    refuse(format!(
                        "0 (off) or a number above {above}, up to {max}{unit}"
                    ))
                }
            }
            Rule::Numbers(allowed) => {
                if allowed.contains(&value) {
                    Ok(value)
                } else {
                    refuse(one_of(allowed.iter().map(|v| v.to_string())))
                }
            }
            Rule::Words(_) | Rule::Flag => refuse(self.kind().to_string()),
        }
    }

    /// Checks a count or index (a whole number by its type) against
    /// [`Parameter::rule`], as [`Parameter::check_number`] does; a refusal shows
    /// the value exactly, however large.
    pub fn check_count(&self, value: u64) -> Result<u64, ClothError> {
        match self.check_number(value as f64) {
            Ok(_) => Ok(value),
            Err(ClothError::InvalidValue { field, allowed, .. }) => Err(ClothError::InvalidValue {
                field,
                value: value.to_string(),
                allowed,
            }),
            Err(other) => Err(other),
        }
    }

    /// Checks a word against [`Rule::Words`]. `length` is the length of the
    /// whole string when `value` is only its beginning (see [`quoted`]).
    pub fn check_word<'a>(&self, value: &'a str, length: usize) -> Result<&'a str, ClothError> {
        match self.rule {
            Rule::Words(allowed) if allowed.contains(&value) => Ok(value),
            Rule::Words(allowed) => Err(invalid(
                self.name,
                quoted(value, length),
                one_of(allowed.iter().map(|w| format!("{w:?}"))),
            )),
            _ => Err(invalid(self.name, quoted(value, length), self.kind())),
        }
    }

    /// What it accepts, for a message about a value of the wrong type: the words
    /// of a [`Rule::Words`] (`"colored" or "original"`), else [`Parameter::kind`].
    pub fn expected(&self) -> String {
        match self.rule {
            Rule::Words(allowed) => one_of(allowed.iter().map(|w| format!("{w:?}"))),
            _ => self.kind().to_string(),
        }
    }

    /// What kind of value it takes, in words: `"a number"`, `"a string"`, `"true or false"`.
    pub fn kind(&self) -> &'static str {
        match self.rule {
            Rule::Words(_) => "a string",
            Rule::Flag => "true or false",
            _ => "a number",
        }
    }
}

/// `"a", "b" or "c"`.
fn one_of(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// The grid's width.
pub const WIDTH: Parameter = Parameter {
    name: "width",
    attribute: "width",
    label: "Width",
    unit: "particles",
    meaning: "Particles per row (at most 250000 particles in all).",
    remark: "",
    rule: Rule::Whole {
        min: 2.0,
        max: 1000.0,
    },
    default: Value::Number(40.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// The grid's height.
pub const HEIGHT: Parameter = Parameter {
    name: "height",
    attribute: "height",
    label: "Height",
    unit: "particles",
    meaning: "Particles per column (at most 250000 particles in all).",
    remark: "",
    rule: Rule::Whole {
        min: 2.0,
        max: 1000.0,
    },
    default: Value::Number(30.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// How many corners are fixed.
pub const FIXED: Parameter = Parameter {
    name: "fixed",
    attribute: "fixed",
    label: "Fixed particles",
    unit: "",
    meaning: "Fixed corner particles: 1 (top left), 2 (top corners) or 4 (all corners).",
    remark: "",
    rule: Rule::Numbers(&[1.0, 2.0, 4.0]),
    default: Value::Number(2.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// The time step.
pub const TIME_STEP: Parameter = Parameter {
    name: "timeStepSize",
    attribute: "time-step",
    label: "Time step size",
    unit: "s",
    meaning: "Time step Δt: simulated time one step advances.",
    remark: "",
    rule: Rule::Positive {
        min: 1e-6,
        max: 1.0,
        what: "a time step",
    },
    default: Value::Number(0.01),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Solver sweeps per (sub)step.
pub const ITERATIONS: Parameter = Parameter {
    name: "iterations",
    attribute: "iterations",
    label: "Iterations",
    unit: "",
    meaning: "Gauss–Seidel sweeps over all constraints per (sub)step.",
    remark: "",
    rule: Rule::Whole {
        min: 1.0,
        max: 1000.0,
    },
    default: Value::Number(5.0),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Constraint stiffness.
pub const STIFFNESS: Parameter = Parameter {
    name: "stiffness",
    attribute: "stiffness",
    label: "Stiffness",
    unit: "N/m",
    meaning: "Constraint stiffness k; compliance α = 1/k, and 0 means rigid (plain PBD).",
    remark: "0 means PBD",
    rule: Rule::Range {
        min: 0.0,
        max: 1e15,
    },
    default: Value::Number(1000.0),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Gravity.
pub const GRAVITY: Parameter = Parameter {
    name: "gravity",
    attribute: "gravity",
    label: "Gravity",
    unit: "m/s²",
    meaning: "Vertical acceleration, y up (Earth is negative).",
    remark: "",
    rule: Rule::Range {
        min: -1e6,
        max: 1e6,
    },
    default: Value::Number(-9.81),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Particle mass.
pub const MASS: Parameter = Parameter {
    name: "mass",
    attribute: "mass",
    label: "Mass per particle",
    unit: "kg",
    meaning: "Mass of every particle; free particles get inverse mass 1/mass.",
    remark: "",
    rule: Rule::Positive {
        min: 1e-6,
        max: 1e6,
        what: "a mass",
    },
    default: Value::Number(0.5),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Substeps per step.
pub const SUBSTEPS: Parameter = Parameter {
    name: "substeps",
    attribute: "substeps",
    label: "Substeps per time step",
    unit: "",
    meaning: "Substeps per time step (\"small steps\"): each runs prediction, `iterations` sweeps and the velocity update with Δt/substeps.",
    remark: "",
    rule: Rule::Whole {
        min: 1.0,
        max: 100.0,
    },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Constraint damping.
pub const DAMPING: Parameter = Parameter {
    name: "damping",
    attribute: "damping",
    label: "Constraint damping",
    unit: "N·s/m",
    meaning: "Constraint damping β: resists how fast each constraint stretches (XPBD's γ = αβ/h term; none in PBD mode).",
    remark: "",
    rule: Rule::Range { min: 0.0, max: 1e9 },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Global velocity damping.
pub const VELOCITY_DAMPING: Parameter = Parameter {
    name: "velocityDamping",
    attribute: "velocity-damping",
    label: "Velocity damping",
    unit: "1/s",
    meaning: "Global velocity damping rate: after each substep every velocity is scaled by max(0, 1 − rate·h).",
    remark: "",
    rule: Rule::Range {
        min: 0.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Tearing threshold.
pub const TEAR_STRETCH: Parameter = Parameter {
    name: "tearStretch",
    attribute: "tear-stretch",
    label: "Tear at × rest length",
    unit: "",
    meaning:
        "A constraint longer than this × its rest length breaks for good; 0 turns tearing off.",
    remark: "",
    rule: Rule::OffOrAbove {
        above: 1.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Sweep order.
pub const SOLVER_ORDER: Parameter = Parameter {
    name: "solverOrder",
    attribute: "solver-order",
    label: "Solver order",
    unit: "",
    meaning: "Sweep order: \"colored\" solves independent constraints four at a time (fast); \"original\" sweeps in creation order, as the original demo.",
    remark: "",
    rule: Rule::Words(&["colored", "original"]),
    default: Value::Word("colored"),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Which scene is built.
pub const PRESET: Parameter = Parameter {
    name: "preset",
    attribute: "preset",
    label: "Scene",
    unit: "",
    meaning: "The scene built on restart (see Simulation.preset): the grid cloth, a rope, the three-particle cord, a balloon, a soft body, a flag in the wind, or a cloth over a ball.",
    remark: "",
    rule: Rule::Words(&[
        "cloth",
        "rope",
        "double-pendulum",
        "balloon",
        "soft-body",
        "flag",
        "cloth-over-ball",
    ]),
    default: Value::Word("cloth"),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// Bending stiffness.
pub const BENDING_STIFFNESS: Parameter = Parameter {
    name: "bendingStiffness",
    attribute: "bending-stiffness",
    label: "Bending stiffness",
    unit: "N/m",
    meaning: "Stiffness of the bending constraints (distance constraints between the two neighbours on opposite sides of a particle); compliance 1/k; 0 turns bending off.",
    remark: "0 turns bending off",
    rule: Rule::Range { min: 0.0, max: 1e15 },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Long-range attachments.
pub const TETHERS: Parameter = Parameter {
    name: "tethers",
    attribute: "tethers",
    label: "Tethers",
    unit: "",
    meaning: "Long-range attachments: no free particle gets farther from its nearest pinned particle than its rest-path distance, which removes over-stretch.",
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Friction against colliders and in self-collision.
pub const FRICTION: Parameter = Parameter {
    name: "friction",
    attribute: "friction",
    label: "Friction",
    unit: "",
    meaning: "Coulomb friction coefficient μ of contacts with colliders and between particles: a contact pushed d deep cancels up to μ·d of sliding.",
    remark: "",
    rule: Rule::Range { min: 0.0, max: 10.0 },
    default: Value::Number(0.3),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Particle radius for collisions.
pub const PARTICLE_RADIUS: Parameter = Parameter {
    name: "particleRadius",
    attribute: "particle-radius",
    label: "Particle radius",
    unit: "m",
    meaning: "Radius of each particle in contacts: particles keep this far from colliders and twice this far from each other in self-collision.",
    remark: "",
    rule: Rule::Positive {
        min: 1e-4,
        max: 10.0,
        what: "a radius",
    },
    default: Value::Number(0.05),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Self-collision.
pub const SELF_COLLISION: Parameter = Parameter {
    name: "selfCollision",
    attribute: "self-collision",
    label: "Self-collision",
    unit: "",
    meaning: "Particles of the scene collide with each other (found with a spatial hash), except pairs closer than twice the radius at rest.",
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind, horizontal.
pub const WIND_X: Parameter = Parameter {
    name: "windX",
    attribute: "wind-x",
    label: "Wind x",
    unit: "m/s",
    meaning: "Horizontal wind velocity; it pushes each edge through its normal (see windDrag).",
    remark: "",
    rule: Rule::Range {
        min: -1000.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind, vertical.
pub const WIND_Y: Parameter = Parameter {
    name: "windY",
    attribute: "wind-y",
    label: "Wind y",
    unit: "m/s",
    meaning: "Vertical wind velocity, y up.",
    remark: "",
    rule: Rule::Range {
        min: -1000.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind drag coefficient.
pub const WIND_DRAG: Parameter = Parameter {
    name: "windDrag",
    attribute: "wind-drag",
    label: "Wind drag",
    unit: "kg/m²",
    meaning: "Aerodynamic coefficient of an edge: the wind's force on an edge of length L is windDrag·L·(u·n)|u·n| along its normal n, u the wind relative to the edge.",
    remark: "",
    rule: Rule::Range { min: 0.0, max: 1e6 },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Steps per animation frame.
pub const STEPS_PER_FRAME: Parameter = Parameter {
    name: "stepsPerFrame",
    attribute: "steps-per-frame",
    label: "Steps per frame",
    unit: "",
    meaning: "Time steps per animation frame (0: only draw). Stepping gets at most 40 ms a frame, in a task of its own; past that fewer steps run and diagnostics().capped is true.",
    remark: "",
    rule: Rule::Whole {
        min: 0.0,
        max: 10000.0,
    },
    default: Value::Number(8.0),
    applies: Applies::Loop,
    group: Group::None,
};

/// Strain colours.
pub const STRAIN_COLORS: Parameter = Parameter {
    name: "strainColors",
    attribute: "strain-colors",
    label: "Colour by stretch",
    unit: "",
    meaning: "Paint each constraint by its relative stretch (see strainRamp()).",
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Loop,
    group: Group::Beyond,
};

/// Which renderer draws.
pub const RENDERER: Parameter = Parameter {
    name: "renderer",
    attribute: "renderer",
    label: "Renderer",
    unit: "",
    meaning: "\"wasm\" rasterizes in wasm (fast); \"canvas\" strokes canvas-2D paths.",
    remark: "",
    rule: Rule::Words(&["wasm", "canvas"]),
    default: Value::Word("wasm"),
    applies: Applies::Loop,
    group: Group::None,
};

/// Every parameter, in the order the page, the types and the README list them.
pub const PARAMETERS: &[Parameter] = &[
    PRESET,
    WIDTH,
    HEIGHT,
    FIXED,
    TIME_STEP,
    ITERATIONS,
    STIFFNESS,
    GRAVITY,
    MASS,
    SUBSTEPS,
    DAMPING,
    VELOCITY_DAMPING,
    TEAR_STRETCH,
    SOLVER_ORDER,
    BENDING_STIFFNESS,
    TETHERS,
    FRICTION,
    PARTICLE_RADIUS,
    SELF_COLLISION,
    WIND_X,
    WIND_Y,
    WIND_DRAG,
    STEPS_PER_FRAME,
    STRAIN_COLORS,
    RENDERER,
];

/// Calls `$callback!` with the solver parameters, one line each:
/// `field: Type = TABLE_ENTRY, getter / setter (Cloth setter), "TypeScript type";`.
/// `Params`, its defaults and the `Simulation` accessors are generated from it,
/// so a new solver value is one line here, one table entry above and the physics
/// that reads it.
#[macro_export]
#[doc(hidden)]
macro_rules! with_solver_parameters {
    ($callback:ident) => {
        $callback! {
            time_step: f64 = TIME_STEP, timeStepSize / set_time_step_size (set_time_step), "number";
            iterations: u32 = ITERATIONS, iterations / set_iterations (set_iterations), "number";
            stiffness: f64 = STIFFNESS, stiffness / set_stiffness (set_stiffness), "number";
            gravity: f64 = GRAVITY, gravity / set_gravity (set_gravity), "number";
            mass: f64 = MASS, mass / set_mass (set_mass), "number";
            substeps: u32 = SUBSTEPS, substeps / set_substeps (set_substeps), "number";
            damping: f64 = DAMPING, damping / set_damping (set_damping), "number";
            velocity_damping: f64 = VELOCITY_DAMPING, velocityDamping / set_velocity_damping (set_velocity_damping), "number";
            tear_stretch: f64 = TEAR_STRETCH, tearStretch / set_tear_stretch (set_tear_stretch), "number";
            solver_order: SolverOrder = SOLVER_ORDER, solverOrder / set_solver_order (set_solver_order), "\"colored\" | \"original\"";
            bending_stiffness: f64 = BENDING_STIFFNESS, bendingStiffness / set_bending_stiffness (set_bending_stiffness), "number";
            tethers: bool = TETHERS, tethers / set_tethers (set_tethers), "boolean";
            friction: f64 = FRICTION, friction / set_friction (set_friction), "number";
            particle_radius: f64 = PARTICLE_RADIUS, particleRadius / set_particle_radius (set_particle_radius), "number";
            self_collision: bool = SELF_COLLISION, selfCollision / set_self_collision (set_self_collision), "boolean";
            wind_x: f64 = WIND_X, windX / set_wind_x (set_wind_x), "number";
            wind_y: f64 = WIND_Y, windY / set_wind_y (set_wind_y), "number";
            wind_drag: f64 = WIND_DRAG, windDrag / set_wind_drag (set_wind_drag), "number";
        }
    };
}

/// A solver parameter's Rust type: how its table default and a checked number
/// or word become a field value, and how the value is shown to JavaScript.
pub trait ParameterValue: Sized + Copy {
    /// The field value of the table's default.
    fn from_default(parameter: &Parameter) -> Self;
    /// The value as a JavaScript number or word.
    fn to_value(self) -> Value;
}

impl ParameterValue for f64 {
    fn from_default(parameter: &Parameter) -> f64 {
        parameter.default_number()
    }
    fn to_value(self) -> Value {
        Value::Number(self)
    }
}

impl ParameterValue for u32 {
    fn from_default(parameter: &Parameter) -> u32 {
        parameter.default_number() as u32
    }
    fn to_value(self) -> Value {
        Value::Number(self as f64)
    }
}

impl ParameterValue for bool {
    fn from_default(parameter: &Parameter) -> bool {
        matches!(parameter.default, Value::Flag(true))
    }
    fn to_value(self) -> Value {
        Value::Flag(self)
    }
}

impl ParameterValue for SolverOrder {
    fn from_default(parameter: &Parameter) -> SolverOrder {
        match parameter.default {
            Value::Word(name) => SolverOrder::from_name(name).unwrap_or_default(),
            _ => SolverOrder::default(),
        }
    }
    fn to_value(self) -> Value {
        Value::Word(self.name())
    }
}

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
    /// Compliance `α = 1/k` in m/N, or 0 for PBD (stiffness 0).
    pub fn compliance(&self) -> f64 {
        if self.stiffness == 0.0 {
            0.0
        } else {
            1.0 / self.stiffness
        }
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

// ----- the work of a step ------------------------------------------------------

/// What a step costs, in *work units*: one unit is about a nanosecond of the
/// wasm build in headless Chromium on the reference machine (2 cores; see
/// README, "Limits and errors"). Each weight is the measured cost of one piece
/// of work, taken from the slowest cloths measured (500 × 500 and 1000 × 250,
/// whose arrays no longer fit in the caches; a torn-up cloth for the runs) and
/// rounded up; `node scripts/bench-browser.mjs --worst-case` prints the
/// measurements next to them. Measured (2026-11-23, fastest of five rounds, a
/// quiet machine; under load everything takes up to twice as long): coloured
/// solve 1.5 ns intact and 3.9–5.0 ns per live constraint once tearing has cut
/// the runs up, original 12.4 ns, damped 8.1–8.5 ns in coloured order and 18 ns
/// in original order, prediction and velocity update together 3.8 ns per
/// particle, the tear check 7.0 ns, velocity damping 0.3 ns, a sweep of a 2 × 2
/// cloth 70–100 ns. The worst accepted step measured 389 ms, the worst
/// `steps(n)` 1193 ms.
pub mod work {
    /// One constraint solve in the coloured SIMD sweep.
    pub const SOLVE_COLORED: u64 = 3;
    /// Each run of the coloured sweep, per sweep: a call and its scalar tail.
    pub const COLORED_RUN: u64 = 25;
    /// Each constraint the coloured sweep gathers one by one, on top of
    /// [`SOLVE_COLORED`].
    pub const COLORED_SCATTERED: u64 = 4;
    /// One constraint solve in the scalar sweep in creation order.
    pub const SOLVE_ORIGINAL: u64 = 16;
    /// One constraint solve in the scalar damped sweep (any order): constraint
    /// damping above 0 runs on this path.
    pub const SOLVE_DAMPED: u64 = 24;
    /// Fixed cost of one sweep.
    pub const SWEEP: u64 = 50;
    /// Per particle per substep: the prediction (with saving the positions).
    pub const PREDICT: u64 = 3;
    /// Per particle per substep: the velocity update.
    pub const VELOCITY_UPDATE: u64 = 2;
    /// Per particle per coloured block of sweeps: splitting positions into x and
    /// y arrays and merging them back (once per substep in a whole step).
    pub const SPLIT_MERGE: u64 = 4;
    /// Per live constraint per substep: resetting its multiplier.
    pub const CONSTRAINT_SUBSTEP: u64 = 1;
    /// Per live constraint per substep with tearing on: the stretch check (and
    /// moving torn constraints behind the live ones).
    pub const TEAR_CHECK: u64 = 10;
    /// Per particle per substep with velocity damping on.
    pub const VELOCITY_DAMPING: u64 = 1;
    /// Per particle per step: saving the start of the step, the divergence check.
    pub const PARTICLE_STEP: u64 = 3;
    /// Fixed cost of a substep.
    pub const SUBSTEP: u64 = 200;
    /// Fixed cost of a step.
    pub const STEP: u64 = 1_000;
    // The weights below were measured natively (400 × 300 cloth, release
    // build, 2026-11-23: bending 4.8 ns per pair and pass, tethers 1.7 ns per
    // particle and pass, finding the anchors again 30 ns per particle and
    // constraint) and scaled by about three for wasm, like the others.
    /// One bending constraint solve (a scalar distance solve), per pass.
    pub const BENDING_SOLVE: u64 = 16;
    /// One area constraint solve, per pass, on top of its corners.
    pub const AREA_SOLVE: u64 = 30;
    /// Each corner of an area constraint, per pass (gradient, area, move).
    pub const AREA_CORNER: u64 = 12;
    /// One tether check (and projection when too far), per particle per pass.
    pub const TETHER_SOLVE: u64 = 6;
    /// Per particle and per live constraint, per substep in which tethers are
    /// on and tearing may cut the cloth: finding the anchors again (a
    /// Dijkstra search over the whole cloth).
    pub const TETHER_RECOMPUTE: u64 = 90;
    /// Per particle and per live constraint, per substep in which bending is
    /// on (tethers off) and tearing may cut the cloth: rebuilding the
    /// neighbour lists that tell which bending pairs a tear has cut.
    pub const TOPOLOGY_REBUILD: u64 = 20;
    /// Per particle per collider per contact pass (a pass after each sweep
    /// and one at the end of the substep); measured natively 1.8 ns on a
    /// 100 × 100 cloth with 8 circles.
    pub const COLLIDER_CONTACT: u64 = 4;
    /// Per particle per substep while any contact is on: the speed limit.
    pub const MAX_SPEED: u64 = 1;
    /// Per particle per substep with self-collision on: sorting the particles
    /// into cells and the neighbour search. Measured natively on a hanging
    /// 100 × 100 cloth (few pairs), in thread CPU time: about 25 ns per
    /// particle and substep for the grid search, in wasm about 2.5 times that;
    /// the weight stays well above, as the bound for a crumpled cloth whose
    /// pairs fill their room (each pair found costs a rest-distance square
    /// root), which has not been timed.
    pub const SELF_COLLISION_SEARCH: u64 = 250;
    /// Per particle per contact pass with self-collision on: its candidate
    /// pairs.
    pub const SELF_COLLISION_PASS: u64 = 4;
    /// Per live constraint per substep with wind on (measured natively 11 ns).
    pub const WIND_EDGE: u64 = 20;
}

/// Most work one time step may take: about half a second (README, "Limits and
/// errors", has the measured worst case), so no single step can freeze a tab.
pub const MAX_WORK_PER_STEP: u64 = 500_000_000;

/// Most work one `steps(n)` or `advance` call may take: about 1.5 seconds.
pub const MAX_WORK_PER_CALL: u64 = 3 * MAX_WORK_PER_STEP;

/// The sweep a substep runs, which sets the cost of each constraint solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepPath {
    /// Four constraints at a time with SIMD ([`SolverOrder::Colored`], no damping).
    Colored,
    /// One by one in creation order ([`SolverOrder::Original`], no damping).
    Original,
    /// One by one with constraint damping (`damping > 0`, either order).
    Damped,
}

impl SweepPath {
    /// The path the solver takes with parameters `p`.
    pub fn of(p: &Params) -> SweepPath {
        if p.damping > 0.0 {
            SweepPath::Damped
        } else if p.solver_order == SolverOrder::Original {
            SweepPath::Original
        } else {
            SweepPath::Colored
        }
    }
}

/// What a step works on: the sizes its cost depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Workload {
    /// Particles of the cloth.
    pub particles: usize,
    /// Live (untorn) constraints.
    pub constraints: usize,
    /// The coloured sweep's runs and scattered constraints (see
    /// [`crate::constraints::ColoredLayout`]); used on the coloured path only.
    pub colored_runs: usize,
    /// See `colored_runs`.
    pub colored_scattered: usize,
    /// Bending constraints (they work while `bending_stiffness > 0`).
    pub bending_pairs: usize,
    /// Area constraints, and their corners all together.
    pub area_constraints: usize,
    /// See `area_constraints`.
    pub area_corners: usize,
    /// Particles the tethers check (while `tethers` is on).
    pub tethered: usize,
    /// Colliders (ground lines, circles, boxes).
    pub colliders: usize,
}

/// Work units of one constraint solve on a scalar path (on the coloured one,
/// see [`colored_run_cost`]).
pub fn solve_cost(path: SweepPath) -> u64 {
    match path {
        SweepPath::Colored => work::SOLVE_COLORED,
        SweepPath::Original => work::SOLVE_ORIGINAL,
        SweepPath::Damped => work::SOLVE_DAMPED,
    }
}

/// Work units of one coloured run of `constraints` constraints, `scattered` of
/// them gathered one by one.
pub fn colored_run_cost(constraints: usize, scattered: usize) -> u64 {
    work::COLORED_RUN
        + constraints as u64 * work::SOLVE_COLORED
        + scattered as u64 * work::COLORED_SCATTERED
}

/// Work units of one sweep over the constraints of `load` on `path`.
pub fn sweep_cost(path: SweepPath, load: &Workload) -> u64 {
    let m = load.constraints as u64;
    work::SWEEP
        + match path {
            SweepPath::Colored => {
                m * work::SOLVE_COLORED
                    + load.colored_runs as u64 * work::COLORED_RUN
                    + load.colored_scattered as u64 * work::COLORED_SCATTERED
            }
            path => m * solve_cost(path),
        }
}

/// Work units of one pass over the bending, area and tether constraints of
/// `load` with parameters `p` (one follows each sweep).
pub fn extras_pass_cost(p: &Params, load: &Workload) -> u64 {
    let mut cost = load.area_constraints as u64 * work::AREA_SOLVE
        + load.area_corners as u64 * work::AREA_CORNER;
    if p.bending_stiffness > 0.0 {
        cost += load.bending_pairs as u64 * work::BENDING_SOLVE;
    }
    if p.tethers {
        cost += load.tethered as u64 * work::TETHER_SOLVE;
    }
    cost
}

/// The work units of one substep's fixed part: everything but the sweeps.
pub fn substep_overhead(p: &Params, load: &Workload) -> u64 {
    let (n, m) = (load.particles as u64, load.constraints as u64);
    let mut cost =
        work::SUBSTEP + n * (work::PREDICT + work::VELOCITY_UPDATE) + m * work::CONSTRAINT_SUBSTEP;
    if SweepPath::of(p) == SweepPath::Colored && m > 0 {
        cost += n * work::SPLIT_MERGE;
    }
    if p.velocity_damping > 0.0 {
        cost += n * work::VELOCITY_DAMPING;
    }
    if p.tear_stretch > 0.0 {
        cost += m * work::TEAR_CHECK + tear_followup_cost(p, load.particles, load.constraints);
    }
    cost + extras_multipliers(p, load) as u64 * work::CONSTRAINT_SUBSTEP
        + contacts_and_wind_cost(p, load)
}

/// Work units of following the tears of one substep with parameters `p`
/// (tearing on) on `particles` particles and `constraints` live constraints:
/// the tethers' anchors found again, or the bending pairs' neighbour lists
/// rebuilt (counted whether or not anything tears).
pub fn tear_followup_cost(p: &Params, particles: usize, constraints: usize) -> u64 {
    let size = (particles + constraints) as u64;
    if p.tethers {
        size * work::TETHER_RECOMPUTE
    } else if p.bending_stiffness > 0.0 {
        size * work::TOPOLOGY_REBUILD
    } else {
        0
    }
}

/// The multipliers of bending and area constraints reset each substep with
/// parameters `p`.
pub fn extras_multipliers(p: &Params, load: &Workload) -> usize {
    let bending = if p.bending_stiffness > 0.0 {
        load.bending_pairs
    } else {
        0
    };
    bending + load.area_constraints
}

/// The work units of one substep's contacts (colliders, self-collision, the
/// speed limit) and wind; 0 with all of them off.
pub fn contacts_and_wind_cost(p: &Params, load: &Workload) -> u64 {
    let (n, m) = (load.particles as u64, load.constraints as u64);
    let passes = p.iterations as u64 + 1;
    let mut cost = 0;
    if load.colliders > 0 || p.self_collision {
        cost += n * work::MAX_SPEED + passes * n * load.colliders as u64 * work::COLLIDER_CONTACT;
    }
    if p.self_collision {
        cost += n * work::SELF_COLLISION_SEARCH + passes * n * work::SELF_COLLISION_PASS;
    }
    if p.wind_drag > 0.0 && (p.wind_x != 0.0 || p.wind_y != 0.0) {
        cost += m * work::WIND_EDGE;
    }
    cost
}

/// The work units of one step with parameters `p` on the cloth `load`: every
/// sweep on its path, the per-particle work of every substep, tearing and
/// damping checks, and the step's own overhead. Never 0, even for a cloth whose
/// constraints all tore.
pub fn work_per_step(p: &Params, load: &Workload) -> u64 {
    let sweeps =
        p.iterations as u64 * (sweep_cost(SweepPath::of(p), load) + extras_pass_cost(p, load));
    let substep = substep_overhead(p, load) + sweeps;
    work::STEP + load.particles as u64 * work::PARTICLE_STEP + p.substeps as u64 * substep
}

/// Checks that one step with parameters `p` stays within [`MAX_WORK_PER_STEP`] on
/// the cloth `load`; the error names `field`, the one being changed, and its `value`.
pub fn validate_work(
    field: &'static str,
    value: impl fmt::Display,
    p: &Params,
    load: &Workload,
) -> Result<(), ClothError> {
    let work = work_per_step(p, load);
    if work <= MAX_WORK_PER_STEP {
        return Ok(());
    }
    let switch = |on: bool| if on { "on" } else { "off" };
    Err(invalid(
        field,
        value,
        format!(
            "a value that keeps one step within the work limit: with it a step needs {work} \
             work units, at most {MAX_WORK_PER_STEP} (about 0.5 s) are allowed (this cloth: \
             {} particles, {} constraints; substeps {}, iterations {}, solverOrder {}, \
             damping {}, velocityDamping {}, tearing {}, bending {}, tethers {}); lower \
             substeps or iterations, or use a smaller cloth",
            load.particles,
            load.constraints,
            p.substeps,
            p.iterations,
            p.solver_order.name(),
            switch(p.damping > 0.0),
            switch(p.velocity_damping > 0.0),
            switch(p.tear_stretch > 0.0),
            switch(p.bending_stiffness > 0.0),
            switch(p.tethers),
        ),
    ))
}

/// How far from the origin anything may be, in metres: a point further out is
/// refused, and a cloth that gets there counts as diverged.
pub const MAX_COORDINATE: f64 = 1e6;

/// Accepts a point coordinate in metres: finite, within ±1e6 m.
pub fn validate_coordinate(field: &'static str, value: f64) -> Result<f32, ClothError> {
    if value.is_finite() && value.abs() <= MAX_COORDINATE {
        Ok(value as f32)
    } else {
        Err(invalid(
            field,
            Number(value),
            format!(
                "a finite number from {} to {MAX_COORDINATE} m",
                -MAX_COORDINATE
            ),
        ))
    }
}

/// Accepts a particle index: one below `count`, the number of particles.
pub fn validate_index(index: usize, count: usize) -> Result<usize, ClothError> {
    if index < count {
        Ok(index)
    } else {
        Err(index_error(index, count))
    }
}

/// The refusal of particle index `index` (shown as given) in a cloth of `count` particles.
pub fn index_error(index: impl fmt::Display, count: usize) -> ClothError {
    ClothError::ParticleIndex {
        index: index.to_string(),
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
