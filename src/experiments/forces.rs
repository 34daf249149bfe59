//! Forces from multipliers: `constraintForces()` (−λ/h²) of a settled,
//! statically indeterminate cloth against the forces of its exact static
//! equilibrium, `k·C_eq`, with iterations and with substeps.
//!
//! A chain hanging from one pin would not do: it is statically determinate,
//! so at rest whatever λ the solve leaves carries the weight below each link,
//! right or wrong. A cloth of rows, columns and diagonals shares its weight
//! between links by their stretches, which only a converged solve gets right.

use std::cell::OnceCell;
use std::rc::Rc;

use super::setup::{self, hanging_trial};
use super::words::{number, quantity};
use super::{
    mean_after, Cell, Change, Chart, Choice, Definition, Report, Series, Setting, Settings, Status,
    Table, Trial, Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Params;

/// Every link's force may differ from its equilibrium force by at most this
/// fraction of the largest equilibrium tension (full scale, as a force
/// meter's accuracy is quoted) for the forces to be "the constraint forces".
pub const MAX_ERROR: f64 = 0.01;

/// The finest force single precision can resolve in a run, as a share of the
/// largest equilibrium tension `full_scale`, known before it runs: one
/// rounding of a coordinate (at most `ε·extent`) read as a force through the
/// compliant solve, `ε·extent/(w h² + α)`, where `w` is the smallest inverse
/// mass sum of a pair (the largest force per rounding) and `α = 1/k`.
pub fn f32_resolution(extent: f64, w: f64, h: f64, stiffness: f64, full_scale: f64) -> f64 {
    f32::EPSILON as f64 * extent / (w * h * h + 1.0 / stiffness) / full_scale
}

/// The substep counts tried (with the `substepIterations` setting), up to
/// `maxSubsteps`.
const SUBSTEPS: [u32; 6] = [2, 5, 10, 20, 50, 100];

pub(super) static DEFINITION: Definition = Definition {
    id: "forces",
    title: "Forces from multipliers",
    claim: "The Lagrange multipliers give the constraint forces: f = ∇Cᵀλ/Δt², so a simulation reads its forces (for tearing, sound or sensors) from the λ it already has.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3 (the multiplier as force) and section 6; this project's constraintForces()",
    method: "A compliant cloth held by its two top corners settles (velocity damping). It is statically indeterminate: rows, columns and both diagonals share its weight by their stretches, so its forces are right only where the solve is. Each link's force from its multiplier, constraintForces() = −λ/h², is compared with its force in the exact static equilibrium, k·C_eq = k(l_eq − L) (Newton's method in f64). Once with n iterations per step, then with a few iterations and more and more substeps (h = Δt/substeps). Measured: the largest difference over the links, as a share of the largest equilibrium tension, over the last quarter of the run; beside it the largest k·(C + α̃λ), the residual the iterations left (the force against the link's own k·C), and, computed before the run, how finely single precision resolves the run (one rounding of a coordinate as a force, and against a substep's fall under gravity).",
    rule: "First, before any step, each run's f32 resolution, the coarser of two: one rounding of a coordinate, ε·extent, read as a force through the compliant solve, ε·extent/(w h² + α) (w the smallest inverse-mass sum of a pair, α = 1/k), against the largest equilibrium tension; and the same rounding against a substep's fall under gravity, ε·extent/(g h²), the motion the prediction adds to a resting particle and the solve takes back. A run whose resolution is coarser than 1 % is reported apart, as beyond f32, and does not judge. Of the other runs: holds when every link's force is within 1 % of the largest tension of its equilibrium force (1 % of full scale: a force meter's accuracy) in every run; in part when in some runs; does not hold when in none.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m", min: 1.0, max: 1e9, whole: false, default: 1000.0 },
        setup::MASS,
        Setting { name: "timeStep", label: "Time step", unit: "s", min: 4e-3, max: 0.05, whole: false, default: 0.0167 },
        Setting { name: "iterations", label: "Iterations n of the first run", unit: "", min: 1.0, max: 1000.0, whole: true, default: 20.0 },
        Setting { name: "substepIterations", label: "Iterations per substep of the others", unit: "", min: 1.0, max: 1000.0, whole: true, default: 1.0 },
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 20.0 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 4.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 8.0 },
    ],
    key: "worstError",
    choices: &[
        Choice::run(
            &["iterations", "substepIterations"],
            "the iteration count",
            Change::Times(10.0),
            "A verdict that changes with ten times the iterations (of every run) rests on a solve that had not converged: the forces are only as right as the solve.",
            "Read forces only from a converged solve: raise the iterations, or use substeps small enough that α̃ = α/h² is far above the inverse masses.",
        ),
        setup::TWICE_THE_TIME,
    ],
    explain: None,
    prepare: Some(setup::prepare_hanging),
    build,
    report,
};

/// The runs: (iterations, substeps).
fn runs(settings: &Settings) -> Vec<(u32, u32)> {
    let max = settings.count("maxSubsteps");
    let each = settings.count("substepIterations");
    let mut runs = vec![(settings.count("iterations"), 1)];
    runs.extend(SUBSTEPS.iter().filter(|&&s| s < max).map(|&s| (each, s)));
    runs.push((each, max));
    runs.dedup();
    runs
}

/// The largest difference of the links' forces from their equilibrium
/// forces, and the largest `|−λ/h² − k·C|` (the force against the link's own
/// stretch: `k` times the residual), both as shares of the largest
/// equilibrium tension.
fn errors(cloth: &mut Cloth, exact: &[f64], full_scale: f64) -> (f64, f64) {
    let k = cloth.params().stiffness;
    let (x, ids, rest) = (
        cloth.positions().to_vec(),
        cloth.constraint_ids().to_vec(),
        cloth.rest_lengths().to_vec(),
    );
    let forces = cloth.constraint_forces();
    let (mut against_exact, mut against_own) = (0.0f64, 0.0f64);
    for ((&f, pair), (&rest, &exact)) in forces
        .iter()
        .zip(ids.chunks_exact(2))
        .zip(rest.iter().zip(exact))
    {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let l =
            (x[2 * a] as f64 - x[2 * b] as f64).hypot(x[2 * a + 1] as f64 - x[2 * b + 1] as f64);
        let own = k * (l - rest as f64);
        against_exact = against_exact.max((f as f64 - exact).abs());
        against_own = against_own.max((f as f64 - own).abs());
    }
    (against_exact / full_scale, against_own / full_scale)
}

/// The equilibrium's forces and their largest magnitude (the full scale),
/// read once, by the first probe: building the trials (what checking the
/// settings does) stays cheap, and the Newton solve is the run's preparation
/// ([`setup::prepare_hanging`]), in pieces before its trials, not part of
/// the page's check of its settings.
type Exact = Rc<OnceCell<(Vec<f64>, f64)>>;

fn exact_forces<'a>(settings: &Settings, exact: &'a Exact) -> &'a (Vec<f64>, f64) {
    exact.get_or_init(|| {
        let forces = setup::hanging(settings).map_or_else(Vec::new, |h| h.forces());
        let full_scale = forces.iter().fold(0.0f64, |m, f| m.max(f.abs()));
        (forces, full_scale)
    })
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let exact: Exact = Rc::new(OnceCell::new());
    runs(settings)
        .into_iter()
        .map(|(iterations, substeps)| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                iterations,
                substeps,
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let label = format!(
                "{} × {}",
                super::words::count(iterations, "iteration", "iterations"),
                super::words::count(substeps, "substep", "substeps")
            );
            let (exact, settings_of_probe) = (exact.clone(), settings.clone());
            hanging_trial(
                settings,
                label,
                substeps as f64,
                params,
                Box::new(move |c| {
                    let (forces, full_scale) = exact_forces(&settings_of_probe, &exact);
                    let (exact, own) = errors(c, forces, *full_scale);
                    vec![c.time(), exact, own]
                }),
            )
        })
        .collect()
}

/// What a run measured: its largest force error, the residual's share, and
/// its f32 resolution.
struct Outcome<'a> {
    label: &'a str,
    h: f64,
    error: f64,
    residual: f64,
    resolution: f64,
}

impl Outcome<'_> {
    /// Whether single precision can judge the claim in this run.
    fn judged(&self) -> bool {
        self.resolution <= MAX_ERROR
    }
}

/// The smallest and largest of `values`, NaN for none.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::NAN, f64::NAN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

fn labels<'a>(runs: impl Iterator<Item = &'a Outcome<'a>>) -> String {
    runs.map(|o| o.label).collect::<Vec<_>>().join(", ")
}

/// The status over the runs f32 can judge.
fn status(outcomes: &[Outcome]) -> Status {
    let judged: Vec<&Outcome> = outcomes.iter().filter(|o| o.judged()).collect();
    let within = judged.iter().filter(|o| o.error <= MAX_ERROR).count();
    if judged.is_empty() || within == 0 {
        Status::DoesNotHold
    } else if within == judged.len() {
        Status::Holds
    } else {
        Status::Partly
    }
}

/// The verdict's words: the first run, the substep runs, those beyond f32.
fn verdict_text(status: Status, outcomes: &[Outcome], full_scale: f64) -> String {
    let substeps = || outcomes[1..].iter().filter(|o| o.judged());
    let (lo, hi) = range(substeps().map(|o| o.error));
    let within = labels(
        outcomes
            .iter()
            .filter(|o| o.judged() && o.error <= MAX_ERROR),
    );
    let beyond_one = labels(
        outcomes
            .iter()
            .filter(|o| o.judged() && o.error > MAX_ERROR),
    );
    let mut text = format!(
        "{}: against the exact equilibrium's forces (the largest tension {}), the forces from the multipliers are off by up to {} % of it with {}, and {} % to {} % with substeps. Within 1 %: {}; beyond: {}. Against each link's own k·C, the residual the iterations left, −λ/h² differs by up to {} % with {}.",
        status.name(),
        quantity(full_scale, "N"),
        number(100.0 * outcomes[0].error),
        outcomes[0].label,
        number(100.0 * lo),
        number(100.0 * hi),
        if within.is_empty() { "none".into() } else { within },
        if beyond_one.is_empty() { "none".into() } else { beyond_one },
        number(100.0 * outcomes[0].residual),
        outcomes[0].label,
    );
    let beyond: Vec<&Outcome> = outcomes.iter().filter(|o| !o.judged()).collect();
    if !beyond.is_empty() {
        let (r_lo, r_hi) = range(beyond.iter().map(|o| o.resolution));
        text += &format!(
            " Beyond f32, not judged: {}, where single precision resolves only {} % to {} % (one rounding of a coordinate against a substep's fall under gravity, or read as a force).",
            labels(beyond.iter().copied()),
            number(100.0 * r_lo),
            number(100.0 * r_hi),
        );
    }
    text
}

fn chart(settings: &Settings, outcomes: &[Outcome]) -> Chart {
    let mut chart = Chart::new(
        "Largest force error against the substep size",
        "substep h (s)",
        "error / largest equilibrium tension",
    );
    chart.log_x = true;
    chart.log_y = true;
    let points = |y: &dyn Fn(&Outcome) -> f64| {
        outcomes[1..]
            .iter()
            .map(|o| [o.h, y(o)])
            .collect::<Vec<_>>()
    };
    let series = [
        ("substeps: against the equilibrium", points(&|o| o.error)),
        (
            "substeps: against the link's own k·C",
            points(&|o| o.residual),
        ),
        ("f32 resolution", points(&|o| o.resolution)),
        (
            "iterations: against the equilibrium",
            vec![[settings.get("timeStep"), outcomes[0].error]],
        ),
    ];
    chart.series = series
        .into_iter()
        .map(|(label, points)| Series {
            label: label.into(),
            points,
        })
        .collect();
    chart
}

fn table(outcomes: &[Outcome]) -> Table {
    Table {
        columns: vec![
            "run".into(),
            "substep h (s)".into(),
            "largest error against the equilibrium (% of the largest tension)".into(),
            "largest −λ/h² − k·C (%)".into(),
            "f32 resolution (%)".into(),
            "judged".into(),
        ],
        rows: outcomes
            .iter()
            .map(|o| {
                vec![
                    Cell::Text(o.label.to_string()),
                    Cell::Number(o.h),
                    Cell::Number(100.0 * o.error),
                    Cell::Number(100.0 * o.residual),
                    Cell::Number(100.0 * o.resolution),
                    Cell::Text(if o.judged() { "yes" } else { "no: beyond f32" }.into()),
                ]
            })
            .collect(),
    }
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late = 0.75 * settings.get("duration");
    let exact = setup::hanging(settings);
    let full_scale = exact.as_ref().map_or(f64::NAN, |e| {
        e.forces().iter().fold(0.0f64, |m, f| m.max(f.abs()))
    });
    let extent = 0.2 * (settings.get("width").max(settings.get("height")) - 1.0);
    // a pair with one end pinned has the smallest inverse-mass sum
    let w = 1.0 / settings.get("mass");
    let outcomes: Vec<Outcome> = trials
        .iter()
        .map(|trial| {
            let h = settings.get("timeStep") / trial.key;
            Outcome {
                label: &trial.label,
                h,
                error: mean_after(&trial.samples, 1, late),
                residual: mean_after(&trial.samples, 2, late),
                resolution: f32_resolution(extent, w, h, settings.get("stiffness"), full_scale)
                    .max(setup::fall_resolution(extent, h)),
            }
        })
        .collect();
    let status = status(&outcomes);
    let text = verdict_text(status, &outcomes, full_scale);
    let advice = if status == Status::Holds {
        "Read forces from constraintForces(): here they are the equilibrium's within 1 % of the largest tension."
    } else {
        "Forces from constraintForces() are only as right as the solve: read them from settings whose error the table shows under 1 %."
    };
    let (judged, beyond): (Vec<&Outcome>, Vec<&Outcome>) =
        outcomes.iter().partition(|o| o.judged());
    let numbers = vec![
        ("iterationsError", outcomes[0].error),
        ("worstError", range(judged.iter().map(|o| o.error)).1),
        ("bestError", range(judged.iter().map(|o| o.error)).0),
        ("iterationsResidual", outcomes[0].residual),
        ("largestTension", full_scale),
        ("beyondF32Runs", beyond.len() as f64),
    ];
    Report::new(
        vec![chart(settings, &outcomes)],
        table(&outcomes),
        numbers,
        Verdict::new(status, text, advice),
    )
}
