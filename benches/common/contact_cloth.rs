//! The cloth with contacts that `benches/step.rs` times and
//! `examples/contact_steps.rs` counts instructions of.

use xpbd_cloth::model::Shape;
use xpbd_cloth::{Cloth, FixedPreset, GridSize};

/// A 100 × 100 cloth with self-collision hanging from two corners, stepped
/// 300 times onto a circle below it (contacts every substep).
pub fn contact_cloth() -> Cloth {
    let size = GridSize {
        width: 100,
        height: 100,
    };
    let mut cloth = Cloth::new(size, FixedPreset::Two);
    cloth.set_self_collision(true).unwrap();
    let circle = Shape::Circle {
        x: 9.9,
        y: -24.0,
        radius: 3.0,
    };
    cloth.add_collider(circle).unwrap();
    for _ in 0..300 {
        cloth.step();
    }
    cloth
}
