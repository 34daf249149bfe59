//! A stack of boxes: substeps against iterations at equal solves, its key
//! number against an independent rigid-body stacker in f64.

use super::*;

#[test]
fn a_stack_of_boxes_substeps_against_iterations() {
    let (report, status, message) = printed_report("box-stack");
    for c in &report.checks {
        println!(
            "check: {} → {:?} ({}) {}",
            c.perturbation, c.status, c.key, c.note
        );
    }
    let _ = (status, message);
}
