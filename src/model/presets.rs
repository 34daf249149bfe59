//! The ready-made scenes of `Simulation.preset(name, options)`: the grid cloth,
//! a rope, the three-particle cord, a balloon, a soft body, a flag, a cloth
//! over a ball, and the scenes with bodies of `body_presets.rs` (a
//! trampoline, a rope bridge, a wrecking ball, a stack of boxes, a plastic
//! can).
//!
//! A preset is a [`Description`]: the pieces its scene is made of (see
//! [`pieces`]), laid out by one builder, and the parameter values it runs
//! best with, each chosen once, below, in the preset's own entry. Options are
//! named as the parameter table names them: `width`, `height` and `fixed`
//! shape the scenes they apply to (see [`Description::shape`]), every solver
//! parameter (`stiffness`, `substeps`, `windX`, ...) overrides the preset's
//! choice.

use super::body_presets;
use super::pieces::{
    self, Braces, Chain, Count, Given, GridBending, Heading, Lattice, Piece, Pins, Ring,
};
use super::scene::Scene;
use crate::error::{self, ClothError};
use crate::params::{self, wrong_kind, FixedPreset, GridSize, Parameter, Value};

/// The names of the presets, as `Simulation.preset` takes them (the words of
/// the `preset` parameter).
pub fn names() -> &'static [&'static str] {
    match params::PRESET.rule {
        params::Rule::Words(words) => words,
        _ => &[],
    }
}

/// A preset's scene and the parameter values it sets, by table name (the
/// preset's choices first, then the options, which win).
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// The particles, constraints and colliders.
    pub scene: Scene,
    /// Parameter values to set once the simulation is built, in order.
    pub params: Vec<(&'static str, Value)>,
    /// The grid of the "cloth" preset, which derives its bending pairs when
    /// bending is first switched on, as `new Simulation` does.
    pub grid: Option<GridSize>,
}

impl Preset {
    /// Moves the scene down (or up) so that its lowest particle rests one
    /// default particle radius above the ground at y = 0: a body the preset
    /// drops from the air (the soft body, the balloon) as if it had landed, at
    /// rest, for the checks and experiments about resting bodies.
    pub fn rest_on_ground(&mut self) {
        let radius = params::PARTICLE_RADIUS.default_number() as f32;
        let low = self
            .scene
            .positions
            .chunks_exact(2)
            .map(|p| p[1])
            .fold(f32::INFINITY, f32::min);
        for p in self.scene.positions.chunks_exact_mut(2) {
            p[1] += radius - low;
        }
    }
}

/// A preset as the program keeps it: its names, the options that shape it,
/// the pieces of its scene and its parameter choices.
#[derive(Debug)]
pub struct Description {
    /// Its word, as `Simulation.preset` takes it.
    pub name: &'static str,
    /// Its name for people, as the pages' Scene selects show it (the link
    /// and the API keep the word).
    pub title: &'static str,
    /// Which of the options `width`, `height`, `fixed` shape it, and their
    /// defaults: [`preset`] reads them, and the page and `mountCloth` get
    /// them through `presetShape(name)`.
    pub shape: &'static [(&'static str, f64)],
    /// The pieces of its scene, laid out in order by [`pieces::build`].
    pub pieces: &'static [Piece],
    /// The stiffness of its distance constraints, N/m (where a piece has
    /// none of its own).
    pub stiffness: f64,
    /// The parameter values it chooses, by table name, set in order.
    pub params: &'static [(&'static str, f64)],
}

/// The options a preset's geometry reads; the rest are solver parameters.
struct Shaping<'a> {
    name: &'a str,
    options: &'a [(&'a str, Value)],
    /// Which of `width`, `height`, `fixed` this preset reads (and their defaults).
    reads: &'static [(&'static str, f64)],
}

impl Shaping<'_> {
    /// This preset's default of the shaping option `parameter`, if it reads
    /// it.
    #[inline(never)]
    fn reads(&self, parameter: &Parameter) -> Option<f64> {
        self.reads
            .iter()
            .find(|(n, _)| *n == parameter.name)
            .map(|(_, v)| *v)
    }

    /// The shaping options `width`, `height` and `fixed` as given, or this
    /// preset's defaults (0 for those it does not read), checked in this
    /// order, the grid's size before `fixed`.
    fn counts(&self) -> Result<(usize, usize, FixedPreset), ClothError> {
        // a slice read as data (`black_box`), not a loop unrolled in three
        let shaping: &[&Parameter; 3] = std::hint::black_box(&SHAPING);
        let mut counts = [0; 3];
        for (k, &parameter) in shaping.iter().enumerate() {
            if k == 2 && self.reads(&params::HEIGHT).is_some() {
                GridSize::new(counts[0], counts[1])?;
            }
            if let Some(default) = self.reads(parameter) {
                counts[k] = self.number(parameter, default)? as usize;
            }
        }
        let fixed = match counts[2] {
            0 => FixedPreset::One,
            n => FixedPreset::from_count(n)?,
        };
        Ok((counts[0], counts[1], fixed))
    }

    /// The number `parameter` given as an option (checked by its rule), or
    /// `default`.
    fn number(&self, parameter: &Parameter, default: f64) -> Result<f64, ClothError> {
        match self
            .options
            .iter()
            .rev()
            .find(|(n, _)| *n == parameter.name)
        {
            None => Ok(default),
            Some((_, Value::Number(v))) => parameter.check_number(*v),
            Some((_, other)) => Err(wrong_kind(parameter, *other)),
        }
    }

    /// Refuses an option this preset does not read and that is no solver
    /// parameter.
    fn check_names(&self) -> Result<(), ClothError> {
        for (name, value) in self.options {
            let shaping = self.reads.iter().any(|(n, _)| n == name);
            if shaping || solver_parameter(name).is_some() {
                continue;
            }
            return Err(self.unknown(name, value));
        }
        Ok(())
    }

    /// The refusal of option `name`, which this preset does not read and
    /// which is no solver parameter.
    #[cold]
    #[inline(never)]
    fn unknown(&self, name: &str, value: &Value) -> ClothError {
        // "width, height, fixed, or " (what this preset reads, if anything)
        let mut reads = String::new();
        for (k, (option, _)) in self.reads.iter().enumerate() {
            reads.push_str(option);
            reads.push_str(if k + 1 == self.reads.len() {
                ", or "
            } else {
                ", "
            });
        }
        error::invalid(
            "options",
            format!("{} = {}", error::quoted(name, name.len()), value.shown()),
            format!(
                "for the {} preset: {reads}the name of a solver parameter \
                 (stiffness, substeps, windX, ...)",
                error::quote(self.name)
            ),
        )
    }

    /// The solver parameter options, after the preset's `choices`.
    fn params(&self, choices: &[(&'static str, f64)]) -> Vec<(&'static str, Value)> {
        let mut all = Vec::with_capacity(choices.len() + self.options.len());
        for &(name, value) in choices {
            all.push((name, Value::Number(value)));
        }
        for (name, value) in self.options {
            if let Some(parameter) = solver_parameter(name) {
                all.push((parameter.name, *value));
            }
        }
        all
    }
}

/// The options that shape a preset, in the order they are checked.
const SHAPING: [&Parameter; 3] = [&params::WIDTH, &params::HEIGHT, &params::FIXED];

/// The solver parameter called `name`, if there is one.
#[inline(never)]
fn solver_parameter(name: &str) -> Option<&'static Parameter> {
    params::SOLVER_PARAMETERS
        .iter()
        .copied()
        .find(|p| p.name == name)
}

/// Every preset, in the order of the words of the `preset` parameter.
pub const PRESETS: [&Description; 12] = [
    &CLOTH,
    &ROPE,
    &DOUBLE_PENDULUM,
    &BALLOON,
    &SOFT_BODY,
    &FLAG,
    &CLOTH_OVER_BALL,
    &body_presets::TRAMPOLINE,
    &body_presets::ROPE_BRIDGE,
    &body_presets::WRECKING_BALL,
    &body_presets::BOX_STACK,
    &body_presets::PLASTIC_CAN,
];

/// The preset `name`, if there is one.
fn find(name: &str) -> Option<&'static Description> {
    // a slice read as data (`black_box`), not twelve comparisons unrolled
    let table: &[&Description] = std::hint::black_box(&PRESETS);
    table.iter().copied().find(|d| d.name == name)
}

/// The name for people of preset `name` (`name` itself for a word that is
/// no preset).
pub fn title(name: &str) -> &str {
    find(name).map_or(name, |d| d.title)
}

/// The shaping options of preset `name` and their defaults (none for a name
/// that is no preset).
pub fn shape(name: &str) -> &'static [(&'static str, f64)] {
    find(name).map_or(&[], |d| d.shape)
}

/// The preset `name` with `options` (see the module documentation), or a
/// refusal naming the wrong name or option.
pub fn preset(name: &str, options: &[(&str, Value)]) -> Result<Preset, ClothError> {
    let word = params::PRESET.check_word(name, name.len())?;
    let Some(description) = find(word) else {
        return Err(error::invalid(
            "preset",
            error::quoted(word, word.len()),
            "a preset",
        ));
    };
    let s = Shaping {
        name: word,
        options,
        reads: description.shape,
    };
    let (width, height, fixed) = s.counts()?;
    let radius = || {
        let parameter = &params::PARTICLE_RADIUS;
        s.number(parameter, parameter.default_number())
    };
    let given = Given {
        width,
        height,
        fixed,
        radius: &radius,
    };
    let (scene, grid) = pieces::build(description.pieces, description.stiffness, &given)?;
    s.check_names()?;
    Ok(Preset {
        params: s.params(description.params),
        scene,
        grid,
    })
}

/// The table's default stiffness, N/m: the distance constraints' of the
/// presets that choose none of their own.
const DEFAULT_STIFFNESS: f64 = params::STIFFNESS.default_number();

/// The grid cloth `new Simulation(width, height, fixed)` builds: the
/// original demo's.
pub const CLOTH: Description = Description {
    name: "cloth",
    title: "Cloth",
    shape: &[
        ("width", params::WIDTH.default_number()),
        ("height", params::HEIGHT.default_number()),
        ("fixed", params::FIXED.default_number()),
    ],
    pieces: &[Piece::Grid {
        pins: Pins::Corners,
        bending: GridBending::WhenSwitchedOn,
    }],
    stiffness: DEFAULT_STIFFNESS,
    params: &[],
};

/// A rope of `width` particles (2..=1000) 0.1 m apart, 0.05 kg each, laid
/// out horizontally from its pinned first particle so that it swings down.
/// Stiff (1e5 N/m) with 10 substeps, so it hardly stretches; a light air drag
/// ([`ROPE_AIR_DRAG`]) lets it swing for tens of seconds.
pub const ROPE: Description = Description {
    name: "rope",
    title: "Rope",
    shape: &[("width", 30.0)],
    pieces: &[Piece::Chain(Chain {
        start: (0.0, 0.0),
        heading: Heading::Right,
        link: 0.1,
        count: Count::Width,
        mass: 0.05,
    })],
    stiffness: 1e5,
    params: &[
        ("substeps", 10.0),
        ("iterations", 2.0),
        ("velocityDamping", ROPE_AIR_DRAG),
    ],
};

/// The rope's air drag, 1/s (its `velocityDamping`): a rope 3 m long still
/// swings across metres after 10 s, and comes to rest within about a minute.
pub const ROPE_AIR_DRAG: f64 = 0.1;

/// The cord of the documents: a pivot (pinned) and two free particles of
/// 1 kg on rigid links of 0.5 m, released upright 0.1 rad off vertical, so
/// they fall and swing chaotically. Rigid links (stiffness 0) and 50 small
/// substeps of one iteration each, as the documents solve it, and almost no
/// air ([`PENDULUM_AIR_DRAG`]), so it keeps swinging chaotically.
pub const DOUBLE_PENDULUM: Description = Description {
    name: "double-pendulum",
    title: "Double pendulum",
    shape: &[],
    pieces: &[Piece::Chain(Chain {
        start: (0.0, 0.0),
        heading: Heading::UpLeaning(0.1),
        link: 0.5,
        count: Count::Fixed(3),
        mass: 1.0,
    })],
    stiffness: 0.0,
    params: &[
        ("substeps", 50.0),
        ("iterations", 1.0),
        ("velocityDamping", PENDULUM_AIR_DRAG),
    ],
};

/// The double pendulum's air drag, 1/s (its `velocityDamping`): on its own it
/// would take e^(-2 · 0.01 · 10) = 82 % of the energy above the hanging rest
/// through 10 s; with the small losses of its substeps it keeps about three
/// quarters, and tumbles chaotically for well over a minute.
pub const PENDULUM_AIR_DRAG: f64 = 0.01;

/// A balloon: a ring of `width` particles (3..=1000) of 0.02 kg, its centre
/// 1.5 m above the ground, skin edges of 1000 N/m whose rest lengths are the
/// sides of a ring of radius 0.5 m, and one ring area constraint, rigid,
/// holding 1.5 times the area that ring encloses: the gas. It starts inflated
/// (on a circle √1.5 times larger, the skin stretched as the gas stretches
/// it, the area constraint satisfied), at rest, and drops onto the ground,
/// slowed by air drag (`BALLOON_AIR_DRAG`).
pub const BALLOON: Description = Description {
    name: "balloon",
    title: "Balloon",
    shape: &[("width", 32.0)],
    pieces: &[
        Piece::Ring(Ring {
            count: Count::Width,
            radius: 0.5,
            pressure: 1.5,
            height: 1.5,
            mass: 0.02,
        }),
        Piece::Ground(0.0),
    ],
    stiffness: DEFAULT_STIFFNESS,
    params: &[("substeps", 10.0), ("velocityDamping", BALLOON_AIR_DRAG)],
};

/// The balloon's air drag, 1/s (its `velocityDamping`): the only thing that
/// takes away the ringing of its landing. Its rigid gas and its skin store
/// the impact and give it back, a round ring rolls on flat ground with
/// nothing to resist it, and a sweep's handedness turns that ringing into a
/// roll one way; without drag it rocks for minutes and creeps by metres.
const BALLOON_AIR_DRAG: f64 = 1.0;

/// A soft body: a `width × height` block of particles 0.15 m apart (0.05 kg
/// each), each cell cut into two counter-clockwise triangles with rigid area
/// constraints, joined by its edges and one diagonal (5000 N/m), at rest,
/// its bottom row [`SOFT_BODY_DROP`] above the ground (plus the particle
/// radius the preset runs with): it falls, lands, squashes and springs back,
/// slowed by a light air drag ([`SOFT_BODY_AIR_DRAG`]). A block whose
/// triangles would have more corners than a scene may is refused, naming
/// the width, before anything is built.
pub const SOFT_BODY: Description = Description {
    name: "soft-body",
    title: "Soft body",
    shape: &[("width", 8.0), ("height", 5.0)],
    pieces: &[
        Piece::Lattice(Lattice {
            columns: Count::Width,
            rows: Count::Height,
            spacing: 0.15,
            left: None,
            first_row: SOFT_BODY_DROP,
            row_step: 0.15,
            lifted: true,
            mass: 0.05,
            pins: Pins::None,
            braces: Braces::Triangles,
            stiffness: None,
        }),
        Piece::Ground(0.0),
    ],
    stiffness: 5000.0,
    params: &[("substeps", 10.0), ("velocityDamping", SOFT_BODY_AIR_DRAG)],
};

/// How high the soft body's bottom starts above the ground, in metres.
pub const SOFT_BODY_DROP: f32 = 1.5;

/// The soft body's air drag, 1/s (its `velocityDamping`): its bounces and
/// wobbles die within a few seconds of landing.
pub const SOFT_BODY_AIR_DRAG: f64 = 0.3;

/// A flag: the grid cloth of `width × height` with its whole left column
/// pinned (the pole), bending on (`Bending::Auto`, 50 N/m) and a wind of
/// 8 m/s blowing along it with drag 1 kg/m², gusts of 4 m/s and turbulence of
/// 3 m/s (a steady wind would leave it a still, stretched sheet). A stiffer
/// cloth than the table's (1e4 N/m, 2 substeps: it stretches at most about
/// 35 % in the gusts, where 1000 N/m stretched it by more than its own
/// length; a stiffer one, 3e4 N/m and up, lies so straight along the wind
/// that a wind turned round no longer turns it) and no air drag beyond the
/// wind's own: the wind is the air it moves in.
pub const FLAG: Description = Description {
    name: "flag",
    title: "Flag in the wind",
    shape: &[("width", 24.0), ("height", 14.0)],
    pieces: &[Piece::Grid {
        pins: Pins::FirstColumn,
        bending: GridBending::Auto,
    }],
    stiffness: DEFAULT_STIFFNESS,
    params: &[
        ("bendingStiffness", 50.0),
        ("windX", 8.0),
        ("windDrag", 1.0),
        ("windGust", 4.0),
        ("windTurbulence", 3.0),
        ("stiffness", 1e4),
        ("substeps", 2.0),
        ("velocityDamping", 0.0),
    ],
};

/// The grid cloth of `width × height`, nothing pinned, falling onto a circle
/// of radius a quarter of its width (at most 1.5 m) 1 m below its middle,
/// above the ground; friction 0.5 and an air drag of 0.5 /s, so it drapes
/// over the ball, slides and settles within a few seconds of landing.
pub const CLOTH_OVER_BALL: Description = Description {
    name: "cloth-over-ball",
    title: "Cloth over a ball",
    shape: &[("width", 30.0), ("height", 20.0)],
    pieces: &[
        Piece::Grid {
            pins: Pins::None,
            bending: GridBending::Off,
        },
        Piece::BallBelowGrid,
    ],
    stiffness: DEFAULT_STIFFNESS,
    params: &[("friction", 0.5), ("velocityDamping", 0.5)],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_preset_in_the_order_of_the_words() {
        let table: Vec<&str> = PRESETS.iter().map(|d| d.name).collect();
        assert_eq!(table, names());
    }
}
