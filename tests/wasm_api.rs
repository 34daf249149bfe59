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
use xpbd_cloth::Simulation;

wasm_bindgen_test_configure!(run_in_browser);

mod common {
    pub mod lanes_check;
}

#[wasm_bindgen(inline_js = r#"
export function assign(sim, name, value) {
  try { sim[name] = value; return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function call(sim, name, args) {
  try { sim[name](...args); return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function construct(sim, args) {
  try { new sim.constructor(...args); return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function freeThenUse(sim) {
  sim.free();
  try { sim.step(); return 'step after free did not throw'; }
  catch (e) { return e instanceof Error ? 'Error' : 'not an Error'; }
}
"#)]
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
    JsValue::from(Simulation::new(num(w), num(h), num(fixed)).expect("valid grid"))
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
        xpbd_cloth::simd_enabled(),
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
    assert_eq!(
        (p[110], p[111]),
        (3.0, 1.0),
        "the held particle sits on the pointer"
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

#[wasm_bindgen(inline_js = r#"
export function drawChecks(sim) {
  const out = {};
  const attempt = (name, f) => {
    try { f(); out[name] = 'returned'; }
    catch (e) { out[name] = (e instanceof WebAssembly.RuntimeError ? 'TRAP ' : '') + e.message; }
  };
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 48;
  const ctx = canvas.getContext('2d');
  const view = { originX: 32, originY: 10, scale: 20 };
  attempt('null', () => sim.drawInto(null, view));
  attempt('object', () => sim.drawInto({ canvas }, view));
  attempt('ratio', () => sim.drawInto(ctx, { ...view, pixelRatio: 1e6 }));
  attempt('radius', () => sim.drawInto(ctx, { ...view, particleRadius: 1e4 }));
  attempt('noView', () => sim.drawInto(ctx, undefined));
  const huge = document.createElement('canvas');
  huge.width = 40000; huge.height = 40000;
  attempt('huge', () => sim.drawInto(huge.getContext('2d'), view));
  attempt('good', () => sim.drawInto(ctx, view));
  out.inked = ctx.getImageData(0, 0, 64, 48).data.some((v, i) => i % 4 === 2 && v < 200);
  attempt('stepAfter', () => sim.step());
  return out;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = drawChecks)]
    fn draw_checks(sim: &JsValue) -> JsValue;
}

#[wasm_bindgen_test]
fn draw_into_refuses_bad_contexts_and_views_and_stays_usable() {
    let sim = js_sim(10.0, 10.0, 2.0);
    let out = draw_checks(&sim);
    let field = |name: &str| get(&out, name).as_string().unwrap_or_default();
    assert!(field("null").contains("invalid ctx"), "{}", field("null"));
    assert!(
        field("object").contains("invalid ctx"),
        "{}",
        field("object")
    );
    assert!(
        field("ratio").contains("view.pixelRatio"),
        "{}",
        field("ratio")
    );
    assert!(
        field("radius").contains("view.particleRadius"),
        "{}",
        field("radius")
    );
    assert!(
        field("noView").contains("view.originX"),
        "{}",
        field("noView")
    );
    assert!(field("huge").contains("16777216"), "{}", field("huge"));
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
