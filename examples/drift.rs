//! How far a preset left alone moves sideways: `cargo run --release --example
//! drift -- NAME SECONDS [odd-first] [PARAMETER=NUMBER ...]` steps the
//! preset `NAME` (default `balloon`, dropped as the preset starts) for
//! `SECONDS` (default 120) in each sweep order and prints, every 10 s, the
//! mean x of its particles (metres) and its kinetic energy (joules).
//! `odd-first` creates the distance constraints in the other order (the
//! second half of the list first: for the balloon's ring, its odd edges
//! before its even ones); `PARAMETER=NUMBER` overrides one of the preset's
//! parameters (`velocityDamping=0`: the balloon without its air drag).
use xpbd_cloth::model::presets;
use xpbd_cloth::params::Value;
use xpbd_cloth::{Cloth, SolverOrder};

fn mean_x(cloth: &Cloth) -> f64 {
    let p = cloth.positions();
    let n = p.len() / 2;
    p.chunks_exact(2).map(|q| q[0] as f64).sum::<f64>() / n as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("balloon", |s| s.as_str());
    let seconds: usize = args.get(2).map_or(120, |s| s.parse().expect("seconds"));
    let rest = args.get(3..).unwrap_or_default();
    let odd_first = rest.iter().any(|s| s == "odd-first");
    let overrides: Vec<(String, f64)> = rest
        .iter()
        .filter_map(|s| s.split_once('='))
        .map(|(k, v)| (k.to_string(), v.parse().expect("a number")))
        .collect();
    for order in [SolverOrder::Original, SolverOrder::Colored] {
        let mut preset = presets::preset(name, &[]).expect("a preset name");
        if odd_first {
            let d = &preset.scene.distances;
            let half = d.len() / 4 * 2;
            preset.scene.distances = [&d[half..], &d[..half]].concat();
        }
        let mut cloth = Cloth::from_scene(&preset.scene).unwrap();
        for (parameter, value) in preset.params {
            cloth.set_parameter(parameter, value).unwrap();
        }
        for (parameter, value) in &overrides {
            cloth
                .set_parameter(parameter, Value::Number(*value))
                .unwrap();
        }
        cloth.set_solver_order(order).unwrap();
        let steps = (1.0 / cloth.params().time_step).round() as usize;
        print!("{name} {order:?}: mean x / kinetic energy every 10 s:");
        for second in 1..=seconds {
            for _ in 0..steps {
                cloth.step();
            }
            if second % 10 == 0 {
                print!(" {:.4}/{:.1e}", mean_x(&cloth), cloth.kinetic_energy());
            }
        }
        println!();
    }
}
