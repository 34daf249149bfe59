//! The experiments for JavaScript: `experimentDefinitions()` and
//! `ExperimentRun`, which steps one experiment in slices of a work budget so
//! the page can show progress, draw the live plot and cancel (by dropping it).
//! Values are checked as the `Simulation`'s are, with the same errors.

use js_sys::{JsString, Reflect};
use wasm_bindgen::prelude::*;

use super::convert::{cloth_error, number, string_start, wrong_type};
use super::reentry::Reading;
use crate::cloth;
use crate::experiments::{definition, definitions_json, json, Run};
use crate::params::MAX_WORK_PER_CALL;

/// Every experiment as JSON: `[{ id, title, claim, source, method, rule,
/// settings: [{ name, label, unit, min, max, whole, default }], key, choices:
/// [{ settings, name, change: { times } | { values } | { other }, measureOnly,
/// meaning, advice }] }]`.
#[wasm_bindgen(js_name = experimentDefinitions)]
pub fn experiment_definitions() -> String {
    definitions_json()
}

/// One experiment running in slices. Free it with `free()` (cancelling is
/// simply not advancing it any more).
#[wasm_bindgen]
pub struct ExperimentRun {
    run: Run,
}

#[wasm_bindgen]
impl ExperimentRun {
    /// The experiment `id` (see `experimentDefinitions`) with `settings`, an
    /// object of setting names and numbers; a missing one takes its default.
    /// Cheap: it builds the cloths and checks the run's work, and steps
    /// nothing (every step, warm-ups included, is taken by `advance`).
    /// An unknown id or name, a value that is not a number or out of its range
    /// throws an `Error` naming it (`field`, `code` as for `Simulation`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, number>")] settings: JsValue,
    ) -> Result<ExperimentRun, JsValue> {
        let Some(text) = id.dyn_ref::<JsString>() else {
            return Err(wrong_type("experiment", &id, "a string"));
        };
        let definition = definition(&string_start(text)).map_err(cloth_error)?;
        let _reading = Reading::begin("settings")?;
        let mut given: Vec<(String, f64)> = Vec::new();
        if !settings.is_undefined() && !settings.is_null() {
            if !settings.is_object() {
                return Err(wrong_type("settings", &settings, "an object"));
            }
            let keys = Reflect::own_keys(&settings).map_err(|_| {
                wrong_type("settings", &settings, "an object whose keys can be read")
            })?;
            for key in keys.iter() {
                let Some(name) = key.dyn_ref::<JsString>() else {
                    continue;
                };
                let name = string_start(name);
                let value = Reflect::get(&settings, &key).unwrap_or(JsValue::UNDEFINED);
                let field = definition
                    .settings
                    .iter()
                    .find(|s| s.name == name)
                    .map_or("settings", |s| s.name);
                given.push((name, number(field, &value)?));
            }
        }
        let pairs: Vec<(&str, f64)> = given.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let settings = definition.settings(&pairs).map_err(cloth_error)?;
        let run = definition.start(settings).map_err(cloth_error)?;
        Ok(ExperimentRun { run })
    }

    /// Works until about `workBudget` work units (about a nanosecond each) are
    /// spent: first on what the run computes before its trials (an exact
    /// equilibrium, say), then stepping them; returns whether the run is done.
    pub fn advance(
        &mut self,
        #[wasm_bindgen(js_name = workBudget, unchecked_param_type = "number")] work_budget: JsValue,
    ) -> Result<bool, JsValue> {
        let budget = number("workBudget", &work_budget)?;
        if !(budget.is_finite() && (0.0..=MAX_WORK_PER_CALL as f64).contains(&budget)) {
            return Err(cloth_error(cloth::work_budget_error(budget)));
        }
        Ok(self.run.advance(budget as u64))
    }

    /// The index of the trial the next `advance` steps (a call steps one
    /// trial only; while the run prepares, the first, which it does not step
    /// yet), for timing it.
    #[wasm_bindgen(getter, js_name = currentTrial)]
    pub fn current_trial(&self) -> u32 {
        self.run.current_trial() as u32
    }

    /// Adds `seconds` of wall-clock time, measured around `advance` calls
    /// (`performance.now()`), to trial `trial`; shown beside the work units by
    /// the experiments that report times, never read by a verdict. A trial
    /// that does not exist or a time that is not a finite number of at least
    /// 0 is refused, naming it, and nothing changes.
    #[wasm_bindgen(js_name = addWallTime)]
    pub fn add_wall_time(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] trial: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] seconds: JsValue,
    ) -> Result<(), JsValue> {
        let (trial, seconds) = (number("trial", &trial)?, number("seconds", &seconds)?);
        self.run.add_wall_time(trial, seconds).map_err(cloth_error)
    }

    /// The fraction done, 0..1.
    #[wasm_bindgen(getter)]
    pub fn progress(&self) -> f64 {
        self.run.progress()
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.run.is_done()
    }

    /// The report so far as JSON: `{ charts: [{ title, xLabel, yLabel, logX,
    /// logY, plane, series: [{ label, points: [[x, y], …] }] }], table: {
    /// columns, rows }, numbers: { name: value }, verdict: { status, text,
    /// advice, dependsOn } | null, checks: [{ choice, settings, perturbation,
    /// value, perturbed, status, key, flips, note }] }` (the verdict and the
    /// checks of its choices once done; NaN is `null`). With `maxPoints` (a
    /// whole number, at least 4), each series keeps at most about that many
    /// points: the lowest and highest of each run of neighbours, for a plot.
    pub fn report(
        &self,
        #[wasm_bindgen(js_name = maxPoints, unchecked_param_type = "number | undefined")]
        max_points: JsValue,
    ) -> Result<String, JsValue> {
        if max_points.is_undefined() {
            return Ok(self.run.report().to_json());
        }
        let max = number("maxPoints", &max_points)?;
        if !(max.is_finite() && max >= 4.0 && max.fract() == 0.0) {
            return Err(cloth_error(crate::error::ClothError::InvalidValue {
                field: "maxPoints",
                value: max.to_string(),
                allowed: "a whole number of at least 4".into(),
            }));
        }
        Ok(self.run.report().to_json_thinned(max.min(1e9) as usize))
    }

    /// The work units spent so far.
    #[wasm_bindgen(getter, js_name = workDone)]
    pub fn work_done(&self) -> f64 {
        self.run.work_done()
    }

    /// The settings the run uses, every one of them, as JSON `{ name: value }`.
    pub fn settings(&self) -> String {
        let parts: Vec<String> = self
            .run
            .settings()
            .values()
            .iter()
            .map(|(name, value)| format!("{}:{}", json::string(name), json::number(*value)))
            .collect();
        format!("{{{}}}", parts.join(","))
    }
}
