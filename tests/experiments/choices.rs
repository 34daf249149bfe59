//! Every experiment's declared choices are checked: one test per experiment
//! asserts that each perturbation of each choice ran at the defaults (its
//! setting perturbed as declared, its own trials stepped where it runs
//! them, a verdict and a key number), and that a verdict reads "depends on"
//! exactly the choices whose perturbation changed its status. Then how a
//! perturbation that cannot run is reported, and the JSON.

use xpbd_cloth::experiments::{Change, Definition};

use super::*;

/// The perturbed values of `definition`'s choices at its defaults, in the
/// order the run checks them: (setting, value).
fn expected_perturbations(d: &Definition) -> Vec<(&'static str, f64)> {
    let defaults = d.defaults();
    let mut out = Vec::new();
    for choice in d.choices {
        let name = choice.settings[0];
        let value = defaults.get(name);
        match choice.change {
            Change::Times(f) => out.push((name, value * f)),
            Change::Values(values) => {
                out.extend(values.iter().filter(|&&v| v != value).map(|&v| (name, v)))
            }
            Change::Other => out.push((name, 1.0 - value)),
        }
    }
    out
}

fn every_choice_is_checked(id: &str) {
    let d = definition(id).unwrap();
    assert!(!d.choices.is_empty(), "{id} declares its choices");
    assert!(
        !d.key.is_empty() && d.settings.iter().all(|s| s.name != d.key),
        "{id}: a key number"
    );
    let report = default_report(id);
    let (status, message) = verdict(&report);
    assert!(
        report.numbers.iter().any(|(n, _)| *n == d.key),
        "{id}: key {}",
        d.key
    );
    let expected = expected_perturbations(d);
    assert_eq!(
        report.checks.len(),
        expected.len(),
        "{id}: {:?}",
        report.checks
    );
    for (c, (setting, value)) in report.checks.iter().zip(&expected) {
        assert_eq!(c.settings[0], *setting, "{id}");
        assert!(
            (c.perturbed - value).abs() <= 1e-12 * value.abs(),
            "{id}: {} perturbed to {}, declared {value}",
            setting,
            c.perturbed
        );
        assert!(
            c.note.is_empty(),
            "{id}: {} did not run: {}",
            c.perturbation,
            c.note
        );
        assert!(
            c.status.is_some(),
            "{id}: {} has no verdict",
            c.perturbation
        );
        assert!(
            !c.table.rows.is_empty(),
            "{id}: {} measured nothing",
            c.perturbation
        );
        assert!(!c.numbers.is_empty(), "{id}: {}", c.perturbation);
        println!(
            "{id}: {} → {} ({} = {}); the run: {} ({})",
            c.perturbation,
            c.status.unwrap().name(),
            d.key,
            c.key,
            status.name(),
            report.number(d.key)
        );
    }
    // "depends on" names exactly the choices whose check changed the status
    let mut flipped: Vec<&str> = Vec::new();
    for choice in d.choices {
        if report
            .checks
            .iter()
            .any(|c| c.choice == choice.name && c.flips(status))
        {
            flipped.push(choice.name);
        }
    }
    let v = report.verdict.as_ref().unwrap();
    assert_eq!(v.depends_on, flipped, "{id}: {message}");
    for name in &flipped {
        assert!(
            v.text.contains(&format!("It depends on {name}: ")),
            "{id}: {}",
            v.text
        );
    }
    // a check that runs trials of its own ran them: the run builds more
    // trials than its own, each stepped to its end by the time it is done
    let runs_trials = d.choices.iter().any(|c| !c.measure_only);
    let run = d.start(d.defaults()).unwrap();
    assert_eq!(
        run.trials().len() > run.own_trials().len(),
        runs_trials,
        "{id}: {} trials, {} its own",
        run.trials().len(),
        run.own_trials().len()
    );
}

macro_rules! every_choice_is_checked {
    ($($test:ident: $id:literal,)*) => {
        $(
            #[test]
            fn $test() {
                every_choice_is_checked($id);
            }
        )*
        #[test]
        fn every_experiment_has_its_perturbation_test() {
            let tested = [$($id),*];
            for d in definitions() {
                assert!(tested.contains(&d.id), "{} has no test of its choices", d.id);
            }
        }
    };
}

every_choice_is_checked! {
    every_choice_is_checked_iterations: "iterations",
    every_choice_is_checked_time_step: "time-step",
    every_choice_is_checked_cord: "cord",
    every_choice_is_checked_hanging: "hanging",
    every_choice_is_checked_damping: "damping",
    every_choice_is_checked_convergence: "convergence",
    every_choice_is_checked_bending: "bending",
    every_choice_is_checked_substeps: "substeps",
    every_choice_is_checked_equilibrium: "equilibrium",
    every_choice_is_checked_forces: "forces",
    every_choice_is_checked_spin: "spin",
    every_choice_is_checked_momentum: "momentum",
    every_choice_is_checked_long_run: "long-run",
    every_choice_is_checked_equal_cost: "equal-cost",
    every_choice_is_checked_four_solvers: "four-solvers",
    every_choice_is_checked_box_stack: "box-stack",
}

#[test]
fn a_perturbation_that_cannot_run_says_why_and_judges_nothing() {
    // out of its setting's range: the cord's longest run, twice
    let d = definition("cord").unwrap();
    let run = d.start(d.settings(&[("duration", 60.0)]).unwrap()).unwrap();
    let planned = run.planned_checks();
    let longer = planned
        .iter()
        .find(|(words, _)| words.starts_with("twice the simulated time"))
        .unwrap();
    let reason = longer.1.as_deref().expect("not run");
    assert!(reason.starts_with("invalid duration: got 120"), "{reason}");
    // past the work a run may take: ten times 100 iterations of the time
    // step's sweep (its own run fits; the check would not)
    let d = definition("time-step").unwrap();
    let run = d
        .start(d.settings(&[("iterations", 100.0)]).unwrap())
        .unwrap();
    let planned = run.planned_checks();
    let reason = planned[0].1.as_deref().expect("not run");
    assert!(
        reason.starts_with("not run: its trials would take"),
        "{reason}"
    );
    assert!(run.trials().len() >= run.own_trials().len());
    // such a check, once the run is done, has no status and its note
    let d = definition("cord").unwrap();
    let report = d.run(d.settings(&[("duration", 60.0)]).unwrap()).unwrap();
    let c = check(&report, "duration");
    assert_eq!(c.status, None);
    assert!(
        c.key.is_nan() && c.note.starts_with("invalid duration"),
        "{c:?}"
    );
    assert!(!c.flips(report.verdict.as_ref().unwrap().status));
}

#[test]
fn the_checks_and_what_a_verdict_depends_on_are_in_the_json() {
    let report = default_report("convergence");
    let json = report.to_json();
    assert!(
        json.contains("\"dependsOn\":[\"the residual level\"]"),
        "{json}"
    );
    assert!(
        json.contains("\"checks\":[{\"choice\":\"the residual level\""),
        "{json}"
    );
    assert!(json.contains("\"flips\":true"), "{json}");
    let definitions = xpbd_cloth::experiments::definitions_json();
    assert!(
        definitions.contains("\"key\":\"factor\",\"choices\":[{\"settings\":[\"level\"],\"name\":\"the residual level\",\"change\":{\"values\":[0.01,0.0001,1e-5]},\"measureOnly\":true"),
        "{definitions}"
    );
}
