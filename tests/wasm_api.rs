//! Tests of the exported JavaScript API, run in headless Chromium by
//! `cargo test --target wasm32-unknown-unknown --test wasm_api` (see
//! `.cargo/config.toml` and `webdriver.json`).
//!
//! Most checks go through JavaScript itself (property assignment, method calls,
//! `free()`), so they test the names and errors a web page really sees.
#![cfg(target_arch = "wasm32")]

use js_sys::{Float32Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use xpbd_cloth::params::{Applies, PARAMETERS};
use xpbd_cloth::wasm::Simulation;

wasm_bindgen_test_configure!(run_in_browser);

mod common {
    pub mod lanes_check;
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    fn assign(sim: &JsValue, name: &str, value: JsValue) -> Option<String>;
    fn call(sim: &JsValue, name: &str, args: js_sys::Array) -> Option<String>;
    fn construct(sim: &JsValue, args: js_sys::Array) -> Option<String>;
    #[wasm_bindgen(js_name = freeThenUse)]
    fn free_then_use(sim: JsValue) -> String;
}

fn num(v: f64) -> JsValue {
    JsValue::from_f64(v)
}

fn args(values: &[JsValue]) -> js_sys::Array {
    values.iter().collect()
}

/// A default 40 × 30 cloth, handed to JavaScript.
fn js_sim(w: f64, h: f64, fixed: f64) -> JsValue {
    let sim = JsValue::from(Simulation::new(num(w), num(h), num(fixed)).expect("valid grid"));
    with_parameter_properties(&sim);
    sim
}

/// Gives the class of `sim` its parameter properties (`sim.stiffness`), each an
/// accessor calling `parameterValue(name)` and `setParameterValue(name,
/// value)`, as `www/lib/parameter-properties.js` defines them on a page from
/// the same table (the end-to-end tests load that file itself; this file binds
/// one JavaScript module only, `tests/wasm_harness.rs` says why).
fn with_parameter_properties(sim: &JsValue) {
    let accessor = js_sys::Function::new_with_args(
        "name",
        "return { get() { return this.parameterValue(name); }, \
         set(value) { this.setParameterValue(name, value); }, configurable: true };",
    );
    let prototype = js_sys::Object::get_prototype_of(sim);
    for p in PARAMETERS
        .iter()
        .filter(|p| p.applies == Applies::Simulation)
    {
        let name = JsValue::from_str(p.name);
        let descriptor = accessor.call1(&JsValue::NULL, &name).unwrap();
        js_sys::Object::define_property(&prototype, &name, &descriptor.into());
    }
}

fn get(sim: &JsValue, name: &str) -> JsValue {
    Reflect::get(sim, &JsValue::from_str(name)).unwrap()
}

fn get_f64(sim: &JsValue, name: &str) -> f64 {
    get(sim, name)
        .as_f64()
        .unwrap_or_else(|| panic!("{name} is not a number"))
}

fn method(sim: &JsValue, name: &str, values: &[JsValue]) -> JsValue {
    let f: js_sys::Function = get(sim, name).into();
    f.apply(sim, &args(values)).unwrap()
}

/// Copies the positions view. The copy is made in JavaScript first: allocating
/// the Rust `Vec` may grow wasm memory, which detaches the view mid-copy.
fn positions(sim: &JsValue) -> Vec<f32> {
    let view = Float32Array::from(method(sim, "positions", &[]));
    Float32Array::new(&view).to_vec()
}

#[wasm_bindgen_test]
fn construction_gives_the_originals_counts_and_views() {
    let sim = js_sim(40.0, 30.0, 2.0);
    assert_eq!(get_f64(&sim, "numParticles"), 1200.0);
    assert_eq!(get_f64(&sim, "numConstraints"), 4592.0);
    let p = positions(&sim);
    assert_eq!(p.len(), 2400);
    // particle k = i*w + j at (0.2 j, -0.2 i): k = 41 is row 1, column 1
    assert!((p[82] - 0.2).abs() < 1e-6 && (p[83] + 0.2).abs() < 1e-6);
    let view = Uint32Array::from(method(&sim, "constraints", &[]));
    let c = Uint32Array::new(&view).to_vec();
    assert_eq!(c.len(), 2 * 4592);
    // default colored order: the same constraints as the original, regrouped
    let pairs: std::collections::HashSet<(u32, u32)> =
        c.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    assert_eq!(pairs.len(), 4592);
    for expected in [(0, 1), (1, 2), (0, 40), (0, 41), (1, 40), (1158, 1199)] {
        assert!(pairs.contains(&expected), "{expected:?}");
    }
    assert_eq!(get_f64(&sim, "time"), 0.0);
    assert_eq!(get(&sim, "isFinite"), JsValue::TRUE);
    assert_eq!(get_f64(&sim, "grabbed"), -1.0);
    assert_eq!(get_f64(&sim, "maxStretch"), 0.0);
}

#[wasm_bindgen_test]
fn the_constructor_throws_errors_naming_the_argument() {
    let sim = js_sim(3.0, 3.0, 1.0);
    for (values, field) in [
        (vec![num(0.0), num(30.0), num(2.0)], "width"),
        (vec![num(100000.0), num(30.0), num(2.0)], "width"),
        (vec![num(40.0), num(-2.0), num(2.0)], "height"),
        (vec![num(40.0), num(30.0), num(3.0)], "invalid fixed:"),
        (vec![JsValue::from_str("40"), num(30.0), num(2.0)], "width"),
        (vec![num(40.0), JsValue::UNDEFINED, num(2.0)], "height"),
    ] {
        let message = construct(&sim, args(&values)).expect("must throw");
        assert!(message.contains(field), "{message}");
    }
    assert_eq!(construct(&sim, args(&[num(2.0), num(2.0), num(4.0)])), None);
}

#[wasm_bindgen_test]
fn defaults_are_the_originals() {
    let sim = js_sim(40.0, 30.0, 2.0);
    assert_eq!(get_f64(&sim, "timeStepSize"), 0.01);
    assert_eq!(get_f64(&sim, "iterations"), 5.0);
    assert_eq!(get_f64(&sim, "stiffness"), 1000.0);
    assert_eq!(get_f64(&sim, "gravity"), -9.81);
    assert_eq!(get_f64(&sim, "mass"), 0.5);
}

#[wasm_bindgen_test]
fn every_setter_validates_and_keeps_the_old_value() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let cases: [(&str, f64, Vec<JsValue>); 5] = [
        (
            "timeStepSize",
            0.02,
            vec![
                num(0.0),
                num(-1.0),
                num(f64::NAN),
                JsValue::from_str("0.01"),
            ],
        ),
        (
            "iterations",
            7.0,
            vec![num(0.0), num(2.5), num(5000.0), JsValue::NULL],
        ),
        (
            "stiffness",
            0.0,
            vec![num(-1.0), num(f64::INFINITY), JsValue::from_str("stiff")],
        ),
        (
            "gravity",
            3.5,
            vec![num(f64::NAN), num(1e9), JsValue::UNDEFINED],
        ),
        (
            "mass",
            2.0,
            vec![
                num(0.0),
                num(-1.0),
                JsValue::from_str("heavy"),
                JsValue::TRUE,
            ],
        ),
    ];
    for (name, good, bad_values) in cases {
        assert_eq!(assign(&sim, name, num(good)), None, "{name} = {good}");
        assert_eq!(get_f64(&sim, name), good);
        for bad in bad_values {
            let message = assign(&sim, name, bad.clone())
                .unwrap_or_else(|| panic!("{name} = {bad:?} must throw"));
            assert!(message.contains(name), "{message}");
            assert_eq!(get_f64(&sim, name), good, "{name} kept its value");
        }
    }
}

#[wasm_bindgen_test]
fn solver_order_switches_and_refuses_other_values() {
    let sim = js_sim(10.0, 10.0, 2.0);
    assert_eq!(
        get(&sim, "solverOrder").as_string().as_deref(),
        Some("colored")
    );
    assert_eq!(
        assign(&sim, "solverOrder", JsValue::from_str("original")),
        None
    );
    assert_eq!(
        get(&sim, "solverOrder").as_string().as_deref(),
        Some("original")
    );
    let c = Uint32Array::new(&Uint32Array::from(method(&sim, "constraints", &[]))).to_vec();
    assert_eq!(
        &c[..4],
        &[0, 1, 1, 2],
        "original order lists constraints as created"
    );
    for bad in [JsValue::from_str("fast"), num(1.0), JsValue::NULL] {
        let message = assign(&sim, "solverOrder", bad).expect("refused");
        assert!(message.contains("solverOrder"), "{message}");
    }
    assert_eq!(
        get(&sim, "solverOrder").as_string().as_deref(),
        Some("original")
    );
    assert!(
        xpbd_cloth::wasm::simd_enabled(),
        "the wasm build solves with SIMD"
    );
}

#[wasm_bindgen_test]
fn rest_lengths_forces_and_tearing_are_exposed() {
    let sim = js_sim(10.0, 8.0, 2.0);
    let rest = Float32Array::new(&Float32Array::from(method(&sim, "restLengths", &[]))).to_vec();
    assert_eq!(rest.len() as f64, get_f64(&sim, "numConstraints"));
    assert!(rest
        .iter()
        .all(|&r| (r - 0.2).abs() < 1e-5 || (r - 0.2828427).abs() < 1e-5));
    method(&sim, "steps", &[num(50.0)]);
    let forces =
        Float32Array::new(&Float32Array::from(method(&sim, "constraintForces", &[]))).to_vec();
    assert_eq!(forces.len(), rest.len());
    assert!(
        forces.iter().any(|&f| f > 1.0),
        "a hanging cloth is in tension"
    );

    assert_eq!(get_f64(&sim, "tornCount"), 0.0);
    assert_eq!(assign(&sim, "tearStretch", num(1.2)), None);
    method(&sim, "grab", &[num(75.0)]);
    method(&sim, "drag", &[num(1.0), num(-20.0)]);
    method(&sim, "steps", &[num(20.0)]);
    let torn = get_f64(&sim, "tornCount");
    assert!(torn > 0.0);
    assert_eq!(get_f64(&sim, "numConstraints") + torn, rest.len() as f64);
}

#[wasm_bindgen_test]
fn step_and_steps_advance_time_and_move_the_cloth() {
    let sim = js_sim(40.0, 30.0, 2.0);
    let before = positions(&sim);
    method(&sim, "step", &[]);
    assert!((get_f64(&sim, "time") - 0.01).abs() < 1e-12);
    method(&sim, "steps", &[num(9.0)]);
    assert!((get_f64(&sim, "time") - 0.1).abs() < 1e-9);
    let after = positions(&sim);
    assert_eq!(after[0..2], before[0..2], "particle 0 is fixed");
    assert!(
        after[2 * 600 + 1] < before[2 * 600 + 1] - 0.01,
        "the cloth falls"
    );
    assert!(get_f64(&sim, "maxStretch") > 0.0);
    assert!(get_f64(&sim, "kineticEnergy") > 0.0);
    assert!(call(&sim, "steps", args(&[num(-1.0)]))
        .unwrap()
        .contains("steps"));
    assert!(call(&sim, "steps", args(&[JsValue::from_str("3")])).is_some());
}

#[wasm_bindgen_test]
fn the_positions_view_is_zero_copy_and_follows_the_simulation() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let view = Float32Array::from(method(&sim, "positions", &[]));
    let y_before = view.get_index(2 * 55 + 1);
    method(&sim, "steps", &[num(5.0)]);
    // the same view object sees the new positions: it aliases wasm memory
    assert!(view.get_index(2 * 55 + 1) < y_before);
}

#[wasm_bindgen_test]
fn pick_grab_drag_release() {
    let sim = js_sim(10.0, 10.0, 2.0);
    assert_eq!(
        method(&sim, "pick", &[num(0.41), num(-0.19), num(0.1)]).as_f64(),
        Some(12.0)
    );
    assert_eq!(
        method(&sim, "pick", &[num(50.0), num(50.0), num(0.1)]).as_f64(),
        Some(-1.0)
    );
    assert!(call(&sim, "pick", args(&[num(0.0), num(0.0), num(-1.0)])).is_some());

    method(&sim, "grab", &[num(55.0)]);
    assert_eq!(get_f64(&sim, "grabbed"), 55.0);
    method(&sim, "drag", &[num(3.0), num(1.0)]);
    method(&sim, "steps", &[num(10.0)]);
    let p = positions(&sim);
    let off = (f64::from(p[110]) - 3.0).hypot(f64::from(p[111]) - 1.0);
    assert!(
        off < 0.2,
        "the held particle follows the pointer through the grab's spring: {off} m away"
    );
    method(&sim, "release", &[]);
    assert_eq!(get_f64(&sim, "grabbed"), -1.0);
    method(&sim, "step", &[]);
    assert!(
        positions(&sim)[111] < 0.9,
        "released, the cloth pulls it back"
    );

    for bad in [num(-1.0), num(100.0), num(1.5), JsValue::from_str("0")] {
        let message = call(&sim, "grab", args(&[bad])).expect("bad index throws");
        assert!(message.contains("index"), "{message}");
    }
    assert!(call(&sim, "drag", args(&[num(f64::NAN), num(0.0)]))
        .unwrap()
        .contains('x'));
    assert_eq!(get_f64(&sim, "grabbed"), -1.0);
}

#[wasm_bindgen_test]
fn pinning_any_particle() {
    let sim = js_sim(10.0, 10.0, 2.0);
    assert_eq!(method(&sim, "isPinned", &[num(0.0)]), JsValue::TRUE);
    assert_eq!(method(&sim, "isPinned", &[num(99.0)]), JsValue::FALSE);
    method(&sim, "setPinned", &[num(99.0), JsValue::TRUE]);
    let before = positions(&sim);
    method(&sim, "steps", &[num(20.0)]);
    let after = positions(&sim);
    assert_eq!(after[198..200], before[198..200]);
    method(&sim, "setPinned", &[num(99.0), JsValue::FALSE]);
    assert_eq!(method(&sim, "isPinned", &[num(99.0)]), JsValue::FALSE);
    assert!(call(&sim, "setPinned", args(&[num(100.0), JsValue::TRUE])).is_some());
    assert!(call(
        &sim,
        "setPinned",
        args(&[num(5.0), JsValue::from_str("yes")])
    )
    .unwrap()
    .contains("pinned"));
    assert!(call(&sim, "isPinned", args(&[num(-1.0)])).is_some());
}

#[wasm_bindgen_test]
fn free_releases_the_simulation_and_later_calls_throw_errors() {
    let sim = js_sim(10.0, 10.0, 2.0);
    assert_eq!(free_then_use(sim), "Error");
}

#[wasm_bindgen_test]
fn a_diverged_simulation_reports_it_and_stays_finite() {
    let sim = js_sim(10.0, 10.0, 1.0);
    for (name, value) in [
        ("timeStepSize", 1.0),
        ("gravity", -1e6),
        ("stiffness", 1e-3),
        ("iterations", 1.0),
        ("mass", 1e-6),
    ] {
        assert_eq!(assign(&sim, name, num(value)), None);
    }
    method(&sim, "steps", &[num(1000.0)]);
    assert_eq!(get(&sim, "isFinite"), JsValue::FALSE);
    assert!(positions(&sim).iter().all(|p| p.is_finite()));
}

/// The SIMD kernel (real wasm `f32x4` here, not the native stand-in) gives the
/// same positions and multipliers as a scalar sweep in the same order.
#[wasm_bindgen_test]
fn simd_lanes_match_the_scalar_sweep_bit_for_bit() {
    common::lanes_check::assert_lanes_match_the_scalar_sweep();
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = drawChecks)]
    fn draw_checks(sim: &JsValue) -> JsValue;
}

#[wasm_bindgen_test]
fn draw_into_refuses_bad_contexts_and_views_and_stays_usable() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let out = draw_checks(&sim);
    let field = |name: &str| get(&out, name).as_string().unwrap_or_default();
    for (case, says) in [
        ("null", "invalid ctx"),
        ("object", "invalid ctx"),
        ("ratio", "view.pixelRatio"),
        ("radius", "view.particleRadius"),
        ("noView", "invalid view:"),
        ("huge", "16777216"),
    ] {
        assert!(field(case).contains(says), "{case}: {}", field(case));
    }
    assert_eq!(field("good"), "returned");
    assert_eq!(
        get(&out, "inked"),
        JsValue::TRUE,
        "the good call drew the cloth"
    );
    assert_eq!(
        field("stepAfter"),
        "returned",
        "no call left the simulation borrowed"
    );
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = piecesChecks)]
    fn pieces_checks(sim: &JsValue) -> JsValue;
}

/// `drawInto` with `maxShapes` draws the same picture as one call, leaves the
/// canvas alone until its last piece, starts over when the cloth or the view
/// changed between pieces, and refuses what is not a whole number from 1.
#[wasm_bindgen_test]
fn draw_into_in_pieces_is_the_whole_picture_and_starts_over_on_a_change() {
    let sim = js_sim(3.0, 3.0, 2.0);
    let out = pieces_checks(&sim);
    let total = get_f64(&out, "total");
    assert_eq!(get_f64(&out, "wholeLeft"), 0.0);
    let lefts: Vec<f64> = js_sys::Array::from(&get(&out, "lefts"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let expected: Vec<f64> = (1..=(total / 100.0).ceil() as usize)
        .map(|k| (total - 100.0 * k as f64).max(0.0))
        .collect();
    assert_eq!(lefts, expected, "{total} shapes, 100 a piece");
    assert_eq!(get(&out, "blankUntilLast"), JsValue::TRUE);
    assert_eq!(get(&out, "piecesMatch"), JsValue::TRUE);
    assert_eq!(get_f64(&out, "afterChange"), total - 100.0, "started over");
    assert_eq!(get_f64(&out, "finished"), 0.0);
    assert_eq!(get(&out, "changedMatch"), JsValue::TRUE);
    assert_eq!(get_f64(&out, "otherView"), total - 100.0, "started over");
    assert_eq!(get(&out, "viewMatch"), JsValue::TRUE);
    let refusals = get(&out, "refusals");
    for case in ["zero", "fraction", "negative", "string", "nan", "huge"] {
        let said = get(&refusals, case).as_string().unwrap_or_default();
        assert!(
            said.starts_with("view.maxShapes invalid_value invalid view.maxShapes: got")
                || said.starts_with("view.maxShapes wrong_type"),
            "{case}: {said}"
        );
    }
    assert_eq!(get(&out, "stepsAfter"), JsValue::TRUE);
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = setOutcome)]
    fn set_outcome(sim: &JsValue, name: &str, value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = callOutcome)]
    fn call_outcome(sim: &JsValue, name: &str, args: js_sys::Array) -> JsValue;
    #[wasm_bindgen(js_name = constructOutcome)]
    fn construct_outcome(sim: &JsValue, args: js_sys::Array) -> JsValue;
    fn repeated(n: f64) -> JsValue;
    #[wasm_bindgen(js_name = longestString)]
    fn longest_string() -> js_sys::JsString;
    #[wasm_bindgen(js_name = canvasContext)]
    fn canvas_context(width: f64, height: f64) -> JsValue;
    #[wasm_bindgen(js_name = fakeContext)]
    fn fake_context(width: f64, height: f64) -> JsValue;
    fn now() -> f64;
}

/// What a JavaScript call threw: `(message, code, field)`, after checking it
/// was a plain `Error` and no trap.
fn thrown(outcome: &JsValue, what: &str) -> (String, String, String) {
    let text = |name: &str| get(outcome, name).as_string().unwrap_or_default();
    assert_eq!(
        get(outcome, "threw"),
        JsValue::TRUE,
        "{what}: did not throw"
    );
    assert_eq!(
        get(outcome, "trap"),
        JsValue::FALSE,
        "{what}: trapped: {}",
        text("message")
    );
    assert_eq!(
        get(outcome, "plain"),
        JsValue::TRUE,
        "{what}: not a plain Error: {}",
        text("message")
    );
    (text("message"), text("code"), text("field"))
}

/// Steps `sim` once from JavaScript and checks that time went on: it is not
/// left borrowed.
fn assert_steps(sim: &JsValue, what: &str) {
    let t = get_f64(sim, "time");
    let stepped = call_outcome(sim, "step", args(&[]));
    assert_eq!(
        get(&stepped, "threw"),
        JsValue::FALSE,
        "{what}: step() threw afterwards: {:?}",
        get(&stepped, "message")
    );
    assert!(
        get_f64(sim, "time") > t,
        "{what}: step() did nothing afterwards"
    );
}

fn memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let buffer: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
    buffer.byte_length() as f64
}

#[wasm_bindgen_test]
fn errors_carry_the_field_and_a_code() {
    let sim = js_sim(10.0, 10.0, 2.0);
    for (name, value, code) in [
        ("mass", num(0.0), "invalid_value"),
        ("mass", JsValue::from_str("heavy"), "wrong_type"),
        ("timeStepSize", num(f64::NAN), "invalid_value"),
        ("iterations", JsValue::NULL, "wrong_type"),
        ("solverOrder", JsValue::from_str("fast"), "invalid_value"),
        ("solverOrder", num(1.0), "wrong_type"),
    ] {
        let (message, got_code, field) = thrown(&set_outcome(&sim, name, &value), name);
        assert_eq!(
            (got_code.as_str(), field.as_str()),
            (code, name),
            "{message}"
        );
        assert!(
            message.starts_with(&format!("invalid {name}:")),
            "{message}"
        );
    }
    for (method, values, code, field) in [
        ("grab", vec![num(1e9)], "particle_index", "index"),
        ("grab", vec![JsValue::from_str("1")], "wrong_type", "index"),
        (
            "setPinned",
            vec![num(1.0), num(1.0)],
            "wrong_type",
            "pinned",
        ),
        ("steps", vec![num(-1.0)], "invalid_value", "steps"),
        (
            "pick",
            vec![num(0.0), num(0.0), num(-1.0)],
            "invalid_value",
            "radius",
        ),
        ("drag", vec![num(0.0), num(2e6)], "invalid_value", "y"),
    ] {
        let (message, got_code, got_field) =
            thrown(&call_outcome(&sim, method, args(&values)), method);
        assert_eq!(
            (got_code.as_str(), got_field.as_str()),
            (code, field),
            "{method}: {message}"
        );
    }
    let ctx = canvas_context(64.0, 48.0);
    let view = |extra: &str, value: JsValue| {
        let view = js_sys::Object::new();
        for (k, v) in [("originX", 10.0), ("originY", 10.0), ("scale", 20.0)] {
            Reflect::set(&view, &k.into(), &num(v)).unwrap();
        }
        Reflect::set(&view, &extra.into(), &value).unwrap();
        JsValue::from(view)
    };
    for (drawn, code, field) in [
        (
            vec![JsValue::NULL, view("scale", num(20.0))],
            "wrong_type",
            "ctx",
        ),
        (vec![ctx.clone(), JsValue::UNDEFINED], "wrong_type", "view"),
        (
            vec![ctx.clone(), view("scale", num(1e30))],
            "invalid_value",
            "view.scale",
        ),
        (
            vec![ctx.clone(), view("pixelRatio", JsValue::from_str("2"))],
            "wrong_type",
            "view.pixelRatio",
        ),
    ] {
        let (message, got_code, got_field) =
            thrown(&call_outcome(&sim, "drawInto", args(&drawn)), field);
        assert_eq!(
            (got_code.as_str(), got_field.as_str()),
            (code, field),
            "{message}"
        );
    }
    let (message, code, field) = thrown(
        &construct_outcome(&sim, args(&[num(1.0), num(2.0), num(2.0)])),
        "constructor",
    );
    assert_eq!(
        (code.as_str(), field.as_str()),
        ("invalid_value", "width"),
        "{message}"
    );
    assert_steps(&sim, "after the errors");
}

/// `width × height` of a canvas wraps in a 32-bit `usize`: 65536 × 65536 is 0.
#[wasm_bindgen_test]
fn a_huge_canvas_is_refused_with_canvas_too_large_and_the_simulation_still_works() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let view = js_sys::Object::new();
    for (k, v) in [("originX", 10.0), ("originY", 10.0), ("scale", 20.0)] {
        Reflect::set(&view, &k.into(), &num(v)).unwrap();
    }
    let two_pow_32 = 4294967296.0;
    let mut contexts = vec![
        fake_context(65536.0, 65536.0),
        fake_context(131072.0, 32768.0),
        fake_context(two_pow_32, 1.0),
        fake_context(two_pow_32 + 5.0, 2.0),
        fake_context(1e9, 1e9),
        fake_context(f64::INFINITY, 3.0),
        fake_context(4097.0, 4096.0),
    ];
    let real = canvas_context(65536.0, 65536.0);
    if !real.is_null() {
        contexts.push(real);
    }
    for ctx in contexts {
        let canvas = get(&ctx, "canvas");
        let what = format!("{:?} × {:?}", get(&canvas, "width"), get(&canvas, "height"));
        let (message, code, field) = thrown(
            &call_outcome(&sim, "drawInto", args(&[ctx, view.clone().into()])),
            &what,
        );
        assert_eq!(
            (code.as_str(), field.as_str()),
            ("canvas_too_large", "ctx"),
            "{what}: {message}"
        );
        assert!(message.starts_with("drawInto: the canvas is "), "{message}");
        assert!(message.contains("16777216"), "{message}");
        assert_steps(&sim, &what);
    }
    // and it still draws on a canvas it can
    let ctx = canvas_context(64.0, 48.0);
    let drawn = call_outcome(&sim, "drawInto", args(&[ctx, view.into()]));
    assert_eq!(
        get(&drawn, "threw"),
        JsValue::FALSE,
        "{:?}",
        get(&drawn, "message")
    );
    method(&sim, "free", &[]);
}

/// A huge string for `solverOrder` is measured, not copied: the message shows
/// its beginning and wasm memory does not grow.
#[wasm_bindgen_test]
fn a_huge_solver_order_string_gives_a_short_message_and_no_memory_growth() {
    let sim = js_sim(10.0, 10.0, 2.0);
    for value in [repeated(1e6), JsValue::from(longest_string())] {
        let length = value.dyn_ref::<js_sys::JsString>().unwrap().length();
        let before = memory_bytes();
        let (message, code, field) =
            thrown(&set_outcome(&sim, "solverOrder", &value), "solverOrder");
        let grown = memory_bytes() - before;
        assert_eq!(
            (code.as_str(), field.as_str()),
            ("invalid_value", "solverOrder")
        );
        let start = format!(
            "invalid solverOrder: got \"{}\"… ({length} characters)",
            "x".repeat(40)
        );
        assert!(
            message.starts_with(&start),
            "{}",
            &message[..message.len().min(300)]
        );
        assert!(message.len() < 200, "a message of {} bytes", message.len());
        assert!(
            grown <= 65536.0,
            "wasm memory grew by {grown} bytes for a string of {length}"
        );
        assert_eq!(
            get(&sim, "solverOrder").as_string().as_deref(),
            Some("colored")
        );
        assert_steps(&sim, "after a huge string");
    }
    method(&sim, "free", &[]);
}

/// Creating 500 × 500 cloths (tens of MiB each) until wasm memory runs out
/// ends in an Error, and everything keeps working. Filling 4 GiB with cloths
/// alone takes half a minute (114 cloths), beyond the test runner's patience,
/// so ballast that is reserved but never written (cheap: its pages stay
/// untouched) takes most of it first, leaving room for a few cloths.
#[wasm_bindgen_test]
fn running_out_of_memory_is_an_error_and_every_cloth_keeps_working() {
    let started = now();
    let older = js_sim(40.0, 30.0, 2.0);
    method(&older, "steps", &[num(3.0)]);
    const CHUNK: usize = 64 << 20;
    let mut ballast: Vec<Vec<u8>> = Vec::with_capacity(128);
    while ballast.len() < 128 {
        let mut chunk = Vec::new();
        if chunk.try_reserve_exact(CHUNK).is_err() {
            break;
        }
        ballast.push(chunk);
    }
    let full = memory_bytes();
    // room for about five big cloths
    ballast.truncate(ballast.len().saturating_sub(4));
    let mut cloths = Vec::new();
    let error = loop {
        match Simulation::new(num(500.0), num(500.0), num(2.0)) {
            Ok(cloth) => cloths.push(cloth),
            Err(error) => break error,
        }
        assert!(
            cloths.len() < 200,
            "no out-of-memory Error after 200 cloths"
        );
    };
    let text = |name: &str| get(&error, name).as_string().unwrap_or_default();
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(
        (text("code").as_str(), text("field").as_str()),
        ("out_of_memory", "width")
    );
    assert_eq!(
        text("message"),
        "out of memory: a 500 × 500 cloth needs 47 MiB"
    );
    console_log!(
        "out of memory after {} cloths of 500 × 500 beside {} MiB of ballast; wasm memory {:.0} MiB",
        cloths.len(),
        ballast.len() * (CHUNK >> 20),
        full / 1048576.0
    );
    assert!(cloths.len() >= 2, "only {} cloths fitted", cloths.len());
    // the older cloth and the newest 500 × 500 still step
    assert_steps(&older, "the older cloth, memory full");
    let newest = JsValue::from(cloths.pop().unwrap());
    assert_steps(&newest, "the newest big cloth, memory full");
    method(&newest, "free", &[]);
    drop(cloths);
    drop(ballast);
    // freed, the memory serves new cloths again
    let again = JsValue::from(
        Simulation::new(num(500.0), num(500.0), num(2.0)).expect("fits once the others are freed"),
    );
    assert_steps(&again, "a new big cloth after freeing");
    assert_steps(&older, "the older cloth after freeing");
    method(&again, "free", &[]);
    method(&older, "free", &[]);
    console_log!("the test took {:.1} s", (now() - started) / 1000.0);
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = tearUnderOldViews)]
    fn tear_under_old_views(sim: &JsValue) -> JsValue;
}

fn numbers(object: &JsValue, name: &str) -> Vec<f64> {
    js_sys::Array::from(&get(object, name))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

#[wasm_bindgen_test]
fn views_taken_before_tearing_still_read_real_constraints() {
    let sim = js_sim(20.0, 15.0, 2.0);
    let torn = tear_under_old_views(&sim);
    let (built_with, live) = (get_f64(&torn, "builtWith"), get_f64(&torn, "live"));
    assert!(get_f64(&torn, "tornCount") > 0.0 && live < built_with);
    let (old_ids, old_rest) = (numbers(&torn, "oldIds"), numbers(&torn, "oldRest"));
    // the old views: still the whole length they had, all real constraints
    assert_eq!(old_ids.len() as f64, 2.0 * built_with, "not detached");
    assert!(
        old_ids.iter().all(|&k| k < 300.0),
        "indices below numParticles"
    );
    assert!(
        old_rest.iter().all(|&r| r > 0.19 && r < 0.3),
        "rest lengths"
    );
    // their prefix is the new view
    let (new_ids, new_rest) = (numbers(&torn, "newIds"), numbers(&torn, "newRest"));
    assert_eq!(new_ids.len() as f64, 2.0 * live);
    assert_eq!(&old_ids[..new_ids.len()], new_ids.as_slice());
    assert_eq!(&old_rest[..new_rest.len()], new_rest.as_slice());
    // a new order rearranges the same memory
    let reordered = numbers(&torn, "reordered");
    assert_eq!(reordered.len(), old_ids.len());
    assert!(reordered.iter().all(|&k| k < 300.0));
}

#[wasm_bindgen_test]
fn advance_steps_in_slices_bit_for_bit() {
    let whole = js_sim(30.0, 20.0, 2.0);
    let sliced = js_sim(30.0, 20.0, 2.0);
    for sim in [&whole, &sliced] {
        assert_eq!(assign(sim, "substeps", num(2.0)), None);
        assert_eq!(assign(sim, "tearStretch", num(1.3)), None);
    }
    let per_step = get_f64(&sliced, "workPerStep");
    assert!(per_step > 0.0);
    assert_eq!(get(&sliced, "stepInProgress"), JsValue::FALSE);
    method(&whole, "steps", &[num(12.0)]);
    let (mut finished, mut calls, mut left_in_progress) = (0.0, 0, 0);
    while finished < 12.0 {
        let budget = num(per_step / 7.0);
        let done = method(&sliced, "advance", &[num(12.0 - finished), budget]);
        finished += done.as_f64().unwrap();
        calls += 1;
        assert!(calls < 10_000, "12 steps not done after {calls} calls");
        if get(&sliced, "stepInProgress") == JsValue::TRUE {
            left_in_progress += 1;
        }
    }
    assert!(
        calls > 12 && left_in_progress > 12,
        "{calls} calls, {left_in_progress} left a step in progress"
    );
    assert_eq!(get(&sliced, "stepInProgress"), JsValue::FALSE);
    assert_eq!(positions(&sliced), positions(&whole));
    assert_eq!(get_f64(&sliced, "time"), get_f64(&whole, "time"));
    assert_eq!(get_f64(&sliced, "tornCount"), get_f64(&whole, "tornCount"));
    assert!(get_f64(&sliced, "workDone") >= 12.0 * per_step * 0.5);
    // a step left in progress is finished by step()
    method(&sliced, "advance", &[num(1.0), num(1.0)]);
    assert_eq!(get(&sliced, "stepInProgress"), JsValue::TRUE);
    assert!(get_f64(&sliced, "stepProgress") < 1.0);
    method(&sliced, "step", &[]);
    method(&whole, "step", &[]);
    assert_eq!(get(&sliced, "stepInProgress"), JsValue::FALSE);
    assert_eq!(positions(&sliced), positions(&whole));
    // the limits of one call
    let most = get_f64(&sliced, "maxStepsPerCall");
    assert!((1.0..=10000.0).contains(&most));
    for (values, field) in [
        (vec![num(-1.0), num(0.0)], "maxSteps"),
        (vec![num(1.5), num(0.0)], "maxSteps"),
        (vec![num(10001.0), num(0.0)], "maxSteps"),
        (vec![JsValue::from_str("1"), num(0.0)], "maxSteps"),
        (vec![num(1.0), num(-5.0)], "workBudget"),
        (vec![num(1.0), num(f64::NAN)], "workBudget"),
        (vec![num(1.0), num(2e9)], "workBudget"),
        (vec![num(1.0), JsValue::UNDEFINED], "workBudget"),
    ] {
        let message = call(&sliced, "advance", args(&values)).expect("must throw");
        assert!(
            message.starts_with(&format!("invalid {field}")),
            "{message}"
        );
    }
    assert_eq!(
        positions(&sliced),
        positions(&whole),
        "refused calls change nothing"
    );
}

#[wasm_bindgen_test]
fn a_diverged_step_gives_back_the_constraints_it_tore() {
    let sim = js_sim(20.0, 15.0, 2.0);
    assert_eq!(assign(&sim, "tearStretch", num(1.3)), None);
    method(&sim, "grab", &[num(150.0)]);
    method(&sim, "drag", &[num(2.0), num(-8.0)]);
    method(&sim, "steps", &[num(20.0)]);
    method(&sim, "release", &[]);
    for (name, value) in [
        ("timeStepSize", 1.0),
        ("gravity", -1e6),
        ("stiffness", 1e-3),
        ("iterations", 1.0),
        ("mass", 1e-6),
        ("substeps", 2.0),
    ] {
        assert_eq!(assign(&sim, name, num(value)), None);
    }
    loop {
        let before = (
            get_f64(&sim, "numConstraints"),
            get_f64(&sim, "tornCount"),
            positions(&sim),
        );
        method(&sim, "step", &[]);
        if get(&sim, "isFinite") == JsValue::FALSE {
            let after = (
                get_f64(&sim, "numConstraints"),
                get_f64(&sim, "tornCount"),
                positions(&sim),
            );
            assert_eq!(
                after, before,
                "numConstraints, tornCount and positions as before"
            );
            break;
        }
        assert!(get_f64(&sim, "time") < 1000.0, "diverges");
    }
}

/// Numbers JavaScript can pass but no count or index type holds (fractions,
/// negatives, NaN, 2^32 and beyond) are refused where they arrive, in the wasm
/// layer, with the same messages as the core's refusals of whole numbers.
#[wasm_bindgen_test]
fn numbers_no_count_or_index_holds_are_refused_with_the_cores_wording() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let before = positions(&sim);
    let two_32 = 4_294_967_296.0;
    for (bad, shown) in [
        (2.5, "2.5"),
        (-1.0, "-1"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "Infinity"),
        (two_32, "4294967296"),
        (1e300, "1e300"),
        (100.0, "100"),
    ] {
        let index_message =
            format!("invalid particle index: got {shown}, expected a whole number from 0 to 99");
        for (name, values) in [
            ("grab", vec![num(bad)]),
            ("isPinned", vec![num(bad)]),
            ("setPinned", vec![num(bad), JsValue::TRUE]),
        ] {
            let outcome = call_outcome(&sim, name, args(&values));
            let (message, code, field) = thrown(&outcome, name);
            assert_eq!(
                (message.as_str(), code.as_str(), field.as_str()),
                (index_message.as_str(), "particle_index", "index")
            );
        }
        if bad == 100.0 {
            continue; // a count all the others accept
        }
        {
            let outcome = call_outcome(&sim, "steps", args(&[num(bad)]));
            let (message, code, field) = thrown(&outcome, "steps");
            let expected =
                format!("invalid steps: got {shown}, expected a whole number from 0 to 10000");
            assert_eq!(
                (message.as_str(), code.as_str(), field.as_str()),
                (expected.as_str(), "invalid_value", "steps")
            );
            let outcome = call_outcome(&sim, "advance", args(&[num(bad), num(0.0)]));
            let (message, _, field) = thrown(&outcome, "advance");
            assert_eq!(
                (message, field.as_str()),
                (
                    format!(
                        "invalid maxSteps: got {shown}, expected a whole number from 0 to 10000"
                    ),
                    "maxSteps"
                )
            );
        }
        {
            let outcome = set_outcome(&sim, "iterations", &num(bad));
            let (message, code, _) = thrown(&outcome, "iterations");
            assert_eq!(
                (message, code.as_str()),
                (
                    format!(
                        "invalid iterations: got {shown}, expected a whole number from 1 to 1000"
                    ),
                    "invalid_value"
                )
            );
            let outcome = construct_outcome(&sim, args(&[num(bad), num(10.0), num(2.0)]));
            let (message, _, field) = thrown(&outcome, "new Simulation");
            assert_eq!(
                (message, field.as_str()),
                (
                    format!(
                        "invalid width: got {shown}, expected a whole number from 2 to 1000 particles"
                    ),
                    "width"
                )
            );
        }
    }
    for (budget, shown) in [
        (-1.0, "-1"),
        (f64::NAN, "NaN"),
        (1e300, "1e300"),
        (2e9, "2000000000"),
    ] {
        let outcome = call_outcome(&sim, "advance", args(&[num(1.0), num(budget)]));
        let (message, _, field) = thrown(&outcome, "advance");
        assert!(
            message.starts_with(&format!("invalid workBudget: got {shown}, expected a number of work units from 0 to 1500000000")),
            "{message}"
        );
        assert_eq!(field, "workBudget");
    }
    assert_eq!(positions(&sim), before, "refused calls change nothing");
    assert_eq!(get_f64(&sim, "iterations"), 5.0);
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = sceneOutcome)]
    fn scene_outcome(class: &JsValue, change: &str) -> JsValue;
    #[wasm_bindgen(js_name = areaOutcome)]
    fn area_outcome(class: &JsValue, count: u32, change: &str) -> JsValue;
    #[wasm_bindgen(js_name = presetOutcome)]
    fn preset_outcome(class: &JsValue, name: &JsValue, options: &JsValue) -> JsValue;
}

fn simulation_class() -> JsValue {
    get(&js_sim(2.0, 2.0, 2.0), "constructor")
}

/// The simulation an outcome holds, or a panic with its error.
fn built(outcome: &JsValue) -> JsValue {
    let sim = get(outcome, "sim");
    assert!(
        !sim.is_undefined(),
        "refused: {:?}",
        get(outcome, "message").as_string()
    );
    sim
}

/// The `(message, field, code)` of a refused outcome.
fn refused_with(outcome: &JsValue) -> (String, String, String) {
    let text = |name| get(outcome, name).as_string().unwrap_or_default();
    assert!(get(outcome, "sim").is_undefined(), "accepted");
    (text("message"), text("field"), text("code"))
}

#[wasm_bindgen_test]
fn from_scene_builds_what_the_spec_says() {
    let sim = built(&scene_outcome(&simulation_class(), ""));
    assert_eq!(get(&sim, "numParticles").as_f64(), Some(4.0));
    assert_eq!(get(&sim, "numConstraints").as_f64(), Some(5.0));
    assert_eq!(get(&sim, "stiffness").as_f64(), Some(500.0));
    assert_eq!(get(&sim, "mass").as_f64(), Some(1.0));
    let pinned = Reflect::get(&sim, &"isPinned".into()).unwrap();
    let pinned: &js_sys::Function = pinned.unchecked_ref();
    assert_eq!(pinned.call1(&sim, &num(0.0)).unwrap(), JsValue::TRUE);
    assert_eq!(pinned.call1(&sim, &num(1.0)).unwrap(), JsValue::FALSE);
    assert_eq!(call(&sim, "steps", args(&[num(50.0)])), None);
    assert_eq!(get(&sim, "isFinite"), JsValue::TRUE);
    // per-constraint stiffness as a typed array, masses defaulted
    let change =
        "spec.distanceStiffness = new Float64Array([10, 20, 30, 40, 0]); delete spec.masses;";
    let sim = built(&scene_outcome(&simulation_class(), change));
    assert_eq!(get(&sim, "mass").as_f64(), Some(0.5));
    assert_eq!(call(&sim, "steps", args(&[num(10.0)])), None);
    // masses at their documented bounds, compared as given (1e-6 as f32 is
    // just below 1e-6), a coordinate at the bound, and just outside refused
    for change in [
        "spec.masses = [0, 1e-6, 1e6, 1e-6];",
        "spec.masses = new Float64Array([0, 1e-6, 1e6, 1]);",
        "spec.positions[0] = 1e6;",
    ] {
        built(&scene_outcome(&simulation_class(), change));
    }
    for (change, field) in [
        ("spec.masses = [0, 0.99e-6, 1, 1];", "masses"),
        ("spec.positions[0] = 1e6 + 0.01;", "positions"),
        ("spec.colliders[1].radius = 1e-50;", "colliders"),
    ] {
        let (got, got_field, got_code) = refused_with(&scene_outcome(&simulation_class(), change));
        assert_eq!(
            (got_field.as_str(), got_code.as_str()),
            (field, "invalid_scene"),
            "{change}: {got}"
        );
    }
}

#[wasm_bindgen_test]
fn from_scene_errors_name_the_entry() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "spec.distances[8] = 2",
            "invalid scene: distances[4] joins particle 2 to itself",
            "distances",
            "invalid_scene",
        ),
        (
            "spec.distances = [0, 1, 1, 7]",
            "invalid scene: distances[1] names particle 7",
            "distances",
            "invalid_scene",
        ),
        (
            "spec.distances = [0, 1.5]",
            "invalid scene: distances[0] names particle 1.5",
            "distances",
            "invalid_scene",
        ),
        (
            "spec.positions = [0, 0, 1]",
            "invalid scene: positions has 3 numbers",
            "positions",
            "invalid_scene",
        ),
        (
            "spec.positions[3] = NaN",
            "invalid scene: positions[3] is NaN",
            "positions",
            "invalid_scene",
        ),
        (
            "spec.positions = 'abc'",
            "invalid positions: got a value of type string",
            "positions",
            "wrong_type",
        ),
        (
            "spec.positions = [0, 0, 1, 'x', 1, 1, 0, 1]",
            "invalid positions[3]: got a value of type string, expected a number",
            "positions",
            "wrong_type",
        ),
        // arrays long enough to be copied in bulk: what the copy would convert
        // silently is refused naming the entry
        (
            "spec.positions = [0, 0, 1, '1', ...Array(96).fill(1)]",
            "invalid positions[3]: got a value of type string, expected a number",
            "positions",
            "wrong_type",
        ),
        (
            "spec.positions = [0, 0, 1, , ...Array(96).fill(1)]",
            "invalid positions[3]: got a value of type undefined, expected a number",
            "positions",
            "wrong_type",
        ),
        (
            "spec.positions = [0, 0, 1, { valueOf: () => 1 }, ...Array(96).fill(1)]",
            "invalid positions[3]: got a value of type object, expected a number",
            "positions",
            "wrong_type",
        ),
        (
            "spec.distances = [0, 1, null, 2, ...Array(96).fill(0)]",
            "invalid distances[2]: got a value of type object, expected a number",
            "distances",
            "wrong_type",
        ),
        (
            "spec.masses = [0, 1, true, 1, ...Array(96).fill(1)]",
            "invalid masses[2]: got a value of type boolean, expected a number",
            "masses",
            "wrong_type",
        ),
        (
            "spec.positions = [0, 0, 1, Infinity, ...Array(96).fill(1)]",
            "invalid scene: positions[3] is Infinity",
            "positions",
            "invalid_scene",
        ),
        (
            "spec.positions = new Float32Array([0, 0, 1, NaN, ...Array(96).fill(1)])",
            "invalid scene: positions[3] is NaN",
            "positions",
            "invalid_scene",
        ),
        (
            "spec.positions = new Proxy([0, 0, 1, 0, ...Array(96).fill(1)], { get: (t, k) => { if (k === '3') throw new Error('x'); return t[k]; } })",
            "invalid positions[3]: got a value of type undefined, expected a number",
            "positions",
            "wrong_type",
        ),
        // too many colliders or areas are refused by their count, before any
        // entry is read (an entry read here throws, and would be refused as
        // wrong_type naming it)
        (
            "spec.colliders = new Proxy(new Array(100), { get: (t, k) => { if (/^[0-9]+$/.test(String(k))) throw new Error('read'); return t[k]; } })",
            "invalid scene: colliders has 100 entries, at most 64 are allowed",
            "colliders",
            "invalid_scene",
        ),
        (
            "spec.areas = new Proxy(new Array(400000), { get: (t, k) => { if (/^[0-9]+$/.test(String(k))) throw new Error('read'); return t[k]; } })",
            "invalid scene: areas has 400000 entries, at most 20000 are allowed",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.masses = [0, 1, 1]",
            "invalid scene: masses has 3 entries",
            "masses",
            "invalid_scene",
        ),
        (
            "spec.positions[2] = 0; spec.positions[3] = 0",
            "invalid scene: distances[0] joins particles 0 and 1, which start at the same place",
            "distances",
            "invalid_scene",
        ),
        (
            "spec.distanceStiffness = [1, 2]",
            "invalid scene: distanceStiffness has 2 entries",
            "distanceStiffness",
            "invalid_scene",
        ),
        (
            "spec.distanceStiffness = 'stiff'",
            "invalid distanceStiffness: got a value of type string",
            "distanceStiffness",
            "wrong_type",
        ),
        (
            "spec.areas[0].particles = [0, 1]",
            "invalid scene: areas[0] has 2 particles",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.areas[0].pressure = -1",
            "invalid scene: areas[0] has pressure -1",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.areas[0].stiffness = 'x'",
            "invalid areas.stiffness: got a value of type string",
            "areas.stiffness",
            "wrong_type",
        ),
        (
            "spec.bending = 'sideways'",
            "invalid bending: got a value of type string",
            "bending",
            "wrong_type",
        ),
        (
            "spec.colliders[1].radius = 0",
            "invalid scene: colliders[1] has radius 0",
            "colliders",
            "invalid_scene",
        ),
        (
            "spec.colliders[0].shape = 'cone'",
            "invalid scene: colliders[0] has no shape",
            "colliders",
            "invalid_scene",
        ),
        (
            "spec.restLengths = [1, 1, 1, 1]",
            "invalid scene: restLengths has 4 entries",
            "restLengths",
            "invalid_scene",
        ),
    ];
    for (change, message, field, code) in cases {
        let (got, got_field, got_code) = refused_with(&scene_outcome(&simulation_class(), change));
        assert!(
            got.starts_with(message),
            "{change}: got {got:?}, expected {message:?}"
        );
        assert_eq!(&got_field, field, "{change}");
        assert_eq!(&got_code, code, "{change}");
    }
    let class = simulation_class();
    let from_scene = Reflect::get(&class, &"fromScene".into()).unwrap();
    let from_scene: &js_sys::Function = from_scene.unchecked_ref();
    let error = from_scene.call1(&class, &num(3.0)).unwrap_err();
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("wrong_type")
    );
    assert_eq!(get(&error, "field").as_string().as_deref(), Some("scene"));
}

#[wasm_bindgen_test]
fn every_preset_builds_and_steps() {
    let class = simulation_class();
    // the words of the `preset` parameter, which `Simulation.preset` checks
    let names = xpbd_cloth::model::presets::names();
    assert!(names.contains(&"cloth") && names.len() > 1, "{names:?}");
    for &name in names {
        let sim = built(&preset_outcome(&class, &name.into(), &JsValue::UNDEFINED));
        assert_eq!(call(&sim, "steps", args(&[num(60.0)])), None, "{name}");
        assert_eq!(get(&sim, "isFinite"), JsValue::TRUE, "{name}");
    }
    let options = js_sys::Object::new();
    Reflect::set(&options, &"width".into(), &num(12.0)).unwrap();
    Reflect::set(&options, &"height".into(), &num(7.0)).unwrap();
    Reflect::set(&options, &"fixed".into(), &num(4.0)).unwrap();
    Reflect::set(&options, &"solverOrder".into(), &"original".into()).unwrap();
    Reflect::set(&options, &"tethers".into(), &JsValue::FALSE).unwrap();
    let sim = built(&preset_outcome(&class, &"cloth".into(), &options));
    assert_eq!(get(&sim, "numParticles").as_f64(), Some(84.0));
    assert_eq!(
        get(&sim, "solverOrder").as_string().as_deref(),
        Some("original")
    );
    let pendulum = built(&preset_outcome(
        &class,
        &"double-pendulum".into(),
        &JsValue::UNDEFINED,
    ));
    assert_eq!(get(&pendulum, "numParticles").as_f64(), Some(3.0));
    assert_eq!(get(&pendulum, "substeps").as_f64(), Some(50.0));
}

#[wasm_bindgen_test]
fn preset_errors_name_the_argument() {
    let class = simulation_class();
    let options = |name: &str, value: JsValue| {
        let object = js_sys::Object::new();
        Reflect::set(&object, &name.into(), &value).unwrap();
        JsValue::from(object)
    };
    let cases: Vec<(JsValue, JsValue, &str, &str, &str)> = vec![
        (
            "hammock".into(),
            JsValue::UNDEFINED,
            "invalid preset: got \"hammock\"",
            "preset",
            "invalid_value",
        ),
        (
            num(3.0),
            JsValue::UNDEFINED,
            "invalid preset: got a value of type number",
            "preset",
            "wrong_type",
        ),
        (
            "rope".into(),
            num(1.0),
            "invalid options: got a value of type number",
            "options",
            "wrong_type",
        ),
        (
            "rope".into(),
            options("fixed", num(2.0)),
            "invalid options: got \"fixed\" = 2",
            "options",
            "invalid_value",
        ),
        (
            "rope".into(),
            options("stiffness", num(-3.0)),
            "invalid stiffness: got -3",
            "stiffness",
            "invalid_value",
        ),
        // a value of the wrong type names the parameter, as its setter does
        (
            "rope".into(),
            options("stiffness", "x".into()),
            "invalid stiffness: got a value of type string, expected a number",
            "stiffness",
            "wrong_type",
        ),
        (
            "cloth".into(),
            options("width", "40".into()),
            "invalid width: got a value of type string",
            "width",
            "wrong_type",
        ),
        (
            "soft-body".into(),
            options("stiffness", true.into()),
            "invalid stiffness: got a value of type boolean, expected a number",
            "stiffness",
            "wrong_type",
        ),
        (
            "balloon".into(),
            options("tethers", num(1.0)),
            "invalid tethers: got a value of type number",
            "tethers",
            "wrong_type",
        ),
        (
            "flag".into(),
            options("width", num(2000.0)),
            "invalid width: got 2000",
            "width",
            "invalid_value",
        ),
        (
            "flag".into(),
            options("selfCollision", js_sys::Object::new().into()),
            "invalid selfCollision: got a value of type object",
            "selfCollision",
            "wrong_type",
        ),
        (
            "cloth".into(),
            options("solverOrder", "sideways".into()),
            "invalid solverOrder: got \"sideways\"",
            "solverOrder",
            "invalid_value",
        ),
    ];
    for (name, opts, message, field, code) in cases {
        let (got, got_field, got_code) = refused_with(&preset_outcome(&class, &name, &opts));
        assert!(
            got.starts_with(message),
            "got {got:?}, expected {message:?}"
        );
        assert_eq!(got_field, field, "{message}");
        assert_eq!(got_code, code, "{message}");
    }
}

/// A plain JavaScript object with `fields`.
fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (name, value) in fields {
        Reflect::set(&object, &JsValue::from_str(name), value).unwrap();
    }
    object.into()
}

#[wasm_bindgen_test]
fn colliders_are_added_moved_picked_drawn_and_removed() {
    let mut sim = Simulation::new(num(10.0), num(10.0), num(2.0)).unwrap();
    let ground = object(&[("shape", "ground".into()), ("y", num(-3.0))]);
    let circle = object(&[
        ("shape", "circle".into()),
        ("x", num(0.9)),
        ("y", num(-1.0)),
        ("radius", num(0.5)),
    ]);
    assert_eq!(sim.add_collider(ground).unwrap(), 1);
    assert_eq!(sim.add_collider(circle).unwrap(), 2);
    sim.move_collider(num(2.0), num(1.0), num(-1.5)).unwrap();
    assert_eq!(sim.pick_collider(num(1.2), num(-1.5)).unwrap(), Some(2));
    assert_eq!(sim.pick_collider(num(5.0), num(-4.0)).unwrap(), Some(1));
    assert_eq!(sim.pick_collider(num(5.0), num(0.0)).unwrap(), None);
    let list = sim.colliders();
    assert_eq!(list.length(), 2);
    let drawn = list.get(1);
    assert_eq!(get(&drawn, "shape").as_string().as_deref(), Some("circle"));
    assert_eq!(get(&drawn, "id").as_f64(), Some(2.0));
    assert_eq!(get(&drawn, "x").as_f64(), Some(1.0));
    assert_eq!(get(&drawn, "radius").as_f64(), Some(0.5));
    // the circle was placed half a metre into the cloth: it pushes the cloth
    // out no faster than the depenetration speed (0.25 m/s), so give it 3 s
    sim.steps(num(300.0)).unwrap();
    // no free particle inside the circle or below the ground (radius 0.05 m)
    let positions = sim.positions().to_vec();
    for p in positions.chunks_exact(2) {
        let (x, y) = (p[0] as f64, p[1] as f64);
        assert!(
            y >= -3.0 + 0.05 - 1e-4,
            "particle at ({x}, {y}) below the ground"
        );
        let d = ((x - 1.0).powi(2) + (y + 1.5).powi(2)).sqrt();
        assert!(
            d >= 0.55 - 1e-4,
            "particle at ({x}, {y}) inside the circle: {d} m from its centre"
        );
    }
    sim.remove_collider(num(2.0)).unwrap();
    assert_eq!(sim.pick_collider(num(1.0), num(-1.5)).unwrap(), None);
    assert_eq!(sim.colliders().length(), 1);

    let sim = js_sim(10.0, 10.0, 2.0);
    let circle_without = |name: &str, value: JsValue| {
        let mut fields = vec![
            ("shape", JsValue::from("circle")),
            ("x", num(0.0)),
            ("y", num(0.0)),
            ("radius", num(1.0)),
        ];
        fields.retain(|(n, _)| *n != name);
        fields.push((name, value));
        object(&fields)
    };
    for (method, values, code, field) in [
        ("addCollider", vec![num(5.0)], "wrong_type", "collider"),
        (
            "addCollider",
            vec![circle_without("shape", "cone".into())],
            "invalid_value",
            "shape",
        ),
        (
            "addCollider",
            vec![circle_without("shape", num(1.0))],
            "wrong_type",
            "shape",
        ),
        (
            "addCollider",
            vec![circle_without("radius", JsValue::UNDEFINED)],
            "wrong_type",
            "radius",
        ),
        (
            "addCollider",
            vec![circle_without("radius", num(-1.0))],
            "invalid_value",
            "radius",
        ),
        (
            "addCollider",
            vec![circle_without("x", num(f64::NAN))],
            "invalid_value",
            "x",
        ),
        (
            "addCollider",
            vec![circle_without("radius", num(1e300))],
            "invalid_value",
            "radius",
        ),
        (
            "addCollider",
            vec![object(&[("shape", "ground".into()), ("y", num(-1e7))])],
            "invalid_value",
            "y",
        ),
        (
            "moveCollider",
            vec![num(99.0), num(0.0), num(0.0)],
            "invalid_value",
            "id",
        ),
        (
            "removeCollider",
            vec![JsValue::from("1")],
            "wrong_type",
            "id",
        ),
        ("removeCollider", vec![num(1.5)], "invalid_value", "id"),
        (
            "pickCollider",
            vec![num(0.0), JsValue::NULL],
            "wrong_type",
            "y",
        ),
    ] {
        let (message, got_code, got_field) =
            thrown(&call_outcome(&sim, method, args(&values)), method);
        assert_eq!(
            (got_code.as_str(), got_field.as_str()),
            (code, field),
            "{method}: {message}"
        );
    }
}

#[wasm_bindgen(module = "/tests/js/wasm_api.js")]
extern "C" {
    #[wasm_bindgen(js_name = savedStateChecks)]
    fn saved_state_checks(class: &JsValue) -> JsValue;
}

#[wasm_bindgen_test]
fn save_and_restore_state_continue_bit_for_bit_and_refuse_what_does_not_fit() {
    let out = saved_state_checks(&simulation_class());
    let text = |object: &JsValue, name: &str| get(object, name).as_string().unwrap_or_default();
    assert_eq!(get(&out, "inProgress"), JsValue::TRUE);
    assert_eq!(
        get(&out, "finished"),
        JsValue::TRUE,
        "saving finishes the step"
    );
    assert!(get_f64(&out, "torn") > 0.0);
    assert_eq!(get_f64(&out, "torn"), get_f64(&out, "tornCount"));
    assert_eq!(
        format!("{:?}", js_sys::Array::from(&get(&out, "types")).to_vec()),
        format!(
            "{:?}",
            [
                "Float32Array",
                "Float32Array",
                "Uint32Array",
                "Uint32Array",
                "Uint32Array"
            ]
            .map(JsValue::from_str)
            .to_vec()
        )
    );
    assert_eq!(text(&out, "restored"), "returned");
    assert_eq!(
        get(&out, "same"),
        JsValue::TRUE,
        "bit for bit after restoring"
    );
    let refusals = get(&out, "refusals");
    for (case, says) in [
        ("notObject", "wrong_type|state|"),
        ("plainArray", "wrong_type|positions|"),
        (
            "short",
            "invalid_state|velocities|invalid state: velocities has 215 entries, expected 216",
        ),
        (
            "huge",
            "invalid_state|pinned|invalid state: pinned has 1000000 entries, expected at most 108",
        ),
        (
            "nan",
            "invalid_state|positions|invalid state: positions[4] is NaN",
        ),
        ("torn", "invalid_state|torn|invalid state: torn has"),
        ("param", "invalid_value|mass|"),
        ("unknownParam", "invalid_value|params|"),
        // the wrong type names the parameter, as its setter does
        (
            "paramType",
            "wrong_type|stiffness|invalid stiffness: got a value of type boolean",
        ),
        (
            "paramString",
            "wrong_type|substeps|invalid substeps: got a value of type string",
        ),
        (
            "collider",
            "invalid_state|colliders|invalid state: colliders[0] has id 0",
        ),
    ] {
        let got = text(&refusals, case);
        assert!(got.starts_with(says), "{case}: {got}");
    }
    assert_eq!(
        get(&out, "unchanged"),
        JsValue::TRUE,
        "refusals change nothing"
    );
    assert_eq!(text(&out, "stepAfter"), "returned");
    assert_eq!(text(&out, "colour"), "returned");
    assert_eq!(
        format!(
            "{:?}",
            js_sys::Array::from(&get(&out, "background")).to_vec()
        ),
        format!("{:?}", [16.0, 32.0, 48.0].map(JsValue::from_f64).to_vec()),
        "the background colour given"
    );
    assert!(
        text(&out, "badColour").starts_with(
            "invalid_value|view.constraintColor|invalid view.constraintColor: got \"red\""
        ),
        "{}",
        text(&out, "badColour")
    );
    assert!(
        text(&out, "badColourType").starts_with("wrong_type|view.xAxisColor|"),
        "{}",
        text(&out, "badColourType")
    );
    assert!(
        text(&out, "shortHex").starts_with("invalid_value|view.yAxisColor|"),
        "{}",
        text(&out, "shortHex")
    );
}

/// Areas are read in bulk when every one is plain, else one by one: both
/// readings build the same cloth bit for bit, and each refusal of the bulk
/// reading's list is the one the reading one by one gives, naming the area.
#[wasm_bindgen_test]
fn areas_read_in_bulk_or_one_by_one_alike() {
    let class = simulation_class();
    let plain = area_outcome(&class, 200, "");
    let bits = get(&plain, "bits").as_string().expect("built");
    // read in bulk (typed arrays, Proxies of arrays, getters, inherited
    // properties) or one by one (an array that `concat` does not spread)
    for change in [
        "for (const a of spec.areas) a.particles = new Uint32Array(a.particles)",
        "spec.areas[150].particles = new Float64Array(spec.areas[150].particles)",
        "for (const a of spec.areas) a.particles = counter.counted(a.particles)",
        "spec.areas[150].particles[Symbol.isConcatSpreadable] = false",
        "const p = spec.areas[150].particles; Object.defineProperty(spec.areas[150], 'particles', { get: () => p })",
        "spec.areas[150] = Object.create(spec.areas[150])",
        "for (const a of spec.areas) { a.stiffness = 0; a.pressure = 1; }",
        "spec.areas = counter.counted(spec.areas)",
    ] {
        let outcome = area_outcome(&class, 200, change);
        assert_eq!(
            get(&outcome, "bits").as_string().as_deref(),
            Some(bits.as_str()),
            "{change}: {:?}",
            get(&outcome, "message").as_string()
        );
    }
    let refusals = [
        (
            "spec.areas[150].particles = [75, , 177]",
            "invalid areas[1]: got a value of type undefined, expected a number",
            "areas",
            "wrong_type",
        ),
        (
            "spec.areas[150].particles = [75, -1, 177]",
            "invalid scene: areas[150] names particle -1, expected a whole-number particle index",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.areas[150].particles = [75, 76.5, 177]",
            "invalid scene: areas[150] names particle 76.5",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.areas[150].particles = [75, '76', 177]",
            "invalid areas[1]: got a value of type string, expected a number",
            "areas",
            "wrong_type",
        ),
        (
            "spec.areas[150].particles = [[75], 76, 177]",
            "invalid areas[0]: got a value of type object, expected a number",
            "areas",
            "wrong_type",
        ),
        (
            "spec.areas[150].particles = { length: 3, 0: 75, 1: 76, 2: 177, [Symbol.isConcatSpreadable]: true }",
            "invalid areas: got a value of type object, expected an array of numbers or a typed array",
            "areas",
            "wrong_type",
        ),
        (
            "spec.areas[150].particles = 75",
            "invalid areas: got a value of type number, expected an array of numbers or a typed array",
            "areas",
            "wrong_type",
        ),
        (
            "delete spec.areas[150].particles",
            "invalid scene: areas[150] has no particles",
            "areas",
            "invalid_scene",
        ),
        (
            "spec.areas[150] = 7",
            "invalid areas[150]: got a value of type number, expected an object",
            "areas[150]",
            "wrong_type",
        ),
        (
            "spec.areas[150].stiffness = null",
            "invalid areas.stiffness: got a value of type object, expected a number",
            "areas.stiffness",
            "wrong_type",
        ),
        (
            "spec.areas[150].pressure = '2'",
            "invalid areas.pressure: got a value of type string",
            "areas.pressure",
            "wrong_type",
        ),
        (
            "spec.areas[150].particles = [75, 76, 500]",
            "invalid scene: areas[150] names particle 500",
            "areas",
            "invalid_scene",
        ),
        (
            "Object.defineProperty(spec.areas[150], 'particles', { get() { throw new Error('no'); } })",
            "invalid scene: areas[150] has no particles",
            "areas",
            "invalid_scene",
        ),
    ];
    for (change, message, field, code) in refusals {
        let (got, got_field, got_code) = refused_with(&area_outcome(&class, 200, change));
        assert!(
            got.starts_with(message),
            "{change}: got {got:?}, expected {message:?}"
        );
        assert_eq!(
            (got_field.as_str(), got_code.as_str()),
            (field, code),
            "{change}"
        );
    }
}

/// More corners than a scene may have are refused by their count: the bulk
/// reading reads no corner, the reading one by one (a typed array makes the
/// list not plain) none past the area that crosses the limit.
#[wasm_bindgen_test]
fn too_many_corners_are_refused_before_they_are_read() {
    let class = simulation_class();
    let most = xpbd_cloth::model::scene::MAX_SCENE_CORNERS;
    // 200 areas of 6000 corners each: 1.2 million, counted before they are read
    let counted = "const big = Array.from({ length: 6000 }, (_, k) => k % 200); \
        for (const a of spec.areas) a.particles = counter.counted(big);";
    let expected =
        format!("invalid scene: areas have 1200000 corners in all, at most {most} are allowed");
    for (change, most_reads) in [
        (counted.to_string(), 0.0),
        (
            format!("{counted} spec.areas[0].particles = new Uint32Array([0, 1, 102]);"),
            // every and set read each element of an area once each
            (2 * (most + 6000)) as f64,
        ),
    ] {
        let outcome = area_outcome(&class, 200, &change);
        let reads = get(&outcome, "reads").as_f64().unwrap();
        let (message, field, code) = refused_with(&outcome);
        assert_eq!(
            (field.as_str(), code.as_str()),
            ("areas", "invalid_scene"),
            "{message}"
        );
        assert!(
            reads <= most_reads,
            "{change}: {reads} corners read, at most {most_reads}"
        );
        if most_reads == 0.0 {
            assert_eq!(message, expected);
        } else {
            assert!(message.contains("corners in all"), "{message}");
        }
    }
}

/// Typed arrays of corners are counted before any is copied: 2000 areas
/// sharing one array of 60 000 corners are refused by the count, where
/// copying each (120 million corners) would run the page out of memory.
#[wasm_bindgen_test]
fn too_many_corners_in_typed_arrays_are_refused_before_they_are_copied() {
    let class = simulation_class();
    let most = xpbd_cloth::model::scene::MAX_SCENE_CORNERS;
    let change =
        "const big = new Uint32Array(60000); for (const a of spec.areas) a.particles = big;";
    let outcome = area_outcome(&class, 2000, change);
    let (message, field, code) = refused_with(&outcome);
    let expected =
        format!("invalid scene: areas have 120000000 corners in all, at most {most} are allowed");
    assert_eq!(
        (message, field.as_str(), code.as_str()),
        (expected, "areas", "invalid_scene")
    );
}

/// A scene of more particles than allowed is refused by their count before
/// any other array (its areas here) is read.
#[wasm_bindgen_test]
fn too_many_particles_are_refused_before_the_areas_are_read() {
    let class = simulation_class();
    let most = xpbd_cloth::params::MAX_PARTICLES;
    let change = format!(
        "spec.positions = new Float64Array({}); spec.areas = counter.counted(spec.areas)",
        2 * (most + 1)
    );
    let outcome = area_outcome(&class, 1000, &change);
    let (message, field, code) = refused_with(&outcome);
    let expected = format!(
        "invalid scene: positions has {} particles, at most {most} are allowed",
        most + 1
    );
    assert_eq!(
        (message, field.as_str(), code.as_str()),
        (expected, "positions", "invalid_scene")
    );
    assert_eq!(get(&outcome, "reads").as_f64(), Some(0.0), "no area read");
}

/// A scene of `MAX_SCENE_AREAS` areas is built; one more is refused by the
/// count, before any area is read.
#[wasm_bindgen_test]
fn the_most_areas_are_built_and_one_more_is_refused_unread() {
    let class = simulation_class();
    let most = xpbd_cloth::model::scene::MAX_SCENE_AREAS;
    let outcome = area_outcome(
        &class,
        most as u32,
        "spec.areas = counter.counted(spec.areas)",
    );
    assert!(
        get(&outcome, "bits").is_string(),
        "{:?}",
        get(&outcome, "message").as_string()
    );
    assert_eq!(
        get(&outcome, "reads").as_f64(),
        Some(most as f64),
        "each area read once"
    );
    let change = "spec.areas.push(spec.areas[0]); spec.areas = counter.counted(spec.areas)";
    let outcome = area_outcome(&class, most as u32, change);
    let (message, field, code) = refused_with(&outcome);
    let expected = format!(
        "invalid scene: areas has {} entries, at most {most} are allowed",
        most + 1
    );
    assert_eq!(
        (message, field.as_str(), code.as_str()),
        (expected, "areas", "invalid_scene")
    );
    assert_eq!(get(&outcome, "reads").as_f64(), Some(0.0), "no area read");
}
