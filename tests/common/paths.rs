//! Rest-path distances, written plainly (a reference for the tethers).

// Each test file uses some of these, not all.
#![allow(dead_code)]

/// For each of `n` particles, its nearest particle with `pinned[k]` along the
/// constraints `ids` (flat pairs) with `rest_lengths`, and the rest-path
/// distance to it in `f64`; `None` without a path. Plain Dijkstra with a
/// linear search for the nearest unsettled particle.
pub fn nearest_pins(
    n: usize,
    ids: &[u32],
    rest_lengths: &[f32],
    pinned: &[bool],
) -> Vec<Option<(usize, f64)>> {
    let mut best: Vec<Option<(usize, f64)>> =
        (0..n).map(|k| pinned[k].then_some((k, 0.0))).collect();
    let mut settled = vec![false; n];
    loop {
        let next = (0..n)
            .filter(|&k| !settled[k])
            .filter_map(|k| best[k].map(|(_, d)| (k, d)))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        let Some((k, d)) = next else { break };
        settled[k] = true;
        let anchor = best[k].unwrap().0;
        for (pair, &rest) in ids.chunks(2).zip(rest_lengths) {
            let other = if pair[0] as usize == k {
                pair[1] as usize
            } else if pair[1] as usize == k {
                pair[0] as usize
            } else {
                continue;
            };
            let through = d + rest as f64;
            if best[other].is_none_or(|(_, known)| through < known) {
                best[other] = Some((anchor, through));
            }
        }
    }
    best
}
