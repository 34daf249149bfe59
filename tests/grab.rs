//! The user's hand: a held particle pulled by a spring of finite stiffness,
//! and a hard pull of the bottom edge of the page's "Try tearing" cloth that
//! rips a line of it while it hangs from its pins.
#![cfg(not(target_arch = "wasm32"))]

use xpbd_cloth::params::Value;
use xpbd_cloth::Cloth;

/// The page's "Try tearing" cloth (its link's values and the page's air drag).
fn try_tearing_cloth() -> Cloth {
    let mut c = Cloth::from_preset("cloth", &[]).unwrap();
    for (name, value) in [
        ("stiffness", Value::Number(100_000.0)),
        ("mass", Value::Number(0.05)),
        ("tearStretch", Value::Number(1.3)),
        ("iterations", Value::Number(10.0)),
        ("tethers", Value::Flag(true)),
        ("velocityDamping", Value::Number(1.5)),
    ] {
        c.set_parameter(name, value).unwrap();
    }
    c
}

/// Constraints (as particle pairs) of `ids`.
fn pairs(ids: &[u32]) -> Vec<(u32, u32)> {
    ids.chunks_exact(2)
        .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
        .collect()
}

/// Pulls particle `k` of `c` straight down in moves of 8 px at 45 px/m
/// (0.18 m) every 6 steps (60 ms), as a hand drags the mouse, until `after`
/// moves past the first tear (at most 60 moves); returns the moves made.
fn pull_down(c: &mut Cloth, k: usize, after: i32) -> usize {
    c.grab(k).unwrap();
    let (x, y) = (c.positions()[2 * k] as f64, c.positions()[2 * k + 1] as f64);
    let (mut since_tear, mut moves) = (-1, 0);
    while moves < 60 && since_tear < after {
        moves += 1;
        c.drag(x, y - moves as f64 * 8.0 / 45.0).unwrap();
        for _ in 0..6 {
            c.step();
        }
        if since_tear >= 0 || c.torn_count() > 0 {
            since_tear += 1;
        }
    }
    moves
}

#[test]
fn a_pull_of_the_bottom_edge_rips_a_line_of_the_cloth_while_it_hangs_from_its_pins() {
    let mut c = try_tearing_cloth();
    let (width, height) = (40, 30);
    let before = pairs(c.constraint_ids());
    for _ in 0..120 {
        c.step();
    }
    assert_eq!(c.torn_count(), 0, "nothing tears as it settles");
    let k = (height - 1) * width + width / 2;
    let moves = pull_down(&mut c, k, 5);
    assert!(moves < 60, "the pull tore the cloth");
    let live = pairs(c.constraint_ids());
    let torn: Vec<_> = before.iter().filter(|p| !live.contains(p)).collect();
    let held = k as u32;
    let away = torn.iter().filter(|p| p.0 != held && p.1 != held).count();
    println!(
        "{} torn after {moves} moves, {away} of them away from the held particle",
        torn.len()
    );
    assert!(
        away >= 5,
        "a line of the cloth tears, not the held particle's own: {torn:?}"
    );
    assert_eq!(away, torn.len(), "the held particle's own constraints hold");
    // the pins still carry the cloth: no constraint of theirs, nor of their
    // neighbours, tore, and the held particle is still below them
    let pins = [0u32, width as u32 - 1];
    let near_pin = |i: u32| {
        pins.iter()
            .any(|&p| (i % 40).abs_diff(p % 40) <= 1 && i / 40 <= 1)
    };
    assert!(
        torn.iter().all(|p| !near_pin(p.0) && !near_pin(p.1)),
        "{torn:?}"
    );
    c.release();
    for _ in 0..100 {
        c.step();
    }
    let ys: Vec<f32> = (0..width * height)
        .map(|i| c.positions()[2 * i + 1])
        .collect();
    let top = ys[0].max(ys[width - 1]);
    let middle = 10 * width + width / 2;
    assert!(
        ys[middle] < top - 1.0,
        "the cloth hangs below its pins: {} against {top}",
        ys[middle]
    );
}

#[test]
fn a_held_corner_follows_the_pointer_within_a_few_centimetres() {
    // the default cloth (heavy and soft: the original's values) with the
    // page's air drag, its free bottom corner pulled up and out 3 m
    let mut c = Cloth::from_preset("cloth", &[]).unwrap();
    c.set_parameter("velocityDamping", Value::Number(1.5))
        .unwrap();
    for _ in 0..500 {
        c.step();
    }
    let k = 29 * 40 + 39;
    c.grab(k).unwrap();
    let (x, y) = (c.positions()[2 * k] as f64, c.positions()[2 * k + 1] as f64);
    for i in 1..=10 {
        c.drag(x + 0.27 * i as f64, y + 0.13 * i as f64).unwrap();
        c.step();
        c.step();
    }
    for _ in 0..50 {
        c.step();
    }
    let p = &c.positions()[2 * k..2 * k + 2];
    let lag = ((p[0] as f64 - x - 2.7).powi(2) + (p[1] as f64 - y - 1.3).powi(2)).sqrt();
    assert!(lag < 0.05, "the corner trails the pointer by {lag} m");
    assert!(lag > 0.0, "a spring, not a teleport");
    assert_eq!(c.grab_target(), Some([(x + 2.7) as f32, (y + 1.3) as f32]));
}
