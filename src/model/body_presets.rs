//! The presets with bodies (see [`crate::kinds::bodies`]): a trampoline, a
//! rope bridge of rigid planks, a wrecking ball swung into a curtain, a
//! stack of boxes and a plastic can. Each is built of particles the default
//! particle radius (0.05 m) apart, [`SPACING`], so that every body and cloth
//! is solid to the others' particles, and starts in motion or about to move.

use super::pieces::{Braces, Chain, Count, Heading, Lattice, Piece, Pins};
use super::presets::Description;
use super::scene::Plasticity;
use crate::params;

/// The particles' spacing in these presets: twice the default particle
/// radius, m.
pub const SPACING: f32 = 0.1;

/// A trampoline: a cloth strip 4 m long and three particles deep, pinned at
/// both ends (10 000 N/m, 0.05 kg a particle), with two boxes and a ball
/// falling onto it from different heights; a ground 1.5 m below catches what
/// falls off.
pub const TRAMPOLINE: Description = Description {
    name: "trampoline",
    title: "Trampoline",
    shape: &[],
    pieces: &[
        Piece::Lattice(Lattice {
            columns: Count::Fixed(41),
            rows: Count::Fixed(3),
            spacing: SPACING,
            left: None,
            // the rows go down from y = 0 (negative zero: the first row's y
            // is 0 times the downward step)
            first_row: -0.0,
            row_step: -SPACING,
            lifted: false,
            mass: 0.05,
            pins: Pins::EndColumns,
            braces: Braces::Cross,
            stiffness: None,
        }),
        Piece::Box {
            centre: (-1.0, 1.0),
            size: (4, 4),
            mass: 0.15,
            angle: 0.3,
        },
        Piece::Box {
            centre: (0.9, 1.8),
            size: (3, 3),
            mass: 0.15,
            angle: -0.2,
        },
        Piece::Ball {
            centre: (0.0, 2.6),
            radius: 0.2,
            mass: 0.15,
            tied: false,
        },
        Piece::Ground(-1.5),
    ],
    stiffness: 10_000.0,
    params: &[
        ("substeps", 10.0),
        ("iterations", 4.0),
        ("friction", 0.5),
        ("velocityDamping", 0.3),
    ],
};

/// A rope bridge: six rigid planks (6 × 2 particles, 0.5 m × 0.1 m, 0.2 kg a
/// particle) hinged to each other at their top corners by rope links and to
/// two pinned posts, laid straight so it sags and swings as it starts, and a
/// box falling onto its middle. The links are rigid (stiffness 0).
pub const ROPE_BRIDGE: Description = Description {
    name: "rope-bridge",
    title: "Rope bridge",
    shape: &[],
    pieces: &[
        Piece::Bridge {
            planks: 6,
            plank: 6,
            mass: 0.2,
        },
        Piece::Box {
            centre: (0.0, 1.5),
            size: (3, 3),
            mass: 0.3,
            angle: 0.4,
        },
    ],
    stiffness: 0.0,
    params: &[
        ("substeps", 20.0),
        ("iterations", 2.0),
        ("friction", 0.6),
        ("velocityDamping", 0.3),
    ],
};

/// The wrecking ball's rope: links, and the length of each, m.
const WRECKING_LINKS: usize = 8;
const WRECKING_LINK: f32 = 0.15;
/// The wrecking ball's radius, m.
const WRECKING_RADIUS: f32 = 0.25;

/// A wrecking ball: a rigid disc of radius 0.25 m (19 particles of 2 kg) on
/// a rope of eight 0.15 m links from a pinned pivot, held out level to the
/// left, so it swings down into a curtain (14 × 12 particles, 0.3 kg each,
/// 3000 N/m) hanging from its top row, which tears where it is stretched by
/// 30 %. The rope's links are rigid (stiffness 0) and hardly stretch; what
/// tears is the curtain the ball goes through.
pub const WRECKING_BALL: Description = Description {
    name: "wrecking-ball",
    title: "Wrecking ball",
    shape: &[],
    pieces: &[
        // the pivot and the rope's particles but the last link's end
        Piece::Chain(Chain {
            start: (0.0, 3.0),
            heading: Heading::Left,
            link: WRECKING_LINK,
            count: Count::Fixed(WRECKING_LINKS),
            mass: 0.3,
        }),
        // the last link: tied to the ball's particle nearest the pivot
        Piece::Ball {
            centre: (
                -WRECKING_LINK * WRECKING_LINKS as f32 - WRECKING_RADIUS,
                3.0,
            ),
            radius: WRECKING_RADIUS,
            mass: 2.0,
            tied: true,
        },
        Piece::Lattice(Lattice {
            columns: Count::Fixed(14),
            rows: Count::Fixed(12),
            spacing: SPACING,
            left: Some(0.35),
            first_row: 2.2,
            row_step: -SPACING,
            lifted: false,
            mass: 0.3,
            pins: Pins::FirstRow,
            braces: Braces::None,
            stiffness: Some(3000.0),
        }),
        Piece::Ground(0.0),
    ],
    stiffness: 0.0,
    params: &[
        ("substeps", 20.0),
        ("iterations", 2.0),
        ("tearStretch", 1.3),
        ("velocityDamping", 0.05),
    ],
};

/// How far above its resting place each box of the stack starts, m: they
/// fall into place as it starts.
pub const STACK_GAP: f32 = 0.01;

/// A stack of five boxes (4 × 4 particles, 0.5 kg each) on the ground, each
/// offset by half a spacing from the one below so its bottom row rests in the
/// grooves of the top row below, each starting [`STACK_GAP`] above its
/// resting place. It needs 10 substeps of 2 iterations to stand (see
/// docs/physics.md, "Shape matching").
pub const BOX_STACK: Description = Description {
    name: "box-stack",
    title: "Stack of boxes",
    shape: &[],
    pieces: &[
        Piece::Stack {
            boxes: 5,
            size: 4,
            mass: 0.5,
        },
        Piece::Ground(0.0),
    ],
    stiffness: params::STIFFNESS.default_number(),
    params: &[
        ("substeps", 10.0),
        ("iterations", 2.0),
        ("friction", 0.5),
        ("velocityDamping", 0.3),
    ],
};

/// The plastic can's plasticity (see [`Plasticity`]): it springs back from a
/// deformation of up to 3 % of its RMS radius; beyond that its rest shape
/// takes on 40 times the excess a second (all of it within a few substeps),
/// each particle's up to a quarter of the RMS radius from where it started.
pub const CAN_PLASTICITY: Plasticity = Plasticity {
    yield_strain: 0.03,
    creep: 40.0,
    max: 0.25,
};

/// A plastic can: the wall of a 0.6 m × 0.8 m rectangle of particles (0.1
/// kg each) joined along it (5000 N/m), a soft plastic body (compliance
/// 1e-4 s², [`CAN_PLASTICITY`]) standing on the ground, and a rigid ball of
/// radius 0.2 m (0.5 kg a particle) falling 0.75 m onto its top, off its
/// middle so that it rolls off, leaving a dent of about 0.1 m.
pub const PLASTIC_CAN: Description = Description {
    name: "plastic-can",
    title: "Plastic can",
    shape: &[],
    pieces: &[
        Piece::Can {
            columns: 7,
            rows: 9,
            mass: 0.1,
            compliance: 1e-4,
            plastic: CAN_PLASTICITY,
        },
        Piece::Ball {
            centre: (0.12, 1.6),
            radius: 0.2,
            mass: 0.5,
            tied: false,
        },
        Piece::Ground(0.0),
    ],
    stiffness: 5000.0,
    params: &[
        ("substeps", 20.0),
        ("iterations", 2.0),
        ("friction", 0.4),
        ("velocityDamping", 0.3),
    ],
};

#[cfg(test)]
mod tests {
    use crate::model::presets;

    #[test]
    fn the_wrecking_ball_hangs_from_its_rightmost_particle_and_boxes_are_particle_ranges() {
        let scene = presets::preset("wrecking-ball", &[]).unwrap().scene;
        // the rope's last particle, tied to the ball's rightmost (the last
        // of the rightmost column)
        let end = (super::WRECKING_LINKS - 1) as u32;
        let ball = &scene.bodies[0].particles;
        assert_eq!(ball[0], end + 1);
        let x = |p: u32| scene.positions[2 * p as usize];
        let most = ball.iter().map(|&p| x(p)).fold(f32::MIN, f32::max);
        let rightmost = *ball.iter().rfind(|&&p| x(p) == most).unwrap();
        let ties: Vec<_> = scene
            .distances
            .chunks(2)
            .filter(|c| c.contains(&end) && !c.contains(&(end - 1)))
            .collect();
        assert_eq!(ties, [[end, rightmost]]);
        // every body of the stack and the bridge is a run of particles
        for name in ["box-stack", "rope-bridge", "trampoline", "plastic-can"] {
            let scene = presets::preset(name, &[]).unwrap().scene;
            for body in &scene.bodies {
                let first = body.particles[0];
                let run: Vec<u32> = (first..first + body.particles.len() as u32).collect();
                assert_eq!(body.particles, run, "{name}");
            }
        }
    }
}
