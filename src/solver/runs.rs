//! Runs: the constraints of one colour cut into stretches whose particles lie
//! regularly in memory, so the coloured sweep loads four at a time with
//! vector instructions (see [`super::colored`]).

use std::ops::Range;

/// What a coloured sweep (or a piece of one) works through: its
/// constraints, its runs (each a call with a scalar tail) and the constraints
/// gathered one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColoredLayout {
    /// Number of constraints.
    pub constraints: usize,
    /// Number of runs.
    pub runs: usize,
    /// Constraints in [`RunLayout::Scattered`] runs or in the scalar tail of a run.
    pub scattered: usize,
}

impl ColoredLayout {
    /// Counts `run` in.
    pub fn add(&mut self, run: &Run) {
        self.constraints += run.range.len();
        self.runs += 1;
        self.scattered += run.scattered();
    }
}

/// How the particles of a run of constraints lie in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLayout {
    /// Constraint `i` of the run joins `a0 + i` and `a0 + i + offset` (vertical
    /// and diagonal edges along a row), with `offset >= 4` and at most `offset`
    /// constraints, so the `a`s and the `b`s are two separate stretches of memory.
    Consecutive {
        /// First particle `a`.
        a0: u32,
        /// `b - a`.
        offset: i32,
    },
    /// Constraint `i` joins `a0 + 2i` and `a0 + 2i + 1` (every other horizontal
    /// edge of a row): four constraints cover eight consecutive particles.
    Alternating {
        /// First particle `a`.
        a0: u32,
    },
    /// No regular layout: particles are gathered one by one.
    Scattered,
}

/// Consecutive constraints of one colour with one memory layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The constraints, as indices into the solver-order arrays.
    pub range: Range<usize>,
    /// Where their particles are.
    pub layout: RunLayout,
}

impl Run {
    /// How many of its constraints are gathered one by one: all of a scattered
    /// run, the scalar tail (beyond a multiple of four) of a regular one.
    pub fn scattered(&self) -> usize {
        match self.layout {
            RunLayout::Scattered => self.range.len(),
            _ => self.range.len() % 4,
        }
    }
}

/// The constraints of a set in some arrangement: position `c` holds constraint
/// `index(c)` of the arrays.
pub(super) struct Arrangement<'a, F: Fn(usize) -> usize> {
    /// `[a0, b0, a1, b1, ...]` of the arrays.
    pub(super) ids: &'a [u32],
    /// Colour of each constraint of the arrays.
    pub(super) colors: &'a [u8],
    /// The constraint of the arrays at each position.
    pub(super) index: F,
}

impl<F: Fn(usize) -> usize> Arrangement<'_, F> {
    fn a(&self, c: usize) -> i64 {
        self.ids[2 * (self.index)(c)] as i64
    }

    fn b(&self, c: usize) -> i64 {
        self.ids[2 * (self.index)(c) + 1] as i64
    }

    pub(super) fn color(&self, c: usize) -> u8 {
        self.colors[(self.index)(c)]
    }

    /// The batches of positions `0..live` (sorted by colour): one range per
    /// colour, whose constraints share no particle.
    pub(super) fn batches(&self, live: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= live {
                return None;
            }
            let mut end = start + 1;
            while end < live && self.color(end) == self.color(start) {
                end += 1;
            }
            let batch = start..end;
            start = end;
            Some(batch)
        })
    }

    /// Cuts the batches of positions `0..live` into `runs`; past `capacity` runs
    /// (0: no limit) the rest of a colour becomes one scattered run, so `runs`
    /// never grows past it.
    pub(super) fn cut(&self, live: usize, capacity: usize, runs: &mut Vec<Run>) {
        runs.clear();
        let batches = self.batches(live).count();
        for (b, batch) in self.batches(live).enumerate() {
            let first_of_batch = runs.len();
            let mut c = batch.start;
            while c < batch.end {
                // keep one run for each batch after this one
                let full = capacity > 0 && runs.len() + (batches - b) >= capacity;
                let run = if full {
                    Run {
                        range: c..batch.end,
                        layout: RunLayout::Scattered,
                    }
                } else {
                    self.longest_run(c, batch.end)
                };
                c = run.range.end;
                let in_batch = runs.len() > first_of_batch;
                match runs.last_mut() {
                    // scattered neighbours of one batch are gathered together
                    Some(last)
                        if in_batch
                            && last.layout == RunLayout::Scattered
                            && run.layout == RunLayout::Scattered =>
                    {
                        last.range.end = run.range.end
                    }
                    _ => runs.push(run),
                }
            }
        }
    }

    /// The longest regular run starting at constraint `start` (before `end`).
    /// Runs shorter than four constraints gain nothing: they become scattered.
    fn longest_run(&self, start: usize, end: usize) -> Run {
        let extend = |step: i64, offset: i64| {
            let mut c = start + 1;
            while c < end && self.a(c) == self.a(c - 1) + step && self.b(c) - self.a(c) == offset {
                c += 1;
            }
            c
        };
        let a0 = self.a(start);
        let offset = self.b(start) - a0;
        // The `a` particles and the `b` particles of a run must be two separate
        // stretches of memory (run length <= offset) so the solver can borrow
        // them as two slices.
        let consecutive = if offset >= 4 {
            extend(1, offset).min(start + offset as usize)
        } else {
            start + 1
        };
        let alternating = if offset == 1 { extend(2, 1) } else { start + 1 };
        let (stop, layout) = if consecutive >= alternating {
            let layout = RunLayout::Consecutive {
                a0: a0 as u32,
                offset: offset as i32,
            };
            (consecutive, layout)
        } else {
            (alternating, RunLayout::Alternating { a0: a0 as u32 })
        };
        if stop - start >= 4 {
            Run {
                range: start..stop,
                layout,
            }
        } else {
            // gather up to the next place a regular run could start
            Run {
                range: start..start + 1,
                layout: RunLayout::Scattered,
            }
        }
    }
}
