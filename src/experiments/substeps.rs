//! Substeps without damping: does the cloth explode?

use super::measure::total_energy;
use super::setup;
use super::{
    series, Cell, Chart, Definition, Report, Setting, Settings, Status, Table, Trial, Verdict,
};
use crate::error::ClothError;

/// The substep counts tried, up to `maxSubsteps` (and it); 1 is the reference
/// the others are compared with.
const COUNTS: [u32; 5] = [1, 5, 10, 20, 50];
/// A run "explodes" when it diverges, or when its total energy (kinetic,
/// gravitational and elastic) rises above where it started by more than this
/// fraction of the releasable energy `E₀ − E_eq` (all the energy in play).
pub const ENERGY_GAIN: f64 = 1.0;

pub(super) static DEFINITION: Definition = Definition {
    id: "substeps",
    title: "Substeps without damping",
    claim: "A student who implemented substeps without any damping saw the solver explode.",
    source: "the course notes (an anecdote from the students' exercises); the stability argument is Macklin et al., \"Small Steps in Physics Simulation\" (2019), section 3",
    method: "A cloth held by its two top corners is released in its rest shape with 1 iteration and more and more substeps (1 substep is the reference), and no damping of any kind. Measured: the total energy (kinetic + gravitational + elastic ½k(l − L)²) over time, how far it rises above its start, against the releasable energy E₀ − E_eq (the start's total energy less that of the exact static equilibrium, Newton's method in f64: all the energy in play), the largest stretch, and whether a step diverged.",
    rule: "Explodes (the claim holds) when a run with more than one substep diverges or its total energy rises above its start by more than the releasable energy itself. An explosion grows without bound, so any run that explodes passes that mark, while a bounded rise below it is an energy error of the integrator, not an explosion; the table shows that error for every substep count, since an undamped system whose energy rises at all is not keeping its energy.",
    settings: &[
        setup::WIDTH,
        setup::HEIGHT,
        Setting { name: "stiffness", label: "Stiffness", unit: "N/m, 0 = rigid", min: 0.0, max: 1e12, whole: false, default: 1000.0 },
        setup::MASS,
        setup::TIME_STEP,
        Setting { name: "maxSubsteps", label: "Most substeps", unit: "", min: 2.0, max: 100.0, whole: true, default: 50.0 },
        Setting { name: "duration", label: "Simulated time", unit: "s", min: 0.5, max: 30.0, whole: false, default: 5.0 },
        setup::ORDER,
    ],
    key: "worstEnergyGain",
    choices: &[setup::TWICE_THE_TIME, setup::THE_OTHER_ORDER],
    explain: None,
    prepare: Some(setup::prepare_hanging),
    build,
    report,
};

fn build(settings: &Settings) -> Result<Vec<Trial>, ClothError> {
    setup::substep_trials(settings, &COUNTS, || {
        Box::new(|c| vec![c.time(), total_energy(c), c.max_stretch()])
    })
}

/// What the total energy did when nothing exploded: its rise with the fewest
/// substeps beyond one (`fewest`) and with the most, as fractions (`gains`,
/// one per run, 1 substep first).
fn not_kept(gains: &[f64], fewest: f64, most: f64) -> String {
    let (fewest_gain, most_gain) = (
        gains.get(1).copied().unwrap_or(f64::NAN),
        gains.last().copied().unwrap_or(f64::NAN),
    );
    format!(
        " It does not simply keep its energy either: counting the elastic energy, the total rises above its start by {:.2} % with {fewest} substeps and {:.2} % with {most} (1 substep: {:.2} %), a bounded error of one iteration per substep that {} as substeps grow.",
        100.0 * fewest_gain,
        100.0 * most_gain,
        100.0 * gains.first().copied().unwrap_or(f64::NAN),
        if most_gain < fewest_gain { "shrinks" } else { "does not shrink" },
    )
}

fn report(settings: &Settings, trials: &[Trial]) -> Report {
    let mut chart = Chart::new(
        "Total energy (kinetic + gravitational + elastic) over time",
        "time (s)",
        "energy (J)",
    );
    let mut table = Table {
        columns: vec![
            "substeps".into(),
            "start energy (J)".into(),
            "highest energy (J)".into(),
            "lowest energy (J)".into(),
            "energy gained (% of the releasable energy)".into(),
            "largest stretch (%)".into(),
            "diverged".into(),
        ],
        rows: Vec::new(),
    };
    let scale = setup::releasable_energy(settings);
    let mut worst_gain = f64::NEG_INFINITY; // over the runs with substeps
    let mut gains = Vec::new();
    let mut exploded = Vec::new();
    for trial in trials {
        chart
            .series
            .push(series(trial.label.clone(), &trial.samples, 1));
        let start = trial.samples.first().map_or(f64::NAN, |row| row[1]);
        let (lowest, highest) = trial
            .samples
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), row| {
                (lo.min(row[1]), hi.max(row[1]))
            });
        let stretch = trial.samples.iter().map(|row| row[2]).fold(0.0, f64::max);
        let gain = (highest - start) / scale;
        gains.push(gain);
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
    let (fewest_gain, most_gain) = (
        gains.get(1).copied().unwrap_or(f64::NAN),
        gains.last().copied().unwrap_or(f64::NAN),
    );
    let fewest = trials.get(1).map_or(f64::NAN, |t| t.key);
    let mut verdict = verdict(&exploded, most, worst_gain, scale);
    if exploded.is_empty() {
        verdict.text.push_str(&not_kept(&gains, fewest, most));
    }
    Report::new(
        vec![chart],
        table,
        vec![
            ("worstEnergyGain", worst_gain),
            ("gainFewestSubsteps", fewest_gain),
            ("gainMostSubsteps", most_gain),
            ("gainOneSubstep", gains.first().copied().unwrap_or(f64::NAN)),
            ("exploded", exploded.len() as f64),
            ("releasableEnergy", scale),
        ],
        verdict,
    )
}

/// The verdict: the runs with more than one substep (up to `most`) that
/// `exploded`, and the worst energy gain of them, as a fraction of the
/// `scale` joules the cloth can release.
fn verdict(exploded: &[f64], most: f64, worst_gain: f64, scale: f64) -> Verdict {
    let (status, text) = if exploded.is_empty() {
        (
            Status::DoesNotHold,
            format!(
                "does not explode here: with 2 to {most} substeps and no damping no run diverged and the total energy never rose more than {:.2} % of the {scale:.2} J the cloth can release above where it started (the limit is {:.0} %). Each substep predicts, solves its constraints implicitly with its own α̃ = α/h² and multipliers reset to 0, and takes its velocities from the positions, so no stiffness makes it unstable.",
                100.0 * worst_gain.max(0.0),
                100.0 * ENERGY_GAIN,
            ),
        )
    } else {
        (
            Status::Holds,
            format!(
                "explodes here with {} substeps: the run diverged or its total energy rose more than {:.0} % of the {scale:.2} J the cloth can release (worst: {:.1} %).",
                exploded.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                100.0 * ENERGY_GAIN,
                100.0 * worst_gain,
            ),
        )
    };
    let advice = if exploded.is_empty() {
        "Substeps need no damping to stay stable here; add a little (velocity damping or β) only if you want the motion to die out."
    } else {
        "Add damping (velocity damping or β) before raising the substeps."
    };
    Verdict::new(status, text, advice)
}
