//! The checks of bodies given by a scene or added: their number, their
//! particles, their compliance and plasticity (`plasticity.rs`); each
//! refusal names `bodies` and the entry.

use super::outline::thickness;
use super::plasticity::check_plasticity;
use super::{point, MAX_BODIES, MAX_COMPLIANCE, MIN_THICKNESS};
use crate::error::{ClothError, Number, Plain};
use crate::memory;
use crate::model::{BodySpec, Scene};

/// The refusal of the scene's `bodies` (entry `index`, when it is one body's).
fn refuse(index: Option<usize>, problem: String) -> ClothError {
    ClothError::InvalidScene {
        field: "bodies",
        index,
        problem,
    }
}

/// Checks the number of bodies: `count` more on a simulation that has
/// `present`, at most [`MAX_BODIES`] in all.
fn check_body_count(count: usize, present: usize) -> Result<(), ClothError> {
    if present + count > MAX_BODIES {
        let problem = if present == 0 {
            format!("has {count} bodies, at most {MAX_BODIES} are allowed")
        } else {
            format!(
                "would make {} bodies, at most {MAX_BODIES} are allowed",
                present + count
            )
        };
        return Err(refuse(None, problem));
    }
    Ok(())
}

/// Checks the bodies of `scene` (its particles named from 0), to join a
/// simulation that has `present` bodies: their number, then each body's
/// particles (named once, not on one line), compliance and plasticity. The
/// one check of a scene's bodies, whether it is built or added.
#[inline(never)]
pub fn check_scene_bodies(scene: &Scene, present: usize) -> Result<(), ClothError> {
    check_body_count(scene.bodies.len(), present)?;
    let mut taken =
        memory::filled(scene.num_particles(), false).map_err(|_| scene.out_of_memory())?;
    check_bodies(&scene.bodies, &scene.positions, 0, present, &mut taken)
}

/// Checks `specs` (bodies `first_index` on of a scene) of a simulation of `n`
/// particles whose positions are `positions` (indexed from particle `first`:
/// a body may name only particles from `first` on). `taken` has a flag per
/// particle from `first` on, all clear: a particle named by two bodies is
/// refused. Each refusal names `bodies` and the entry.
fn check_bodies(
    specs: &[BodySpec],
    positions: &[f32],
    first: usize,
    first_index: usize,
    taken: &mut [bool],
) -> Result<(), ClothError> {
    let n = first + taken.len();
    for (b, spec) in specs.iter().enumerate() {
        let entry = |problem: String| Err(refuse(Some(first_index + b), problem));
        let count = spec.particles.len();
        if count == 0 {
            return entry("has no particles, expected at least 3 not on one line".into());
        }
        if count < 3 {
            return entry(format!(
                "has {count} particle{}, expected at least 3 not on one line",
                if count == 1 { "" } else { "s" }
            ));
        }
        for &k in &spec.particles {
            if (k as usize) < first || k as usize >= n {
                return entry(format!(
                    "names particle {k}, expected an index from {first} to {}",
                    n - 1
                ));
            }
            let flag = &mut taken[k as usize - first];
            if *flag {
                let twice = spec.particles.iter().filter(|&&j| j == k).count() > 1;
                return entry(if twice {
                    format!("names particle {k} twice")
                } else {
                    format!("names particle {k}, which is in another body: a particle is in one body at most")
                });
            }
            *flag = true;
        }
        let thin = thickness(&spec.particles, |k| point(positions, k as usize - first));
        if thin.is_nan() || thin < MIN_THICKNESS {
            return entry(format!(
                "has all its particles on one line (thickness {} of its length, expected at \
                 least {}): no rotation is defined",
                Number(thin),
                Plain(MIN_THICKNESS)
            ));
        }
        if !(spec.compliance.is_finite() && (0.0..=MAX_COMPLIANCE).contains(&spec.compliance)) {
            return entry(format!(
                "has compliance {}, expected a number from 0 to {} s² (0 = rigid)",
                Number(spec.compliance),
                Plain(MAX_COMPLIANCE)
            ));
        }
        if let Some(plastic) = spec.plastic {
            check_plasticity(&plastic)
                .or_else(|(value, allowed)| entry(format!("has {value}, expected {allowed}")))?;
        }
    }
    Ok(())
}
