//! The self-collision search's cost is bounded whatever the positions, and
//! it still finds every pair within reach when nothing crowds: particles far
//! from the origin with the smallest radius, lattices whose spacing lines up
//! with the hash table, points anywhere in the accepted range, a cloth
//! crumpled onto one spot. The cost is counted in comparisons of two
//! particles (`PairSearch::compared`), never in time.

use xpbd_cloth::contacts::pair_search::{PairRules, PairSearch, MARGIN, MAX_CANDIDATES};
use xpbd_cloth::params::MAX_COORDINATE;

/// Smallest accepted particle radius (the table's rule), metres.
const SMALLEST_RADIUS: f32 = 1e-4;

/// Comparisons per particle a search may make when no cell holds more than
/// two particles: 9 buckets of about half a particle each on average, and
/// its own cell's.
const SPREAD_COMPARISONS: usize = 16;

/// A repeatable pseudo-random number in `[0, 1)`.
fn uniform(seed: &mut u64) -> f64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 11) as f64 / (1u64 << 53) as f64
}

/// Every pair closer than the search's reach, `(a < b)`, by brute force.
fn brute_force(points: &[f32], radius: f32) -> Vec<(u32, u32)> {
    let s = 2.0 * radius * (1.0 + MARGIN);
    let n = points.len() / 2;
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let dx = points[2 * b] - points[2 * a];
            let dy = points[2 * b + 1] - points[2 * a + 1];
            if dx * dx + dy * dy < s * s {
                pairs.push((a as u32, b as u32));
            }
        }
    }
    pairs
}

/// Runs the search; returns the pairs it found (sorted) and its comparisons.
fn search(points: &[f32], radius: f32) -> (Vec<(u32, u32)>, usize) {
    let mut search = PairSearch::try_new(points.len() / 2).unwrap();
    search.search(points, PairRules::rest(&[]), radius);
    let mut pairs: Vec<_> = search
        .pairs()
        .iter()
        .map(|&(a, b, _, _)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    (pairs, search.compared())
}

/// The spread-out distributions: (name, radius, points).
fn spread_sets() -> Vec<(&'static str, f32, Vec<f32>)> {
    let n = 4096;
    let table = 2 * n; // the search's table for n particles
    let s = 2.0 * SMALLEST_RADIUS as f64 * (1.0 + MARGIN as f64);
    let mut sets = Vec::new();
    // a 64 × 64 lattice far out, each point with a partner at 2r
    let mut far = Vec::new();
    for k in 0..n / 2 {
        let (x, y) = (
            7e5 + 4000.0 * (k % 64) as f32,
            -9e5 + 4000.0 * (k / 64) as f32,
        );
        far.extend([x, y, x, y + 2.0 * SMALLEST_RADIUS]);
    }
    sets.push(("far from the origin, smallest radius", SMALLEST_RADIUS, far));
    // cells whose coordinates are multiples of the table's size
    let mut lattice = Vec::new();
    for k in 0..n {
        let (i, j) = ((k % 64) as f64, (k / 64) as f64);
        let (x, y) = (i * table as f64 * s, j * table as f64 * s);
        lattice.extend([(x - 3e5) as f32, (y - 3e5) as f32]);
    }
    sets.push(("a lattice aligned with the table", SMALLEST_RADIUS, lattice));
    // the same, spaced by one cell along x: every cell's neighbour is taken
    let mut rows = Vec::new();
    for k in 0..n {
        let (i, j) = ((k % 64) as f64, (k / 64) as f64);
        let (x, y) = (i * s * 1.5, j * table as f64 * s);
        rows.extend([(x + 0.5) as f32, (y - 6e5) as f32]);
    }
    sets.push((
        "rows of a lattice aligned with the table",
        SMALLEST_RADIUS,
        rows,
    ));
    // uniformly anywhere in the accepted range, in pairs at 2r
    let mut seed = 7;
    let mut anywhere = Vec::new();
    for _ in 0..n / 2 {
        let x = ((2.0 * uniform(&mut seed) - 1.0) * MAX_COORDINATE * 0.999) as f32;
        let y = ((2.0 * uniform(&mut seed) - 1.0) * MAX_COORDINATE * 0.999) as f32;
        anywhere.extend([x, y, x + 2.0 * SMALLEST_RADIUS, y]);
    }
    sets.push(("anywhere in the accepted range", SMALLEST_RADIUS, anywhere));
    // a cloth-like grid of spacing 2r, then a far copy of it
    let mut grid = Vec::new();
    for k in 0..n {
        let (x, y) = (0.1 * (k % 64) as f32, -0.1 * (k / 64) as f32);
        let shift = if k % 2 == 0 { 0.0 } else { 9.9e5 };
        grid.extend([x + shift, y - shift]);
    }
    sets.push(("a grid and a far copy", 0.05, grid));
    sets
}

#[test]
fn spread_out_particles_anywhere_cost_a_few_comparisons_each_and_every_pair_is_found() {
    for (name, radius, points) in spread_sets() {
        let n = points.len() / 2;
        let expected = brute_force(&points, radius);
        let (found, compared) = search(&points, radius);
        println!(
            "{name}: {n} particles, {} pairs, {compared} comparisons",
            expected.len()
        );
        assert_eq!(found, expected, "{name}: the pairs found");
        assert!(
            compared <= SPREAD_COMPARISONS * n,
            "{name}: {compared} comparisons for {n} particles, expected at most {}",
            SPREAD_COMPARISONS * n
        );
    }
}

#[test]
fn crowded_particles_cost_at_most_the_bound_per_particle() {
    let n = 4096;
    let mut seed = 11;
    let mut crowds: Vec<(&str, f32, Vec<f32>)> = Vec::new();
    // every particle on one spot, near and far from the origin
    for (name, at) in [("one spot", 0.0), ("one spot far out", 9.99e5)] {
        crowds.push((name, 0.05, [at, -at].repeat(n)));
    }
    // a 64 × 64 cloth crumpled into a square of 2r
    let crumpled = (0..2 * n)
        .map(|_| (0.1 * uniform(&mut seed)) as f32)
        .collect();
    crowds.push(("crumpled into 2r", 0.05, crumpled));
    // a crowd in one cell of the smallest radius, far out, and spread points
    let mut mixed = Vec::new();
    for k in 0..n {
        if k % 2 == 0 {
            mixed.extend([-8e5 + 1e-5 * uniform(&mut seed) as f32, 8e5]);
        } else {
            mixed.extend([k as f32 * 100.0, 3.0]);
        }
    }
    crowds.push((
        "a crowd far out among spread points",
        SMALLEST_RADIUS,
        mixed,
    ));
    for (name, radius, points) in crowds {
        let (found, compared) = search(&points, radius);
        println!("{name}: {} pairs, {compared} comparisons", found.len());
        assert!(
            compared <= MAX_CANDIDATES * n,
            "{name}: {compared} comparisons for {n} particles, expected at most {}",
            MAX_CANDIDATES * n
        );
        assert!(!found.is_empty(), "{name}: a crowd has pairs");
    }
}
