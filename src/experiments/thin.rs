//! Fewer points for a plot: a series of many thousand points (the cord at a
//! small time step over a minute) is cut to a few thousand that keep its
//! envelope, the lowest and the highest point of each run of neighbours.

/// `points` if there are at most `max` (at least 4), otherwise, for each of
/// about `max / 2` runs of neighbours, its lowest and its highest point (in
/// their order) and any gap (a point whose y is not finite).
pub fn thin(points: &[[f64; 2]], max: usize) -> Vec<[f64; 2]> {
    let max = max.max(4);
    if points.len() <= max {
        return points.to_vec();
    }
    let run = points.len().div_ceil(max / 2);
    let mut out = Vec::with_capacity(max + 2);
    for chunk in points.chunks(run) {
        let mut low: Option<usize> = None;
        let mut high: Option<usize> = None;
        let mut gap: Option<usize> = None;
        for (i, p) in chunk.iter().enumerate() {
            if !p[1].is_finite() || !p[0].is_finite() {
                gap.get_or_insert(i);
                continue;
            }
            if low.is_none_or(|l| p[1] < chunk[l][1]) {
                low = Some(i);
            }
            if high.is_none_or(|h| p[1] > chunk[h][1]) {
                high = Some(i);
            }
        }
        let mut keep: Vec<usize> = [low, high, gap].into_iter().flatten().collect();
        keep.sort_unstable();
        keep.dedup();
        out.extend(keep.into_iter().map(|i| chunk[i]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_short_series_and_the_envelope_of_long_ones() {
        let short: Vec<[f64; 2]> = (0..10).map(|i| [i as f64, 1.0]).collect();
        assert_eq!(thin(&short, 100), short);
        let long: Vec<[f64; 2]> = (0..100_000)
            .map(|i| [i as f64, (i as f64 * 0.01).sin()])
            .collect();
        let thinned = thin(&long, 2000);
        assert!(thinned.len() <= 2000, "{}", thinned.len());
        assert!(thinned.len() >= 1000, "{}", thinned.len());
        let (low, high) = thinned
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), p| (l.min(p[1]), h.max(p[1])));
        assert!(low < -0.9999 && high > 0.9999, "{low} {high}");
        assert!(thinned.windows(2).all(|w| w[0][0] < w[1][0]), "in order");
        assert_eq!(thinned[0][0], 0.0);
        let mut gapped = long.clone();
        gapped[50_000][1] = f64::NAN;
        assert!(
            thin(&gapped, 2000).iter().any(|p| p[1].is_nan()),
            "a gap stays"
        );
    }
}
