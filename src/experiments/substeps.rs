//! Substeps without damping: does the cloth explode?

use super::setup::{self, hanging_trial};
use super::{
    series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial, Verdict,
};
use crate::error::ClothError;
use crate::params::Params;

/// The substep counts tried, up to `maxSubsteps` (and it); 1 is the reference
/// the others are compared with.
const COUNTS: [u32; 5] = [1, 5, 10, 20, 50];
/// A run "explodes" when it diverges, or when its kinetic and gravitational
/// energy rise above where they started by more than this fraction of the
/// energy gravity can release (the drop of every free particle to the bottom
/// row's depth). The elastic energy is left out: with one iteration a stiff
/// constraint is not fully solved, and `½kC²` of its leftover error is no
/// energy the cloth has; without it the sum is a lower bound of the energy,
/// so a rise means energy was created.
pub const ENERGY_GAIN: f64 = 0.1;

/// What the result means for someone choosing settings.
const ADVICE: &str = "Substeps without damping are stable here: you may use them freely, and add damping only for the look you want.";

pub(super) static DEFINITION: Definition = Definition {
    id: "substeps",
    title: "Substeps without damping",
    claim: "A student who implemented substeps without any damping saw the solver explode.",
    source: "the course notes (an anecdote from the students' exercises); the stability argument is Macklin et al., \"Small Steps in Physics Simulation\" (2019), section 3",
    method: "A cloth held by its two top corners is released in its rest shape with 1 iteration and more and more substeps (1 substep is the reference), and no damping of any kind. Measured: the kinetic plus gravitational energy over time (a lower bound of the energy: the elastic part is left out), the largest stretch, and whether a step diverged.",
    rule: "A run explodes when it diverges or its kinetic plus gravitational energy rises above its start by more than 10 % of the energy gravity can release; the claim holds when a run with more than one substep explodes.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e12, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 50.0 },
        Setting { name: "duration", label: "Simulated time", unit: "s", min: 0.5, max: 30.0, whole: false, default: 5.0 },
    ],
    build,
    report,
};

fn counts(settings: &Settings) -> Vec<u32> {
    let max = settings.count("maxSubsteps");
    let mut counts: Vec<u32> = COUNTS.iter().copied().filter(|&n| n < max).collect();
    counts.push(max);
    counts
}

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    counts(settings)
        .into_iter()
        .map(|substeps| {
            let params = Params {
                stiffness: settings.get("stiffness"),
                substeps,
                iterations: 1,
                mass: settings.get("mass"),
                time_step: settings.get("timeStep"),
                ..Params::default()
            };
            hanging_trial(
                settings,
                super::words::count(substeps, "substep", "substeps"),
                substeps as f64,
                params,
                Box::new(|c| {
                    vec![
                        c.time(),
                        c.kinetic_energy() + c.potential_energy(),
                        c.max_stretch(),
                    ]
                }),
            )
        })
        .collect()
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let mut chart = Chart::new(
        "Kinetic + gravitational energy over time",
        "time (s)",
        "energy (J)",
    );
    let mut table = Table {
        columns: vec![
            "substeps".into(),
            "start energy (J)".into(),
            "highest energy (J)".into(),
            "lowest energy (J)".into(),
            "energy gained (% of what gravity can release)".into(),
            "largest stretch (%)".into(),
            "diverged".into(),
        ],
        rows: Vec::new(),
    };
    // the energy gravity can release: every free particle dropping to the
    // depth of the bottom row
    let depth = (settings.get("height") - 1.0) * crate::model::grid::SPACING as f64;
    let particles = settings.get("width") * settings.get("height") - 2.0;
    let scale = particles * settings.get("mass") * 9.81 * depth;
    let mut worst_gain = f64::NEG_INFINITY; // over the runs with substeps
    let mut exploded = Vec::new();
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        let start = trial.samples.first().map_or(f64::NAN, |row| row[1]);
        let highest = trial
            .samples
            .iter()
            .map(|row| row[1])
            .fold(f64::NEG_INFINITY, f64::max);
        let lowest = trial
            .samples
            .iter()
            .map(|row| row[1])
            .fold(f64::INFINITY, f64::min);
        let stretch = trial.samples.iter().map(|row| row[2]).fold(0.0, f64::max);
        let gain = (highest - start) / scale;
        // one substep is the reference: the claim is about substepping
        if trial.key > 1.0 {
            worst_gain = worst_gain.max(gain);
            if trial.diverged || gain > ENERGY_GAIN {
                exploded.push(trial.key);
            }
        }
        table.rows.push(vec![
            Cell::Number(trial.key),
            Cell::Number(start),
            Cell::Number(highest),
            Cell::Number(lowest),
            Cell::Number(100.0 * gain),
            Cell::Number(100.0 * stretch),
            Cell::Text(if trial.diverged { "yes" } else { "no" }.into()),
        ]);
    }
    let most = trials.last().map_or(0.0, |t| t.key);
    let verdict = verdict(&exploded, most, worst_gain, scale);
    Report {
        charts: vec![chart],
        table,
        numbers: vec![
            ("worstEnergyGain", worst_gain),
            ("exploded", exploded.len() as f64),
        ],
        verdict: Some(verdict),
    }
}

/// The verdict: the runs with more than one substep (up to `most`) that
/// `exploded`, and the worst energy gain of them, as a fraction of the
/// `scale` joules gravity can release.
fn verdict(exploded: &[f64], most: f64, worst_gain: f64, scale: f64) -> Verdict {
    let (status, text) = if exploded.is_empty() {
        (
            Status::DoesNotHold,
            format!(
                "does not explode here: with 2 to {most} substeps and no damping no run diverged and the kinetic plus gravitational energy never rose more than {:.2} % of the {scale:.2} J gravity can release above where it started (the limit is {:.0} %). Each substep predicts, solves its constraints implicitly with its own α̃ = α/h² and multipliers reset to 0, and takes its velocities from the positions, so no stiffness makes it unstable; undamped, it simply keeps its energy.",
                100.0 * worst_gain.max(0.0),
                100.0 * ENERGY_GAIN,
            ),
        )
    } else {
        (
            Status::Holds,
            format!(
                "explodes here with {} substeps: the run diverged or its kinetic plus gravitational energy rose more than {:.0} % of the {scale:.2} J gravity can release (worst: {:.1} %).",
                exploded.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                100.0 * ENERGY_GAIN,
                100.0 * worst_gain,
            ),
        )
    };
    Verdict {
        status,
        text,
        advice: ADVICE.into(),
    }
}
