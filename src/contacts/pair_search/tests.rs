//! The pair search against a brute-force search, on the dense grid and
//! hashed, and the rest distances it keeps.

use super::*;

/// A jittered 30 × 20 grid of spacing 0.1 (pseudo-random, repeatable),
/// interleaved; with `far`, every tenth point is moved 10 km away.
fn points(far: bool) -> Vec<f32> {
    let mut seed = 12_345u32;
    let mut jitter = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32 * 0.08 - 0.04
    };
    let mut out = Vec::new();
    for k in 0..600 {
        let (x, y) = (
            0.1 * (k % 30) as f32 + jitter(),
            -0.1 * (k / 30) as f32 + jitter(),
        );
        let shift = if far && k % 10 == 0 { 1e4 } else { 0.0 };
        out.extend([x + shift, y - shift]);
    }
    out
}

/// Every pair closer than the search's reach, `(a < b)`, by brute force.
fn brute_force(points: &[f32], radius: f32) -> Vec<(u32, u32)> {
    let s = 2.0 * radius * (1.0 + MARGIN);
    let n = points.len() / 2;
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (dx, dy) = (
                points[2 * b] - points[2 * a],
                points[2 * b + 1] - points[2 * a + 1],
            );
            if dx * dx + dy * dy < s * s {
                pairs.push((a as u32, b as u32));
            }
        }
    }
    pairs
}

fn found(search: &PairSearch) -> Vec<(u32, u32)> {
    let mut pairs: Vec<_> = search
        .pairs()
        .iter()
        .map(|&(a, b, _, _)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    pairs
}

#[test]
fn the_search_finds_every_pair_within_reach_once_on_the_grid_and_hashed() {
    let radius = 0.05;
    for far in [false, true] {
        let points = points(far);
        let expected = brute_force(&points, radius);
        assert!(
            expected.len() > 300,
            "{} pairs: the test needs many",
            expected.len()
        );
        let mut search = PairSearch::try_new(points.len() / 2).unwrap();
        // near: the dense grid; far: a box of 10 km, the hashed cells
        search.search(points.as_slice(), PairRules::rest(&[]), radius);
        assert_eq!(found(&search), expected, "far {far}: search");
        search.pairs.clear();
        let (min_x, min_y) = (points.iter().step_by(2), points.iter().skip(1).step_by(2));
        let corner = (
            min_x.fold(f32::MAX, |m, &v| m.min(v)),
            min_y.fold(f32::MAX, |m, &v| m.min(v)),
        );
        // the hashed search reads the positions in the particles' order
        for (k, p) in points.chunks_exact(2).enumerate() {
            (search.sorted_x[k], search.sorted_y[k]) = (p[0], p[1]);
        }
        search.search_hashed(PairRules::rest(&[]), radius, (corner.0, corner.1, 3e4));
        assert_eq!(found(&search), expected, "far {far}: hashed search");
    }
}

#[test]
fn pairs_closer_at_rest_keep_their_rest_distance() {
    let points = points(false);
    let mut search = PairSearch::try_new(points.len() / 2).unwrap();
    search.search(points.as_slice(), PairRules::rest(&points), 0.05);
    assert!(!search.pairs().is_empty());
    for &(a, b, minimum, _) in search.pairs() {
        let (a, b) = (a as usize, b as usize);
        let rest = ((points[2 * b] - points[2 * a]).powi(2)
            + (points[2 * b + 1] - points[2 * a + 1]).powi(2))
        .sqrt();
        assert_eq!(minimum, rest.min(0.1), "pair {a}–{b}");
    }
}
