//! Stepping in slices (`Cloth::advance`): a step may stop after any sweep and go
//! on later, with results bit for bit those of whole steps, and the cloth stays
//! usable in between.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::grid_cloth;
use xpbd_cloth::{Cloth, Params, SolverKind, SolverOrder};

/// Everything a step changes, compared exactly.
#[derive(Debug, PartialEq)]
struct State {
    positions: Vec<f32>,
    velocities: Vec<f32>,
    time: f64,
    ids: Vec<u32>,
    rest_lengths: Vec<f32>,
    forces: Vec<f32>,
    torn: usize,
    finite: bool,
}

fn state(c: &mut Cloth) -> State {
    State {
        positions: c.positions().to_vec(),
        velocities: c.velocities().to_vec(),
        time: c.time(),
        ids: c.constraint_ids().to_vec(),
        rest_lengths: c.rest_lengths().to_vec(),
        forces: c.constraint_forces().to_vec(),
        torn: c.torn_count(),
        finite: c.is_finite(),
    }
}

/// The settings the slices are checked with: both orders, substeps, damping of
/// both kinds, tearing (which tears at once near the corners), bending and
/// tethers, the soft step.
fn setups() -> Vec<(&'static str, Params)> {
    let d = Params::default();
    vec![
        ("colored", d),
        (
            "original, 3 substeps",
            Params {
                solver_order: SolverOrder::Original,
                substeps: 3,
                ..d
            },
        ),
        (
            "colored, damped, 2 substeps",
            Params {
                damping: 5.0,
                velocity_damping: 1.5,
                substeps: 2,
                iterations: 4,
                ..d
            },
        ),
        (
            "original, damped",
            Params {
                solver_order: SolverOrder::Original,
                damping: 50.0,
                ..d
            },
        ),
        (
            "colored, tearing, 2 substeps",
            Params {
                tear_stretch: 1.3,
                substeps: 2,
                ..d
            },
        ),
        (
            "original, tearing",
            Params {
                tear_stretch: 1.2,
                solver_order: SolverOrder::Original,
                iterations: 3,
                ..d
            },
        ),
        (
            "colored, bending, tethers, tearing, 2 substeps",
            Params {
                bending_stiffness: 300.0,
                tethers: true,
                tear_stretch: 1.3,
                substeps: 2,
                ..d
            },
        ),
        (
            "original, bending, tethers",
            Params {
                bending_stiffness: 50.0,
                tethers: true,
                solver_order: SolverOrder::Original,
                ..d
            },
        ),
        (
            "soft step, tearing, 3 substeps",
            Params {
                solver: SolverKind::SoftStep,
                soft_frequency: 40.0,
                tear_stretch: 1.3,
                substeps: 3,
                iterations: 2,
                ..d
            },
        ),
    ]
}

/// What the user does before step `k`: grab, drag in a circle, release.
fn interact(c: &mut Cloth, k: usize) {
    match k {
        3 => c.grab(33).unwrap(),
        4..=20 => {
            let angle = k as f64 * 0.4;
            c.drag(1.0 + angle.cos(), -1.0 + angle.sin()).unwrap();
        }
        21 => c.release(),
        25 => c.set_pinned(40, true).unwrap(),
        _ => {}
    }
}

const STEPS: usize = 40;

fn whole_steps(params: Params) -> Cloth {
    let mut c = grid_cloth(14, 11);
    c.set_params(params).unwrap();
    for k in 0..STEPS {
        interact(&mut c, k);
        c.step();
    }
    c
}

/// The same steps in slices of `budgets` work units (taken in turn), each call
/// finishing at most one step so the interaction happens at the same boundaries.
fn sliced_steps(params: Params, budgets: &[u64]) -> (Cloth, usize) {
    let mut c = grid_cloth(14, 11);
    c.set_params(params).unwrap();
    let (mut finished, mut calls) = (0, 0);
    while finished < STEPS {
        if !c.step_in_progress() {
            interact(&mut c, finished);
        }
        let (done, work) = c.advance(1, budgets[calls % budgets.len()]);
        assert!(work > 0, "every call makes progress");
        assert!(
            calls < 1_000_000,
            "{STEPS} steps not done after {calls} calls"
        );
        finished += done as usize;
        calls += 1;
    }
    assert!(!c.step_in_progress());
    (c, calls)
}

#[test]
fn sliced_steps_are_bit_for_bit_whole_steps() {
    for (name, params) in setups() {
        let mut whole = whole_steps(params);
        for budgets in [&[1][..], &[1, 2_000, 40_000, 7][..], &[3_000][..]] {
            let (mut sliced, calls) = sliced_steps(params, budgets);
            assert!(
                calls > STEPS,
                "{name}: the budgets {budgets:?} cut steps ({calls} calls)"
            );
            assert_eq!(
                state(&mut sliced),
                state(&mut whole),
                "{name}, budgets {budgets:?}"
            );
        }
        if params.tear_stretch > 0.0 {
            assert!(
                whole.torn_count() > 0,
                "{name}: tears, so tearing is compared too"
            );
        }
    }
}

#[test]
fn step_finishes_the_step_in_progress_and_steps_counts_it() {
    let mut whole = grid_cloth(12, 9);
    let mut sliced = whole.clone();
    whole.step();
    assert_eq!(sliced.advance(1, 1), (0, sliced.work_done()));
    assert!(sliced.step_in_progress());
    assert!(sliced.step_progress() < 1.0);
    sliced.advance(1, 1);
    assert!(
        sliced.step_in_progress(),
        "one piece per call with a budget of 1"
    );
    sliced.step();
    assert!(!sliced.step_in_progress());
    assert_eq!(state(&mut sliced), state(&mut whole));
    // steps(n) finishes the one in progress as its first
    sliced.advance(1, 1);
    sliced.steps(3).unwrap();
    whole.steps(3).unwrap();
    assert_eq!(state(&mut sliced), state(&mut whole));
    // advance(n, unlimited) is n whole steps
    assert_eq!(sliced.advance(5, u64::MAX).0, 5);
    whole.steps(5).unwrap();
    assert_eq!(state(&mut sliced), state(&mut whole));
    // and nothing at all with max_steps 0
    assert_eq!(sliced.advance(0, u64::MAX), (0, 0));
}

#[test]
fn a_budget_stops_the_call_at_the_next_sweep_boundary() {
    let mut c = grid_cloth(100, 100);
    c.set_iterations(50).unwrap();
    let per_step = c.work_per_step();
    let budget = per_step / 10;
    let (finished, work) = c.advance(8, budget);
    assert_eq!(finished, 0);
    assert!(c.step_in_progress());
    // at most one sweep past the budget (plus the start of the step and substep)
    let one_sweep = per_step / 50;
    assert!(
        work >= budget && work <= budget + 2 * one_sweep,
        "{work} for a budget of {budget}"
    );
    let mut total = work;
    let mut finished = 0;
    let mut calls = 0;
    while finished < 2 {
        let (done, work) = c.advance(2 - finished, budget);
        finished += done;
        total += work;
        calls += 1;
        assert!(calls < 10_000, "2 steps not done after {calls} calls");
    }
    assert_eq!(c.time(), 0.02);
    assert!(
        total >= 2 * per_step && total < 2 * per_step + 20 * one_sweep,
        "{total} vs {per_step}"
    );
}

#[test]
fn a_piece_is_at_most_a_chunk_of_a_sweep() {
    use xpbd_cloth::cloth::SWEEP_CHUNK;
    use xpbd_cloth::params::work;
    // 200 × 200 damped in original order: 159 202 constraints, the dearest sweep
    let mut c = grid_cloth(200, 200);
    c.set_solver_order(SolverOrder::Original).unwrap();
    c.set_damping(1.0).unwrap();
    c.advance(1, 1); // begins the step
    c.advance(1, 1); // begins the substep
    let chunk = work::SWEEP + SWEEP_CHUNK as u64 * work::SOLVE_DAMPED;
    let mut pieces = 0;
    while c.step_in_progress() {
        let (_, work) = c.advance(1, 1);
        assert!(work <= chunk, "{work} > {chunk}");
        pieces += 1;
        assert!(pieces < 10_000, "the step not done after {pieces} pieces");
    }
    // 10 chunks per sweep, 5 sweeps, and the end of the substep
    assert_eq!(pieces, 5 * 159_202_usize.div_ceil(SWEEP_CHUNK) + 1);
}

#[test]
fn setters_and_interaction_during_a_step_in_progress_apply_as_documented() {
    let mut c = grid_cloth(12, 9);
    c.set_substeps(2).unwrap();
    c.steps(5).unwrap();
    // into the second sweep of the first substep
    for pieces in 0.. {
        if matches!(c.step_progress(), p if p > 0.0) {
            break;
        }
        assert!(pieces < 1000, "no progress after {pieces} pieces");
        c.advance(1, 1);
    }
    let ids = c.constraint_ids().to_vec();
    c.set_time_step(0.02).unwrap();
    c.set_substeps(3).unwrap();
    c.set_iterations(9).unwrap();
    c.set_solver_order(SolverOrder::Original).unwrap();
    c.set_mass(2.0).unwrap();
    c.set_gravity(-3.0).unwrap();
    c.set_damping(1.0).unwrap();
    c.grab(50).unwrap();
    c.drag(0.5, -0.5).unwrap();
    c.set_pinned(60, true).unwrap();
    assert_eq!(c.params().solver_order, SolverOrder::Original);
    // the step in progress keeps its order, dt and substeps
    for pieces in 0.. {
        if !c.step_in_progress() {
            break;
        }
        assert!(pieces < 10_000, "the step not done after {pieces} pieces");
        c.advance(1, 1);
        if c.step_in_progress() {
            assert_eq!(
                c.constraint_ids(),
                ids.as_slice(),
                "the order changes when the step ends"
            );
        }
    }
    assert!(
        (c.time() - 0.06).abs() < 1e-12,
        "the step ended with its own dt: {}",
        c.time()
    );
    // now in the new order: creation order, as a fresh cloth's original order
    let mut fresh = grid_cloth(12, 9);
    fresh.set_solver_order(SolverOrder::Original).unwrap();
    assert_eq!(c.constraint_ids(), fresh.constraint_ids());
    assert_eq!(
        c.grab_target(),
        Some([0.5, -0.5]),
        "the pointer holds it there"
    );
    let p = &c.positions()[100..102];
    let lag = (p[0] - 0.5).hypot(p[1] + 0.5);
    assert!(
        lag < 0.2,
        "the held particle is pulled towards the pointer: {lag} m"
    );
    c.release();
    c.step();
    assert!(
        (c.time() - 0.08).abs() < 1e-12,
        "the next step takes the new dt"
    );
    assert!(c.is_finite() && c.positions().iter().all(|p| p.is_finite()));
    assert_eq!(c.inverse_masses()[60], 0.0);
    assert_eq!(c.inverse_masses()[50], 0.5);
}

#[test]
fn a_particle_let_go_mid_step_keeps_the_drag_velocity() {
    let mut c = grid_cloth(12, 9);
    c.set_params(Params {
        gravity: 0.0,
        stiffness: 1.0,
        ..Params::default()
    })
    .unwrap();
    let k = 5 * 12 + 6;
    c.grab(k).unwrap();
    for frame in 1..=5 {
        c.drag(1.2 + 0.1 * frame as f64, -1.0).unwrap();
        c.step();
    }
    // 0.1 m per 0.01 s step: 10 m/s to the right
    for pieces in 0.. {
        if c.step_progress() != 0.0 {
            break;
        }
        assert!(pieces < 1000, "no progress after {pieces} pieces");
        c.advance(1, 1);
    }
    c.release();
    c.step();
    let v = c.velocities()[2 * k];
    assert!(
        v > 7.0 && v < 11.0,
        "released mid-step at 10 m/s, now {v} m/s"
    );
}
