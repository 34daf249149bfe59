//! An experiment's settings: each a number with a range and a default,
//! checked like the cloth's own parameters, and the checked values of a run.

use crate::error::ClothError;

/// One setting of an experiment: a number with a range and a default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    /// The name in the URL and in `ExperimentRun`'s settings object.
    pub name: &'static str,
    /// The page's label, without the unit.
    pub label: &'static str,
    /// The unit shown after the value, or `""`.
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    /// Only whole numbers.
    pub whole: bool,
    pub default: f64,
}

impl Setting {
    /// The value if it is accepted, otherwise an error naming the setting.
    pub fn check(&self, value: f64) -> Result<f64, ClothError> {
        let ok = value.is_finite()
            && (self.min..=self.max).contains(&value)
            && (!self.whole || value.fract() == 0.0);
        if ok {
            Ok(value)
        } else {
            let kind = if self.whole {
                "a whole number"
            } else {
                "a finite number"
            };
            let unit = if self.unit.is_empty() {
                String::new()
            } else {
                format!(" {}", self.unit)
            };
            Err(ClothError::InvalidValue {
                field: self.name,
                value: value.to_string(),
                allowed: format!("{kind} from {} to {}{unit}", self.min, self.max),
            })
        }
    }
}

/// Checked values of an experiment's settings, one per [`Setting`].
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    values: Vec<(&'static str, f64)>,
}

impl Settings {
    /// The value of the setting `name` (0 for a name the experiment does not
    /// have: a mistake the tests of every experiment would show).
    pub fn get(&self, name: &str) -> f64 {
        debug_assert!(self.values.iter().any(|(n, _)| *n == name), "{name}");
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0.0, |(_, v)| *v)
    }

    /// Whether the experiment has a setting `name`.
    pub fn has(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _)| *n == name)
    }

    /// [`Settings::get`] as a count.
    pub fn count(&self, name: &str) -> u32 {
        self.get(name) as u32
    }

    /// Every setting and its value, in the definition's order.
    pub fn values(&self) -> &[(&'static str, f64)] {
        &self.values
    }

    /// Sets `name` to `value`, checked as [`Setting::check`] checks it
    /// against its definition among `definitions`; an unknown name or a
    /// refused value leaves the settings as they were.
    pub(super) fn set(
        &mut self,
        definitions: &[Setting],
        name: &str,
        value: f64,
    ) -> Result<(), ClothError> {
        let index = self.values.iter().position(|(n, _)| *n == name);
        let definition = definitions.iter().find(|s| s.name == name);
        match (index, definition) {
            (Some(index), Some(definition)) => {
                self.values[index].1 = definition.check(value)?;
                Ok(())
            }
            _ => Err(ClothError::InvalidValue {
                field: "settings",
                value: format!("\"{name}\""),
                allowed: "a setting of the experiment".into(),
            }),
        }
    }

    /// The defaults of every one of `settings`.
    pub(super) fn defaults(settings: &[Setting]) -> Settings {
        Settings {
            values: settings.iter().map(|s| (s.name, s.default)).collect(),
        }
    }

    /// The experiment `id`'s `settings` from `given` (name, value) pairs, the
    /// defaults for the rest; an unknown name or a value out of range is
    /// refused, naming it.
    pub(super) fn given(
        id: &str,
        definitions: &[Setting],
        given: &[(&str, f64)],
    ) -> Result<Settings, ClothError> {
        let mut settings = Settings::defaults(definitions);
        for &(name, value) in given {
            let Some(index) = definitions.iter().position(|s| s.name == name) else {
                return Err(ClothError::InvalidValue {
                    field: "settings",
                    value: format!("\"{}\"", name.chars().take(40).collect::<String>()),
                    allowed: format!(
                        "a setting of the experiment \"{}\": {}",
                        id,
                        definitions
                            .iter()
                            .map(|s| s.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            };
            settings.values[index].1 = definitions[index].check(value)?;
        }
        Ok(settings)
    }
}
