//! The ready-made scenes of `Simulation.preset(name, options)`: the grid cloth,
//! a rope, the three-particle cord, a balloon, a soft body, a flag, a cloth
//! over a ball, and the scenes with bodies of `body_presets.rs` (a
//! trampoline, a rope bridge, a wrecking ball, a stack of boxes, a plastic
//! can).
//!
//! A preset is a [`Scene`] and the parameter values it runs best with, each
//! chosen once, below, in the preset's own function. Options are named as the
//! parameter table names them: `width`, `height` and `fixed` shape the scenes
//! they apply to (see [`Preset`]), every solver parameter (`stiffness`,
//! `substeps`, `windX`, ...) overrides the preset's choice.

use super::body_presets;
use super::circle;
use super::grid::{self, SPACING};
use super::scene::{AreaSpec, Bending, DistanceStiffness, Scene, MAX_SCENE_CONSTRAINTS};
use super::shape::Shape;
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

/// A preset's scene and its parameter choices, by table name.
type Choices = (Scene, &'static [(&'static str, Value)]);

/// The options a preset's geometry reads; the rest are solver parameters.
struct Shaping<'a> {
    name: &'a str,
    options: &'a [(&'a str, Value)],
    /// Which of `width`, `height`, `fixed` this preset reads (and their defaults).
    reads: &'static [(&'static str, f64)],
}

impl Shaping<'_> {
    /// The whole number `parameter` given as an option, or `default`.
    fn whole(&self, parameter: &Parameter, default: f64) -> Result<usize, ClothError> {
        match self
            .options
            .iter()
            .rev()
            .find(|(n, _)| *n == parameter.name)
        {
            None => Ok(default as usize),
            Some((_, Value::Number(v))) => Ok(parameter.check_number(*v)? as usize),
            Some((_, other)) => Err(wrong_kind(parameter, *other)),
        }
    }

    /// The number `parameter` given as an option (checked by its rule), or
    /// its table default.
    fn number(&self, parameter: &Parameter) -> Result<f64, ClothError> {
        match self
            .options
            .iter()
            .rev()
            .find(|(n, _)| *n == parameter.name)
        {
            None => Ok(parameter.default_number()),
            Some((_, Value::Number(v))) => parameter.check_number(*v),
            Some((_, other)) => Err(wrong_kind(parameter, *other)),
        }
    }

    /// Refuses an option this preset does not read and that is no solver
    /// parameter.
    fn check_names(&self) -> Result<(), ClothError> {
        for (name, value) in self.options {
            let solver = params::Params::default()
                .values()
                .iter()
                .any(|(p, _)| p.name == *name);
            let names: Vec<&str> = self.reads.iter().map(|(n, _)| *n).collect();
            if !solver && !names.contains(name) {
                let reads = if names.is_empty() {
                    String::new()
                } else {
                    format!("{}, or ", names.join(", "))
                };
                return Err(error::invalid(
                    "options",
                    format!("{} = {}", error::quoted(name, name.len()), value.shown()),
                    format!(
                        "for the {} preset: {reads}the name of a solver parameter \
                         (stiffness, substeps, windX, ...)",
                        error::quote(self.name)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The solver parameter options, after the preset's `choices`.
    fn params(&self, choices: &[(&'static str, Value)]) -> Vec<(&'static str, Value)> {
        let mut all = choices.to_vec();
        let table = params::Params::default().values();
        for (name, value) in self.options {
            if let Some((p, _)) = table.iter().find(|(p, _)| p.name == *name) {
                all.push((p.name, *value));
            }
        }
        all
    }
}

/// The options that shape each preset (`width`, `height`, `fixed`, where it
/// has them) and their defaults, written once: [`preset`] reads them, and the
/// page and `mountCloth` get them through `presetShape(name)`.
pub const SHAPES: &[(&str, &[(&str, f64)])] = &[
    (
        "cloth",
        &[
            ("width", params::WIDTH.default_number()),
            ("height", params::HEIGHT.default_number()),
            ("fixed", params::FIXED.default_number()),
        ],
    ),
    ("rope", &[("width", 30.0)]),
    ("double-pendulum", &[]),
    ("balloon", &[("width", 32.0)]),
    ("soft-body", &[("width", 8.0), ("height", 5.0)]),
    ("flag", &[("width", 24.0), ("height", 14.0)]),
    ("cloth-over-ball", &[("width", 30.0), ("height", 20.0)]),
    ("trampoline", &[]),
    ("rope-bridge", &[]),
    ("wrecking-ball", &[]),
    ("box-stack", &[]),
    ("plastic-can", &[]),
];

/// Each preset's name for people, as the pages' Scene selects show it (the
/// link and the API keep the preset's word).
pub const TITLES: &[(&str, &str)] = &[
    ("cloth", "Cloth"),
    ("rope", "Rope"),
    ("double-pendulum", "Double pendulum"),
    ("balloon", "Balloon"),
    ("soft-body", "Soft body"),
    ("flag", "Flag in the wind"),
    ("cloth-over-ball", "Cloth over a ball"),
    ("trampoline", "Trampoline"),
    ("rope-bridge", "Rope bridge"),
    ("wrecking-ball", "Wrecking ball"),
    ("box-stack", "Stack of boxes"),
    ("plastic-can", "Plastic can"),
];

/// The name for people of preset `name` (`name` itself for a word that is
/// no preset).
pub fn title(name: &str) -> &str {
    TITLES
        .iter()
        .find(|(preset, _)| *preset == name)
        .map_or(name, |(_, title)| *title)
}

/// The shaping options of preset `name` and their defaults (none for a name
/// that is no preset).
pub fn shape(name: &str) -> &'static [(&'static str, f64)] {
    SHAPES
        .iter()
        .find(|(preset, _)| *preset == name)
        .map_or(&[], |(_, sizes)| *sizes)
}

/// The preset `name` with `options` (see the module documentation), or a
/// refusal naming the wrong name or option.
pub fn preset(name: &str, options: &[(&str, Value)]) -> Result<Preset, ClothError> {
    let word = params::PRESET.check_word(name, name.len())?;
    let sizes = shape(word);
    let s = Shaping {
        name: word,
        options,
        reads: sizes,
    };
    let default = |parameter: &Parameter| {
        sizes
            .iter()
            .find(|(n, _)| *n == parameter.name)
            .map_or(0.0, |(_, v)| *v)
    };
    let whole = |parameter: &Parameter| s.whole(parameter, default(parameter));
    let size = || -> Result<GridSize, ClothError> {
        GridSize::new(whole(&params::WIDTH)?, whole(&params::HEIGHT)?)
    };
    let mut grid_size = None;
    let (scene, choices): Choices = match word {
        "cloth" => {
            let size = size()?;
            let fixed = FixedPreset::from_count(whole(&params::FIXED)?)?;
            grid_size = Some(size);
            (grid::scene(size, fixed)?, &[])
        }
        "rope" => rope(whole(&params::WIDTH)?),
        "double-pendulum" => double_pendulum(),
        "balloon" => balloon(whole(&params::WIDTH)?),
        "soft-body" => soft_body(
            soft_body_size(size()?)?,
            s.number(&params::PARTICLE_RADIUS)?,
        ),
        "flag" => flag(size()?)?,
        "cloth-over-ball" => cloth_over_ball(size()?)?,
        "trampoline" => body_presets::trampoline(),
        "rope-bridge" => body_presets::rope_bridge(),
        "wrecking-ball" => body_presets::wrecking_ball(),
        "box-stack" => body_presets::box_stack(),
        _ => body_presets::plastic_can(),
    };
    s.check_names()?;
    Ok(Preset {
        params: s.params(choices),
        scene,
        grid: grid_size,
    })
}

/// An empty scene to fill in: no particles, uniform default stiffness.
fn empty() -> Scene {
    Scene {
        positions: Vec::new(),
        masses: Vec::new(),
        distances: Vec::new(),
        distance_stiffness: DistanceStiffness::Uniform(params::STIFFNESS.default_number()),
        ..Scene::default()
    }
}

/// A rope of `particles` (2..=1000) 0.1 m apart, 0.05 kg each, laid out
/// horizontally from its pinned first particle so that it swings down. Stiff
/// (1e5 N/m) with 10 substeps, so it hardly stretches; a light air drag
/// ([`ROPE_AIR_DRAG`]) lets it swing for tens of seconds.
fn rope(particles: usize) -> Choices {
    let mut scene = empty();
    for k in 0..particles {
        let mass = if k == 0 { 0.0 } else { 0.05 };
        scene.add_particle(0.1 * k as f32, 0.0, mass);
    }
    for k in 1..particles as u32 {
        scene.add_distance(k - 1, k);
    }
    scene.distance_stiffness = DistanceStiffness::Uniform(1e5);
    let choices = &[
        ("substeps", Value::Number(10.0)),
        ("iterations", Value::Number(2.0)),
        ("velocityDamping", Value::Number(ROPE_AIR_DRAG)),
    ];
    (scene, choices)
}

/// The rope's air drag, 1/s (its `velocityDamping`): a rope 3 m long still
/// swings across metres after 10 s, and comes to rest within about a minute.
pub const ROPE_AIR_DRAG: f64 = 0.1;

/// The cord of the documents: a pivot (pinned) and two free particles of
/// 1 kg on rigid links of 0.5 m, released upright 0.1 rad off vertical, so
/// they fall and swing chaotically. Rigid links (stiffness 0) and 50 small
/// substeps of one iteration each, as the documents solve it, and almost no
/// air ([`PENDULUM_AIR_DRAG`]), so it keeps swinging chaotically.
fn double_pendulum() -> Choices {
    let mut scene = empty();
    let (length, tilt) = (0.5f32, 0.1f32);
    let (sin, cos) = circle::sin_cos(tilt);
    let pivot = scene.add_particle(0.0, 0.0, 0.0);
    let first = scene.add_particle(length * sin, length * cos, 1.0);
    let second = scene.add_particle(2.0 * length * sin, 2.0 * length * cos, 1.0);
    scene.add_distance(pivot, first);
    scene.add_distance(first, second);
    scene.distance_stiffness = DistanceStiffness::Uniform(0.0);
    let choices = &[
        ("substeps", Value::Number(50.0)),
        ("iterations", Value::Number(1.0)),
        ("velocityDamping", Value::Number(PENDULUM_AIR_DRAG)),
    ];
    (scene, choices)
}

/// The double pendulum's air drag, 1/s (its `velocityDamping`): on its own it
/// would take e^(-2 · 0.01 · 10) = 82 % of the energy above the hanging rest
/// through 10 s; with the small losses of its substeps it keeps about three
/// quarters, and tumbles chaotically for well over a minute.
pub const PENDULUM_AIR_DRAG: f64 = 0.01;

/// A balloon: a ring of `particles` (3..=1000) of 0.02 kg, its centre 1.5 m
/// above the ground, skin edges of 1000 N/m whose rest lengths are the sides
/// of a ring of radius 0.5 m, and one ring area constraint, rigid, holding
/// 1.5 times the area that ring encloses: the gas. It starts inflated (on a
/// circle √1.5 times larger, the skin stretched as the gas stretches it, the
/// area constraint satisfied), at rest, and drops onto the ground, slowed by air drag
/// ([`BALLOON_AIR_DRAG`]).
///
/// The edges are created even ones first, then odd ones: a ring under
/// tension swept edge after edge around it turns (each particle is pulled by
/// the edge behind it, then by the edge ahead, and the two corrections do not
/// commute), so the original order, which sweeps in creation order, meets it
/// alternately as the coloured order does.
fn balloon(particles: usize) -> Choices {
    let mut scene = empty();
    let count = particles.max(3);
    let (rest_radius, pressure, centre_y) = (0.5f32, 1.5f32, 1.5f32);
    let radius = rest_radius * pressure.sqrt();
    for k in 0..count {
        let (sin, cos) = circle::sin_cos(std::f32::consts::TAU * k as f32 / count as f32);
        scene.add_particle(radius * cos, centre_y + radius * sin, 0.02);
    }
    let n = count as u32;
    for k in (0..n).step_by(2).chain((1..n).step_by(2)) {
        scene.add_distance(k, (k + 1) % n);
    }
    let side = 2.0 * rest_radius * circle::sin_cos(std::f32::consts::PI / count as f32).0;
    scene.rest_lengths = Some(vec![side; count]);
    scene.areas.push(AreaSpec {
        particles: (0..n).collect(),
        stiffness: 0.0,
        pressure: 1.0,
    });
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let choices = &[
        ("substeps", Value::Number(10.0)),
        ("velocityDamping", Value::Number(BALLOON_AIR_DRAG)),
    ];
    (scene, choices)
}

/// The balloon's air drag, 1/s (its `velocityDamping`): the only thing that
/// takes away the ringing of its landing. Its rigid gas and its skin store
/// the impact and give it back, a round ring rolls on flat ground with
/// nothing to resist it, and a sweep's handedness turns that ringing into a
/// roll one way; without drag it rocks for minutes and creeps by metres.
const BALLOON_AIR_DRAG: f64 = 1.0;

/// Corners of the soft body's area constraints per cell of its grid: two
/// triangles.
const SOFT_BODY_CORNERS_PER_CELL: usize = 6;

/// Refuses a soft body whose triangles would have more corners than a scene
/// may ([`MAX_SCENE_CONSTRAINTS`]), naming the width the user gave, before
/// anything is built.
fn soft_body_size(size: GridSize) -> Result<GridSize, ClothError> {
    let (w, h) = (size.width, size.height);
    let corners = SOFT_BODY_CORNERS_PER_CELL * (w - 1) * (h - 1);
    if corners <= MAX_SCENE_CONSTRAINTS {
        return Ok(size);
    }
    Err(error::invalid(
        params::WIDTH.name,
        format!("{w} (with height {h}: {corners} triangle corners)"),
        format!("at most {MAX_SCENE_CONSTRAINTS} triangle corners"),
    ))
}

/// A soft body: a `size` block of particles 0.15 m apart (0.05 kg each),
/// each cell cut into two counter-clockwise triangles with rigid area
/// constraints, joined by its edges and one diagonal (5000 N/m), at rest,
/// its bottom row [`SOFT_BODY_DROP`] above the ground (plus `radius`, the
/// particle radius the preset runs with): it falls, lands, squashes and
/// springs back, slowed by a light air drag ([`SOFT_BODY_AIR_DRAG`]).
fn soft_body(size: GridSize, radius: f64) -> Choices {
    let mut scene = empty();
    let (w, h) = (size.width as u32, size.height as u32);
    let spacing = 0.15f32;
    let left = -spacing * (w - 1) as f32 / 2.0;
    let bottom = SOFT_BODY_DROP + radius as f32;
    for i in 0..h {
        for j in 0..w {
            scene.add_particle(left + spacing * j as f32, bottom + spacing * i as f32, 0.05);
        }
    }
    for i in 0..h {
        for j in 0..w {
            let k = i * w + j;
            if j + 1 < w {
                scene.add_distance(k, k + 1);
            }
            if i + 1 < h {
                scene.add_distance(k, k + w);
            }
            if i + 1 < h && j + 1 < w {
                scene.add_distance(k, k + w + 1);
                for particles in [vec![k, k + 1, k + w + 1], vec![k, k + w + 1, k + w]] {
                    scene.areas.push(AreaSpec {
                        particles,
                        stiffness: 0.0,
                        pressure: 1.0,
                    });
                }
            }
        }
    }
    scene.distance_stiffness = DistanceStiffness::Uniform(5000.0);
    scene.colliders.push(Shape::Ground { y: 0.0 });
    let choices = &[
        ("substeps", Value::Number(10.0)),
        ("velocityDamping", Value::Number(SOFT_BODY_AIR_DRAG)),
    ];
    (scene, choices)
}

/// How high the soft body's bottom starts above the ground, in metres.
pub const SOFT_BODY_DROP: f32 = 1.5;

/// The soft body's air drag, 1/s (its `velocityDamping`): its bounces and
/// wobbles die within a few seconds of landing.
pub const SOFT_BODY_AIR_DRAG: f64 = 0.3;

/// A flag: the grid cloth of `size` with its whole left column pinned (the
/// pole), bending on (`Bending::Auto`, 50 N/m) and a wind of 8 m/s blowing
/// along it with drag 1 kg/m², gusts of 4 m/s and turbulence of 3 m/s (a
/// steady wind would leave it a still, stretched sheet). A stiffer cloth
/// than the table's (1e4 N/m, 2 substeps: it stretches at most about 35 % in
/// the gusts, where 1000 N/m stretched it by more than its own length; a
/// stiffer one, 3e4 N/m and up, lies so straight along the wind that a wind
/// turned round no longer turns it) and no air drag beyond the wind's own:
/// the wind is the air it moves in.
fn flag(size: GridSize) -> Result<Choices, ClothError> {
    let mut scene = grid::scene(size, FixedPreset::One)?;
    for (k, mass) in scene.masses.iter_mut().enumerate() {
        *mass = if k % size.width == 0 {
            0.0
        } else {
            params::MASS.default_number() as f32
        };
    }
    scene.bending = Bending::Auto;
    let choices = &[
        ("bendingStiffness", Value::Number(50.0)),
        ("windX", Value::Number(8.0)),
        ("windDrag", Value::Number(1.0)),
        ("windGust", Value::Number(4.0)),
        ("windTurbulence", Value::Number(3.0)),
        ("stiffness", Value::Number(1e4)),
        ("substeps", Value::Number(2.0)),
        ("velocityDamping", Value::Number(0.0)),
    ];
    Ok((scene, choices))
}

/// The grid cloth of `size`, nothing pinned, falling onto a circle of radius
/// a quarter of its width (at most 1.5 m) 1 m below its middle, above the
/// ground; friction 0.5 and an air drag of 0.5 /s, so it drapes over the
/// ball, slides and settles within a few seconds of landing.
fn cloth_over_ball(size: GridSize) -> Result<Choices, ClothError> {
    let mut scene = grid::scene(size, FixedPreset::One)?;
    scene.masses.fill(params::MASS.default_number() as f32);
    // the cloth starts as built (a curtain) and drops onto the ball below it
    let width_m = SPACING * (size.width - 1) as f32;
    let bottom = -SPACING * (size.height - 1) as f32;
    let radius = (width_m / 4.0).clamp(SPACING, 1.5);
    let (x, y) = (width_m / 2.0, bottom - 1.0 - radius);
    scene.colliders.push(Shape::Circle { x, y, radius });
    scene.colliders.push(Shape::Ground {
        y: y - radius - 1.0,
    });
    let choices = &[
        ("friction", Value::Number(0.5)),
        ("velocityDamping", Value::Number(0.5)),
    ];
    Ok((scene, choices))
}
