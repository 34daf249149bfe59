//! Tests of [`ConstraintSet`]: runs, colours, reordering and tearing.

use std::ops::Range;

use super::*;
use crate::model::grid;
use crate::params::{FixedPreset, GridSize};
use crate::solver::runs::{Arrangement, RunLayout};

fn set(width: usize, height: usize, order: SolverOrder) -> ConstraintSet {
    let size = GridSize { width, height };
    let g = grid::build(size, FixedPreset::Two);
    ConstraintSet::new(g.constraint_ids, g.rest_lengths, g.colors, order)
}

#[test]
fn runs_cover_every_constraint_and_match_their_layout() {
    for (w, h) in [(2, 2), (3, 5), (4, 4), (5, 3), (13, 7), (40, 30)] {
        let s = set(w, h, SolverOrder::Colored);
        let mut next = 0;
        for run in s.runs() {
            assert_eq!(run.range.start, next, "{w}x{h}: runs are contiguous");
            next = run.range.end;
            for (i, c) in run.range.clone().enumerate() {
                let (a, b) = (s.ids()[2 * c] as i64, s.ids()[2 * c + 1] as i64);
                match run.layout {
                    RunLayout::Consecutive { a0, offset } => {
                        assert_eq!(
                            (a, b),
                            (a0 as i64 + i as i64, a0 as i64 + i as i64 + offset as i64)
                        );
                        assert!(offset >= 4 && run.range.len() <= offset as usize);
                    }
                    RunLayout::Alternating { a0 } => {
                        assert_eq!(
                            (a, b),
                            (a0 as i64 + 2 * i as i64, a0 as i64 + 2 * i as i64 + 1)
                        );
                    }
                    RunLayout::Scattered => {}
                }
            }
        }
        assert_eq!(next, s.len());
    }
    // on a 40 × 30 grid almost every constraint is in a regular run
    let s = set(40, 30, SolverOrder::Colored);
    let scattered = s
        .runs()
        .iter()
        .filter(|r| r.layout == RunLayout::Scattered)
        .count();
    assert!(
        scattered * 20 < s.len(),
        "{scattered} scattered of {}",
        s.len()
    );
}

/// The set's batches (colored order): one range per colour.
fn batches(s: &ConstraintSet) -> Vec<Range<usize>> {
    let view = Arrangement {
        ids: &s.ids,
        colors: &s.colors,
        index: |c: usize| c,
    };
    view.batches(s.live).collect()
}

#[test]
fn no_two_constraints_of_a_batch_share_a_particle() {
    let s = set(13, 7, SolverOrder::Colored);
    assert_eq!(batches(&s).len(), 8, "8 colours");
    let covered: usize = batches(&s).iter().map(|r| r.len()).sum();
    assert_eq!(covered, s.len());
    for batch in batches(&s) {
        let mut seen = std::collections::HashSet::new();
        for c in batch.clone() {
            assert!(
                seen.insert(s.ids()[2 * c]),
                "batch {batch:?} repeats a particle"
            );
            assert!(
                seen.insert(s.ids()[2 * c + 1]),
                "batch {batch:?} repeats a particle"
            );
        }
    }
}

#[test]
fn switching_orders_round_trips() {
    let original = set(9, 6, SolverOrder::Original);
    let mut s = original.clone();
    s.set_order(SolverOrder::Colored);
    assert_ne!(s.ids(), original.ids());
    s.set_order(SolverOrder::Original);
    assert_eq!(s, original);
}

/// The colored arrangement as a comparison sort makes it: by (colour,
/// creation), then the leftovers of each colour's runs behind its regular runs.
fn colored_by_sorting(width: usize, height: usize) -> Vec<u32> {
    let g = grid::build(GridSize { width, height }, FixedPreset::Two);
    let count = g.rest_lengths.len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&c| (g.colors[c], c));
    let ids: Vec<u32> = order
        .iter()
        .flat_map(|&c| [g.constraint_ids[2 * c], g.constraint_ids[2 * c + 1]])
        .collect();
    let colors: Vec<u8> = order.iter().map(|&c| g.colors[c]).collect();
    let mut arranged = ConstraintSet::new(ids, vec![1.0; count], colors, SolverOrder::Original);
    arranged.order = SolverOrder::Colored;
    arranged.update_runs();
    let mut leftover = vec![false; count];
    for run in arranged.runs() {
        let grouped = match run.layout {
            RunLayout::Scattered => 0,
            _ => run.range.len() / 4 * 4,
        };
        for flag in &mut leftover[run.range.start + grouped..run.range.end] {
            *flag = true;
        }
    }
    let mut keys: Vec<usize> = (0..count).collect();
    keys.sort_by_key(|&c| (arranged.colors[c], leftover[c], c));
    keys.iter()
        .flat_map(|&c| [arranged.ids[2 * c], arranged.ids[2 * c + 1]])
        .collect()
}

#[test]
fn the_counting_sort_arranges_as_a_comparison_sort_would() {
    for (w, h) in [(2, 2), (3, 5), (13, 7), (40, 30)] {
        assert_eq!(
            set(w, h, SolverOrder::Colored).ids(),
            colored_by_sorting(w, h).as_slice(),
            "{w}x{h}"
        );
    }
}

/// Tears every `k`-th live constraint, and returns how many tore.
fn tear_every(s: &mut ConstraintSet, k: usize) -> usize {
    let mut c = 0;
    s.tear(|_, _, _| {
        c += 1;
        c % k == 0
    })
}

#[test]
fn tearing_moves_torn_constraints_behind_in_place_and_restoring_undoes_it() {
    for order in [SolverOrder::Colored, SolverOrder::Original] {
        let original = set(13, 7, order);
        let mut s = original.clone();
        let (ids, rest) = (s.ids.as_ptr(), s.rest_lengths.as_ptr());
        let live_before = s.ids().to_vec();
        s.clear_tear_log();
        let first = tear_every(&mut s, 7);
        let second = tear_every(&mut s, 3);
        assert_eq!(s.len(), original.len() - first - second);
        // the same buffers, still holding every constraint: the live ones in
        // their old relative order, then the torn ones
        assert_eq!((s.ids.as_ptr(), s.rest_lengths.as_ptr()), (ids, rest));
        assert_eq!(s.ids.len(), original.ids.len());
        let live: Vec<&[u32]> = s.ids().chunks(2).collect();
        let mut kept = live_before.chunks(2).filter(|pair| live.contains(pair));
        assert!(
            live.iter().all(|pair| kept.next() == Some(pair)),
            "order kept"
        );
        let mut all: Vec<&[u32]> = s.ids.chunks(2).collect();
        let mut expected: Vec<&[u32]> = original.ids.chunks(2).collect();
        all.sort();
        expected.sort();
        assert_eq!(all, expected, "{order:?}: nothing lost, nothing doubled");
        assert!(s.rest_lengths.iter().all(|&r| r > 0.0));
        // runs still cover the live constraints only
        if order == SolverOrder::Colored {
            assert_eq!(s.runs().last().unwrap().range.end, s.len());
        }
        assert_eq!(s.restore_logged(), first + second);
        assert!(s == original, "{order:?}: restored exactly");
        assert_eq!(s.runs(), original.runs());
    }
}

#[test]
fn reordering_a_torn_set_keeps_the_torn_ones_behind() {
    let mut s = set(9, 6, SolverOrder::Colored);
    let torn = tear_every(&mut s, 4);
    let tail = s.ids[2 * s.len()..].to_vec();
    let live = s.len();
    s.set_order(SolverOrder::Original);
    assert_eq!(s.len(), live);
    assert_eq!(&s.ids[2 * s.len()..], tail.as_slice());
    // creation order
    assert!(s.creation[..live].windows(2).all(|w| w[0] < w[1]));
    s.set_order(SolverOrder::Colored);
    let batched: usize = batches(&s).iter().map(|b| b.len()).sum();
    assert_eq!(batched, live);
    assert_eq!(s.built_with(), live + torn);
    // nothing to restore after a reorder: it clears the log
    assert_eq!(s.restore_logged(), 0);
}

#[test]
fn the_colored_layout_bound_covers_the_arrangement() {
    let mut s = set(40, 30, SolverOrder::Colored);
    s.set_order(SolverOrder::Original);
    tear_every(&mut s, 5);
    let bound = s.colored_layout();
    s.set_order(SolverOrder::Colored);
    let exact = s.colored_layout();
    assert!(
        exact.runs <= bound.runs && exact.scattered <= bound.scattered,
        "{exact:?} vs {bound:?}"
    );
}

#[test]
fn tearing_never_grows_the_runs_past_their_room() {
    let mut s = set(40, 30, SolverOrder::Colored);
    let room = s.runs.capacity();
    // every other constraint: the most fragmenting tear there is
    tear_every(&mut s, 2);
    assert_eq!(s.runs.capacity(), room);
    assert!(s.runs.len() <= room);
    let mut next = 0;
    for run in s.runs() {
        assert_eq!(run.range.start, next, "runs stay contiguous");
        next = run.range.end;
    }
    assert_eq!(next, s.len());
    s.restore_logged();
    assert_eq!(s.runs.capacity(), room);
}

#[test]
fn tearing_keeps_the_order_of_the_rest() {
    let mut s = set(3, 3, SolverOrder::Original);
    let mut torn = vec![false; s.len()];
    torn[0] = true;
    torn[5] = true;
    let before = s.ids().to_vec();
    let mut c = 0;
    let tore = s.tear(|_, _, _| {
        c += 1;
        torn[c - 1]
    });
    assert_eq!(tore, 2);
    assert_eq!(s.len(), before.len() / 2 - 2);
    assert_eq!(&s.ids()[..2], &before[2..4]);
}
