//! The 100 × 100 cloth with self-collision falling onto a circle (the contacts
//! line of `cargo bench --bench step`, `benches/common/contact_cloth.rs`), for
//! counting instructions: after its first 300 steps, `measured` steps it `N` more
//! times, `R` rounds (`contact_steps N R`, 20 steps and 1 round by
//! default), and prints the median wall time per step of the rounds.
//!
//! ```sh
//! cargo build --release --example contact_steps
//! # instructions of 20 steps
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured*' \
//!     target/release/examples/contact_steps 20
//! # wall time: the median of 31 rounds of 10 steps
//! target/release/examples/contact_steps 10 31
//! ```
use std::hint::black_box;
use std::time::Instant;

use xpbd_cloth::Cloth;

#[path = "../benches/common/contact_cloth.rs"]
mod contact_cloth;

/// Steps `cloth` `steps` times: what callgrind counts.
#[inline(never)]
fn measured(cloth: &mut Cloth, steps: usize) {
    for _ in 0..steps {
        black_box(&mut *cloth).step();
    }
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |s| s.parse().expect("a whole number"))
    };
    let (steps, rounds) = (arg(1, 20), arg(2, 1));
    let mut cloth = contact_cloth::contact_cloth();
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            measured(&mut cloth, steps);
            start.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let p = cloth.positions();
    println!(
        "{rounds} x {steps} steps: median {:.4} ms/step; particle 5050 at ({}, {})",
        times[times.len() / 2],
        p[10100],
        p[10101]
    );
}
