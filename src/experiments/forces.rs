//! Forces from multipliers: `constraintForces()` (−λ/h²) of a hanging chain
//! against its analytic tension, with iterations and with substeps.

use super::chain::Chain;
use super::setup::steps_for;
use super::{
    mean_after, words, Cell, Chart, Definition, Report, Series, Setting, Settings, Status, Table,
    Trial, Verdict,
};
use crate::cloth::Cloth;
use crate::error::ClothError;
use crate::params::Params;

/// Every link's force may differ from its analytic tension by at most this
/// fraction for the forces to be "the constraint forces".
pub const MAX_ERROR: f64 = 0.01;

/// The finest relative force single precision can resolve in a run, known
/// before it runs: one rounding of a coordinate of the chain (at most
/// `ε·extent`, the chain's extent being its length from the pin at the
/// origin) read as a force through `m/h²`, against the smallest tension, one
/// particle's weight `m·g`: `ε·extent/(g·h²)`. Where it exceeds
/// [`MAX_ERROR`], the format cannot tell a 1 % error from a correct force, so
/// the run cannot judge the claim in f32.
pub fn f32_resolution(extent: f64, gravity: f64, h: f64) -> f64 {
    f32::EPSILON as f64 * extent / (gravity.abs() * h * h)
}

/// The substep counts tried (one iteration each), up to `maxSubsteps`.
const SUBSTEPS: [u32; 6] = [2, 5, 10, 20, 50, 100];

pub(super) static DEFINITION: Definition = Definition {
    id: "forces",
    title: "Forces from multipliers",
    claim: "The Lagrange multipliers give the constraint forces: f = ∇Cᵀλ/Δt², so a simulation reads its forces (for tearing, sound or sensors) from the λ it already has.",
    source: "Macklin, Müller and Chentanez, \"XPBD: Position-Based Simulation of Compliant Constrained Dynamics\" (2016), section 3 (the multiplier as force) and section 6; this project's constraintForces()",
    method: "A chain hangs straight down from a pin and settles (velocity damping). Each link's force from its multiplier, constraintForces() = −λ/h², is compared with the analytic tension: the weight of the particles below it. Once with n iterations per step, then with 1 iteration and more and more substeps (h = Δt/substeps). Measured: the largest relative error over the links, over the last quarter of the run, and beside it, computed before the run, what one rounding of a coordinate stands for as a force: ε·length·m/h², against the lightest link's tension m·g.",
    rule: "First, before any step, each run's f32 resolution: one rounding of a coordinate, ε·length, read as a force through m/h² against the lightest link's tension m·g, ε·length/(g·h²). A run whose resolution is coarser than 1 % cannot tell a 1 % error from a right force in single precision: it is reported apart, as beyond f32, and does not judge the claim. Of the other runs: holds when every link's force is within 1 % of its analytic tension (1 %: a force meter's accuracy, and far above what a converged solve leaves); in part when some runs are and others are not; does not hold when none is.",
    settings: &[
        Setting { name: "links", label: "Links", unit: "", min: 1.0, max: 100.0, whole: true, default: 10.0 },
        Setting { name: "mass", label: "Mass per particle", unit: "kg", min: 1e-4, max: 100.0, whole: false, default: 0.05 },
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e9, whole: false, default: 0.0 },
        Setting { name: "timeStep", label: "Time step", unit: "s", min: 4e-3, max: 0.05, whole: false, default: 0.0167 },
        Setting { name: "work", label: "Iterations n", unit: "", min: 1.0, max: 100.0, whole: true, default: 20.0 },
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 100.0 },
        Setting { name: "velocityDamping", label: "Velocity damping", unit: "1/s", min: 0.0, max: 100.0, whole: false, default: 5.0 },
        Setting { name: "duration", label: "Simulated time per run", unit: "s", min: 0.5, max: 20.0, whole: false, default: 5.0 },
    ],
    build,
    report,
};

/// The runs: (iterations, substeps).
fn runs(settings: &Settings) -> Vec<(u32, u32)> {
    let max = settings.count("maxSubsteps");
    let mut runs = vec![(settings.count("work"), 1)];
    runs.extend(SUBSTEPS.iter().filter(|&&s| s < max).map(|&s| (1, s)));
    runs.push((1, max));
    runs.dedup();
    runs
}

/// The largest relative error of the links' forces against the weight
/// below each, for a chain of `links` links of `mass` particles.
fn largest_error(cloth: &mut Cloth, links: usize, mass: f64) -> f64 {
    let g = -cloth.params().gravity;
    let ids = cloth.constraint_ids().to_vec();
    let forces = cloth.constraint_forces();
    forces
        .iter()
        .zip(ids.chunks_exact(2))
        .map(|(&f, pair)| {
            let top = pair[0].min(pair[1]) as usize;
            let tension = (links - top) as f64 * mass * g;
            (f as f64 - tension).abs() / tension
        })
        .fold(0.0, f64::max)
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    let chain = Chain {
        links: settings.count("links") as usize,
        link: 0.1,
        mass: settings.get("mass"),
        span: None,
    };
    let dt = settings.get("timeStep");
    runs(settings)
        .into_iter()
        .map(|(iterations, substeps)| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                mass: chain.mass,
                time_step: dt,
                iterations,
                substeps,
                velocity_damping: settings.get("velocityDamping"),
                ..Params::default()
            };
            let label = format!(
                "{iterations} iteration{} × {substeps} substep{}",
                plural(iterations),
                plural(substeps)
            );
            let (links, mass) = (chain.links, chain.mass);
            Ok(Trial::new(
                label,
                substeps as f64,
                chain.cloth(params)?,
                steps_for(settings.get("duration"), dt),
                Box::new(move |c| vec![c.time(), largest_error(c, links, mass)]),
            ))
        })
        .collect()
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What a run measured: its largest force error and its f32 resolution.
struct Outcome<'a> {
    label: &'a str,
    h: f64,
    error: f64,
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

/// The status over the runs f32 can judge (the iterations run always is:
/// the time step's range keeps its resolution under 1 %).
fn status(outcomes: &[Outcome]) -> Status {
    let judged: Vec<&Outcome> = outcomes.iter().filter(|o| o.judged()).collect();
    let within = judged.iter().filter(|o| o.error <= MAX_ERROR).count();
    if within == judged.len() {
        Status::Holds
    } else if within > 0 {
        Status::Partly
    } else {
        Status::DoesNotHold
    }
}

/// The verdict's words: the judged runs, then those beyond f32.
fn verdict_text(status: Status, outcomes: &[Outcome], smallest_h: f64) -> String {
    let judged = || outcomes[1..].iter().filter(|o| o.judged());
    let beyond: Vec<&Outcome> = outcomes.iter().filter(|o| !o.judged()).collect();
    let (lo, hi) = range(judged().map(|o| o.error));
    let substeps = if judged().count() == 0 {
        "no substep count is within f32's resolution here".to_string()
    } else {
        format!(
            "with substeps it is {:.3} % to {:.3} %",
            100.0 * lo,
            100.0 * hi
        )
    };
    let failing = labels(
        outcomes
            .iter()
            .filter(|o| o.judged() && o.error > MAX_ERROR),
    );
    let mut text = format!(
        "{}: with {} the largest error is {:.3} %; {substeps}{}. Single precision resolves a force to 1 % down to a substep of {} s.",
        status.name(),
        outcomes[0].label,
        100.0 * outcomes[0].error,
        if failing.is_empty() { String::new() } else { format!(" (beyond 1 % with {failing})") },
        words::number(smallest_h),
    );
    if !beyond.is_empty() {
        let (r_lo, r_hi) = range(beyond.iter().map(|o| o.resolution));
        let (e_lo, e_hi) = range(beyond.iter().map(|o| o.error));
        let bounded = beyond.iter().all(|o| o.error <= o.resolution);
        text += &format!(
            " Beyond f32, not judged: {}, where one rounding of a coordinate is already {:.3} % to {:.3} % of the lightest link's tension; their errors, {:.3} % to {:.3} %, are {} that bound.",
            labels(beyond.iter().copied()),
            100.0 * r_lo,
            100.0 * r_hi,
            100.0 * e_lo,
            100.0 * e_hi,
            if bounded { "within" } else { "not all within" },
        );
    }
    text
}

fn chart(settings: &Settings, outcomes: &[Outcome]) -> Chart {
    let mut chart = Chart::new(
        "Largest force error against the substep size",
        "substep h (s)",
        "largest relative error",
    );
    chart.log_x = true;
    chart.log_y = true;
    let points = |keep: &dyn Fn(&Outcome) -> bool, y: &dyn Fn(&Outcome) -> f64| {
        outcomes[1..]
            .iter()
            .filter(|o| keep(o))
            .map(|o| [o.h, y(o)])
            .collect::<Vec<_>>()
    };
    let series = [
        ("substeps, judged", points(&|o| o.judged(), &|o| o.error)),
        (
            "substeps, beyond f32",
            points(&|o| !o.judged(), &|o| o.error),
        ),
        (
            "f32 resolution ε·length/(g·h²)",
            points(&|_| true, &|o| o.resolution),
        ),
        (
            "iterations, measured",
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
            "largest error (%)".into(),
            "f32 resolution ε·length/(g h²) (%)".into(),
            "judged".into(),
        ],
        rows: outcomes
            .iter()
            .map(|o| {
                vec![
                    Cell::Text(o.label.to_string()),
                    Cell::Number(o.h),
                    Cell::Number(100.0 * o.error),
                    Cell::Number(100.0 * o.resolution),
                    Cell::Text(if o.judged() { "yes" } else { "no: beyond f32" }.into()),
                ]
            })
            .collect(),
    }
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let late = 0.75 * settings.get("duration");
    let extent = 0.1 * settings.get("links");
    let gravity = Params::default().gravity;
    let outcomes: Vec<Outcome> = trials
        .iter()
        .map(|trial| {
            let h = settings.get("timeStep") / trial.key;
            Outcome {
                label: &trial.label,
                h,
                error: mean_after(&trial.samples, 1, late),
                resolution: f32_resolution(extent, gravity, h),
            }
        })
        .collect();
    // the h at which ε·extent/(g·h²) is exactly MAX_ERROR
    let smallest_h = (f32::EPSILON as f64 * extent / (gravity.abs() * MAX_ERROR)).sqrt();
    let status = status(&outcomes);
    let text = verdict_text(status, &outcomes, smallest_h);
    let advice = format!(
        "Read forces from constraintForces() with iterations, or with substeps no smaller than {} s for this chain (ε·length/(g·h²) under 1 %); below that single precision, not XPBD, makes them noisy: add iterations rather than substeps when you need forces.",
        words::number(smallest_h)
    );
    let (judged, beyond): (Vec<&Outcome>, Vec<&Outcome>) =
        outcomes[1..].iter().partition(|o| o.judged());
    let numbers = vec![
        ("iterationsError", outcomes[0].error),
        ("worstSubstepError", range(judged.iter().map(|o| o.error)).1),
        ("bestSubstepError", range(judged.iter().map(|o| o.error)).0),
        (
            "worstBeyondF32Error",
            range(beyond.iter().map(|o| o.error)).1,
        ),
        ("beyondF32Runs", beyond.len() as f64),
        ("smallestResolvedSubstep", smallest_h),
    ];
    Report {
        charts: vec![chart(settings, &outcomes)],
        table: table(&outcomes),
        numbers,
        verdict: Some(Verdict {
            status,
            text,
            advice,
        }),
    }
}
