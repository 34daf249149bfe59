//! Fuzzing the core's public API with random operation sequences.
//!
//! `cargo fuzz` needs a nightly toolchain, which this project does not assume;
//! this is the same idea with proptest: arbitrary values (NaN, infinities, zero,
//! negative, huge) for every parameter and argument, in arbitrary order, on
//! cloths built every way the API builds them (a grid, a preset with hostile
//! options, a random scene with areas, bending and colliders). The operations
//! are every public call: the setters and `set_parameter` with every name of the
//! parameter table (bending, tethers, friction, restitution, particle radius,
//! self-collision, wind, ...), stepping (`step`, `steps`, `advance`,
//! `advance_checked`), dragging and pins, colliders (add, move, remove, pick,
//! replaced through a restored state), saved states (save, restore as saved or
//! edited into a hostile one, `set_state`). After every operation the invariants
//! below must hold, and a refused operation must leave the cloth as it was.
//!
//! The seed is fixed and printed (`XPBD_FUZZ_SEED=<n>` explores others); the
//! work is bounded in work units, not time. `scripts/test.sh` runs a short pass.
//! For a long one:
//!
//! ```text
//! XPBD_FUZZ_CASES=200000 XPBD_FUZZ_SEED=7 cargo test --release --test fuzz -- --nocapture
//! ```
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;
use xpbd_cloth::cloth::{ClothState, MAX_STEPS_PER_CALL};
use xpbd_cloth::model::{AreaSpec, Bending, DistanceStiffness, Scene, Shape};
use xpbd_cloth::params::{Value, MAX_WORK_PER_CALL, PARAMETERS};
use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

mod common {
    pub mod hostile;
}
use common::hostile::{fixed_seed, hostile_count, hostile_index, hostile_number};

/// Work units one case may spend stepping (about 0.1 s of stepping).
const CASE_WORK: u64 = 100_000_000;
/// Most work one stepping operation may do: a heavier cloth is advanced in a
/// slice of this many units instead of whole steps.
const OP_WORK: u64 = 5_000_000;

#[derive(Debug, Clone)]
enum Edit {
    AsSaved,
    Time(f64),
    Position(usize, f64),
    Velocity(usize, f64),
    Shorter,
    Pin(u32),
    Tear,
    Order,
    Collider(u32, Shape),
    Param(f64),
}

#[derive(Debug, Clone)]
enum Op {
    Step,
    Steps(u32),
    Advance(u32, u64),
    Set(u8, f64),
    Param(usize, Value),
    Count(bool, u32),
    Order(bool),
    Pick(f64, f64, f64),
    Grab(usize),
    Drag(f64, f64),
    Release,
    Pin(usize, bool),
    Forces,
    AddCollider(Shape),
    MoveCollider(u32, f64, f64),
    RemoveCollider(u32),
    PickCollider(f64, f64),
    Save,
    Restore(usize, Edit),
    SetState(Edit, f64),
}

/// A coordinate or size: mostly where a cloth is, sometimes anything.
fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![4 => -5.0..5.0f64, 1 => hostile_number()]
}

fn shape() -> impl Strategy<Value = Shape> {
    let f = || coordinate().prop_map(|v| v as f32);
    prop_oneof![
        f().prop_map(|y| Shape::Ground { y }),
        (f(), f(), f()).prop_map(|(x, y, radius)| Shape::Circle { x, y, radius }),
        (f(), f(), f(), f()).prop_map(|(x, y, width, height)| Shape::Box {
            x,
            y,
            width,
            height
        }),
    ]
}

/// A value for a parameter of any kind: numbers, flags and words, right or wrong.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => hostile_number().prop_map(Value::Number),
        2 => (0u32..50).prop_map(|v| Value::Number(v as f64)),
        2 => any::<bool>().prop_map(Value::Flag),
        1 => prop::sample::select(vec!["colored", "original", "cloth", "flag", "", "nope"])
            .prop_map(Value::Word),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => Just(Edit::AsSaved),
        1 => hostile_number().prop_map(Edit::Time),
        1 => (hostile_index(), hostile_number()).prop_map(|(k, v)| Edit::Position(k, v)),
        1 => (hostile_index(), hostile_number()).prop_map(|(k, v)| Edit::Velocity(k, v)),
        1 => Just(Edit::Shorter),
        1 => hostile_count().prop_map(Edit::Pin),
        1 => Just(Edit::Tear),
        1 => Just(Edit::Order),
        1 => (hostile_count(), shape()).prop_map(|(id, s)| Edit::Collider(id, s)),
        1 => hostile_number().prop_map(Edit::Param),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let id = || prop_oneof![3 => 0..6u32, 1 => hostile_count()];
    prop_oneof![
        4 => Just(Op::Step),
        2 => hostile_count().prop_map(Op::Steps),
        2 => (hostile_count(), prop_oneof![any::<u64>(), 0..2_000_000u64])
            .prop_map(|(n, budget)| Op::Advance(n, budget)),
        3 => (0u8..7, hostile_number()).prop_map(|(field, v)| Op::Set(field, v)),
        5 => (0..PARAMETERS.len() + 1, value()).prop_map(|(i, v)| Op::Param(i, v)),
        2 => (any::<bool>(), hostile_count()).prop_map(|(iterations, n)| Op::Count(iterations, n)),
        1 => any::<bool>().prop_map(Op::Order),
        1 => (hostile_number(), hostile_number(), hostile_number()).prop_map(|(x, y, r)| Op::Pick(x, y, r)),
        2 => hostile_index().prop_map(Op::Grab),
        3 => (coordinate(), coordinate()).prop_map(|(x, y)| Op::Drag(x, y)),
        1 => Just(Op::Release),
        1 => (hostile_index(), any::<bool>()).prop_map(|(i, p)| Op::Pin(i, p)),
        1 => Just(Op::Forces),
        2 => shape().prop_map(Op::AddCollider),
        2 => (id(), coordinate(), coordinate()).prop_map(|(id, x, y)| Op::MoveCollider(id, x, y)),
        1 => id().prop_map(Op::RemoveCollider),
        1 => (hostile_number(), hostile_number()).prop_map(|(x, y)| Op::PickCollider(x, y)),
        2 => Just(Op::Save),
        3 => (0..4usize, edit()).prop_map(|(slot, e)| Op::Restore(slot, e)),
        2 => (edit(), prop_oneof![3 => 0.0..10.0f64, 1 => hostile_number()])
            .prop_map(|(e, t)| Op::SetState(e, t)),
    ]
}

/// `state` changed as `edit` says (or as saved).
fn edited(mut state: ClothState, edit: &Edit) -> ClothState {
    let at = |k: usize, len: usize| if len == 0 { 0 } else { k % (len + 1) };
    match edit {
        Edit::AsSaved => {}
        Edit::Time(t) => state.time = *t,
        Edit::Position(k, v) => {
            let k = at(*k, state.positions.len());
            if let Some(p) = state.positions.get_mut(k) {
                *p = *v as f32;
            }
        }
        Edit::Velocity(k, v) => {
            let k = at(*k, state.velocities.len());
            if let Some(p) = state.velocities.get_mut(k) {
                *p = *v as f32;
            }
        }
        Edit::Shorter => {
            state.positions.pop();
        }
        Edit::Pin(k) => state.pinned.push(*k),
        Edit::Tear => {
            if let Some(c) = state.constraints.pop() {
                state.torn.push(c);
                state.torn.sort_unstable();
            }
        }
        Edit::Order => state.constraints.reverse(),
        Edit::Collider(id, shape) => state.colliders.push((*id, *shape)),
        Edit::Param(v) => state.params.stiffness = *v,
    }
    state
}

/// Steps `n` times, or advances one slice of OP_WORK units when a step is
/// dearer than that (the fuzz stays bounded in work).
fn bounded_steps(cloth: &mut Cloth, n: u32) -> Result<(), xpbd_cloth::ClothError> {
    if cloth.work_per_step().saturating_mul(n as u64) > OP_WORK {
        cloth.advance(n.min(5), OP_WORK);
        return Ok(());
    }
    cloth.steps(n)
}

fn apply_state(
    cloth: &mut Cloth,
    op: &Op,
    saved: &mut Vec<ClothState>,
) -> Result<(), xpbd_cloth::ClothError> {
    match op {
        Op::Save => {
            let state = cloth.saved_state()?;
            saved.push(state);
            Ok(())
        }
        Op::Restore(slot, edit) => {
            let Some(state) = saved.get(slot % saved.len().max(1)).cloned() else {
                return Ok(());
            };
            let state = edited(state, edit);
            cloth.restore_state(&state)?;
            if matches!(edit, Edit::AsSaved) {
                let again = cloth.saved_state().expect("a restored cloth saves");
                assert!(again == state, "a state restored and saved again differs");
            }
            Ok(())
        }
        Op::SetState(edit, time) => {
            let state = edited(current_state(cloth), edit);
            cloth.set_state(&state.positions, &state.velocities, *time)
        }
        _ => unreachable!("{op:?} is no state operation"),
    }
}

/// The cloth's positions and velocities as a state, to edit for `set_state`.
fn current_state(cloth: &Cloth) -> ClothState {
    ClothState {
        params: cloth.params(),
        time: cloth.time(),
        positions: cloth.positions().to_vec(),
        velocities: cloth.velocities().to_vec(),
        pinned: Vec::new(),
        constraints: Vec::new(),
        torn: Vec::new(),
        colliders: Vec::new(),
        kinds: Vec::new(),
        added: Vec::new(),
    }
}

fn apply_contacts(cloth: &mut Cloth, op: &Op) -> Result<(), xpbd_cloth::ClothError> {
    match *op {
        Op::AddCollider(shape) => cloth.add_collider(shape).map(|_| ()),
        Op::MoveCollider(id, x, y) => cloth.move_collider(id, x, y),
        Op::RemoveCollider(id) => cloth.remove_collider(id),
        Op::PickCollider(x, y) => cloth.pick_collider(x, y).map(|_| ()),
        _ => unreachable!("{op:?} is no collider operation"),
    }
}

fn apply(
    cloth: &mut Cloth,
    op: &Op,
    saved: &mut Vec<ClothState>,
) -> Result<(), xpbd_cloth::ClothError> {
    match *op {
        Op::Step => bounded_steps(cloth, 1),
        // more than a few steps per op only makes the run slow, not more thorough
        Op::Steps(n) => bounded_steps(cloth, if n > 5 && n <= 10_000 { 5 } else { n }),
        Op::Advance(n, budget) => {
            // within the limits, a few steps in a small budget; beyond them, as given (refused)
            let n = if n > 5 && n <= MAX_STEPS_PER_CALL {
                5
            } else {
                n
            };
            let budget = if budget > MAX_WORK_PER_CALL {
                budget
            } else {
                budget.min(OP_WORK)
            };
            cloth.advance_checked(n, budget).map(|_| ())
        }
        Op::Set(field, v) => match field {
            0 => cloth.set_time_step(v),
            1 => cloth.set_stiffness(v),
            2 => cloth.set_gravity(v),
            3 => cloth.set_mass(v),
            4 => cloth.set_damping(v),
            5 => cloth.set_velocity_damping(v),
            _ => cloth.set_tear_stretch(v),
        },
        Op::Param(i, v) => match PARAMETERS.get(i) {
            Some(parameter) => cloth.set_parameter(parameter.name, v),
            None => cloth.set_parameter("noSuchParameter", v),
        },
        Op::Count(true, n) => cloth.set_iterations(if n > 20 && n <= 1000 { 20 } else { n }),
        Op::Count(false, n) => cloth.set_substeps(if n > 4 && n <= 100 { 4 } else { n }),
        Op::Order(colored) => cloth.set_solver_order(if colored {
            SolverOrder::Colored
        } else {
            SolverOrder::Original
        }),
        Op::Pick(x, y, r) => cloth.pick(x, y, r).map(|_| ()),
        Op::Grab(i) => cloth.grab(i),
        Op::Drag(x, y) => cloth.drag(x, y),
        Op::Release => {
            cloth.release();
            Ok(())
        }
        Op::Pin(i, p) => cloth.set_pinned(i, p),
        Op::Forces => {
            let all_finite = cloth.constraint_forces().iter().all(|f| f.is_finite());
            assert!(
                all_finite || !cloth.is_finite(),
                "non-finite force on a finite cloth"
            );
            Ok(())
        }
        Op::AddCollider(_)
        | Op::MoveCollider(..)
        | Op::RemoveCollider(_)
        | Op::PickCollider(..) => apply_contacts(cloth, op),
        Op::Save | Op::Restore(..) | Op::SetState(..) => apply_state(cloth, op, saved),
    }
}

fn check_invariants(cloth: &Cloth, built_with: usize, op: &Op) {
    assert!(
        cloth.positions().iter().all(|p| p.is_finite()),
        "non-finite position after {op:?}"
    );
    assert!(
        cloth.params().validate().is_ok(),
        "accepted an invalid parameter: {op:?}"
    );
    assert!(cloth.time().is_finite() && cloth.time() >= 0.0);
    assert_eq!(cloth.num_constraints() + cloth.torn_count(), built_with);
    assert_eq!(cloth.constraint_ids().len(), 2 * cloth.num_constraints());
    assert!(cloth.max_stretch().is_finite());
    assert!(cloth.kinetic_energy().is_finite() || !cloth.is_finite());
    assert!(cloth.colliders().len() <= xpbd_cloth::contacts::MAX_COLLIDERS);
    for collider in cloth.colliders() {
        assert!(
            xpbd_cloth::model::shape::validate(&collider.shape).is_ok(),
            "an invalid collider {:?} after {op:?}",
            collider.shape
        );
    }
}

/// How a case's cloth is built.
#[derive(Debug, Clone)]
enum Start {
    Grid(usize, usize, usize),
    Preset(&'static str, Vec<(&'static str, Value)>),
    Scene(Box<Scene>),
}

fn build(start: &Start) -> Result<Cloth, xpbd_cloth::ClothError> {
    match start {
        Start::Grid(width, height, fixed) => GridSize::new(*width, *height)
            .and_then(|size| Cloth::try_new(size, FixedPreset::from_count(*fixed)?)),
        Start::Preset(name, options) => Cloth::from_preset(name, options),
        Start::Scene(scene) => Cloth::from_scene(scene),
    }
}

/// A preset by name (or a wrong name), with options of any name and value.
fn preset_start() -> impl Strategy<Value = Start> {
    let mut names: Vec<&'static str> = xpbd_cloth::model::presets::names().to_vec();
    names.push("no-such-preset");
    let option_names: Vec<&'static str> =
        PARAMETERS.iter().map(|p| p.name).chain(["nope"]).collect();
    let option = (
        prop::sample::select(option_names),
        prop_oneof![3 => (2u32..30).prop_map(|v| Value::Number(v as f64)), 2 => value()],
    );
    (
        prop::sample::select(names),
        prop::collection::vec(option, 0..4),
    )
        .prop_map(|(name, options)| Start::Preset(name, options))
}

/// A scene of a few particles: constraints between any of them (and some beyond),
/// areas, bending of every kind, colliders; most values plausible, some hostile.
fn scene_start() -> impl Strategy<Value = Start> {
    (1usize..30).prop_flat_map(|n| {
        let index = move || prop_oneof![9 => 0..n as u32, 1 => hostile_count()];
        let positions = prop::collection::vec(coordinate().prop_map(|v| v as f32), 2 * n);
        let masses = prop::collection::vec(
            prop_oneof![6 => 0.01..2.0f64, 1 => Just(0.0), 1 => hostile_number()]
                .prop_map(|v| v as f32),
            n,
        );
        let distances = prop::collection::vec(index(), 0..(4 * n).min(60));
        let stiffness = prop_oneof![3 => 0.0..1e4f64, 1 => hostile_number()];
        let area = (
            prop::collection::vec(index(), 3..6),
            prop_oneof![0.0..1e4f64, hostile_number()],
            prop_oneof![0.5..2.0f64, hostile_number()],
        )
            .prop_map(|(particles, stiffness, pressure)| AreaSpec {
                particles,
                stiffness,
                pressure,
            });
        let bending = prop_oneof![
            Just(Bending::None),
            Just(Bending::Auto),
            prop::collection::vec(index(), 0..12).prop_map(Bending::Pairs),
        ];
        let parts = (
            positions,
            masses,
            distances,
            stiffness,
            any::<bool>(),
            prop::collection::vec(area, 0..2),
            bending,
            prop::collection::vec(shape(), 0..3),
        );
        (parts, prop::bool::weighted(0.8)).prop_map(|(parts, plausible)| {
            let (
                positions,
                masses,
                mut distances,
                stiffness,
                per_constraint,
                areas,
                bending,
                colliders,
            ) = parts;
            distances.truncate(distances.len() / 2 * 2);
            let m = distances.len() / 2;
            let distance_stiffness = if per_constraint {
                DistanceStiffness::PerConstraint((0..m).map(|k| stiffness * k as f64).collect())
            } else {
                DistanceStiffness::Uniform(stiffness)
            };
            let scene = Scene {
                positions,
                masses,
                distances,
                distance_stiffness,
                areas,
                bending,
                bodies: Vec::new(),
                colliders,
                ..Scene::default()
            };
            Start::Scene(Box::new(if plausible { tidy(scene) } else { scene }))
        })
    })
}

/// What the cases did: per kind of start, the cloths built; per kind of
/// operation, the calls accepted and refused (so a fuzz that reaches nothing fails).
#[derive(Default)]
struct Stats {
    built: BTreeMap<&'static str, usize>,
    accepted: BTreeMap<&'static str, usize>,
    refused: BTreeMap<&'static str, usize>,
}

/// The name of `op`'s kind (its variant).
fn kind(op: &Op) -> &'static str {
    match op {
        Op::Step => "step",
        Op::Steps(_) => "steps",
        Op::Advance(..) => "advance",
        Op::Set(..) => "setter",
        Op::Param(..) => "set_parameter",
        Op::Count(..) => "count",
        Op::Order(_) => "solver order",
        Op::Pick(..) => "pick",
        Op::Grab(_) => "grab",
        Op::Drag(..) => "drag",
        Op::Release => "release",
        Op::Pin(..) => "pin",
        Op::Forces => "forces",
        Op::AddCollider(_) => "add collider",
        Op::MoveCollider(..) => "move collider",
        Op::RemoveCollider(_) => "remove collider",
        Op::PickCollider(..) => "pick collider",
        Op::Save => "save",
        Op::Restore(..) => "restore",
        Op::SetState(..) => "set state",
    }
}

/// `scene` with each hostile value replaced by a plausible one (most random
/// scenes have one somewhere, and a refused scene tests only its refusal).
fn tidy(mut scene: Scene) -> Scene {
    let n = scene.masses.len() as u32;
    for p in &mut scene.positions {
        if !(p.is_finite() && p.abs() <= 100.0) {
            *p = 0.5;
        }
    }
    for m in &mut scene.masses {
        if !(*m >= 0.01 && *m <= 100.0) {
            *m = 1.0;
        }
    }
    let pairs = |list: &mut Vec<u32>| {
        list.truncate(list.len() / 2 * 2);
        for pair in list.chunks_mut(2) {
            pair[0] %= n;
            pair[1] %= n;
            if pair[0] == pair[1] {
                pair[1] = (pair[0] + 1) % n;
            }
        }
        if n < 2 {
            list.clear();
        }
    };
    pairs(&mut scene.distances);
    if let Bending::Pairs(list) = &mut scene.bending {
        pairs(list);
    }
    let fine = |v: f64, low: f64, high: f64, or: f64| if v >= low && v <= high { v } else { or };
    match &mut scene.distance_stiffness {
        DistanceStiffness::Uniform(k) => *k = fine(*k, 0.0, 1e6, 100.0),
        DistanceStiffness::PerConstraint(list) => {
            list.iter_mut().for_each(|k| *k = fine(*k, 0.0, 1e6, 100.0))
        }
    }
    for area in &mut scene.areas {
        area.particles.iter_mut().for_each(|k| *k %= n);
        area.particles.sort_unstable();
        area.particles.dedup();
        area.stiffness = fine(area.stiffness, 0.0, 1e6, 100.0);
        area.pressure = fine(area.pressure, 0.5, 2.0, 1.0);
    }
    scene.areas.retain(|area| area.particles.len() >= 3);
    scene
        .colliders
        .retain(|shape| xpbd_cloth::model::shape::validate(shape).is_ok());
    scene
}

/// Runs `ops` on the cloth `start` builds, checking the invariants after each.
fn run_case(start: &Start, ops: &[Op], stats: &RefCell<Stats>) -> Result<(), TestCaseError> {
    let Ok(mut cloth) = build(start) else {
        return Ok(()); // refusals are checked in tests/validation.rs and tests/scenes.rs
    };
    if cloth.num_particles() > 2000 {
        return Ok(()); // keep a case fast; big grids run in tests/physics.rs
    }
    let started = match start {
        Start::Grid(..) => "grid",
        Start::Preset(..) => "preset",
        Start::Scene(_) => "scene",
    };
    *stats.borrow_mut().built.entry(started).or_default() += 1;
    let built_with = cloth.num_constraints();
    let mut saved = Vec::new();
    for op in ops {
        if cloth.work_done() > CASE_WORK {
            break; // bounded in work units
        }
        let before = cloth.clone();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            apply(&mut cloth, op, &mut saved)
        }));
        let result = result.map_err(|_| TestCaseError::fail(format!("panic in {op:?}")))?;
        let mut counts = stats.borrow_mut();
        let tally = if result.is_ok() {
            &mut counts.accepted
        } else {
            &mut counts.refused
        };
        *tally.entry(kind(op)).or_default() += 1;
        drop(counts);
        if let Err(error) = result {
            prop_assert!(
                cloth == before,
                "{op:?} refused ({error}) but changed the cloth"
            );
            prop_assert!(
                !error.field().is_empty(),
                "{op:?}: an error naming no field"
            );
        }
        let checked = std::panic::catch_unwind(|| check_invariants(&cloth, built_with, op));
        prop_assert!(checked.is_ok(), "invariant broken after {op:?}");
    }
    Ok(())
}

#[test]
fn hostile_operation_sequences_keep_every_invariant() {
    let cases = std::env::var("XPBD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed = fixed_seed("fuzz");
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    });
    let grids = (hostile_index(), hostile_index(), hostile_index());
    let small_grids = (2..30usize, 2..30usize, prop::sample::select(vec![1, 2, 4]));
    let start = prop_oneof![
        1 => grids.prop_map(|(w, h, f)| Start::Grid(w, h, f)),
        3 => small_grids.prop_map(|(w, h, f)| Start::Grid(w, h, f)),
        2 => preset_start(),
        2 => scene_start(),
    ];
    let strategy = (start, prop::collection::vec(op(), 1..80));
    let stats = RefCell::new(Stats::default());
    runner
        .run(&strategy, |(start, ops)| run_case(&start, &ops, &stats))
        .unwrap();
    let stats = stats.into_inner();
    println!("fuzz: {cases} cases passed (seed {seed})");
    println!("cloths built: {:?}", stats.built);
    println!("accepted: {:?}", stats.accepted);
    println!("refused: {:?}", stats.refused);
    // the fuzz reaches every kind of start and of operation, accepted and refused
    if cases >= 300 {
        for started in ["grid", "preset", "scene"] {
            assert!(
                stats.built.get(started) > Some(&10),
                "few cloths from a {started}: {:?}",
                stats.built
            );
        }
        for kind in [
            "advance",
            "set_parameter",
            "add collider",
            "move collider",
            "restore",
            "set state",
            "save",
        ] {
            assert!(
                stats.accepted.get(kind) > Some(&10),
                "{kind} rarely accepted: {:?}",
                stats.accepted
            );
            assert!(
                stats.refused.contains_key(kind) || kind == "save",
                "{kind} never refused: {:?}",
                stats.refused
            );
        }
    }
}
