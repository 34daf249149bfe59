// Generated from PARAMETERS in src/params/table.rs by `XPBD_BLESS=1 cargo test --test
// generated`: change the Rust source, not this file.

/** One entry of the parameter table (see src/params/table.rs for each field). */
export interface Parameter {
  readonly name: ParameterName;
  readonly attribute: ElementAttribute;
  readonly label: string;
  readonly unit: string;
  readonly remark: string;
  readonly meaning: string;
  readonly type: 'number' | 'string' | 'boolean';
  readonly rule:
    | { readonly kind: 'range' | 'positive' | 'whole'; readonly min: number; readonly max: number }
    | { readonly kind: 'offOrAbove'; readonly above: number; readonly max: number }
    | { readonly kind: 'oneOf'; readonly values: readonly (number | string)[] }
    | { readonly kind: 'flag' };
  readonly defaultValue: number | string | boolean;
  readonly appliesOn: 'restart' | 'simulation' | 'loop';
  readonly group: 'cloth' | 'solver' | 'beyond' | '';
}

/** Every parameter, in the order the page lists them. */
export declare const PARAMETERS: readonly Parameter[];

/** The value of every parameter, by name (mountCloth options, `set`, `options`). */
export interface ParameterValues {
  /** The scene built on restart (see Simulation.preset): the grid cloth, a rope, the three-particle cord, a balloon, a soft body, a flag in the wind, a cloth over a ball, a trampoline, a rope bridge, a wrecking ball and a curtain, a stack of boxes, or a plastic can. Accepts `"cloth"` or `"rope"` or `"double-pendulum"` or `"balloon"` or `"soft-body"` or `"flag"` or `"cloth-over-ball"` or `"trampoline"` or `"rope-bridge"` or `"wrecking-ball"` or `"box-stack"` or `"plastic-can"`. Default "cloth". Applies on restart. */
  preset: "cloth" | "rope" | "double-pendulum" | "balloon" | "soft-body" | "flag" | "cloth-over-ball" | "trampoline" | "rope-bridge" | "wrecking-ball" | "box-stack" | "plastic-can";
  /** Particles per row (at most 250000 particles in all). Unit: particles. Accepts whole, 2..1000. Default 40. Applies on restart. */
  width: number;
  /** Particles per column (at most 250000 particles in all). Unit: particles. Accepts whole, 2..1000. Default 30. Applies on restart. */
  height: number;
  /** Fixed corner particles: 1 (top left), 2 (top corners) or 4 (all corners). Accepts 1, 2 or 4. Default 2. Applies on restart. */
  fixed: number;
  /** Time step Δt: simulated time one step advances. Unit: s. Accepts 1e-6..1. Default 0.01. Applies at once. */
  timeStepSize: number;
  /** Gauss–Seidel sweeps over all constraints per (sub)step. Accepts whole, 1..1000. Default 5. Applies at once. */
  iterations: number;
  /** Constraint stiffness k; compliance α = 1/k, and 0 means rigid (plain PBD). Unit: N/m. Accepts 0..1e15. Default 1000. Applies at once. */
  stiffness: number;
  /** Plain PBD's stiffness coefficient k (0 < k ≤ 1): scales each correction of a rigid distance constraint (stiffness 0, or a scene constraint of compliance 0), so n iterations close 1 − (1 − k)ⁿ of a lone constraint's error; 1 is full PBD. XPBD constraints (stiffness > 0) ignore it. Accepts 1e-4..1. Default 1. Applies at once. */
  pbdCoefficient: number;
  /** Vertical acceleration, y up (Earth is negative). Unit: m/s². Accepts -1e6..1e6. Default -9.81. Applies at once. */
  gravity: number;
  /** Mass of every free particle (inverse mass 1/mass); a scene with its own masses reads their mean here, and setting it scales them all alike. Unit: kg. Accepts 1e-6..1e6. Default 0.5. Applies at once. */
  mass: number;
  /** Substeps per time step ("small steps"): each runs prediction, `iterations` sweeps and the velocity update with Δt/substeps. Accepts whole, 1..100. Default 1. Applies at once. */
  substeps: number;
  /** Constraint damping β: resists how fast each constraint stretches (XPBD's γ = αβ/h term; none in PBD mode). Unit: N·s/m. Accepts 0..1e9. Default 0. Applies at once. */
  damping: number;
  /** Global velocity damping rate: after each substep every velocity is scaled by max(0, 1 − rate·h). Unit: 1/s. Accepts 0..1000. Default 0. Applies at once. */
  velocityDamping: number;
  /** A constraint longer than this × its rest length breaks for good; 0 turns tearing off. Accepts 0 (off) or >1..1000. Default 0. Applies at once. */
  tearStretch: number;
  /** Sweep order: "colored" solves independent constraints four at a time (fast); "original" sweeps in creation order, as the original demo. Accepts `"colored"` or `"original"`. Default "colored". Applies at once. */
  solverOrder: "colored" | "original";
  /** The solver of the distance constraints: "xpbd" (compliant position constraints, plain PBD at stiffness 0) or "softStep" (Catto's soft step, as in Box2D v3: each constraint a spring of frequency softFrequency and damping ratio softDampingRatio, solved on velocities, warm started, with a relax pass ending each substep; stiffness, pbdCoefficient and damping are XPBD's and it ignores them). Accepts `"xpbd"` or `"softStep"`. Default "xpbd". Applies at once. */
  solver: "xpbd" | "softStep";
  /** Soft step only: the natural frequency f of every distance constraint, a spring of stiffness m_eff (2πf)² for the effective mass m_eff of its two particles. Box2D keeps it at a quarter of the substep rate; at half, a cloth swept once per substep gains energy (docs/experiments.md, four solvers). Unit: Hz. Accepts 0.001..1e6. Default 30. Applies at once. */
  softFrequency: number;
  /** Soft step only: the damping ratio ζ of every distance constraint (0 undamped, 1 critically damped). Accepts 0..1000. Default 1. Applies at once. */
  softDampingRatio: number;
  /** Stiffness of the bending constraints (distance constraints between the two neighbours on opposite sides of a particle); compliance 1/k; 0 turns bending off. Unit: N/m. Accepts 0..1e15. Default 0. Applies at once. */
  bendingStiffness: number;
  /** Long-range attachments: no free particle gets farther from its nearest pinned particle than its rest-path distance, which removes over-stretch. Accepts true or false. Default false. Applies at once. */
  tethers: boolean;
  /** Coulomb friction coefficient μ of contacts with colliders and between particles: a contact cancels up to μ times the distance it pushed the particle out in the substep of its sliding. Accepts 0..10. Default 0.3. Applies at once. */
  friction: number;
  /** Coefficient of restitution e of contacts: a contact that stops an approach faster than 2·|gravity|·h leaves with e times that speed (0: no bounce, 1: elastic); undoing an overlap never adds speed. Accepts 0..1. Default 0. Applies at once. */
  restitution: number;
  /** Radius of each particle in contacts: particles keep this far from colliders and twice this far from each other in self-collision. Unit: m. Accepts 1e-4..10. Default 0.05. Applies at once. */
  particleRadius: number;
  /** Particles of the scene collide with each other (found with a spatial hash), except pairs closer than twice the radius at rest. Accepts true or false. Default false. Applies at once. */
  selfCollision: boolean;
  /** Horizontal wind velocity; it pushes each edge through its normal (see windDrag). Unit: m/s. Accepts -1000..1000. Default 0. Applies at once. */
  windX: number;
  /** Vertical wind velocity, y up. Unit: m/s. Accepts -1000..1000. Default 0. Applies at once. */
  windY: number;
  /** Aerodynamic coefficient of an edge: the wind's force on an edge of length L is windDrag·L·(u·n)|u·n| along its normal n, u the wind relative to the edge. Unit: kg/m². Accepts 0..1e6. Default 1. Applies at once. */
  windDrag: number;
  /** Gusts: the wind's speed along its direction (x when it is still) rises and falls by up to this much, smoothly, about once a second; 0 keeps it steady. Unit: m/s. Accepts 0..1000. Default 0. Applies at once. */
  windGust: number;
  /** Turbulence: eddies of about 1 m, carried by the wind and changing within half a second, add up to this much wind in any direction; seeded noise, so every run is the same; 0 turns it off. Unit: m/s. Accepts 0..1000. Default 0. Applies at once. */
  windTurbulence: number;
  /** How fast simulated time runs: "real" one simulated second per second of the clock on the wall, whatever the display's refresh rate (each frame steps the time since the last, the remainder carried to the next); "quarter", "half" and "double" that times ¼, ½ and 2; "original" stepsPerFrame steps every animation frame, as the original demo (8: 4.8 s a second at 60 Hz, twice that at 120 Hz). Stepping gets at most 40 ms a frame; past that fewer steps run, diagnostics().capped is true and the cloth runs slower. Accepts `"quarter"` or `"half"` or `"real"` or `"double"` or `"original"`. Default "real". Applies at once. */
  speed: "quarter" | "half" | "real" | "double" | "original";
  /** Time steps per animation frame at speed "original" (0: only draw); other speeds step with the clock. Accepts whole, 0..10000. Default 8. Applies at once. */
  stepsPerFrame: number;
  /** Paint each constraint by its relative stretch (see strainRamp()). Accepts true or false. Default false. Applies at once. */
  strainColors: boolean;
  /** "wasm" rasterizes in wasm (fast); "canvas" strokes canvas-2D paths. Accepts `"wasm"` or `"canvas"`. Default "wasm". Applies at once. */
  renderer: "wasm" | "canvas";
}

/** A parameter's name. */
export type ParameterName = keyof ParameterValues;

/** The parameters `set` changes on a running cloth. */
export type LiveParameterName = 'timeStepSize' | 'iterations' | 'stiffness' | 'pbdCoefficient' | 'gravity' | 'mass' | 'substeps' | 'damping' | 'velocityDamping' | 'tearStretch' | 'solverOrder' | 'solver' | 'softFrequency' | 'softDampingRatio' | 'bendingStiffness' | 'tethers' | 'friction' | 'restitution' | 'particleRadius' | 'selfCollision' | 'windX' | 'windY' | 'windDrag' | 'windGust' | 'windTurbulence' | 'speed' | 'stepsPerFrame' | 'strainColors' | 'renderer';

/** The <xpbd-cloth> attribute of each parameter. */
export type ElementAttribute = 'preset' | 'width' | 'height' | 'fixed' | 'time-step' | 'iterations' | 'stiffness' | 'pbd-coefficient' | 'gravity' | 'mass' | 'substeps' | 'damping' | 'velocity-damping' | 'tear-stretch' | 'solver-order' | 'solver' | 'soft-frequency' | 'soft-damping-ratio' | 'bending-stiffness' | 'tethers' | 'friction' | 'restitution' | 'particle-radius' | 'self-collision' | 'wind-x' | 'wind-y' | 'wind-drag' | 'wind-gust' | 'wind-turbulence' | 'speed' | 'steps-per-frame' | 'strain-colors' | 'renderer';
