// Generated from PARAMETERS in src/params/table.rs by `XPBD_BLESS=1 cargo test --test
// generated`: change the Rust source, not this file.
//
// Every cloth parameter: name (Simulation property and mountCloth option), element
// attribute, page label, unit and remark, meaning, value type, accepted values (`rule`),
// default, how a change applies ('restart', 'simulation': a Simulation property,
// 'loop': the frame loop) and the page's field group ('' for none).

export const PARAMETERS = Object.freeze([
  {
    name: "preset", attribute: "preset", label: "Scene", unit: "", remark: "",
    meaning: "The scene built on restart (see Simulation.preset): the grid cloth, a rope, the three-particle cord, a balloon, a soft body, a flag in the wind, a cloth over a ball, a trampoline, a rope bridge, a wrecking ball and a curtain, a stack of boxes, or a plastic can.",
    type: 'string', rule: { kind: 'oneOf', values: ["cloth", "rope", "double-pendulum", "balloon", "soft-body", "flag", "cloth-over-ball", "trampoline", "rope-bridge", "wrecking-ball", "box-stack", "plastic-can"] }, defaultValue: "cloth", appliesOn: 'restart', group: 'cloth',
  },
  {
    name: "width", attribute: "width", label: "Width", unit: "particles", remark: "",
    meaning: "Particles per row (at most 250000 particles in all).",
    type: 'number', rule: { kind: 'whole', min: 2, max: 1000 }, defaultValue: 40, appliesOn: 'restart', group: 'cloth',
  },
  {
    name: "height", attribute: "height", label: "Height", unit: "particles", remark: "",
    meaning: "Particles per column (at most 250000 particles in all).",
    type: 'number', rule: { kind: 'whole', min: 2, max: 1000 }, defaultValue: 30, appliesOn: 'restart', group: 'cloth',
  },
  {
    name: "fixed", attribute: "fixed", label: "Fixed particles", unit: "", remark: "",
    meaning: "Fixed corner particles: 1 (top left), 2 (top corners) or 4 (all corners).",
    type: 'number', rule: { kind: 'oneOf', values: [1, 2, 4] }, defaultValue: 2, appliesOn: 'restart', group: 'cloth',
  },
  {
    name: "timeStepSize", attribute: "time-step", label: "Time step", unit: "s", remark: "",
    meaning: "Time step Δt: simulated time one step advances.",
    type: 'number', rule: { kind: 'positive', min: 0.000001, max: 1 }, defaultValue: 0.01, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "iterations", attribute: "iterations", label: "Iterations", unit: "", remark: "",
    meaning: "Gauss–Seidel sweeps over all constraints per (sub)step.",
    type: 'number', rule: { kind: 'whole', min: 1, max: 1000 }, defaultValue: 5, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "stiffness", attribute: "stiffness", label: "Stiffness", unit: "N/m", remark: "0 means PBD",
    meaning: "Constraint stiffness k; compliance α = 1/k, and 0 means rigid (plain PBD).",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000000000000000 }, defaultValue: 1000, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "pbdCoefficient", attribute: "pbd-coefficient", label: "PBD coefficient", unit: "", remark: "only at stiffness 0",
    meaning: "Plain PBD's stiffness coefficient k (0 < k ≤ 1): scales each correction of a rigid distance constraint (stiffness 0, or a scene constraint of compliance 0), so n iterations close 1 − (1 − k)ⁿ of a lone constraint's error; 1 is full PBD. XPBD constraints (stiffness > 0) ignore it.",
    type: 'number', rule: { kind: 'positive', min: 0.0001, max: 1 }, defaultValue: 1, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "gravity", attribute: "gravity", label: "Gravity", unit: "m/s²", remark: "",
    meaning: "Vertical acceleration, y up (Earth is negative).",
    type: 'number', rule: { kind: 'range', min: -1000000, max: 1000000 }, defaultValue: -9.81, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "mass", attribute: "mass", label: "Mass per particle", unit: "kg", remark: "",
    meaning: "Mass of every free particle (inverse mass 1/mass); a scene with its own masses reads their mean here, and setting it scales them all alike.",
    type: 'number', rule: { kind: 'positive', min: 0.000001, max: 1000000 }, defaultValue: 0.5, appliesOn: 'simulation', group: 'solver',
  },
  {
    name: "substeps", attribute: "substeps", label: "Substeps per time step", unit: "", remark: "",
    meaning: "Substeps per time step (\"small steps\"): each runs prediction, `iterations` sweeps and the velocity update with Δt/substeps.",
    type: 'number', rule: { kind: 'whole', min: 1, max: 100 }, defaultValue: 1, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "damping", attribute: "damping", label: "Constraint damping", unit: "N·s/m", remark: "",
    meaning: "Constraint damping β: resists how fast each constraint stretches (XPBD's γ = αβ/h term; none in PBD mode).",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000000000 }, defaultValue: 0, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "velocityDamping", attribute: "velocity-damping", label: "Velocity damping", unit: "1/s", remark: "",
    meaning: "Global velocity damping rate: after each substep every velocity is scaled by max(0, 1 − rate·h).",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "tearStretch", attribute: "tear-stretch", label: "Tear at × rest length", unit: "", remark: "",
    meaning: "A constraint longer than this × its rest length breaks for good; 0 turns tearing off.",
    type: 'number', rule: { kind: 'offOrAbove', above: 1, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "solverOrder", attribute: "solver-order", label: "Solver order", unit: "", remark: "",
    meaning: "Sweep order: \"colored\" solves independent constraints four at a time (fast); \"original\" sweeps in creation order, as the original demo.",
    type: 'string', rule: { kind: 'oneOf', values: ["colored", "original"] }, defaultValue: "colored", appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "solver", attribute: "solver", label: "Solver", unit: "", remark: "",
    meaning: "The solver of the distance constraints: \"xpbd\" (compliant position constraints, plain PBD at stiffness 0) or \"softStep\" (Catto's soft step, as in Box2D v3: each constraint a spring of frequency softFrequency and damping ratio softDampingRatio, solved on velocities, warm started, with a relax pass ending each substep; stiffness, pbdCoefficient and damping are XPBD's and it ignores them).",
    type: 'string', rule: { kind: 'oneOf', values: ["xpbd", "softStep"] }, defaultValue: "xpbd", appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "softFrequency", attribute: "soft-frequency", label: "Soft frequency", unit: "Hz", remark: "solver softStep",
    meaning: "Soft step only: the natural frequency f of every distance constraint, a spring of stiffness m_eff (2πf)² for the effective mass m_eff of its two particles. Box2D keeps it at a quarter of the substep rate; at half, a cloth swept once per substep gains energy (docs/experiments.md, four solvers).",
    type: 'number', rule: { kind: 'positive', min: 0.001, max: 1000000 }, defaultValue: 30, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "softDampingRatio", attribute: "soft-damping-ratio", label: "Soft damping ratio", unit: "", remark: "solver softStep",
    meaning: "Soft step only: the damping ratio ζ of every distance constraint (0 undamped, 1 critically damped).",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000 }, defaultValue: 1, appliesOn: 'simulation', group: 'beyond',
  },
  {
    name: "bendingStiffness", attribute: "bending-stiffness", label: "Bending stiffness", unit: "N/m", remark: "0 turns bending off",
    meaning: "Stiffness of the bending constraints (distance constraints between the two neighbours on opposite sides of a particle); compliance 1/k; 0 turns bending off.",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000000000000000 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "tethers", attribute: "tethers", label: "Tethers", unit: "", remark: "",
    meaning: "Long-range attachments: no free particle gets farther from its nearest pinned particle than its rest-path distance, which removes over-stretch.",
    type: 'boolean', rule: { kind: 'flag' }, defaultValue: false, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "friction", attribute: "friction", label: "Friction", unit: "", remark: "",
    meaning: "Coulomb friction coefficient μ of contacts with colliders and between particles: a contact cancels up to μ times the distance it pushed the particle out in the substep of its sliding.",
    type: 'number', rule: { kind: 'range', min: 0, max: 10 }, defaultValue: 0.3, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "restitution", attribute: "restitution", label: "Restitution", unit: "", remark: "",
    meaning: "Coefficient of restitution e of contacts: a contact that stops an approach faster than 2·|gravity|·h leaves with e times that speed (0: no bounce, 1: elastic); undoing an overlap never adds speed.",
    type: 'number', rule: { kind: 'range', min: 0, max: 1 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "particleRadius", attribute: "particle-radius", label: "Particle radius", unit: "m", remark: "",
    meaning: "Radius of each particle in contacts: particles keep this far from colliders and twice this far from each other in self-collision.",
    type: 'number', rule: { kind: 'positive', min: 0.0001, max: 10 }, defaultValue: 0.05, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "selfCollision", attribute: "self-collision", label: "Self-collision", unit: "", remark: "",
    meaning: "Particles of the scene collide with each other (found with a spatial hash), except pairs closer than twice the radius at rest.",
    type: 'boolean', rule: { kind: 'flag' }, defaultValue: false, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "windX", attribute: "wind-x", label: "Wind x", unit: "m/s", remark: "",
    meaning: "Horizontal wind velocity; it pushes each edge through its normal (see windDrag).",
    type: 'number', rule: { kind: 'range', min: -1000, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "windY", attribute: "wind-y", label: "Wind y", unit: "m/s", remark: "",
    meaning: "Vertical wind velocity, y up.",
    type: 'number', rule: { kind: 'range', min: -1000, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "windDrag", attribute: "wind-drag", label: "Wind drag", unit: "kg/m²", remark: "",
    meaning: "Aerodynamic coefficient of an edge: the wind's force on an edge of length L is windDrag·L·(u·n)|u·n| along its normal n, u the wind relative to the edge.",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000000 }, defaultValue: 1, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "windGust", attribute: "wind-gust", label: "Gust strength", unit: "m/s", remark: "",
    meaning: "Gusts: the wind's speed along its direction (x when it is still) rises and falls by up to this much, smoothly, about once a second; 0 keeps it steady.",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "windTurbulence", attribute: "wind-turbulence", label: "Turbulence", unit: "m/s", remark: "",
    meaning: "Turbulence: eddies of about 1 m, carried by the wind and changing within half a second, add up to this much wind in any direction; seeded noise, so every run is the same; 0 turns it off.",
    type: 'number', rule: { kind: 'range', min: 0, max: 1000 }, defaultValue: 0, appliesOn: 'simulation', group: 'scene',
  },
  {
    name: "speed", attribute: "speed", label: "Speed", unit: "", remark: "",
    meaning: "How fast simulated time runs: \"real\" one simulated second per second of the clock on the wall, whatever the display's refresh rate (each frame steps the time since the last, the remainder carried to the next); \"quarter\", \"half\" and \"double\" that times ¼, ½ and 2; \"original\" stepsPerFrame steps every animation frame, as the original demo (8: 4.8 s a second at 60 Hz, twice that at 120 Hz). Stepping gets at most 40 ms a frame; past that fewer steps run, diagnostics().capped is true and the cloth runs slower.",
    type: 'string', rule: { kind: 'oneOf', values: ["quarter", "half", "real", "double", "original"] }, defaultValue: "real", appliesOn: 'loop', group: '',
  },
  {
    name: "stepsPerFrame", attribute: "steps-per-frame", label: "Steps per frame", unit: "", remark: "",
    meaning: "Time steps per animation frame at speed \"original\" (0: only draw); other speeds step with the clock.",
    type: 'number', rule: { kind: 'whole', min: 0, max: 10000 }, defaultValue: 8, appliesOn: 'loop', group: '',
  },
  {
    name: "strainColors", attribute: "strain-colors", label: "Colour by stretch", unit: "", remark: "",
    meaning: "Paint each constraint by its relative stretch (see strainRamp()).",
    type: 'boolean', rule: { kind: 'flag' }, defaultValue: false, appliesOn: 'loop', group: 'beyond',
  },
  {
    name: "renderer", attribute: "renderer", label: "Renderer", unit: "", remark: "",
    meaning: "\"wasm\" rasterizes in wasm (fast); \"canvas\" strokes canvas-2D paths.",
    type: 'string', rule: { kind: 'oneOf', values: ["wasm", "canvas"] }, defaultValue: "wasm", appliesOn: 'loop', group: '',
  },
].map((parameter) => Object.freeze({ ...parameter, rule: Object.freeze(parameter.rule) })));
