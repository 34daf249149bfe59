//! One parameter of the table: what it is called, what it means, which values
//! it accepts and how a change takes effect. Every refusal message of a
//! parameter is written here once.

use crate::error::{invalid, quote, quoted, ClothError, Number, Plain};

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

impl Value {
    /// Its type as JavaScript's `typeof` names it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Number(_) => "number",
            Value::Word(_) => "string",
            Value::Flag(_) => "boolean",
        }
    }

    /// The value as a message shows it: a number as JavaScript shows it, a
    /// word quoted, a flag as `true` or `false`.
    pub fn shown(&self) -> String {
        match self {
            Value::Number(v) => Number(*v).to_string(),
            Value::Word(w) => quote(w),
            Value::Flag(b) => b.to_string(),
        }
    }
}

/// Words written for people: the element's attribute, the page's label, a
/// parameter's meaning. The README, the types and the page's table are
/// generated from them natively; no wasm build reads them, so there [`text`]
/// drops the words and the table's descriptions stay out of the module.
#[cfg(not(target_arch = "wasm32"))]
pub type Text = &'static str;

/// Words written for people, dropped in a wasm build (see the native `Text`).
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Text;

/// `words` as a [`Text`]: themselves natively, nothing in a wasm build.
#[cfg(not(target_arch = "wasm32"))]
pub const fn text(words: &'static str) -> Text {
    words
}

/// `words` as a [`Text`]: themselves natively, nothing in a wasm build.
#[cfg(target_arch = "wasm32")]
pub const fn text(_words: &'static str) -> Text {
    Text
}

/// One parameter: everything the core, the wasm layer, the JavaScript table
/// (`www/lib/parameters.js`, generated), the page's fields, the element's attributes,
/// the types and the README say about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// The JavaScript name: `Simulation` property and `mountCloth` option.
    pub name: &'static str,
    /// The `<xpbd-cloth>` attribute.
    pub attribute: Text,
    /// The demo page's label, without the unit.
    pub label: Text,
    /// The unit, as shown after values (`"s"`, `"N/m"`), or `""`.
    pub unit: &'static str,
    /// What it means, in one sentence (types, README).
    pub meaning: Text,
    /// A remark shown after the allowed range in messages (`"0 means PBD"`), or `""`.
    pub remark: &'static str,
    /// The values it accepts.
    pub rule: Rule,
    /// Its default: the original demo's value, "off" for what it lacks, or, for `speed`,
    /// real time (the original's fixed steps a frame are the value "original").
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
    fn unit_suffix(&self) -> UnitSuffix<'_> {
        UnitSuffix(self)
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
                    refuse(format!(
                        "a finite number from {} to {}{unit}",
                        Plain(min),
                        Plain(max)
                    ))
                }
            }
            Rule::Positive { min, max, what } => {
                if value.is_finite() && (min..=max).contains(&value) {
                    Ok(value)
                } else if value.is_finite() && value <= 0.0 {
                    refuse(format!(
                        "{what} greater than 0, from {} to {}{unit}",
                        Plain(min),
                        Plain(max)
                    ))
                } else {
                    refuse(format!(
                        "a finite number from {} to {}{unit}",
                        Plain(min),
                        Plain(max)
                    ))
                }
            }
            Rule::Whole { min, max } => {
                if value.is_finite() && value.fract() == 0.0 && (min..=max).contains(&value) {
                    Ok(value)
                } else {
                    refuse(format!(
                        "a whole number from {} to {}{unit}",
                        Plain(min),
                        Plain(max)
                    ))
                }
            }
            Rule::OffOrAbove { above, max } => {
                if value == 0.0 || (value.is_finite() && value > above && value <= max) {
                    Ok(value)
                } else {
                    refuse(format!(
                        "0 (off) or a number above {}, up to {}{unit}",
                        Plain(above),
                        Plain(max)
                    ))
                }
            }
            Rule::Numbers(allowed) => {
                if allowed.contains(&value) {
                    Ok(value)
                } else {
                    refuse(one_of(allowed.iter().map(|v| Plain(*v).to_string())))
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
                one_of(allowed.iter().map(|w| quote(w))),
            )),
            _ => Err(invalid(self.name, quoted(value, length), self.kind())),
        }
    }

    /// What it accepts, for a message about a value of the wrong type: the words
    /// of a [`Rule::Words`] (`"colored" or "original"`), else [`Parameter::kind`].
    pub fn expected(&self) -> String {
        match self.rule {
            Rule::Words(allowed) => one_of(allowed.iter().map(|w| quote(w))),
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

/// What follows a parameter's range in a refusal: its unit and remark
/// (` m/s²`, ` (0 = rigid)`), written only when a refusal is.
struct UnitSuffix<'a>(&'a Parameter);

impl std::fmt::Display for UnitSuffix<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Parameter { unit, remark, .. } = self.0;
        if !unit.is_empty() {
            write!(f, " {unit}")?;
        }
        if !remark.is_empty() {
            write!(f, " ({remark})")?;
        }
        Ok(())
    }
}
