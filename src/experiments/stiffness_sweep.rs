//! What the two stiffness sweeps (against the iteration count and against
//! the time step) share: each runs a hanging cloth as plain PBD with the
//! stiffness coefficient `pbdCoefficient` and as XPBD (the `stiffness`
//! setting) for every value swept, compares the settled mean stretch at the
//! two ends of the sweep, and compares XPBD's with the exact static
//! equilibrium of springs of that stiffness (a Newton solve in f64).

use super::measure::mean_stretch;
use super::pbd;
use super::setup::{self, hanging_trial};
use super::{
    mean_after, Cell, Chart, Report, Series, Setting, Settings, Status, Table, Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// XPBD's settled stretch may differ from the exact equilibrium's by at most
/// this much (%) at both ends of the sweep for it to keep "the stiffness you
/// set": the same 10 % its change along the sweep is allowed.
pub const EQUILIBRIUM_GAP: f64 = 10.0;
/// A run is settled when its mean stretch over the last quarter differs from
/// the one over the second half by at most this fraction (%) of the
/// equilibrium's: a tenth of the effects measured.
pub const SETTLED: f64 = 1.0;

/// PBD's stiffness coefficient `k`.
pub(super) const PBD_COEFFICIENT: Setting = Setting {
    name: "pbdCoefficient",
    label: "PBD stiffness coefficient k",
    unit: "",
    min: 0.001,
    max: 1.0,
    whole: false,
    default: 0.1,
};

/// Velocity damping strong enough for the cloth to settle in the run (its
/// slowest swing, about 2 rad/s, is near critically damped).
pub(super) const SETTLING_DAMPING: Setting = Setting {
    name: "velocityDamping",
    label: "Velocity damping",
    unit: "1/s",
    min: 0.0,
    max: 100.0,
    whole: false,
    default: 4.0,
};

/// How long each run lasts: long enough to settle at [`SETTLING_DAMPING`].
pub(super) const SETTLING_DURATION: Setting = Setting {
    name: "duration",
    label: "Simulated time per run",
    unit: "s",
    min: 0.5,
    max: 20.0,
    whole: false,
    default: 8.0,
};

/// The two modes' labels; PBD first.
fn modes(settings: &Settings) -> [String; 2] {
    [
        format!("PBD, k = {}", settings.get("pbdCoefficient")),
        "XPBD".into(),
    ]
}

/// The trials, PBD's first then XPBD's, one per value of `keys` each: the
/// cloth gets `params(stiffness, key)` (the PBD runs step with their own
/// [`pbd::step`]) and the trial `label(mode, key)`, and measures `[time, mean
/// stretch, max stretch]`.
pub(super) fn build<K: Copy + Into<f64>>(
    settings: &Settings,
    keys: &[K],
    label: impl Fn(&str, K) -> String,
    params: impl Fn(f64, K) -> Params,
) -> Result<Vec<Trial>, ClothError> {
    let mut trials = Vec::new();
    let k = settings.get("pbdCoefficient");
    for (m, mode) in modes(settings).iter().enumerate() {
        for &key in keys {
            let stiffness = if m == 0 {
                0.0
            } else {
                settings.get("stiffness")
            };
            let trial = hanging_trial(
                settings,
                label(mode, key),
                key.into(),
                params(stiffness, key),
                Box::new(|c| vec![c.time(), mean_stretch(c), c.max_stretch()]),
            )?;
            trials.push(if m == 0 {
                trial.with_stepper(pbd::step(k))
            } else {
                trial
            });
        }
    }
    Ok(trials)
}

/// How far a trial's stretch still moved: its mean over the last quarter less
/// its mean over the second half, in % of the cloth's rest length.
fn drift(settings: &Settings, trial: &Trial) -> f64 {
    let d = settings.get("duration");
    100.0 * (mean_after(&trial.samples, 1, 0.75 * d) - mean_after(&trial.samples, 1, 0.5 * d))
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
/// and their changes, XPBD's gap to the exact equilibrium, and the verdict.
pub(super) fn report(settings: &Settings, trials: &[Trial], keys: &[f64], ends: Ends) -> Report {
    let stretches = Stretches::of(settings, trials, keys.len());
    let exact = setup::equilibrium_stretch(settings);
    let (mut chart, table) = stretches.chart_and_table(settings, ends.title, ends.x_label, keys);
    if exact.is_finite() {
        chart.series.push(Series {
            label: "exact static equilibrium (f64)".into(),
            points: keys.iter().map(|&k| [k, exact]).collect(),
        });
    }
    let at = |m: usize, i: Option<usize>| i.map_or(f64::NAN, |i| stretches.per_mode[m][i]);
    let pbd = (at(0, ends.from), at(0, ends.to));
    let xpbd = (at(1, ends.from), at(1, ends.to));
    let gap = percent_gap(xpbd.0, exact).max(percent_gap(xpbd.1, exact));
    let worst_drift = trials
        .iter()
        .map(|t| drift(settings, t).abs())
        .fold(0.0, f64::max);
    let settled = 100.0 * worst_drift / exact.abs().max(1e-300);
    let mut comparison = Comparison::new(pbd, xpbd, ends.xpbd_max_change, ends.pbd_min_change);
    comparison.judge_equilibrium(gap, settled);
    Report::new(
        vec![chart],
        table,
        vec![
            ("pbdChange", comparison.pbd_change),
            ("xpbdChange", comparison.xpbd_change),
            ("equilibriumStretch", exact),
            ("xpbdEquilibriumGap", gap),
            ("unsettled", settled),
            (ends.names[0], pbd.0),
            (ends.names[1], pbd.1),
            (ends.names[2], xpbd.0),
            (ends.names[3], xpbd.1),
        ],
        comparison.verdict(&ends),
    )
}

/// `100 · |a − exact| / |exact|`.
fn percent_gap(a: f64, exact: f64) -> f64 {
    super::percent_change(exact, a)
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
    /// XPBD's largest gap to the equilibrium at the two ends, %.
    gap: f64,
    /// The largest drift of a run over its last quarter, % of the
    /// equilibrium stretch.
    unsettled: f64,
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
        for (mode, values) in modes(settings).iter().zip(&self.per_mode) {
            chart.series.push(Series {
                label: mode.clone(),
                points: keys
                    .iter()
                    .zip(values)
                    .filter(|(_, v)| v.is_finite())
                    .map(|(&k, &v)| [k, v])
                    .collect(),
            });
        }
        let k = settings.get("pbdCoefficient");
        let iterations = settings.values().iter().any(|(n, _)| *n == "maxIterations");
        let table = Table {
            columns: vec![
                x_label.into(),
                "PBD mean stretch (%)".into(),
                "PBD 1 − (1 − k)ⁿ".into(),
                "XPBD mean stretch (%)".into(),
            ],
            rows: keys
                .iter()
                .enumerate()
                .map(|(i, &key)| {
                    let n = if iterations {
                        key as u32
                    } else {
                        settings.count("iterations")
                    };
                    vec![
                        Cell::Number(key),
                        Cell::Number(self.per_mode[0][i]),
                        Cell::Number(pbd::effective_coefficient(k, n)),
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
    /// with those at its end, `pbd.1` and `xpbd.1`: PBD stiffens when its
    /// stretch falls at least `pbd_min_change` %, XPBD is steady when its
    /// changes at most `xpbd_max_change` %.
    fn new(
        pbd: (f64, f64),
        xpbd: (f64, f64),
        xpbd_max_change: f64,
        pbd_min_change: f64,
    ) -> Comparison {
        let pbd_change = super::percent_change(pbd.0, pbd.1);
        let xpbd_change = super::percent_change(xpbd.0, xpbd.1);
        let pbd_falls = pbd.1 < pbd.0;
        Comparison {
            pbd_change,
            xpbd_change,
            pbd_falls,
            pbd_stiffens: pbd_falls && pbd_change >= pbd_min_change,
            xpbd_steady: xpbd_change <= xpbd_max_change,
            gap: f64::NAN,
            unsettled: f64::NAN,
            status: Status::DoesNotHold,
        }
    }

    /// The status, given XPBD's `gap` to the exact equilibrium and how
    /// `unsettled` the runs were: the claim holds when PBD stiffens, XPBD is
    /// steady and within [`EQUILIBRIUM_GAP`] of the equilibrium; in part when
    /// some of it does.
    fn judge_equilibrium(&mut self, gap: f64, unsettled: f64) {
        self.gap = gap;
        self.unsettled = unsettled;
        let xpbd_right = self.xpbd_steady && gap <= EQUILIBRIUM_GAP;
        self.status = match (xpbd_right, self.pbd_stiffens) {
            // runs that had not settled cannot confirm the claim
            (true, true) if unsettled <= SETTLED => Status::Holds,
            (false, false) => Status::DoesNotHold,
            _ => Status::Partly,
        };
    }

    /// The verdict, in the words of `ends`.
    fn verdict(&self, ends: &Ends) -> Verdict {
        let text = format!(
            "{}: {} XPBD's mean stretch changes {:.1} % ({} the {} % allowed for \"{}\") and is within {:.1} % of the exact static equilibrium ({} the {EQUILIBRIUM_GAP} % allowed for \"the stiffness you set\"); PBD's {} {:.1} % ({} the {} % that shows it stiffening). The runs still drifted by {:.2} % of the equilibrium stretch over their last quarter ({}).",
            self.status.name(),
            ends.range,
            self.xpbd_change,
            if self.xpbd_steady { "within" } else { "beyond" },
            ends.xpbd_max_change,
            ends.steady,
            self.gap,
            if self.gap <= EQUILIBRIUM_GAP { "within" } else { "beyond" },
            if self.pbd_falls { "falls" } else { "rises" },
            self.pbd_change,
            if self.pbd_stiffens { "beyond" } else { "short of" },
            ends.pbd_min_change,
            self.unsettled,
            if self.unsettled <= SETTLED { "settled" } else { "not settled: a longer run or more velocity damping is needed before these numbers mean much" },
        );
        let advice = if self.status == Status::Holds {
            "Set the stiffness in N/m (XPBD) and choose the iterations for speed: the cloth's stiffness will not change with them."
        } else {
            "Here XPBD's stiffness is not yet independent of the setting swept: raise the iterations (or substeps) until the table's XPBD column stops changing."
        };
        Verdict::new(self.status, text, advice)
    }
}
