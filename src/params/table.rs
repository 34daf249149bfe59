//! The parameter table: every parameter, one entry each, and the list of the
//! solver parameters that `Params`, its defaults, the `Cloth` setters by name
//! and the `Simulation` accessors are generated from.

use super::parameter::{text, Applies, Group, Parameter, Rule, Value};

/// The grid's width.
pub const WIDTH: Parameter = Parameter {
    name: "width",
    attribute: text("width"),
    label: text("Width"),
    unit: "particles",
    meaning: text("Particles per row (at most 250000 particles in all)."),
    remark: "",
    rule: Rule::Whole {
        min: 2.0,
        max: 1000.0,
    },
    default: Value::Number(40.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// The grid's height.
pub const HEIGHT: Parameter = Parameter {
    name: "height",
    attribute: text("height"),
    label: text("Height"),
    unit: "particles",
    meaning: text("Particles per column (at most 250000 particles in all)."),
    remark: "",
    rule: Rule::Whole {
        min: 2.0,
        max: 1000.0,
    },
    default: Value::Number(30.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// How many corners are fixed.
pub const FIXED: Parameter = Parameter {
    name: "fixed",
    attribute: text("fixed"),
    label: text("Fixed particles"),
    unit: "",
    meaning: text("Fixed corner particles: 1 (top left), 2 (top corners) or 4 (all corners)."),
    remark: "",
    rule: Rule::Numbers(&[1.0, 2.0, 4.0]),
    default: Value::Number(2.0),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// The time step.
pub const TIME_STEP: Parameter = Parameter {
    name: "timeStepSize",
    attribute: text("time-step"),
    label: text("Time step"),
    unit: "s",
    meaning: text("Time step Δt: simulated time one step advances."),
    remark: "",
    rule: Rule::Positive {
        min: 1e-6,
        max: 1.0,
        what: "a time step",
    },
    default: Value::Number(0.01),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Solver sweeps per (sub)step.
pub const ITERATIONS: Parameter = Parameter {
    name: "iterations",
    attribute: text("iterations"),
    label: text("Iterations"),
    unit: "",
    meaning: text("Gauss–Seidel sweeps over all constraints per (sub)step."),
    remark: "",
    rule: Rule::Whole {
        min: 1.0,
        max: 1000.0,
    },
    default: Value::Number(5.0),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Constraint stiffness.
pub const STIFFNESS: Parameter = Parameter {
    name: "stiffness",
    attribute: text("stiffness"),
    label: text("Stiffness"),
    unit: "N/m",
    meaning: text("Constraint stiffness k; compliance α = 1/k, and 0 means rigid (plain PBD)."),
    remark: "0 means PBD",
    rule: Rule::Range {
        min: 0.0,
        max: 1e15,
    },
    default: Value::Number(1000.0),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// The stiffness coefficient of plain PBD.
pub const PBD_COEFFICIENT: Parameter = Parameter {
    name: "pbdCoefficient",
    attribute: text("pbd-coefficient"),
    label: text("PBD coefficient"),
    unit: "",
    meaning: text("Plain PBD's stiffness coefficient k (0 < k ≤ 1): scales each correction of a rigid distance constraint (stiffness 0, or a scene constraint of compliance 0), so n iterations close 1 − (1 − k)ⁿ of a lone constraint's error; 1 is full PBD. XPBD constraints (stiffness > 0) ignore it."),
    remark: "only at stiffness 0",
    rule: Rule::Positive {
        min: 1e-4,
        max: 1.0,
        what: "a PBD coefficient",
    },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Gravity.
pub const GRAVITY: Parameter = Parameter {
    name: "gravity",
    attribute: text("gravity"),
    label: text("Gravity"),
    unit: "m/s²",
    meaning: text("Vertical acceleration, y up (Earth is negative)."),
    remark: "",
    rule: Rule::Range {
        min: -1e6,
        max: 1e6,
    },
    default: Value::Number(-9.81),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Particle mass.
pub const MASS: Parameter = Parameter {
    name: "mass",
    attribute: text("mass"),
    label: text("Mass per particle"),
    unit: "kg",
    meaning: text("Mass of every free particle (inverse mass 1/mass); a scene with its own masses reads their mean here, and setting it scales them all alike."),
    remark: "",
    rule: Rule::Positive {
        min: 1e-6,
        max: 1e6,
        what: "a mass",
    },
    default: Value::Number(0.5),
    applies: Applies::Simulation,
    group: Group::Solver,
};

/// Substeps per step.
pub const SUBSTEPS: Parameter = Parameter {
    name: "substeps",
    attribute: text("substeps"),
    label: text("Substeps per time step"),
    unit: "",
    meaning: text("Substeps per time step (\"small steps\"): each runs prediction, `iterations` sweeps and the velocity update with Δt/substeps."),
    remark: "",
    rule: Rule::Whole {
        min: 1.0,
        max: 100.0,
    },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Constraint damping.
pub const DAMPING: Parameter = Parameter {
    name: "damping",
    attribute: text("damping"),
    label: text("Constraint damping"),
    unit: "N·s/m",
    meaning: text("Constraint damping β: resists how fast each constraint stretches (XPBD's γ = αβ/h term; none in PBD mode)."),
    remark: "",
    rule: Rule::Range { min: 0.0, max: 1e9 },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Global velocity damping.
pub const VELOCITY_DAMPING: Parameter = Parameter {
    name: "velocityDamping",
    attribute: text("velocity-damping"),
    label: text("Velocity damping"),
    unit: "1/s",
    meaning: text("Global velocity damping rate: after each substep every velocity is scaled by max(0, 1 − rate·h)."),
    remark: "",
    rule: Rule::Range {
        min: 0.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Tearing threshold.
pub const TEAR_STRETCH: Parameter = Parameter {
    name: "tearStretch",
    attribute: text("tear-stretch"),
    label: text("Tear at × rest length"),
    unit: "",
    meaning: text(
        "A constraint longer than this × its rest length breaks for good; 0 turns tearing off.",
    ),
    remark: "",
    rule: Rule::OffOrAbove {
        above: 1.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Sweep order.
pub const SOLVER_ORDER: Parameter = Parameter {
    name: "solverOrder",
    attribute: text("solver-order"),
    label: text("Solver order"),
    unit: "",
    meaning: text("Sweep order: \"colored\" solves independent constraints four at a time (fast); \"original\" sweeps in creation order, as the original demo."),
    remark: "",
    rule: Rule::Words(&["colored", "original"]),
    default: Value::Word("colored"),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Which solver steps the distance constraints.
pub const SOLVER: Parameter = Parameter {
    name: "solver",
    attribute: text("solver"),
    label: text("Solver"),
    unit: "",
    meaning: text("The solver of the distance constraints: \"xpbd\" (compliant position constraints, plain PBD at stiffness 0) or \"softStep\" (Catto's soft step, as in Box2D v3: each constraint a spring of frequency softFrequency and damping ratio softDampingRatio, solved on velocities, warm started, with a relax pass ending each substep; stiffness, pbdCoefficient and damping are XPBD's and it ignores them)."),
    remark: "",
    rule: Rule::Words(&["xpbd", "softStep"]),
    default: Value::Word("xpbd"),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// The frequency of the soft step's constraints.
pub const SOFT_FREQUENCY: Parameter = Parameter {
    name: "softFrequency",
    attribute: text("soft-frequency"),
    label: text("Soft frequency"),
    unit: "Hz",
    meaning: text("Soft step only: the natural frequency f of every distance constraint, a spring of stiffness m_eff (2πf)² for the effective mass m_eff of its two particles. Box2D keeps it at a quarter of the substep rate; at half, a cloth swept once per substep gains energy (docs/experiments.md, four solvers)."),
    remark: "solver softStep",
    rule: Rule::Positive {
        min: 1e-3,
        max: 1e6,
        what: "a frequency",
    },
    default: Value::Number(30.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// The damping ratio of the soft step's constraints.
pub const SOFT_DAMPING_RATIO: Parameter = Parameter {
    name: "softDampingRatio",
    attribute: text("soft-damping-ratio"),
    label: text("Soft damping ratio"),
    unit: "",
    meaning: text("Soft step only: the damping ratio ζ of every distance constraint (0 undamped, 1 critically damped)."),
    remark: "solver softStep",
    rule: Rule::Range { min: 0.0, max: 1e3 },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Beyond,
};

/// Which scene is built.
pub const PRESET: Parameter = Parameter {
    name: "preset",
    attribute: text("preset"),
    label: text("Scene"),
    unit: "",
    meaning: text("The scene built on restart (see Simulation.preset): the grid cloth, a rope, the three-particle cord, a balloon, a soft body, a flag in the wind, a cloth over a ball, a trampoline, a rope bridge, a wrecking ball and a curtain, a stack of boxes, or a plastic can."),
    remark: "",
    rule: Rule::Words(&[
        "cloth",
        "rope",
        "double-pendulum",
        "balloon",
        "soft-body",
        "flag",
        "cloth-over-ball",
        "trampoline",
        "rope-bridge",
        "wrecking-ball",
        "box-stack",
        "plastic-can",
    ]),
    default: Value::Word("cloth"),
    applies: Applies::Restart,
    group: Group::Cloth,
};

/// Bending stiffness.
pub const BENDING_STIFFNESS: Parameter = Parameter {
    name: "bendingStiffness",
    attribute: text("bending-stiffness"),
    label: text("Bending stiffness"),
    unit: "N/m",
    meaning: text("Stiffness of the bending constraints (distance constraints between the two neighbours on opposite sides of a particle); compliance 1/k; 0 turns bending off."),
    remark: "0 turns bending off",
    rule: Rule::Range { min: 0.0, max: 1e15 },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Long-range attachments.
pub const TETHERS: Parameter = Parameter {
    name: "tethers",
    attribute: text("tethers"),
    label: text("Tethers"),
    unit: "",
    meaning: text("Long-range attachments: no free particle gets farther from its nearest pinned particle than its rest-path distance, which removes over-stretch."),
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Friction against colliders and in self-collision.
pub const FRICTION: Parameter = Parameter {
    name: "friction",
    attribute: text("friction"),
    label: text("Friction"),
    unit: "",
    meaning: text("Coulomb friction coefficient μ of contacts with colliders and between particles: a contact cancels up to μ times the distance it pushed the particle out in the substep of its sliding."),
    remark: "",
    rule: Rule::Range { min: 0.0, max: 10.0 },
    default: Value::Number(0.3),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Restitution of contacts.
pub const RESTITUTION: Parameter = Parameter {
    name: "restitution",
    attribute: text("restitution"),
    label: text("Restitution"),
    unit: "",
    meaning: text("Coefficient of restitution e of contacts: a contact that stops an approach faster than 2·|gravity|·h leaves with e times that speed (0: no bounce, 1: elastic); undoing an overlap never adds speed."),
    remark: "",
    rule: Rule::Range { min: 0.0, max: 1.0 },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Particle radius for collisions.
pub const PARTICLE_RADIUS: Parameter = Parameter {
    name: "particleRadius",
    attribute: text("particle-radius"),
    label: text("Particle radius"),
    unit: "m",
    meaning: text("Radius of each particle in contacts: particles keep this far from colliders and twice this far from each other in self-collision."),
    remark: "",
    rule: Rule::Positive {
        min: 1e-4,
        max: 10.0,
        what: "a radius",
    },
    default: Value::Number(0.05),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Self-collision.
pub const SELF_COLLISION: Parameter = Parameter {
    name: "selfCollision",
    attribute: text("self-collision"),
    label: text("Self-collision"),
    unit: "",
    meaning: text("Particles of the scene collide with each other (found with a spatial hash), except pairs closer than twice the radius at rest."),
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind, horizontal.
pub const WIND_X: Parameter = Parameter {
    name: "windX",
    attribute: text("wind-x"),
    label: text("Wind x"),
    unit: "m/s",
    meaning: text(
        "Horizontal wind velocity; it pushes each edge through its normal (see windDrag).",
    ),
    remark: "",
    rule: Rule::Range {
        min: -1000.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind, vertical.
pub const WIND_Y: Parameter = Parameter {
    name: "windY",
    attribute: text("wind-y"),
    label: text("Wind y"),
    unit: "m/s",
    meaning: text("Vertical wind velocity, y up."),
    remark: "",
    rule: Rule::Range {
        min: -1000.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Wind drag coefficient.
pub const WIND_DRAG: Parameter = Parameter {
    name: "windDrag",
    attribute: text("wind-drag"),
    label: text("Wind drag"),
    unit: "kg/m²",
    meaning: text("Aerodynamic coefficient of an edge: the wind's force on an edge of length L is windDrag·L·(u·n)|u·n| along its normal n, u the wind relative to the edge."),
    remark: "",
    rule: Rule::Range { min: 0.0, max: 1e6 },
    default: Value::Number(1.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Gusts: how much the wind's speed varies in time.
pub const WIND_GUST: Parameter = Parameter {
    name: "windGust",
    attribute: text("wind-gust"),
    label: text("Gust strength"),
    unit: "m/s",
    meaning: text("Gusts: the wind's speed along its direction (x when it is still) rises and falls by up to this much, smoothly, about once a second; 0 keeps it steady."),
    remark: "",
    rule: Rule::Range {
        min: 0.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// Turbulence: how much the wind varies in space and time.
pub const WIND_TURBULENCE: Parameter = Parameter {
    name: "windTurbulence",
    attribute: text("wind-turbulence"),
    label: text("Turbulence"),
    unit: "m/s",
    meaning: text("Turbulence: eddies of about 1 m, carried by the wind and changing within half a second, add up to this much wind in any direction; seeded noise, so every run is the same; 0 turns it off."),
    remark: "",
    rule: Rule::Range {
        min: 0.0,
        max: 1000.0,
    },
    default: Value::Number(0.0),
    applies: Applies::Simulation,
    group: Group::Scene,
};

/// How fast simulated time runs against the clock on the wall.
pub const SPEED: Parameter = Parameter {
    name: "speed",
    attribute: text("speed"),
    label: text("Speed"),
    unit: "",
    meaning: text("How fast simulated time runs: \"real\" one simulated second per second of the clock on the wall, whatever the display's refresh rate (each frame steps the time since the last, the remainder carried to the next); \"quarter\", \"half\" and \"double\" that times ¼, ½ and 2; \"original\" stepsPerFrame steps every animation frame, as the original demo (8: 4.8 s a second at 60 Hz, twice that at 120 Hz). Stepping gets at most 40 ms a frame; past that fewer steps run, diagnostics().capped is true and the cloth runs slower."),
    remark: "",
    rule: Rule::Words(&["quarter", "half", "real", "double", "original"]),
    default: Value::Word("real"),
    applies: Applies::Loop,
    group: Group::None,
};

/// Steps per animation frame at the original's pace.
pub const STEPS_PER_FRAME: Parameter = Parameter {
    name: "stepsPerFrame",
    attribute: text("steps-per-frame"),
    label: text("Steps per frame"),
    unit: "",
    meaning: text("Time steps per animation frame at speed \"original\" (0: only draw); other speeds step with the clock."),
    remark: "",
    rule: Rule::Whole {
        min: 0.0,
        max: 10000.0,
    },
    default: Value::Number(8.0),
    applies: Applies::Loop,
    group: Group::None,
};

/// Strain colours.
pub const STRAIN_COLORS: Parameter = Parameter {
    name: "strainColors",
    attribute: text("strain-colors"),
    label: text("Colour by stretch"),
    unit: "",
    meaning: text("Paint each constraint by its relative stretch (see strainRamp())."),
    remark: "",
    rule: Rule::Flag,
    default: Value::Flag(false),
    applies: Applies::Loop,
    group: Group::Beyond,
};

/// Which renderer draws.
pub const RENDERER: Parameter = Parameter {
    name: "renderer",
    attribute: text("renderer"),
    label: text("Renderer"),
    unit: "",
    meaning: text("\"wasm\" rasterizes in wasm (fast); \"canvas\" strokes canvas-2D paths."),
    remark: "",
    rule: Rule::Words(&["wasm", "canvas"]),
    default: Value::Word("wasm"),
    applies: Applies::Loop,
    group: Group::None,
};

/// Every parameter, in the order the page, the types and the README list them.
pub const PARAMETERS: &[Parameter] = &[
    PRESET,
    WIDTH,
    HEIGHT,
    FIXED,
    TIME_STEP,
    ITERATIONS,
    STIFFNESS,
    PBD_COEFFICIENT,
    GRAVITY,
    MASS,
    SUBSTEPS,
    DAMPING,
    VELOCITY_DAMPING,
    TEAR_STRETCH,
    SOLVER_ORDER,
    SOLVER,
    SOFT_FREQUENCY,
    SOFT_DAMPING_RATIO,
    BENDING_STIFFNESS,
    TETHERS,
    FRICTION,
    RESTITUTION,
    PARTICLE_RADIUS,
    SELF_COLLISION,
    WIND_X,
    WIND_Y,
    WIND_DRAG,
    WIND_GUST,
    WIND_TURBULENCE,
    SPEED,
    STEPS_PER_FRAME,
    STRAIN_COLORS,
    RENDERER,
];

/// Calls `$callback!` with the solver parameters, one line each:
/// `field: Type = TABLE_ENTRY, getter / setter (Cloth setter), "TypeScript type";`.
/// `Params`, its defaults and the `Simulation` accessors are generated from it,
/// so a new solver value is one line here, one table entry above and the physics
/// that reads it.
macro_rules! with_solver_parameters {
    ($callback:ident) => {
        $callback! {
            time_step: f64 = TIME_STEP, timeStepSize / set_time_step_size (set_time_step), "number";
            iterations: u32 = ITERATIONS, iterations / set_iterations (set_iterations), "number";
            stiffness: f64 = STIFFNESS, stiffness / set_stiffness (set_stiffness), "number";
            pbd_coefficient: f64 = PBD_COEFFICIENT, pbdCoefficient / set_pbd_coefficient (set_pbd_coefficient), "number";
            gravity: f64 = GRAVITY, gravity / set_gravity (set_gravity), "number";
            mass: f64 = MASS, mass / set_mass (set_mass), "number";
            substeps: u32 = SUBSTEPS, substeps / set_substeps (set_substeps), "number";
            damping: f64 = DAMPING, damping / set_damping (set_damping), "number";
            velocity_damping: f64 = VELOCITY_DAMPING, velocityDamping / set_velocity_damping (set_velocity_damping), "number";
            tear_stretch: f64 = TEAR_STRETCH, tearStretch / set_tear_stretch (set_tear_stretch), "number";
            solver_order: SolverOrder = SOLVER_ORDER, solverOrder / set_solver_order (set_solver_order), "\"colored\" | \"original\"";
            solver: SolverKind = SOLVER, solver / set_solver (set_solver), "\"xpbd\" | \"softStep\"";
            soft_frequency: f64 = SOFT_FREQUENCY, softFrequency / set_soft_frequency (set_soft_frequency), "number";
            soft_damping_ratio: f64 = SOFT_DAMPING_RATIO, softDampingRatio / set_soft_damping_ratio (set_soft_damping_ratio), "number";
            bending_stiffness: f64 = BENDING_STIFFNESS, bendingStiffness / set_bending_stiffness (set_bending_stiffness), "number";
            tethers: bool = TETHERS, tethers / set_tethers (set_tethers), "boolean";
            friction: f64 = FRICTION, friction / set_friction (set_friction), "number";
            restitution: f64 = RESTITUTION, restitution / set_restitution (set_restitution), "number";
            particle_radius: f64 = PARTICLE_RADIUS, particleRadius / set_particle_radius (set_particle_radius), "number";
            self_collision: bool = SELF_COLLISION, selfCollision / set_self_collision (set_self_collision), "boolean";
            wind_x: f64 = WIND_X, windX / set_wind_x (set_wind_x), "number";
            wind_y: f64 = WIND_Y, windY / set_wind_y (set_wind_y), "number";
            wind_drag: f64 = WIND_DRAG, windDrag / set_wind_drag (set_wind_drag), "number";
            wind_gust: f64 = WIND_GUST, windGust / set_wind_gust (set_wind_gust), "number";
            wind_turbulence: f64 = WIND_TURBULENCE, windTurbulence / set_wind_turbulence (set_wind_turbulence), "number";
        }
    };
}
pub(crate) use with_solver_parameters;
