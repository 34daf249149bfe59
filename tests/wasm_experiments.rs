//! `ExperimentRun` and `experimentDefinitions` as JavaScript sees them, run in
//! headless Chromium by `cargo test --target wasm32-unknown-unknown --test
//! wasm_experiments`: errors name the setting (`field`, `code`), a run in slices
//! ends with the report the native run gives, a key number not reached
//! (`null`) included.
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use xpbd_cloth::experiments::{definition, definitions};
use xpbd_cloth::wasm::experiments::{experiment_definitions, ExperimentRun};

wasm_bindgen_test_configure!(run_in_browser);

fn settings(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (name, value) in pairs {
        Reflect::set(&object, &(*name).into(), value).unwrap();
    }
    object.into()
}

/// The `field`, `code` and message of the Error a refused constructor throws.
fn refusal(id: JsValue, settings: JsValue) -> (String, String, String) {
    let error = ExperimentRun::new(id, settings).err().expect("refused");
    let text = |name: &str| {
        Reflect::get(&error, &name.into())
            .unwrap()
            .as_string()
            .unwrap_or_default()
    };
    (text("field"), text("code"), text("message"))
}

#[wasm_bindgen_test]
fn definitions_are_json_with_every_experiment() {
    let parsed = JSON::parse(&experiment_definitions()).expect("valid JSON");
    let list: js_sys::Array = parsed.into();
    assert_eq!(list.length() as usize, definitions().len());
    let first = list.get(0);
    let id = Reflect::get(&first, &"id".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(id, definitions()[0].id);
}

#[wasm_bindgen_test]
fn bad_settings_are_refused_naming_the_field() {
    let (field, code, message) = refusal("iterations".into(), settings(&[("width", 1.0.into())]));
    assert_eq!(
        (field.as_str(), code.as_str()),
        ("width", "invalid_value"),
        "{message}"
    );
    assert!(message.starts_with("invalid width: got 1"), "{message}");
    let (field, code, _) = refusal("iterations".into(), settings(&[("width", "wide".into())]));
    assert_eq!((field.as_str(), code.as_str()), ("width", "wrong_type"));
    let (field, _, message) = refusal("iterations".into(), settings(&[("bogus", 1.0.into())]));
    assert_eq!(field, "settings", "{message}");
    let (field, _, message) = refusal("nope".into(), JsValue::UNDEFINED);
    assert_eq!(field, "experiment", "{message}");
    let (field, code, _) = refusal(3.0.into(), JsValue::UNDEFINED);
    assert_eq!(
        (field.as_str(), code.as_str()),
        ("experiment", "wrong_type")
    );
    let (field, code, _) = refusal("iterations".into(), 5.0.into());
    assert_eq!((field.as_str(), code.as_str()), ("settings", "wrong_type"));
}

#[wasm_bindgen_test]
fn a_run_in_slices_reports_what_the_native_run_does() {
    let mut run = ExperimentRun::new("convergence".into(), JsValue::UNDEFINED).expect("defaults");
    assert_eq!(run.work_done(), 0.0, "building the run stepped nothing");
    let mut slices = 0;
    while !run.advance(100_000.0.into()).unwrap() {
        slices += 1;
        assert!(run.progress() < 1.0);
        assert!(slices < 100_000, "not finished after {slices} slices");
    }
    assert!(run.done() && run.progress() == 1.0);
    assert!(slices > 1, "{slices} slices");
    let d = definition("convergence").unwrap();
    let native = d.run(d.defaults()).unwrap();
    assert_eq!(run.report(JsValue::UNDEFINED).unwrap(), native.to_json());
    assert_eq!(
        run.report(8.0.into()).unwrap(),
        native.to_json_thinned(8),
        "a thinned report for plots"
    );
    assert!(
        run.report(3.0.into()).is_err(),
        "fewer than 4 points are refused"
    );
    assert!(run.report("x".into()).is_err(), "a string is refused");
    assert!(
        run.advance((-1.0).into()).is_err(),
        "a negative budget is refused"
    );
}

#[wasm_bindgen_test]
fn a_key_number_not_reached_is_null_in_the_wasm_report_as_in_the_native_one() {
    let given = [
        ("width", 6.0),
        ("height", 5.0),
        ("maxDamping", 10.0),
        ("duration", 1.0),
    ];
    let js = settings(&given.map(|(name, value)| (name, value.into())));
    let mut run = ExperimentRun::new("damping".into(), js).expect("accepted settings");
    while !run.advance(200_000.0.into()).unwrap() {}
    let report = run.report(JsValue::UNDEFINED).unwrap();
    let d = definition("damping").unwrap();
    let native = d.run(d.settings(&given).unwrap()).unwrap();
    assert_eq!(report, native.to_json());
    let parsed = JSON::parse(&report).expect("valid JSON");
    let numbers = Reflect::get(&parsed, &"numbers".into()).unwrap();
    let broke = Reflect::get(&numbers, &"breaksAtBeta".into()).unwrap();
    assert!(broke.is_null(), "up to β = 10 nothing breaks: {broke:?}");
    let verdict = Reflect::get(&parsed, &"verdict".into()).unwrap();
    let advice = Reflect::get(&verdict, &"advice".into()).unwrap();
    assert!(advice.as_string().is_some_and(|a| !a.is_empty()), "advice");
}

#[wasm_bindgen_test]
fn wall_clock_times_are_checked_and_shown_beside_the_work_units() {
    let settings = settings(&[
        ("duration", 0.5.into()),
        ("width", 5.0.into()),
        ("height", 4.0.into()),
    ]);
    let mut run = ExperimentRun::new("equal-cost".into(), settings).unwrap();
    let field_and_code = |error: JsValue| {
        let text = |name: &str| Reflect::get(&error, &name.into()).unwrap().as_string();
        (text("field"), text("code"))
    };
    let invalid = Some("invalid_value".to_string());
    for (trial, seconds, field) in [
        // past every trial: the run's own and its checks'
        (JsValue::from(100.0), JsValue::from(0.1), "trial"),
        (JsValue::from(0.5), JsValue::from(0.1), "trial"),
        (JsValue::from(-1.0), JsValue::from(0.1), "trial"),
        (JsValue::from(0.0), JsValue::from(f64::NAN), "seconds"),
        (JsValue::from(0.0), JsValue::from(-1.0), "seconds"),
    ] {
        let error = run.add_wall_time(trial, seconds).expect_err("refused");
        assert_eq!(field_and_code(error), (Some(field.into()), invalid.clone()));
    }
    let (_, code) = field_and_code(run.add_wall_time("0".into(), 0.1.into()).unwrap_err());
    assert!(code.is_some(), "a string is refused with a code");
    // time each trial as the page's runner does: a call steps one trial
    loop {
        let trial = run.current_trial();
        let done = run.advance(200_000.0.into()).unwrap();
        run.add_wall_time(trial.into(), 0.001.into()).unwrap();
        if done {
            break;
        }
    }
    let report = JSON::parse(&run.report(JsValue::UNDEFINED).unwrap()).unwrap();
    let table = Reflect::get(&report, &"table".into()).unwrap();
    let columns: Vec<String> =
        js_sys::Array::from(&Reflect::get(&table, &"columns".into()).unwrap())
            .iter()
            .map(|c| c.as_string().unwrap())
            .collect();
    let wall = columns
        .iter()
        .position(|c| c == "wall-clock per step (ms)")
        .expect("a wall-clock column");
    let rows = js_sys::Array::from(&Reflect::get(&table, &"rows".into()).unwrap());
    for row in rows.iter() {
        let cell = js_sys::Array::from(&row).get(wall as u32);
        assert!(cell.as_f64().is_some_and(|ms| ms > 0.0), "{cell:?}");
    }
    // the refusals changed nothing: the times are only what was added
    let native = definition("equal-cost").unwrap();
    let plain = native
        .run(
            native
                .settings(&[("duration", 0.5), ("width", 5.0), ("height", 4.0)])
                .unwrap(),
        )
        .unwrap();
    let numbers = Reflect::get(&report, &"numbers".into()).unwrap();
    for (name, value) in &plain.numbers {
        let got = Reflect::get(&numbers, &(*name).into())
            .unwrap()
            .as_f64()
            .unwrap();
        assert_eq!(
            got, *value,
            "{name}: the clock never reaches the key numbers"
        );
    }
}
