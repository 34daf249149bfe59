//! Shared by `tests/lanes.rs` (native, where lanes are plain arrays) and
//! `tests/wasm_api.rs` (the browser, where they are wasm `f32x4`).

use xpbd_cloth::model::grid;
use xpbd_cloth::params::{FixedPreset, GridSize, SolverOrder};
use xpbd_cloth::solver::colored::{self, merge, split};
use xpbd_cloth::solver::order::ConstraintSet;
use xpbd_cloth::solver::{self, Constraints, Split};

/// Sweeps a crumpled cloth with some pinned particles three times with the
/// coloured four-wide kernels and with the scalar solver in the same order, and
/// asserts that positions and multipliers are bit-for-bit the same.
pub fn assert_lanes_match_the_scalar_sweep() {
    for (width, height) in [(2, 2), (5, 4), (9, 7), (40, 30)] {
        let size = GridSize { width, height };
        let g = grid::build(size, FixedPreset::Two);
        let mut set = ConstraintSet::new(
            g.constraint_ids,
            g.rest_lengths,
            g.colors,
            SolverOrder::Colored,
        );
        let mut lanes: Vec<f32> = g.positions.clone();
        for (i, p) in lanes.iter_mut().enumerate() {
            *p += 0.08 * ((i as f32) * 1.7).sin();
        }
        let inverse_mass: Vec<f32> = (0..size.num_particles())
            .map(|k| if k % 7 == 0 { 0.0 } else { 2.0 })
            .collect();
        let mut scalar = lanes.clone();
        let mut scalar_lambdas = vec![0.0; set.len()];
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        split(&lanes, &mut xs, &mut ys);
        for _ in 0..3 {
            let (ids, rest) = (set.ids().to_vec(), set.rest_lengths().to_vec());
            let constraints = Constraints {
                ids: &ids,
                rest_lengths: &rest,
                lambdas: &mut scalar_lambdas,
            };
            solver::solve_sweep(
                &mut scalar,
                &g.positions,
                &inverse_mass,
                constraints,
                0.3,
                0.0,
            );
            let mut points = Split {
                xs: &mut xs,
                ys: &mut ys,
            };
            for run in set.runs().to_vec() {
                let mut constraints = set.solver_view();
                colored::solve_run(&mut points, &inverse_mass, &run, &mut constraints, 0.3);
            }
        }
        merge(&xs, &ys, &mut lanes);
        assert!(
            lanes == scalar,
            "{width}x{height}: lanes differ from the scalar sweep"
        );
        assert!(set.lambdas() == scalar_lambdas.as_slice());
    }
}
