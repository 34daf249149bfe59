//! Gusts and turbulence: the flag preset keeps fluttering, a steady wind
//! settles, and the same run twice is the same bit for bit.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::params::Value;
use xpbd_cloth::Cloth;

/// Steps of the preset's 0.01 s time step in one simulated second.
const STEPS_PER_SECOND: u32 = 100;

/// What the flag does in its 11th second: the mean kinetic energy (J) and the
/// mean speed of its free corner (m/s, from its displacements every 0.05 s).
fn eleventh_second(options: &[(&str, Value)]) -> (f64, f64) {
    let mut flag = Cloth::from_preset("flag", options).unwrap();
    flag.steps(10 * STEPS_PER_SECOND).unwrap();
    let corner = top_right(&flag);
    let mut energy = 0.0;
    let mut travelled = 0.0;
    let samples = 20;
    for _ in 0..samples {
        let before = position(&flag, corner);
        flag.steps(STEPS_PER_SECOND / samples).unwrap();
        let after = position(&flag, corner);
        travelled += (after[0] - before[0]).hypot(after[1] - before[1]);
        energy += flag.kinetic_energy();
    }
    (energy / samples as f64, travelled)
}

/// The free corner: the particle farthest from the pole (largest x), the top one.
fn top_right(flag: &Cloth) -> usize {
    let p = flag.positions();
    (0..p.len() / 2)
        .max_by(|&a, &b| {
            (p[2 * a], p[2 * a + 1])
                .partial_cmp(&(p[2 * b], p[2 * b + 1]))
                .unwrap()
        })
        .unwrap()
}

fn position(cloth: &Cloth, k: usize) -> [f64; 2] {
    let p = cloth.positions();
    [f64::from(p[2 * k]), f64::from(p[2 * k + 1])]
}

#[test]
fn the_flag_keeps_fluttering_after_ten_seconds() {
    let (energy, speed) = eleventh_second(&[]);
    let calm = [
        ("windGust", Value::Number(0.0)),
        ("windTurbulence", Value::Number(0.0)),
    ];
    let (steady_energy, steady_speed) = eleventh_second(&calm);
    println!(
        "11th second: gusty flag {energy:.4} J, corner {speed:.3} m/s; \
         steady wind {steady_energy:.6} J, corner {steady_speed:.4} m/s"
    );
    // a steady wind gives a still flag (what gusts are for)
    assert!(steady_energy < 1e-3 && steady_speed < 0.01);
    // gusts keep it moving: visibly (half a metre a second at the corner)
    // and with energy a hundred times the steady flag's floor
    assert!(speed > 0.5, "corner speed {speed} m/s");
    assert!(energy > 0.1, "kinetic energy {energy} J");
}

#[test]
fn gusts_are_reproducible() {
    let run = || {
        let mut flag = Cloth::from_preset("flag", &[]).unwrap();
        flag.steps(3 * STEPS_PER_SECOND).unwrap();
        flag.positions().to_vec()
    };
    let (a, b) = (run(), run());
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
}
