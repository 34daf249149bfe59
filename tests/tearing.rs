//! Tearing in place (views taken earlier stay valid) and a diverged step undone
//! completely, torn constraints included.
#![cfg(not(target_arch = "wasm32"))]

mod common {
    pub mod cloths;
}

use common::cloths::{diverging_params, grid_cloth};
use xpbd_cloth::{Cloth, Params, SolverOrder};

/// A cloth that tears at once near its corners (the default cloth stretches
/// there by several hundred percent), pulled at one particle.
fn tearing_cloth(order: SolverOrder) -> Cloth {
    let mut c = grid_cloth(20, 15);
    c.set_params(Params {
        tear_stretch: 1.3,
        solver_order: order,
        ..Params::default()
    })
    .unwrap();
    c
}

#[test]
fn tearing_and_reordering_move_constraints_within_the_same_buffers() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let mut c = tearing_cloth(order);
        let (ids, rest) = (c.constraint_ids().as_ptr(), c.rest_lengths().as_ptr());
        let built_with = c.num_constraints();
        c.grab(150).unwrap();
        c.drag(2.0, -8.0).unwrap();
        c.steps(20).unwrap();
        assert!(c.torn_count() > 0);
        assert_eq!(c.num_constraints() + c.torn_count(), built_with);
        // the same memory: a view taken before the tear still reads these buffers
        assert_eq!(
            c.constraint_ids().as_ptr(),
            ids,
            "{order:?}: the ids were reallocated"
        );
        assert_eq!(
            c.rest_lengths().as_ptr(),
            rest,
            "{order:?}: the rest lengths were reallocated"
        );
        let other = match order {
            SolverOrder::Colored => SolverOrder::Original,
            SolverOrder::Original => SolverOrder::Colored,
        };
        c.set_solver_order(other).unwrap();
        c.steps(5).unwrap();
        assert_eq!(
            c.constraint_ids().as_ptr(),
            ids,
            "{order:?}: reordering reallocated"
        );
        assert_eq!(c.rest_lengths().as_ptr(), rest);
        let n = c.num_particles() as u32;
        assert!(c.constraint_ids().iter().all(|&k| k < n));
        assert!(c.rest_lengths().iter().all(|&r| r > 0.0));
    }
}

/// What a step changes, compared exactly.
type Snapshot = (Vec<f32>, Vec<f32>, f64, Vec<u32>, Vec<f32>, usize, usize);

fn snapshot(c: &Cloth) -> Snapshot {
    (
        c.positions().to_vec(),
        c.velocities().to_vec(),
        c.time(),
        c.constraint_ids().to_vec(),
        c.rest_lengths().to_vec(),
        c.num_constraints(),
        c.torn_count(),
    )
}

/// A cloth that swings and tears under a drag for a while, then is set to fly
/// off (a huge time step and gravity on weightless particles), tearing as it goes.
fn tearing_and_diverging(substeps: u32, order: SolverOrder) -> Cloth {
    let mut c = tearing_cloth(order);
    c.grab(150).unwrap();
    c.drag(2.0, -8.0).unwrap();
    c.steps(20).unwrap();
    c.release();
    assert!(c.torn_count() > 0);
    assert!(c.velocities().iter().any(|&v| v != 0.0));
    c.set_params(Params {
        substeps,
        tear_stretch: 1.3,
        solver_order: order,
        ..diverging_params()
    })
    .unwrap();
    c
}

#[test]
fn a_diverged_step_is_undone_completely_torn_constraints_included() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        for substeps in [1, 2, 3] {
            let mut c = tearing_and_diverging(substeps, order);
            let mut steps = 0;
            loop {
                let before = snapshot(&c);
                // piece by piece, to watch constraints tear within the step
                let mut fewest = c.num_constraints();
                let mut pieces = 0;
                while c.advance(1, 1).0 == 0 {
                    fewest = fewest.min(c.num_constraints());
                    pieces += 1;
                    assert!(
                        pieces < 100_000,
                        "{order:?} × {substeps}: a step never ends"
                    );
                }
                steps += 1;
                if c.is_finite() {
                    assert!(steps < 1000, "{order:?} × {substeps}: never diverges");
                    continue;
                }
                let after = snapshot(&c);
                if substeps > 1 {
                    assert!(
                        fewest < before.5,
                        "{order:?} × {substeps}: the diverged step tore"
                    );
                }
                assert_eq!(
                    after.5, before.5,
                    "{order:?} × {substeps}: numConstraints comes back"
                );
                assert_eq!(
                    after.6, before.6,
                    "{order:?} × {substeps}: tornCount comes back"
                );
                assert!(
                    after == before,
                    "{order:?} × {substeps}: all is as before the step"
                );
                assert!(c.constraint_forces().iter().all(|&f| f == 0.0));
                assert!(before.6 > 0, "constraints torn in earlier steps stay torn");
                break;
            }
        }
    }
}

#[test]
fn an_undone_step_restores_the_step_start_velocities() {
    let mut c = tearing_and_diverging(1, SolverOrder::Colored);
    c.set_tear_stretch(0.0).unwrap();
    let mut velocities = c.velocities().to_vec();
    for steps in 0.. {
        if !c.is_finite() {
            break;
        }
        assert!(steps < 1000, "never diverges");
        velocities = c.velocities().to_vec();
        c.step();
    }
    assert!(velocities.iter().any(|&v| v != 0.0), "the cloth was moving");
    assert_eq!(c.velocities(), velocities.as_slice());
    assert!(c.kinetic_energy() > 0.0);
}
