//! Bending on and off: a wrinkling measure.

use super::setup::{self, hanging_trial};
use super::{
    mean_after, series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial,
    Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// Bending must leave at most this fraction of the wrinkles without it for
/// the claim to hold.
pub const MAX_RATIO: f64 = 0.5;
/// How far, at most, the `start`-th of the nudged starts moves a particle
/// per start: start `s` moves each free particle's height by up to
/// `s × NUDGE` metres (ten f32 steps of a 2 m coordinate per start).
pub const NUDGE: f64 = 2.5e-6;
/// Turns smaller than this (degrees) are no wrinkle: a 0.2 m segment turning
/// by 1° moves its end 3.5 mm, under a pixel on the page.
pub const DEAD_BAND: f64 = 1.0;

pub(super) static DEFINITION: Definition = Definition {
    id: "bending",
    title: "Bending on and off: wrinkles",
    claim: "Bending constraints remove the small wrinkles a cloth of distance constraints alone shows.",
    source: "the course notes (cloth with bending constraints); Müller, Heidelberger, Hennix and Ratcliff, \"Position Based Dynamics\" (2007), section 4.2",
    method: "A cloth hangs from its two top corners; over the first second its right corner is dragged towards the left one (and pinned there), so the cloth has more width than room and crumples, once without bending constraints and once with them (distance constraints between particles two apart along rows and columns). Where a crumpling cloth buckles is tipped by round-off, so each runs from several nearby starts (every free particle's height moved by up to 2.5e-6 m more per start) and the measures are their mean. Measured: the wrinkles, the number of times each row's curvature changes sign (turns under 1° ignored), per row, averaged over the second half of the run; also the mean angle the rows turn by at each particle, which counts the large-scale curvature the squeeze forces on any cloth.",
    rule: "On the mean over the nearby starts: holds when bending leaves at most half the curvature sign changes per row the cloth has without it (\"removes\": most of the wrinkles go). A smooth drape, however curved, and a single fold have no more than one or two sign changes per row; a wrinkled row has many, so the count tells the two apart where the mean turning angle does not. Turns under 1° are ignored (a 0.2 m segment turning by 1° moves its end 3.5 mm, under a pixel). In part when bending leaves fewer wrinkles but more than half; does not hold when it leaves as many or more.",
    settings: &[
        Setting { name: "width", label: "Width", unit: "particles", min: 3.0, max: 60.0, whole: true, default: 30.0 },
        Setting { name: "height", label: "Height", unit: "particles", min: 3.0, max: 60.0, whole: true, default: 10.0 },
        Setting { name: "squeeze", label: "Corner moved in by", unit: "× width", min: 0.0, max: 0.9, whole: false, default: 0.5 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 1000.0 },
        Setting { name: "bendingStiffness", label: "Bending stiffness", unit: "N/m", min: 1e-3, max: 1e9, whole: false, default: 1000.0 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.5 },
        setup::TIME_STEP,
        Setting { name: "iterations", label: "Iterations", unit: "", min: 1.0, max: 1000.0, whole: true, default: 5.0 },
        setup::DURATION,
        Setting { name: "starts", label: "Nearby starts", unit: "", min: 1.0, max: 10.0, whole: true, default: 5.0 },
        setup::VELOCITY_DAMPING,
        setup::ORDER,
    ],
    key: "ratio",
    choices: &[setup::THE_OTHER_ORDER, setup::TEN_TIMES_THE_ITERATIONS, setup::TWICE_THE_TIME],
    explain: None,
    prepare: None,
    build,
    report,
};

/// The signed angle (radians, counter-clockwise positive) by which row `i` of
/// a `width`-wide grid turns at each of its inner particles.
fn turns(positions: &[f32], width: usize, i: usize) -> impl Iterator<Item = f64> + '_ {
    let at = move |j: usize| {
        let k = i * width + j;
        (positions[2 * k] as f64, positions[2 * k + 1] as f64)
    };
    (1..width - 1).map(move |j| {
        let (a, b, c) = (at(j - 1), at(j), at(j + 1));
        let (ux, uy) = (b.0 - a.0, b.1 - a.1);
        let (vx, vy) = (c.0 - b.0, c.1 - b.1);
        (ux * vy - uy * vx).atan2(ux * vx + uy * vy)
    })
}

/// The wrinkles of a `width × height` grid: how many times each row's
/// curvature changes sign, turns under [`DEAD_BAND`] ignored, per row.
pub fn wrinkles(positions: &[f32], width: usize, height: usize) -> f64 {
    let band = DEAD_BAND.to_radians();
    let mut changes = 0usize;
    for i in 0..height {
        let mut sign = 0.0;
        for turn in turns(positions, width, i).filter(|t| t.abs() >= band) {
            if sign != 0.0 && turn.signum() != sign {
                changes += 1;
            }
            sign = turn.signum();
        }
    }
    changes as f64 / height.max(1) as f64
}

/// The mean angle, in degrees, between consecutive segments of every row of a
/// `width × height` grid: 0 for straight rows, larger the more they bend.
pub fn wrinkling(positions: &[f32], width: usize, height: usize) -> f64 {
    let at = |i: usize, j: usize| {
        let k = i * width + j;
        (positions[2 * k] as f64, positions[2 * k + 1] as f64)
    };
    let turn = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        let (ux, uy) = (b.0 - a.0, b.1 - a.1);
        let (vx, vy) = (c.0 - b.0, c.1 - b.1);
        (ux * vy - uy * vx).atan2(ux * vx + uy * vy).abs()
    };
    let (mut sum, mut count) = (0.0, 0usize);
    for i in 0..height {
        for j in 1..width - 1 {
            sum += turn(at(i, j - 1), at(i, j), at(i, j + 1));
            count += 1;
        }
    }
    if count == 0 {
        0.0
    } else {
        (sum / count as f64).to_degrees()
    }
}

/// How long the corner takes to move in, seconds.
const SQUEEZE_TIME: f64 = 1.0;

/// Drags the top right corner in by `squeeze` × the width over the first
/// [`SQUEEZE_TIME`], then lets go (a pinned corner stays where it is let go).
fn squeeze_driver(settings: &Settings, dt: f64) -> super::Driver {
    let corner = settings.count("width") as usize - 1;
    let x0 = corner as f64 * crate::model::grid::SPACING as f64;
    let squeeze = settings.get("squeeze");
    Box::new(move |c| {
        let t = c.time();
        if t < SQUEEZE_TIME {
            if c.grabbed() != Some(corner) {
                let _ = c.grab(corner);
            }
            let f = ((t + dt) / SQUEEZE_TIME).min(1.0);
            let _ = c.drag(x0 * (1.0 - squeeze * f), 0.0);
        } else if c.grabbed().is_some() {
            c.release();
        }
    })
}

/// Moves every free particle's height by up to `start × NUDGE` metres, a
/// different share of it for each particle (a fixed pattern: start 0 is the
/// rest shape).
fn nudge(cloth: &mut crate::cloth::Cloth, start: u32) -> Result<(), ClothError> {
    let mut positions = cloth.positions().to_vec();
    let free: Vec<bool> = cloth.inverse_masses().iter().map(|&w| w > 0.0).collect();
    for (k, p) in positions.chunks_exact_mut(2).enumerate() {
        if free[k] {
            let share = ((k * 7919) % 13) as f64 / 6.0 - 1.0;
            p[1] = (p[1] as f64 + NUDGE * start as f64 * share) as f32;
        }
    }
    let velocities = cloth.velocities().to_vec();
    let time = cloth.time();
    cloth.set_state(&positions, &velocities, time)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let (width, height) = (settings.count("width"), settings.count("height"));
    let runs = [
        ("bending off", 0.0),
        ("bending on", settings.get("bendingStiffness")),
    ];
    let mut trials = Vec::new();
    for (label, bending) in runs {
        for start in 0..settings.count("starts") {
            let params = Params {
                stiffness: settings.get("stiffness"),
                bending_stiffness: bending,
                iterations: settings.count("iterations"),
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let (w, h) = (width as usize, height as usize);
            let name = if bending > 0.0 {
                format!("{label}, {bending} N/m, start {start}")
            } else {
                format!("{label}, start {start}")
            };
            let mut trial = hanging_trial(
                settings,
                name,
                bending,
                params,
                Box::new(move |c| {
                    let p = c.positions();
                    vec![c.time(), wrinkles(p, w, h), wrinkling(p, w, h)]
                }),
            )?
            .with_driver(squeeze_driver(settings, params.time_step));
            nudge(&mut trial.cloth, start)?;
            trials.push(trial);
        }
    }
    Ok(trials)
}

/// Every row of a trial's cloth at the end, a gap (NaN) between two.
fn rows_series(trial: &Trial, width: usize, height: usize) -> super::Series {
    let p = trial.cloth.positions();
    super::Series {
        label: trial.label.clone(),
        points: (0..height)
            .flat_map(|i| {
                (0..width)
                    .map(move |j| {
                        [
                            p[2 * (i * width + j)] as f64,
                            p[2 * (i * width + j) + 1] as f64,
                        ]
                    })
                    .chain([[f64::NAN, f64::NAN]])
            })
            .collect(),
    }
}

/// The mean, lowest and highest of `values`.
fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, lo, hi)
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let half = settings.get("duration") / 2.0;
    let mut chart = Chart::new(
        "Wrinkles over time",
        "time (s)",
        "curvature sign changes per row",
    );
    let mut shape = Chart::new("The cloth at the end (rows), first start", "x (m)", "y (m)");
    shape.plane = true;
    let mut table = Table {
        columns: vec![
            "run".into(),
            "wrinkles over the second half (sign changes per row)".into(),
            "at the end".into(),
            "mean turning angle over the second half (°)".into(),
        ],
        rows: Vec::new(),
    };
    let (width, height) = (
        settings.count("width") as usize,
        settings.count("height") as usize,
    );
    // per group (off, on): each start's wrinkles and turning angle
    let (mut values, mut angles) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
    for trial in trials {
        let group = usize::from(trial.key > 0.0);
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        if values[group].is_empty() {
            shape.series.push(rows_series(trial, width, height));
        }
        let (value, angle) = (
            mean_after(&trial.samples, 1, half),
            mean_after(&trial.samples, 2, half),
        );
        values[group].push(value);
        angles[group].push(angle);
        table.rows.push(vec![
            Cell::Text(trial.label.clone()),
            Cell::Number(value),
            Cell::Number(trial.samples.last().map_or(f64::NAN, |row| row[1])),
            Cell::Number(angle),
        ]);
    }
    let (off, off_lo, off_hi) = spread(&values[0]);
    let (on, on_lo, on_hi) = spread(&values[1]);
    let angles = [spread(&angles[0]).0, spread(&angles[1]).0];
    for (label, mean, angle) in [
        ("bending off, mean", off, angles[0]),
        ("bending on, mean", on, angles[1]),
    ] {
        table.rows.push(vec![
            Cell::Text(label.into()),
            Cell::Number(mean),
            Cell::Text(String::new()),
            Cell::Number(angle),
        ]);
    }
    let ratio = on / off;
    let verdict = verdict(
        [(off, off_lo, off_hi), (on, on_lo, on_hi)],
        values[0].len(),
        angles,
    );
    Report::new(
        vec![chart, shape],
        table,
        vec![
            ("wrinklesOff", off),
            ("wrinklesOn", on),
            ("wrinklesOffSpread", off_hi - off_lo),
            ("wrinklesOnSpread", on_hi - on_lo),
            ("ratio", ratio),
            ("turningOff", angles[0]),
            ("turningOn", angles[1]),
        ],
        verdict,
    )
}

/// The verdict from the wrinkles without and with bending (mean, lowest and
/// highest over `starts` starts) and the mean turning angles.
fn verdict(wrinkles: [(f64, f64, f64); 2], starts: usize, angles: [f64; 2]) -> Verdict {
    let [(off, off_lo, off_hi), (on, on_lo, on_hi)] = wrinkles;
    let ratio = on / off;
    let status = if ratio <= MAX_RATIO {
        Status::Holds
    } else if ratio < 1.0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    };
    let text = format!(
        "{}: over {starts} nearby starts each row's curvature changes sign {off:.2} times on average without bending ({off_lo:.2} to {off_hi:.2} from start to start) and {on:.2} times with it ({on_lo:.2} to {on_hi:.2}): {:.0} % of it; {} the {:.0} % allowed for \"removes\". The mean turning angle, which also counts the overall curve the squeeze forces on any cloth, is {:.2}° without and {:.2}° with bending.",
        status.name(),
        100.0 * ratio,
        if ratio <= MAX_RATIO { "within" } else { "beyond" },
        100.0 * MAX_RATIO,
        angles[0],
        angles[1],
    );
    let advice = if ratio <= MAX_RATIO {
        "Turn bending on (at or below the cloth's stiffness) for smooth folds instead of small wrinkles."
    } else {
        "Bending here does not smooth the small wrinkles away: keep the bending stiffness at or below the stiffness, and expect folds either way."
    };
    Verdict::new(status, text, advice)
}
