//! The shapes of a body's particles: how thin they lie, and the convex hull
//! that outlines a body drawn from its particles.

/// How thin `particles` are: the RMS width of their positions across their
/// longest direction over their RMS length along it (0: all on one line).
pub fn thickness(particles: &[u32], at: impl Fn(u32) -> (f64, f64)) -> f64 {
    let n = particles.len() as f64;
    let c = particles.iter().fold((0.0, 0.0), |c, &k| {
        let (x, y) = at(k);
        (c.0 + x / n, c.1 + y / n)
    });
    let (mut xx, mut xy, mut yy) = (0.0, 0.0, 0.0);
    for &k in particles {
        let (x, y) = at(k);
        let (dx, dy) = (x - c.0, y - c.1);
        xx += dx * dx;
        xy += dx * dy;
        yy += dy * dy;
    }
    // the eigenvalues of the covariance [[xx, xy], [xy, yy]]
    let half_trace = (xx + yy) / 2.0;
    let root = (((xx - yy) / 2.0).powi(2) + xy * xy).sqrt();
    let (large, small) = (half_trace + root, (half_trace - root).max(0.0));
    if large > 0.0 {
        (small / large).sqrt()
    } else {
        0.0
    }
}

/// Sorts `v` by `less` in place: a heap sort, a few hundred bytes of code
/// where the standard library's sorts bring several kilobytes into the
/// shipped module for this one cold call.
fn heap_sort<T: Copy>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let sift = |v: &mut [T], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
    };
    // the heap built from the last parent up, then its top swapped to each
    // end in turn: one loop, so the sift is written out once
    let n = v.len();
    for k in (0..n + n / 2).rev() {
        let (root, end) = if k >= n {
            (k - n, n)
        } else {
            v.swap(0, k);
            (0, k)
        };
        sift(v, root, end);
    }
}

/// Appends to `outline` the convex hull of `particles` (at `at`),
/// counter-clockwise from the lowest leftmost, with the particles that lie on
/// its sides (Andrew's monotone chain, keeping collinear points). `scratch`
/// has room for as many particles three times, and is left empty; `outline`
/// has room for as many more. Never allocates.
pub(super) fn hull(
    particles: &[u32],
    at: impl Fn(u32) -> (f64, f64),
    scratch: &mut [Vec<u32>; 3],
    outline: &mut Vec<u32>,
) {
    let [sorted, lower, upper] = scratch;
    sorted.clear();
    sorted.extend_from_slice(particles);
    heap_sort(sorted, |&a, &b| {
        let (pa, pb) = (at(a), at(b));
        pa.0.total_cmp(&pb.0)
            .then(pa.1.total_cmp(&pb.1))
            .then(a.cmp(&b))
            .is_lt()
    });
    let size = {
        let (first, last) = (at(sorted[0]), at(sorted[sorted.len() - 1]));
        (last.0 - first.0).abs() + (last.1 - first.1).abs()
    };
    // a right turn beyond rounding (collinear points are kept)
    let right = |a: u32, b: u32, c: u32| {
        let (a, b, c) = (at(a), at(b), at(c));
        let cross = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
        cross < -1e-9 * size * size
    };
    let chain = |points: &mut dyn Iterator<Item = u32>, chain: &mut Vec<u32>| {
        chain.clear();
        for k in points {
            while chain.len() >= 2 && right(chain[chain.len() - 2], chain[chain.len() - 1], k) {
                chain.pop();
            }
            chain.push(k);
        }
    };
    chain(&mut sorted.iter().copied(), lower);
    chain(&mut sorted.iter().rev().copied(), upper);
    let start = outline.len();
    for &k in lower.iter().chain(&upper[1..upper.len() - 1]) {
        // a point met by both chains (collinear along a vertical side) once
        if !outline[start..].contains(&k) {
            outline.push(k);
        }
    }
    for buffer in scratch {
        buffer.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_sort_sorts_as_the_standard_sort() {
        let mut seed = 12345u32;
        for n in [0, 1, 2, 3, 7, 64, 257] {
            let mut v: Vec<u32> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    seed % 50
                })
                .collect();
            let mut expected = v.clone();
            expected.sort_unstable();
            heap_sort(&mut v, |a, b| a < b);
            assert_eq!(v, expected, "{n} values");
        }
    }
}
