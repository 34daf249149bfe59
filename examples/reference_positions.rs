//! Prints, as JSON, the particle positions of the native (scalar) crate after a
//! number of steps, each f32 as its bit pattern: what a browser build must
//! reproduce bit for bit. The end-to-end test of the scalar wasm build runs it.
//!
//!   cargo run --example reference_positions -- WIDTH HEIGHT FIXED ORDER STEPS
//!
//! ORDER is `original` or `colored`.

use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: reference_positions WIDTH HEIGHT FIXED ORDER STEPS";
    if args.len() != 5 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let whole = |i: usize| -> usize {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("{usage}: {} is not a whole number", args[i]);
            std::process::exit(2)
        })
    };
    let size = GridSize::new(whole(0), whole(1)).unwrap_or_else(|e| fail(e));
    let preset = FixedPreset::from_count(whole(2)).unwrap_or_else(|e| fail(e));
    let order = match args[3].as_str() {
        "original" => SolverOrder::Original,
        "colored" => SolverOrder::Colored,
        other => fail(format!("ORDER must be original or colored, got {other}")),
    };
    let mut cloth = Cloth::new(size, preset);
    cloth.set_solver_order(order).unwrap_or_else(|e| fail(e));
    cloth.steps(whole(4) as u32).unwrap_or_else(|e| fail(e));
    let bits: Vec<String> = cloth
        .positions()
        .iter()
        .map(|p| p.to_bits().to_string())
        .collect();
    println!("[{}]", bits.join(","));
}

fn fail(error: impl std::fmt::Display) -> ! {
    eprintln!("reference_positions: {error}");
    std::process::exit(1)
}
