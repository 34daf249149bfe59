//! Energy error against the substep size: an undamped cloth, one iteration
//! per substep, its total energy at a fixed time before it comes to rest,
//! against the energy it can release.

use super::measure::{mean_stretch, total_energy};
use super::setup;
use super::words::{count, number, quantity};
use super::{
    series, Cell, Change, Chart, Choice, Definition, Report, Series, Setting, Settings, Status,
    Table, Trial, Verdict,
};
use crate::error::ClothError;

/// The substep counts tried (one iteration each), up to `maxSubsteps`.
const COUNTS: [u32; 7] = [1, 2, 5, 10, 20, 50, 100];
/// The energy at a time `t` is the mean over the last this share of `t`.
const WINDOW: f64 = 0.1;
/// A run that has lost more than this share of its releasable energy by the
/// check time is near rest there: the check time is late for it.
const NEAR_REST: f64 = 0.5;
/// A run whose mean stretch at the end is further than this share from the
/// equilibrium's ends in another shape.
const OTHER_SHAPE: f64 = 0.1;
/// The times (s) the table shows the error at, besides the check time.
const SHOWN: [f64; 3] = [1.0, 5.0, 10.0];

pub(super) static DEFINITION: Definition = Definition {
    id: "long-run",
    title: "Energy error against the substep size",
    claim: "Smaller substeps make the simulation more accurate: the energy error of an undamped system shrinks as the substep does.",
    source: "Macklin et al., \"Small Steps in Physics Simulation\" (2019), sections 3 and 5 (error against substep size)",
    method: "A cloth held by its two top corners is released in its rest shape and runs with no damping of any kind, one iteration per substep, once for each substep count. Measured: the total energy (kinetic + gravitational + elastic) over time; the releasable energy E₀ − E_eq (the start's total energy less that of the exact static equilibrium, Newton's method in f64: the most the cloth can lose by coming to rest); and each run's energy error at the check time T, |E₀ − Ē(T)| / (E₀ − E_eq), Ē(T) the mean total energy over the tenth of T before T. T comes well before rest: a run at rest has lost all its releasable energy whatever its substeps and ranks nothing.",
    rule: "Holds when every larger substep count leaves a smaller energy error at the check time than the one before. In part when the error shrinks up to some count and not beyond; does not hold when 2 substeps already err no less than 1. A run that has lost more than half its releasable energy by the check time is named: the check time is late for it. Whether single precision or the method is to blame is not judged here: the tests run the same cloth in f64 and compare.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 2.0, max: 30.0, whole: true, default: 10.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 2.0, max: 30.0, whole: true, default: 6.0 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 50.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 1.0, max: 600.0, whole: false, default: 20.0 },
        Setting { name: "checkTime", label: "Check time T (at most the simulated time)", unit: "s", min: 0.05, max: 600.0, whole: false, default: 2.0 },
        setup::ORDER,
    ],
    key: "stopsHelpingAt",
    choices: &[
        Choice::measure(
            &["checkTime"],
            "the check time",
            Change::Times(2.0),
            "A verdict that changes with the check time rests on when the energies were compared.",
            "Compare energies at the time that matters to you.",
        ),
        setup::THE_OTHER_ORDER,
    ],
    explain: None,
    prepare: Some(setup::prepare_hanging),
    build,
    report,
};

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (t, duration) = (settings.get("checkTime"), settings.get("duration"));
    if t > duration {
        return Err(ClothError::InvalidValue {
            field: "checkTime",
            value: t.to_string(),
            allowed: format!("a time within the run (at most {duration} s)"),
        });
    }
    setup::substep_trials(settings, &COUNTS, || {
        Box::new(|c| vec![c.time(), total_energy(c), mean_stretch(c)])
    })
}

/// The total energy of a trial around time `t`: its mean over the last
/// [`WINDOW`] of `t` (the sample nearest `t` if none falls there); NaN
/// before the run reaches `t`.
fn energy_at(trial: &Trial, t: f64) -> f64 {
    if trial.samples.last().is_none_or(|r| r[0] < t - 1e-9) {
        return f64::NAN;
    }
    let within: Vec<f64> = trial
        .samples
        .iter()
        .filter(|r| r[0] >= (1.0 - WINDOW) * t - 1e-9 && r[0] <= t + 1e-9)
        .map(|r| r[1])
        .collect();
    if within.is_empty() {
        let nearest = trial
            .samples
            .iter()
            .min_by(|a, b| (a[0] - t).abs().total_cmp(&(b[0] - t).abs()));
        return nearest.map_or(f64::NAN, |r| r[1]);
    }
    within.iter().sum::<f64>() / within.len() as f64
}

/// The energy error of a trial at `t`, as a share of the releasable energy
/// `scale`: `|E₀ − Ē(t)| / scale`.
fn error_at(trial: &Trial, t: f64, scale: f64) -> f64 {
    let start = trial.samples.first().map_or(f64::NAN, |r| r[1]);
    (start - energy_at(trial, t)).abs() / scale
}

/// The cloth's largest coordinate, metres (its top left corner at the origin).
fn extent(settings: &Settings) -> f64 {
    crate::model::grid::SPACING as f64 * (settings.get("width").max(settings.get("height")) - 1.0)
}

/// The runs whose substep's fall single precision resolves worse than 1 %
/// (known before they run), in words: their errors are partly round-off.
fn beyond_f32(settings: &Settings, trials: &[Trial]) -> String {
    let runs: Vec<String> = trials
        .iter()
        .filter_map(|t| {
            let h = settings.get("timeStep") / t.key;
            let r = setup::fall_resolution(extent(settings), h);
            (r > 0.01).then(|| format!("{} ({} %)", t.label, number(100.0 * r)))
        })
        .collect();
    if runs.is_empty() {
        return String::new();
    }
    format!(
        " Single precision resolves a substep's fall under gravity only coarsely with {}: their errors are partly round-off (the tests compare them with f64).",
        runs.join(", ")
    )
}

/// The runs that end in another shape than the equilibrium's (a mean
/// stretch more than [`OTHER_SHAPE`] off it), in words: their energy error
/// says nothing of their shape.
fn other_shape(settings: &Settings, trials: &[Trial]) -> String {
    let exact = setup::equilibrium_stretch(settings);
    let off: Vec<String> = trials
        .iter()
        .filter_map(|t| {
            let end = 100.0 * t.samples.last()?[2];
            ((end - exact).abs() > OTHER_SHAPE * exact.abs())
                .then(|| format!("{} ({} %)", t.label, number(end)))
        })
        .collect();
    if off.is_empty() {
        return String::new();
    }
    format!(
        " Some runs end in another shape than the equilibrium's (its mean stretch is {} %): {}; an energy error alone does not show that.",
        number(exact),
        off.join(", ")
    )
}

/// The table: each run's error at the check time and at the times shown, the
/// energy it lost, the shape it ends in and how finely f32 resolves its
/// substep's fall.
fn table(settings: &Settings, trials: &[Trial], scale: f64) -> Table {
    let t = settings.get("checkTime");
    let shown: Vec<f64> = SHOWN
        .iter()
        .copied()
        .filter(|&s| s <= settings.get("duration") && s != t)
        .collect();
    let mut columns = vec![
        "substeps".into(),
        "substep h (s)".into(),
        format!(
            "energy error at T = {} (% of the releasable energy)",
            quantity(t, "s")
        ),
    ];
    columns.extend(
        shown
            .iter()
            .map(|s| format!("at {} (%)", quantity(*s, "s"))),
    );
    columns.push("energy lost by the end (J)".into());
    columns.push("mean stretch at the end (%)".into());
    columns.push("f32 resolution of a substep's fall, ε·extent/(g h²) (%)".into());
    let rows = trials
        .iter()
        .map(|trial| {
            let h = settings.get("timeStep") / trial.key;
            let mut row = vec![
                Cell::Number(trial.key),
                Cell::Number(h),
                Cell::Number(100.0 * error_at(trial, t, scale)),
            ];
            row.extend(
                shown
                    .iter()
                    .map(|&s| Cell::Number(100.0 * error_at(trial, s, scale))),
            );
            let (first, last) = (trial.samples.first(), trial.samples.last());
            row.push(Cell::Number(
                first.zip(last).map_or(f64::NAN, |(a, b)| a[1] - b[1]),
            ));
            row.push(Cell::Number(last.map_or(f64::NAN, |r| 100.0 * r[2])));
            row.push(Cell::Number(
                100.0 * setup::fall_resolution(extent(settings), h),
            ));
            row
        })
        .collect();
    Table { columns, rows }
}

/// How the errors rank: each run's (substep h, error at T); the first run
/// that does not lower the error (`stops`), the best before it, and, if
/// every run from `stops` on lowers it again, that run (`again`).
struct Ranking {
    relative: Vec<(f64, f64)>,
    stops: Option<usize>,
    best: usize,
    again: Option<usize>,
}

impl Ranking {
    fn of(relative: Vec<(f64, f64)>) -> Ranking {
        // a NaN error (a run that did not reach T) stops the ranking too
        let stops = (1..relative.len()).find(|&i| {
            relative[i].1.partial_cmp(&relative[i - 1].1) != Some(std::cmp::Ordering::Less)
        });
        let best = stops.map_or(relative.len() - 1, |i| i - 1);
        let again = stops.filter(|&i| {
            i + 1 < relative.len() && relative[i..].windows(2).all(|w| w[1].1 < w[0].1)
        });
        Ranking {
            relative,
            stops,
            best,
            again,
        }
    }

    fn status(&self) -> Status {
        match self.stops {
            None => Status::Holds,
            Some(1) => Status::DoesNotHold,
            Some(_) => Status::Partly,
        }
    }
}

/// The verdict's words and advice from the ranking `r` of `trials`' errors.
fn verdict(settings: &Settings, trials: &[Trial], scale: f64, r: &Ranking) -> Verdict {
    let (t, relative, best) = (settings.get("checkTime"), &r.relative, r.best);
    let late: Vec<&str> = trials
        .iter()
        .zip(relative)
        .filter(|(_, (_, e))| *e > NEAR_REST)
        .map(|(t, _)| t.label.as_str())
        .collect();
    let text = format!(
        "{}: at T = {} the energy error is {} % of the {} the cloth can release with 1 substep{}; {}{}{}{}{}",
        r.status().name(),
        quantity(t, "s"),
        number(100.0 * relative[0].1),
        quantity(scale, "J"),
        if best > 0 {
            format!(" and {} % with {}", number(100.0 * relative[best].1), trials[best].label)
        } else {
            String::new()
        },
        match r.stops {
            None => "every step up in substeps lowers it.".to_string(),
            Some(i) => format!(
                "with {} (h = {}) it is {} %, no less than with {}.",
                trials[i].label,
                quantity(relative[i].0, "s"),
                number(100.0 * relative[i].1),
                trials[i - 1].label,
            ),
        },
        r.again.map_or(String::new(), |i| format!(
            " From {} on every step up lowers it again ({} % → {} %).",
            trials[i].label,
            number(100.0 * relative[i].1),
            number(100.0 * relative[relative.len() - 1].1)
        )),
        other_shape(settings, trials),
        beyond_f32(settings, trials),
        if late.is_empty() {
            String::new()
        } else {
            format!(
                " By T, {} had lost more than half the releasable energy: T is late for {}.",
                late.join(", "),
                if late.len() == 1 { "it" } else { "them" }
            )
        },
    );
    let advice = match (r.stops, r.again) {
        (None, _) => format!(
            "For an undamped motion that keeps its energy, more substeps help all the way to {}.",
            count(trials[best].key as u32, "substep", "substeps")
        ),
        (_, Some(i)) => format!(
            "From {} on, more substeps of one iteration keep the energy better; below that a small energy error is no sign of accuracy (the table shows the shapes the runs end in).",
            trials[i].label
        ),
        _ => format!(
            "Substeps down to about h = {} lower the energy error; smaller ones of one iteration do not here.",
            quantity(relative[best].0, "s")
        ),
    };
    Verdict::new(r.status(), text, advice)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let scale = setup::releasable_energy(settings);
    let t = settings.get("checkTime");
    let mut energy = Chart::new("Total energy over time", "time (s)", "total energy (J)");
    let mut errors = Chart::new(
        "Energy error at the check time against the substep size",
        "substep h (s)",
        "|E₀ − Ē(T)| / releasable energy",
    );
    errors.log_x = true;
    errors.log_y = true;
    for trial in trials {
        energy
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
    }
    if let Some(start) = trials.first().and_then(|t| t.samples.first()) {
        let at_rest = start[1] - scale;
        energy.series.push(Series {
            label: "at rest: the exact equilibrium's energy".into(),
            points: vec![[0.0, at_rest], [settings.get("duration"), at_rest]],
        });
    }
    let ranking = Ranking::of(
        trials
            .iter()
            .map(|trial| {
                let h = settings.get("timeStep") / trial.key;
                (h, error_at(trial, t, scale))
            })
            .collect(),
    );
    errors.series.push(Series {
        label: format!("at T = {}", quantity(t, "s")),
        points: ranking.relative.iter().map(|&(h, e)| [h, e]).collect(),
    });
    let (relative, best, stops) = (&ranking.relative, ranking.best, ranking.stops);
    Report::new(
        vec![energy, errors],
        table(settings, trials, scale),
        vec![
            ("releasableEnergy", scale),
            ("errorOneSubstep", relative[0].1),
            ("bestError", relative[best].1),
            ("bestSubsteps", trials[best].key),
            ("stopsHelpingAt", stops.map_or(f64::NAN, |i| trials[i].key)),
            ("equilibriumStretch", setup::equilibrium_stretch(settings)),
        ],
        verdict(settings, trials, scale, &ranking),
    )
}
