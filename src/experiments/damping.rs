//! Constraint damping β: energy decay against β.

use super::measure::total_energy;
use super::setup::{self, hanging_trial};
use super::words::{number, quantity, quantity_to};
use super::{
    mean_after, series, Cell, Change, Chart, Choice, Definition, Report, Setting, Settings, Status,
    Table, Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// The β values swept: 0, the report's value and these, up to `maxDamping`.
const BETAS: [f64; 8] = [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0, 1e4, 1e5];
/// A damped run's total energy may rise above its start by at most this
/// fraction of the releasable energy more than the undamped run's does:
/// damping can only take energy away.
pub const MAX_GAIN: f64 = 0.01;
/// Late total energies closer than this fraction of the releasable energy
/// count as equal (both at rest): far above single precision's rounding of
/// the total energy (about 1e-5 J at the defaults), far below any visible
/// motion.
pub const EQUAL: f64 = 1e-4;

pub(super) static DEFINITION: Definition = Definition {
    id: "damping",
    title: "Constraint damping β: energy decay",
    claim: "Constraint damping β removes the energy of stretching motions, and more of it the larger β is.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3.5 (damping, with β̃ = h²β)",
    method: "A cloth held by its two top corners is released in its rest shape and swings and bounces without velocity damping, once for each β, from 0 past where the claim breaks; one β is the report's β̃ converted to this project's units, β = β̃/h². Measured: the total energy (kinetic + gravitational + elastic) over time, its mean over the last quarter of the run, and how far it ever rises above its start, against the releasable energy E₀ − E_eq (the start's total energy less that of the exact static equilibrium, Newton's method in f64: the most the cloth can lose by coming to rest).",
    rule: "Holds when every step up in β leaves less total energy over the last quarter than the step before (closer than 1e-4 of the releasable energy counts as equal: both at rest) and no damped run's total energy rises above its start by more than 1 % of the releasable energy beyond what the undamped run's does (damping can only remove energy; 1 % is well above round-off and well below what a user would notice). In part when it holds up to some β and breaks beyond; does not hold when the first step up already breaks it. The iteration count is a choice: a converged step cannot add energy, but each Δλ is divided by 1 + γ (γ = αβ/h), so a fixed number of sweeps converges less as β grows; the verdict is checked with ten times the iterations, and a break that goes away there is too few iterations, not damping.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        setup::ITERATIONS,
        Setting { name: "maxDamping", label: "Largest β", unit: "N·s/m", min: 0.01, max: 1e6, whole: false, default: 1e5 },
        Setting { name: "reportBetaTilde", label: "The report's β̃ = h²β", unit: "N·s³/m", min: 0.0, max: 1.0, whole: false, default: 3e-8 },
        setup::DURATION,
    ],
    key: "breaksAtBeta",
    choices: &[
        Choice::run(
            &["iterations"],
            "the iteration count",
            Change::Times(10.0),
            "A converged step is backward Euler with a dashpot and cannot add energy; each Δλ is divided by 1 + γ (γ = αβ/h), so a fixed number of sweeps converges less as β grows: energy that damping seems to add with fewer iterations is too few iterations, not damping.",
            "As β grows, raise the iterations with it (γ = αβ/h of 10 needs many more sweeps than γ of 1): a converged step never adds energy.",
        ),
        setup::TWICE_THE_TIME,
    ],
    explain: Some(explain),
    prepare: Some(setup::prepare_hanging),
    build,
    report,
};

/// The report's β̃ in N·s/m: β = β̃/h².
fn report_beta(settings: &Settings) -> f64 {
    let h = settings.get("timeStep");
    settings.get("reportBetaTilde") / (h * h)
}

fn betas(settings: &Settings) -> Vec<f64> {
    let max = settings.get("maxDamping");
    let mut betas = vec![0.0];
    betas.extend(BETAS.iter().copied().filter(|&b| b < max));
    betas.push(max);
    let report = report_beta(settings);
    if report > 0.0 && report < max {
        betas.push(report);
    }
    betas.sort_by(f64::total_cmp);
    betas.dedup();
    betas
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    betas(settings)
        .into_iter()
        .map(|beta| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                damping: beta,
                iterations: settings.count("iterations"),
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                ..Params::default()
            };
            hanging_trial(
                settings,
                format!("β = {} N·s/m", number(beta)),
                beta,
                params,
                Box::new(|c| vec![c.time(), c.kinetic_energy(), total_energy(c)]),
            )
        })
        .collect()
}

/// What each run shows: late total energy and its highest rise above its start.
struct Energies {
    late: Vec<f64>,
    rise: Vec<f64>,
}

fn energies(settings: &Settings, trials: &[Trial]) -> Energies {
    let late = 0.75 * settings.get("duration");
    Energies {
        late: trials
            .iter()
            .map(|t| mean_after(&t.samples, 2, late))
            .collect(),
        rise: trials
            .iter()
            .map(|t| {
                let start = t.samples.first().map_or(f64::NAN, |r| r[2]);
                t.samples.iter().map(|r| r[2] - start).fold(0.0, f64::max)
            })
            .collect(),
    }
}

/// The index of the first β (from 1) that breaks the rule, if any: it leaves
/// more late total energy than the β before (beyond [`EQUAL`]), or its total
/// energy rises more than [`MAX_GAIN`] beyond the undamped run's rise.
fn first_break(e: &Energies, scale: f64) -> Option<usize> {
    (1..e.late.len()).find(|&i| e.late[i] > e.late[i - 1] + EQUAL * scale || rises(e, i, scale))
}

/// Whether run `i`'s total energy rose above its start more than
/// [`MAX_GAIN`] of the releasable energy `scale` beyond the undamped run's.
fn rises(e: &Energies, i: usize, scale: f64) -> bool {
    e.rise[i] - e.rise[0] > MAX_GAIN * scale
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let e = energies(settings, trials);
    let mut chart = Chart::new("Total energy over time", "time (s)", "total energy (J)");
    let mut kinetic = Chart::new("Kinetic energy over time", "time (s)", "kinetic energy (J)");
    let mut table = Table {
        columns: vec![
            "β (N·s/m)".into(),
            "γ = αβ/h".into(),
            "late total energy (J)".into(),
            "late kinetic energy (J)".into(),
            "highest rise above the start (J)".into(),
        ],
        rows: Vec::new(),
    };
    let (h, k) = (settings.get("timeStep"), settings.get("stiffness"));
    for (i, trial) in trials.iter().enumerate() {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 2));
        kinetic
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        table.rows.push(vec![
            Cell::Number(trial.key),
            Cell::Number(trial.key / (k * h)),
            Cell::Number(e.late[i]),
            Cell::Number(mean_after(
                &trial.samples,
                1,
                0.75 * settings.get("duration"),
            )),
            Cell::Number(e.rise[i]),
        ]);
    }
    let scale = setup::releasable_energy(settings);
    let broken = first_break(&e, scale);
    let status = match broken {
        None => Status::Holds,
        Some(1) => Status::DoesNotHold,
        Some(_) => Status::Partly,
    };
    let report = report_beta(settings);
    let report_index = trials.iter().position(|t| t.key == report);
    let report_effect = report_index.map_or(f64::NAN, |i| e.late[i] - e.late[0]);
    let text = verdict_text(status, trials, &e, broken, scale, report, report_effect);
    let advice = match broken {
        None => "Raise β to calm stretching vibrations; any value in the range tried only removes energy.".to_string(),
        Some(i) => format!(
            "With {} iterations keep β below {} N·s/m (γ = αβ/h below {}). {}",
            settings.count("iterations"),
            number(trials[i].key),
            number(trials[i].key / (k * h)),
            report_beta_words(settings),
        ),
    };
    let start = trials
        .first()
        .and_then(|t| t.samples.first())
        .map_or(f64::NAN, |r| r[2]);
    Report::new(
        vec![chart, kinetic],
        table,
        vec![
            ("undampedEnergy", e.late[0]),
            ("mostDampedEnergy", *e.late.last().unwrap_or(&f64::NAN)),
            ("breaksAtBeta", broken.map_or(f64::NAN, |i| trials[i].key)),
            ("reportBeta", report),
            ("reportBetaEffect", report_effect),
            ("releasableEnergy", scale),
            ("equilibriumEnergy", start - scale),
            ("riseAtBreak", broken.map_or(f64::NAN, |i| e.rise[i])),
        ],
        Verdict::new(status, text, advice),
    )
}

fn verdict_text(
    status: Status,
    trials: &[Trial],
    e: &Energies,
    broken: Option<usize>,
    scale: f64,
    report: f64,
    report_effect: f64,
) -> String {
    let last = e.late.len() - 1;
    let held = match broken {
        None => format!(
            "every step up in β, to {} N·s/m, leaves less total energy over the last quarter ({} undamped, {} at the largest β) and none rises above its start",
            number(trials[last].key),
            quantity_to(e.late[0], 4, "J"),
            quantity_to(e.late[last], 4, "J"),
        ),
        Some(i) if rises(e, i, scale) => format!(
            "up to β = {} N·s/m each step up leaves less total energy over the last quarter, but at β = {} N·s/m the late total energy is {} against {} one step below and it rises {:.2} % of the {} the cloth can release above its start (the undamped run: {:.2} %): with these iterations the step puts energy in",
            number(trials[i - 1].key),
            number(trials[i].key),
            quantity_to(e.late[i], 4, "J"),
            quantity_to(e.late[i - 1], 4, "J"),
            100.0 * e.rise[i] / scale,
            quantity(scale, "J"),
            100.0 * e.rise[0] / scale,
        ),
        Some(i) => format!(
            "up to β = {} N·s/m each step up leaves less total energy over the last quarter, but at β = {} N·s/m the late total energy is {} against {} one step below, though it never rises above its start: the stronger dashpot slows the stretching it damps, and the cloth has not come down as far (overdamped)",
            number(trials[i - 1].key),
            number(trials[i].key),
            quantity_to(e.late[i], 4, "J"),
            quantity_to(e.late[i - 1], 4, "J"),
        ),
    };
    format!(
        "{}: {held}. The report's β̃ = h²β corresponds to β = {} N·s/m at this time step; it changes the late total energy by {}.",
        status.name(),
        number(report),
        quantity(report_effect, "J"),
    )
}

/// The report's β̃ in this project's units, for the advice.
fn report_beta_words(settings: &Settings) -> String {
    format!(
        "The report's β̃ = {} N·s³/m means β = {} N·s/m here, far too small to notice.",
        number(settings.get("reportBetaTilde")),
        number(report_beta(settings)),
    )
}

/// What ten times the iterations shows of the break: at the β where the
/// run's energy rose, the converged run's rise and late energy, and where
/// that run breaks, if at all; the advice then says the break is the
/// iterations'.
fn explain(settings: &Settings, report: &mut Report) {
    let (breaks, scale) = (
        report.number("breaksAtBeta"),
        report.number("releasableEnergy"),
    );
    let rose = report.number("riseAtBreak") > MAX_GAIN * scale;
    let Some(check) = report
        .checks
        .iter()
        .find(|c| c.settings == ["iterations"] && c.status.is_some())
    else {
        return;
    };
    let row = check
        .table
        .rows
        .iter()
        .find(|r| matches!(r[0], Cell::Number(b) if b == breaks));
    let (Some(row), true) = (row, rose) else {
        return;
    };
    let cell = |i: usize| match row[i] {
        Cell::Number(v) => v,
        Cell::Text(_) => f64::NAN,
    };
    let (late, rise) = (cell(2), cell(4));
    if rise > MAX_GAIN * scale {
        return;
    }
    let (n, more) = (settings.count("iterations"), check.perturbed);
    let moved = check.number("breaksAtBeta");
    let gamma = breaks / (settings.get("stiffness") * settings.get("timeStep"));
    let there = if moved.is_nan() {
        "there every step up in β removes energy".to_string()
    } else if check.number("riseAtBreak") > MAX_GAIN * scale {
        format!("there the claim breaks only at β = {} N·s/m", number(moved))
    } else {
        format!(
            "there the claim breaks only at β = {} N·s/m, where the overdamped cloth has not come down as far by the last quarter but never rises above its start",
            number(moved)
        )
    };
    let equilibrium = report.number("equilibriumEnergy");
    let Some(verdict) = report.verdict.as_mut() else {
        return;
    };
    verdict.text += &format!(
        " With ten times the iterations ({more}) the run at β = {} N·s/m rises {} and ends at {} (the exact equilibrium's energy is {}): the energy it gained with {n} iterations is too few iterations for γ = {}, not damping (each Δλ is divided by 1 + γ, so a fixed number of sweeps converges less as β grows; a converged step cannot add energy), and {there}.",
        number(breaks),
        quantity(rise, "J"),
        quantity_to(late, 5, "J"),
        quantity_to(equilibrium, 5, "J"),
        number(gamma),
    );
    verdict.advice = format!(
        "The rise is too few iterations, not damping: with {n} iterations keep β below {} N·s/m (γ = αβ/h below {}), or raise the iterations with β ({more} carry it to {}). {}",
        number(breaks),
        number(gamma),
        if moved.is_nan() { "every β tried".to_string() } else { format!("{} N·s/m", number(moved)) },
        report_beta_words(settings),
    );
}
