//! What the two stiffness sweeps (against the iteration count and against
//! the time step) share: each runs a hanging cloth as PBD (rigid constraints)
//! and as XPBD (the `stiffness` setting) for every value swept, and compares
//! the settled mean stretch at the two ends of the sweep.

use super::measure::mean_stretch;
use super::setup::hanging_trial;
use super::{mean_after, Cell, Chart, Report, Series, Settings, Status, Table, Trial, Verdict};
use crate::error::ClothError;
use crate::params::Params;

/// The two modes: (label, stiffness); PBD first.
fn modes(settings: &Settings) -> [(&'static str, f64); 2] {
    [("PBD", 0.0), ("XPBD", settings.get("stiffness"))]
}

/// The trials, PBD's first then XPBD's, one per value of `keys` each: the
/// cloth gets `params(stiffness, key)` and the trial `label(mode, key)`, and
/// measures `[time, mean stretch, max stretch]`.
pub(super) fn build<K: Copy + Into<f64>>(
    settings: &Settings,
    keys: &[K],
    label: impl Fn(&str, K) -> String,
    params: impl Fn(f64, K) -> Params,
) -> Result<Vec<Trial>, ClothError> {
    let mut trials = Vec::new();
    for (mode, stiffness) in modes(settings) {
        for &key in keys {
            trials.push(hanging_trial(
                settings,
                label(mode, key),
                key.into(),
                params(stiffness, key),
                Box::new(|c| vec![c.time(), mean_stretch(c), c.max_stretch()]),
            )?);
        }
    }
    Ok(trials)
}

/// The settled mean stretch of a trial (NaN until it has run half way).
fn settled_stretch(settings: &Settings, trial: &Trial) -> f64 {
    let half = settings.get("duration") / 2.0;
    if trial
        .samples
        .last()
        .is_none_or(|row| row[0] < settings.get("duration") - 1e-9)
    {
        return f64::NAN;
    }
    mean_after(&trial.samples, 1, half)
}

/// What the report of a sweep compares, and how it names it.
pub(super) struct Ends<'a> {
    /// The chart's title.
    pub title: &'a str,
    /// What the keys are, on the chart and in the table.
    pub x_label: &'a str,
    /// Where in the keys the two ends compared are (`None`: not swept).
    pub from: Option<usize>,
    /// See `from`.
    pub to: Option<usize>,
    /// The names of the numbers: PBD's stretch at `from` and at `to`, then
    /// XPBD's.
    pub names: [&'static str; 4],
    /// What the sweep went over, and what XPBD's limit allows (see
    /// [`Comparison::verdict`]).
    pub range: String,
    /// See `range`.
    pub steady: &'a str,
    /// The limits of the claim (see [`Comparison::new`]).
    pub xpbd_max_change: f64,
    /// See `xpbd_max_change`.
    pub pbd_min_change: f64,
}

/// The report of a sweep over `keys` whose `trials` [`build`] made: the
/// chart and table of the settled stretches, the stretches at the two `ends`
/// and their changes, and the verdict.
pub(super) fn report(settings: &Settings, trials: &[Trial], keys: &[f64], ends: Ends) -> Report {
    let stretches = Stretches::of(settings, trials, keys.len());
    let (chart, table) = stretches.chart_and_table(settings, ends.title, ends.x_label, keys);
    let at = |m: usize, i: Option<usize>| i.map_or(f64::NAN, |i| stretches.per_mode[m][i]);
    let pbd = (at(0, ends.from), at(0, ends.to));
    let xpbd = (at(1, ends.from), at(1, ends.to));
    let (xpbd_max, pbd_min) = (ends.xpbd_max_change, ends.pbd_min_change);
    let comparison = Comparison::new(pbd, xpbd, xpbd_max, pbd_min);
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("pbdChange", comparison.pbd_change),
            ("xpbdChange", comparison.xpbd_change),
            (ends.names[0], pbd.0),
            (ends.names[1], pbd.1),
            (ends.names[2], xpbd.0),
            (ends.names[3], xpbd.1),
        ],
        verdict: Some(comparison.verdict(&ends.range, ends.steady, xpbd_max, pbd_min)),
    }
}

/// The settled mean stretches (%) of a sweep over `keys`.
struct Stretches {
    /// PBD's, then XPBD's, one per key.
    per_mode: [Vec<f64>; 2],
}

/// What the two ends of a sweep show.
struct Comparison {
    pbd_change: f64,
    xpbd_change: f64,
    pbd_falls: bool,
    pbd_stiffens: bool,
    xpbd_steady: bool,
    status: Status,
}

impl Stretches {
    /// The stretches of `trials` as [`build`] ordered them, `keys` per mode.
    fn of(settings: &Settings, trials: &[Trial], keys: usize) -> Stretches {
        let mode = |m: usize| {
            trials[m * keys..(m + 1) * keys]
                .iter()
                .map(|t| 100.0 * settled_stretch(settings, t))
                .collect()
        };
        Stretches {
            per_mode: [mode(0), mode(1)],
        }
    }

    /// A chart (log-log) with one series per mode and a table with one row per
    /// key; `x_label` names the keys on both.
    fn chart_and_table(
        &self,
        settings: &Settings,
        title: &str,
        x_label: &str,
        keys: &[f64],
    ) -> (Chart, Table) {
        let mut chart = Chart::new(title, x_label, "mean stretch (%)");
        chart.log_x = true;
        chart.log_y = true;
        for ((mode, _), values) in modes(settings).iter().zip(&self.per_mode) {
            chart.series.push(Series {
                label: (*mode).into(),
                points: keys
                    .iter()
                    .zip(values)
                    .filter(|(_, v)| v.is_finite())
                    .map(|(&k, &v)| [k, v])
                    .collect(),
            });
        }
        let table = Table {
            columns: vec![
                x_label.into(),
                "PBD mean stretch (%)".into(),
                "XPBD mean stretch (%)".into(),
            ],
            rows: keys
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    vec![
                        Cell::Number(k),
                        Cell::Number(self.per_mode[0][i]),
                        Cell::Number(self.per_mode[1][i]),
                    ]
                })
                .collect(),
        };
        (chart, table)
    }
}

impl Comparison {
    /// Compares the stretches at the start of a sweep, `pbd.0` and `xpbd.0`,
    /// with those at its end, `pbd.1` and `xpbd.1`: the claim holds when
    /// XPBD's changes at most `xpbd_max_change` % and PBD's falls at least
    /// `pbd_min_change` %.
    fn new(
        pbd: (f64, f64),
        xpbd: (f64, f64),
        xpbd_max_change: f64,
        pbd_min_change: f64,
    ) -> Comparison {
        let pbd_change = super::percent_change(pbd.0, pbd.1);
        let xpbd_change = super::percent_change(xpbd.0, xpbd.1);
        let pbd_falls = pbd.1 < pbd.0;
        let pbd_stiffens = pbd_falls && pbd_change >= pbd_min_change;
        let xpbd_steady = xpbd_change <= xpbd_max_change;
        let status = match (xpbd_steady, pbd_stiffens) {
            (true, true) => Status::Holds,
            (false, false) => Status::DoesNotHold,
            _ => Status::Partly,
        };
        Comparison {
            pbd_change,
            xpbd_change,
            pbd_falls,
            pbd_stiffens,
            xpbd_steady,
            status,
        }
    }

    /// The verdict: `range` says what the sweep went over ("from 10 to 100
    /// iterations"), `steady` what XPBD's limit allows ("hardly depends").
    fn verdict(
        &self,
        range: &str,
        steady: &str,
        xpbd_max_change: f64,
        pbd_min_change: f64,
    ) -> Verdict {
        let text = format!(
            "{}: {range} XPBD's mean stretch changes {:.1} % ({} the {xpbd_max_change} % allowed for \"{steady}\"), PBD's {} {:.1} % ({} the {pbd_min_change} % that shows it stiffening).",
            self.status.name(),
            self.xpbd_change,
            if self.xpbd_steady { "within" } else { "beyond" },
            if self.pbd_falls { "falls" } else { "rises" },
            self.pbd_change,
            if self.pbd_stiffens { "beyond" } else { "short of" },
        );
        Verdict {
            status: self.status,
            text,
            advice: String::new(),
        }
    }
}
