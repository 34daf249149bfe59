//! The grid in coloured order (`solver::grid_layout`, what the WebGPU backend
//! solves): within the CPU's particle limit exactly the CPU's cloth; beyond it,
//! bands that make the whole grid, each edge once in a proper colouring.

use xpbd_cloth::cloth::Cloth;
use xpbd_cloth::model::grid;
use xpbd_cloth::params::{FixedPreset, GridSize};
use xpbd_cloth::solver::grid_layout::{build, ColoredGrid};

fn concatenated(layout: &ColoredGrid) -> (Vec<u32>, Vec<f32>) {
    let ends = layout
        .colors
        .iter()
        .flat_map(|block| block.ends.iter().copied())
        .collect();
    let rest = layout
        .colors
        .iter()
        .flat_map(|block| block.rest_lengths.iter().copied())
        .collect();
    (ends, rest)
}

#[test]
fn within_the_cpus_limit_it_is_the_cpus_coloured_cloth_exactly() {
    for (w, h, fixed) in [
        (40, 30, 2),
        (2, 2, 1),
        (2, 5, 4),
        (7, 3, 2),
        (500, 500, 4),
        (1000, 250, 2),
    ] {
        let preset = FixedPreset::from_count(fixed).unwrap();
        let layout = build(w, h, preset).unwrap();
        let cloth = Cloth::try_new(GridSize::new(w, h).unwrap(), preset).unwrap();
        let (ends, rest) = concatenated(&layout);
        assert_eq!(
            ends,
            cloth.constraint_ids(),
            "{w} × {h}: ends in the CPU's order"
        );
        assert_eq!(rest, cloth.rest_lengths(), "{w} × {h}: rest lengths");
        assert_eq!(layout.positions, cloth.positions(), "{w} × {h}: positions");
        assert_eq!(
            layout.fixed,
            grid::build(GridSize::new(w, h).unwrap(), preset).fixed
        );
    }
}

/// Each edge of the grid once, in a colour that shares no particle, with
/// its rest length; every constraint is one of the four kinds of edge.
fn assert_whole_grid(w: usize, h: usize) {
    let layout = build(w, h, FixedPreset::Four).unwrap();
    let n = w * h;
    assert_eq!(
        layout.num_constraints() as u64,
        grid::constraint_count_u64(w as u64, h as u64)
    );
    assert_eq!(layout.positions.len(), 2 * n);
    for k in [0, w - 1, n / 2, n - 1] {
        let (i, j) = (k / w, k % w);
        assert_eq!(
            layout.positions[2 * k],
            grid::SPACING * j as f32,
            "x of {k}"
        );
        assert_eq!(
            layout.positions[2 * k + 1],
            -grid::SPACING * i as f32,
            "y of {k}"
        );
    }
    assert_eq!(layout.fixed, vec![0, w - 1, (h - 1) * w, n - 1]);
    let mut seen = vec![false; 4 * n]; // (a, kind)
    let mut colour_of = vec![u32::MAX; n]; // the last colour each particle was in
    for (color, block) in layout.colors.iter().enumerate() {
        for (pair, &rest) in block.ends.chunks_exact(2).zip(&block.rest_lengths) {
            let (a, b) = (pair[0] as usize, pair[1] as usize);
            let kind = [1, w, w + 1, w - 1]
                .iter()
                .position(|&d| b == a + d)
                .expect("an edge");
            assert!(!seen[4 * a + kind], "{w} × {h}: ({a}, {b}) twice");
            seen[4 * a + kind] = true;
            for p in [a, b] {
                assert_ne!(
                    colour_of[p], color as u32,
                    "{w} × {h}: particle {p} twice in colour {color}"
                );
                colour_of[p] = color as u32;
            }
            let dx = layout.positions[2 * a] - layout.positions[2 * b];
            let dy = layout.positions[2 * a + 1] - layout.positions[2 * b + 1];
            assert!(
                ((dx * dx + dy * dy).sqrt() - rest).abs() < 1e-4,
                "{w} × {h}: rest of ({a}, {b})"
            );
        }
    }
}

#[test]
fn beyond_the_cpus_limit_bands_make_the_whole_grid() {
    // bands of 249 rows for a width of 1000: the last band 2 rows, or ending on a band's edge
    assert_whole_grid(1000, 498);
    assert_whole_grid(1000, 497);
    assert_whole_grid(1000, 300);
    assert_whole_grid(601, 999);
    assert_whole_grid(2, 1000);
}

#[test]
fn sizes_outside_the_table_are_refused() {
    for (w, h) in [(1, 5), (1001, 2), (2, 1001), (0, 0)] {
        let error = build(w, h, FixedPreset::Two).unwrap_err();
        assert_eq!(error.code(), "invalid_value", "{w} × {h}: {error}");
    }
}
