//! Plain PBD with a stiffness coefficient `k` (Müller et al. 2007, section
//! 3.3), the method XPBD replaced: each iteration moves every constraint a
//! fraction `k` of the way to its rest length, so after `n` iterations a lone
//! constraint has closed `1 − (1 − k)ⁿ` of its error, and the cloth's
//! stiffness depends on `n` and on the time step.
//!
//! It is built from the solver's own distance solve: with its multiplier at 0
//! and `α̃ = w_sum (1 − k)/k`, XPBD's `Δλ = −(C + α̃λ)/(w_sum + α̃)` is
//! `−k C / w_sum`, PBD's correction scaled by `k`. The multiplier is reset
//! before every solve, which is what makes it PBD.

use super::Stepper;
use crate::cloth::Cloth;
use crate::solver::{damp_velocities, predict, solve_distance, update_velocities, Pair};

/// The effective stiffness coefficient of `iterations` PBD iterations with
/// coefficient `k`: the fraction of a lone constraint's error they remove.
pub fn effective_coefficient(k: f64, iterations: u32) -> f64 {
    1.0 - (1.0 - k).powi(iterations as i32)
}

/// A step of plain PBD with stiffness coefficient `k` (0 < k ≤ 1) on the
/// cloth's particles and constraints, with its time step, iterations, gravity
/// and velocity damping (one substep; bending, contacts and the rest are not
/// run).
pub fn step(k: f64) -> Stepper {
    Box::new(move |cloth: &mut Cloth| {
        let p = cloth.params();
        let h = p.time_step;
        let w = cloth.inverse_masses().to_vec();
        let mut x = cloth.positions().to_vec();
        let mut v = cloth.velocities().to_vec();
        let mut previous = vec![0.0; x.len()];
        predict(
            &mut x,
            &mut previous,
            &mut v,
            &w,
            h as f32,
            p.gravity as f32,
        );
        let pairs: Vec<Pair> = cloth
            .constraint_ids()
            .chunks_exact(2)
            .zip(cloth.rest_lengths())
            .map(|(ids, &rest_length)| Pair {
                a: ids[0] as usize,
                b: ids[1] as usize,
                rest_length,
            })
            .collect();
        let factor = ((1.0 - k) / k) as f32;
        for _ in 0..p.iterations {
            for &pair in &pairs {
                let alpha_tilde = (w[pair.a] + w[pair.b]) * factor;
                solve_distance(x.as_mut_slice(), &w, pair, 0.0, alpha_tilde);
            }
        }
        update_velocities(&x, &previous, &mut v, &w, h as f32);
        if p.velocity_damping > 0.0 {
            damp_velocities(&mut v, p.velocity_damping, h);
        }
        let time = cloth.time() + h;
        // PBD's corrections only shorten each constraint's error, so the
        // state stays bounded; one the cloth refuses (beyond its divergence
        // limit) leaves it where it was, and the probe sees it stop
        let _ = cloth.set_state(&x, &v, time);
    })
}
