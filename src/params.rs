//! Parameters of the cloth and their validation.
//!
//! Every value a user can type reaches the simulation through one of the
//! `validate_*` functions below. Each one either returns the accepted value or a
//! [`ClothError`] that names the field, the rejected value and what is allowed, so
//! the caller can show it next to the input and keep running with the old value.
//!
//! The ranges are wider than anything physically sensible, but narrow enough
//! that every derived quantity (`1/mass`, `compliance/dt²`, `dt*gravity`) stays
//! finite in `f32`, and that no single input can freeze a browser tab.

use std::fmt;

/// Smallest grid side, in particles: a cloth needs at least one cell.
pub const MIN_SIDE: usize = 2;
/// Largest grid side, in particles.
pub const MAX_SIDE: usize = 1000;
/// Largest number of particles (`width * height`). 500 × 500 steps in a few
/// milliseconds in wasm; beyond that one animation frame takes too long.
pub const MAX_PARTICLES: usize = 250_000;
/// Time step range, in seconds.
pub const MIN_TIME_STEP: f64 = 1e-6;
/// Largest accepted time step, in seconds.
pub const MAX_TIME_STEP: f64 = 1.0;
/// Largest number of solver sweeps per step.
pub const MAX_ITERATIONS: u32 = 1000;
/// Largest stiffness, in N/m (1e15 is already rigid in `f32`).
pub const MAX_STIFFNESS: f64 = 1e15;
/// Largest gravity magnitude, in m/s².
pub const MAX_GRAVITY: f64 = 1e6;
/// Mass range of one particle, in kg.
pub const MIN_MASS: f64 = 1e-6;
/// Largest mass of one particle, in kg.
pub const MAX_MASS: f64 = 1e6;
/// Largest number of substeps per time step.
pub const MAX_SUBSTEPS: u32 = 100;
/// Largest constraint damping coefficient, in N·s/m.
pub const MAX_DAMPING: f64 = 1e9;
/// Largest global velocity damping rate, in 1/s.
pub const MAX_VELOCITY_DAMPING: f64 = 1000.0;
/// Largest tear threshold, as a multiple of the rest length.
pub const MAX_TEAR_STRETCH: f64 = 1000.0;

/// Everything that can go wrong when driving a [`crate::Cloth`].
///
/// The message of each variant names the field (or argument), the value that
/// was rejected and what would have been accepted.
#[derive(Debug, Clone, PartialEq)]
pub enum ClothError {
    /// A parameter or argument outside its allowed range.
    InvalidValue {
        /// Name of the field as the JavaScript API spells it (`timeStepSize`, `mass`, ...).
        field: &'static str,
        /// The rejected value, as text.
        value: String,
        /// What would have been accepted, in words.
        allowed: String,
    },
    /// A particle index that does not exist in this cloth.
    ParticleIndex {
        /// The rejected index, as text (it may have been negative or fractional).
        index: String,
        /// Number of particles in the cloth.
        count: usize,
    },
    /// Memory ran out: what was asked for was not built and nothing changed.
    OutOfMemory {
        /// The field (or argument) whose value asked for the memory.
        field: &'static str,
        /// What did not fit and how much it needs, e.g. `a 500 × 500 cloth needs 45 MiB`.
        what: String,
    },
}

impl ClothError {
    /// The JavaScript name of the field or argument the error is about
    /// (`"timeStepSize"`, `"width"`, `"index"`, ...).
    pub fn field(&self) -> &'static str {
        match self {
            ClothError::InvalidValue { field, .. } | ClothError::OutOfMemory { field, .. } => field,
            ClothError::ParticleIndex { .. } => "index",
        }
    }

    /// A short code that stays the same whatever the wording of the message:
    /// `"invalid_value"`, `"particle_index"` or `"out_of_memory"`.
    pub fn code(&self) -> &'static str {
        match self {
            ClothError::InvalidValue { .. } => "invalid_value",
            ClothError::ParticleIndex { .. } => "particle_index",
            ClothError::OutOfMemory { .. } => "out_of_memory",
        }
    }
}

impl fmt::Display for ClothError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClothError::InvalidValue {
                field,
                value,
                allowed,
            } => write!(f, "invalid {field}: got {value}, expected {allowed}"),
            ClothError::ParticleIndex { index, count } => write!(
                f,
                "invalid particle index: got {index}, expected a whole number from 0 to {}",
                count.saturating_sub(1)
            ),
            ClothError::OutOfMemory { what, .. } => write!(f, "out of memory: {what}"),
        }
    }
}

impl std::error::Error for ClothError {}

/// A number shown the way JavaScript shows it in messages: `NaN`, `Infinity`,
/// `-Infinity`, and exponent form for very large or small values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(pub f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            write!(f, "NaN")
        } else if v.is_infinite() {
            write!(f, "{}Infinity", if v < 0.0 { "-" } else { "" })
        } else if v == 0.0 || (1e-7..1e21).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

/// Characters of a string an error message shows at most.
pub const ECHO_CHARS: usize = 40;

/// `text` quoted for a message, cut after [`ECHO_CHARS`] characters: a message
/// never grows with what it is about. `length` is the length of the whole
/// string (in the caller's unit: JavaScript counts UTF-16 units) when `text`
/// is only its beginning; a cut string ends in `…` and states the length.
pub fn quoted(text: &str, length: usize) -> String {
    let shown: String = text.chars().take(ECHO_CHARS).collect();
    if shown.len() == text.len() && length <= shown.chars().count() {
        format!("{shown:?}")
    } else {
        format!("{shown:?}… ({length} characters)")
    }
}

fn invalid(
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> ClothError {
    ClothError::InvalidValue {
        field,
        value: value.to_string(),
        allowed: allowed.into(),
    }
}

/// Which particles are fixed when the cloth is built (the original page's select).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FixedPreset {
    /// Particle 0, the top-left corner.
    One,
    /// The two top corners, `0` and `width - 1`. The default.
    #[default]
    Two,
    /// All four corners.
    Four,
}

impl FixedPreset {
    /// How many particles this preset fixes.
    pub fn count(self) -> usize {
        match self {
            FixedPreset::One => 1,
            FixedPreset::Two => 2,
            FixedPreset::Four => 4,
        }
    }

    /// The preset for a count of 1, 2 or 4.
    pub fn from_count(count: f64) -> Result<Self, ClothError> {
        if count == 1.0 {
            Ok(FixedPreset::One)
        } else if count == 2.0 {
            Ok(FixedPreset::Two)
        } else if count == 4.0 {
            Ok(FixedPreset::Four)
        } else {
            Err(invalid("fixedCount", Number(count), "1, 2 or 4"))
        }
    }
}

/// The shape of the grid: fixed when the cloth is built (changed by a restart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSize {
    /// Particles per row. Default 40.
    pub width: usize,
    /// Number of rows. Default 30.
    pub height: usize,
}

impl Default for GridSize {
    fn default() -> Self {
        GridSize {
            width: 40,
            height: 30,
        }
    }
}

impl GridSize {
    /// Validates a grid size given as numbers (as JavaScript passes them).
    pub fn new(width: f64, height: f64) -> Result<Self, ClothError> {
        let width = validate_whole("width", width, MIN_SIDE as f64, MAX_SIDE as f64, "")?;
        let height = validate_whole("height", height, MIN_SIDE as f64, MAX_SIDE as f64, "")?;
        let (width, height) = (width as usize, height as usize);
        if width * height > MAX_PARTICLES {
            return Err(invalid(
                "width",
                format!(
                    "{width} (with height {height}: {} particles)",
                    width * height
                ),
                format!("width × height at most {MAX_PARTICLES} particles"),
            ));
        }
        Ok(GridSize { width, height })
    }

    /// Number of particles, `width * height`.
    pub fn num_particles(self) -> usize {
        self.width.saturating_mul(self.height)
    }
}

/// The order in which one Gauss–Seidel sweep visits the constraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolverOrder {
    /// Creation order, as the original demo: reproduces its results.
    Original,
    /// Grouped by graph colour so independent constraints are solved together,
    /// four at a time: faster, and an equally valid sweep. The default.
    #[default]
    Colored,
}

impl SolverOrder {
    /// The name used by the JavaScript API: `"original"` or `"colored"`.
    pub fn name(self) -> &'static str {
        match self {
            SolverOrder::Original => "original",
            SolverOrder::Colored => "colored",
        }
    }

    /// Parses `"original"` or `"colored"`.
    pub fn from_name(name: &str) -> Result<Self, ClothError> {
        match name {
            "original" => Ok(SolverOrder::Original),
            "colored" => Ok(SolverOrder::Colored),
            _ => Err(invalid(
                "solverOrder",
                quoted(name, name.chars().count()),
                "\"original\" or \"colored\"",
            )),
        }
    }
}

/// The live parameters of the solver: each can change while the cloth runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Time step size `dt`, in seconds. Default 0.01. Range 1e-6..=1.
    pub time_step: f64,
    /// Gauss–Seidel sweeps over all constraints per step. Default 5. Range 1..=1000.
    pub iterations: u32,
    /// Constraint stiffness `k`, in N/m; compliance is `α = 1/k`. 0 means
    /// infinitely stiff (`α = 0`), which is plain PBD. Default 1000. Range 0..=1e15.
    pub stiffness: f64,
    /// Vertical acceleration, in m/s² (y points up, so Earth is negative).
    /// Default -9.81. Range -1e6..=1e6.
    pub gravity: f64,
    /// Mass of every particle, in kg; free particles get inverse mass `1/mass`.
    /// Default 0.5. Range 1e-6..=1e6.
    pub mass: f64,
    /// Sub-steps per time step ("small steps"): each runs its own prediction,
    /// multiplier reset, `iterations` sweeps and velocity update with `dt/substeps`.
    /// Default 1. Range 1..=100.
    pub substeps: u32,
    /// Constraint damping coefficient `β`, in N·s/m: damps the stretching
    /// velocity along each constraint (XPBD's `γ = α β / h` term). Has no effect
    /// in PBD mode (stiffness 0, `α = 0`). Default 0. Range 0..=1e9.
    pub damping: f64,
    /// Global velocity damping rate, in 1/s: after each substep every velocity is
    /// scaled by `max(0, 1 - rate·h)`. Default 0. Range 0..=1000.
    pub velocity_damping: f64,
    /// Tearing: a constraint longer than `tear_stretch × rest_length` breaks for
    /// good. 0 turns tearing off. Default 0 (off). Range 0, or 1..=1000 exclusive of 1.
    pub tear_stretch: f64,
    /// Sweep order of the Gauss–Seidel solver. Default [`SolverOrder::Colored`].
    pub solver_order: SolverOrder,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            time_step: 0.01,
            iterations: 5,
            stiffness: 1000.0,
            gravity: -9.81,
            mass: 0.5,
            substeps: 1,
            damping: 0.0,
            velocity_damping: 0.0,
            tear_stretch: 0.0,
            solver_order: SolverOrder::default(),
        }
    }
}

impl Params {
    /// Compliance `α = 1/k` in m/N, or 0 for PBD (stiffness 0).
    pub fn compliance(&self) -> f64 {
        if self.stiffness == 0.0 {
            0.0
        } else {
            1.0 / self.stiffness
        }
    }

    /// The substep size `h = dt / substeps`, in seconds.
    pub fn substep_size(&self) -> f64 {
        self.time_step / self.substeps as f64
    }

    /// Checks every field; the first invalid one is reported.
    pub fn validate(&self) -> Result<(), ClothError> {
        validate_time_step(self.time_step)?;
        validate_iterations(self.iterations as f64)?;
        validate_stiffness(self.stiffness)?;
        validate_gravity(self.gravity)?;
        validate_mass(self.mass)?;
        validate_substeps(self.substeps as f64)?;
        validate_damping(self.damping)?;
        validate_velocity_damping(self.velocity_damping)?;
        validate_tear_stretch(self.tear_stretch)?;
        Ok(())
    }
}

fn validate_range(
    field: &'static str,
    value: f64,
    min: f64,
    max: f64,
    unit: &str,
) -> Result<f64, ClothError> {
    if value.is_finite() && value >= min && value <= max {
        Ok(value)
    } else {
        Err(invalid(
            field,
            Number(value),
            format!("a finite number from {min} to {max}{unit}"),
        ))
    }
}

fn validate_whole(
    field: &'static str,
    value: f64,
    min: f64,
    max: f64,
    unit: &str,
) -> Result<f64, ClothError> {
    if value.is_finite() && value.fract() == 0.0 && value >= min && value <= max {
        Ok(value)
    } else {
        Err(invalid(
            field,
            Number(value),
            format!("a whole number from {min} to {max}{unit}"),
        ))
    }
}

/// Accepts a strictly positive quantity from `min` to `max`; zero and negative
/// values get their own wording ("greater than 0"), which says more than a range.
fn validate_positive(
    field: &'static str,
    what: &str,
    value: f64,
    (min, max): (f64, f64),
    unit: &str,
) -> Result<f64, ClothError> {
    if value.is_finite() && value <= 0.0 {
        let allowed = format!("{what} greater than 0, from {min} to {max}{unit}");
        return Err(invalid(field, Number(value), allowed));
    }
    validate_range(field, value, min, max, unit)
}

/// Accepts a time step in seconds: finite, from 1e-6 to 1.
pub fn validate_time_step(value: f64) -> Result<f64, ClothError> {
    let range = (MIN_TIME_STEP, MAX_TIME_STEP);
    validate_positive("timeStepSize", "a time step", value, range, " s")
}

/// Accepts a whole number of iterations from 1 to 1000.
pub fn validate_iterations(value: f64) -> Result<u32, ClothError> {
    validate_whole("iterations", value, 1.0, MAX_ITERATIONS as f64, "").map(|v| v as u32)
}

/// Accepts a stiffness in N/m: finite, from 0 (PBD) to 1e15.
pub fn validate_stiffness(value: f64) -> Result<f64, ClothError> {
    validate_range("stiffness", value, 0.0, MAX_STIFFNESS, " N/m (0 means PBD)")
}

/// Accepts a gravity in m/s²: finite, magnitude at most 1e6.
pub fn validate_gravity(value: f64) -> Result<f64, ClothError> {
    validate_range("gravity", value, -MAX_GRAVITY, MAX_GRAVITY, " m/s²")
}

/// Accepts a particle mass in kg: finite, from 1e-6 to 1e6.
pub fn validate_mass(value: f64) -> Result<f64, ClothError> {
    validate_positive("mass", "a mass", value, (MIN_MASS, MAX_MASS), " kg")
}

/// Accepts a whole number of substeps from 1 to 100.
pub fn validate_substeps(value: f64) -> Result<u32, ClothError> {
    validate_whole("substeps", value, 1.0, MAX_SUBSTEPS as f64, "").map(|v| v as u32)
}

/// Accepts a constraint damping coefficient in N·s/m: finite, from 0 to 1e9.
pub fn validate_damping(value: f64) -> Result<f64, ClothError> {
    validate_range("damping", value, 0.0, MAX_DAMPING, " N·s/m")
}

/// Accepts a global velocity damping rate in 1/s: finite, from 0 to 1000.
pub fn validate_velocity_damping(value: f64) -> Result<f64, ClothError> {
    validate_range("velocityDamping", value, 0.0, MAX_VELOCITY_DAMPING, " 1/s")
}

/// Accepts a tear threshold: 0 (off) or a stretch factor above 1, up to 1000.
pub fn validate_tear_stretch(value: f64) -> Result<f64, ClothError> {
    if value == 0.0 || (value.is_finite() && value > 1.0 && value <= MAX_TEAR_STRETCH) {
        Ok(value)
    } else {
        Err(invalid(
            "tearStretch",
            Number(value),
            format!(
                "0 (no tearing) or a factor of the rest length above 1, up to {MAX_TEAR_STRETCH}"
            ),
        ))
    }
}

// ----- the work of a step ------------------------------------------------------

/// What a step costs, in *work units*: one unit is about a nanosecond of the
/// wasm build in headless Chromium on the reference machine (2 cores; see
/// README, "Limits and errors"). Each weight is the measured cost of one piece
/// of work, taken from the slowest cloths measured (500 × 500 and 1000 × 250,
/// whose arrays no longer fit in the caches; a torn-up cloth for the runs) and
/// rounded up; `node scripts/bench-browser.mjs --worst-case` prints the
/// measurements next to them. Measured (2026-11-23, fastest of five rounds, a
/// quiet machine; under load everything takes up to twice as long): coloured
/// solve 1.5 ns intact and 3.9–5.0 ns per live constraint once tearing has cut
/// the runs up, original 12.4 ns, damped 8.1–8.5 ns in coloured order and 18 ns
/// in original order, prediction and velocity update together 3.8 ns per
/// particle, the tear check 7.0 ns, velocity damping 0.3 ns, a sweep of a 2 × 2
/// cloth 70–100 ns. The worst accepted step measured 389 ms, the worst
/// `steps(n)` 1193 ms.
pub mod work {
    /// One constraint solve in the coloured SIMD sweep.
    pub const SOLVE_COLORED: u64 = 3;
    /// Each run of the coloured sweep, per sweep: a call and its scalar tail.
    pub const COLORED_RUN: u64 = 25;
    /// Each constraint the coloured sweep gathers one by one, on top of
    /// [`SOLVE_COLORED`].
    pub const COLORED_SCATTERED: u64 = 4;
    /// One constraint solve in the scalar sweep in creation order.
    pub const SOLVE_ORIGINAL: u64 = 16;
    /// One constraint solve in the scalar damped sweep (any order): constraint
    /// damping above 0 runs on this path.
    pub const SOLVE_DAMPED: u64 = 24;
    /// Fixed cost of one sweep.
    pub const SWEEP: u64 = 50;
    /// Per particle per substep: the prediction (with saving the positions).
    pub const PREDICT: u64 = 3;
    /// Per particle per substep: the velocity update.
    pub const VELOCITY_UPDATE: u64 = 2;
    /// Per particle per coloured block of sweeps: splitting positions into x and
    /// y arrays and merging them back (once per substep in a whole step).
    pub const SPLIT_MERGE: u64 = 4;
    /// Per live constraint per substep: resetting its multiplier.
    pub const CONSTRAINT_SUBSTEP: u64 = 1;
    /// Per live constraint per substep with tearing on: the stretch check (and
    /// moving torn constraints behind the live ones).
    pub const TEAR_CHECK: u64 = 10;
    /// Per particle per substep with velocity damping on.
    pub const VELOCITY_DAMPING: u64 = 1;
    /// Per particle per step: saving the start of the step, the divergence check.
    pub const PARTICLE_STEP: u64 = 3;
    /// Fixed cost of a substep.
    pub const SUBSTEP: u64 = 200;
    /// Fixed cost of a step.
    pub const STEP: u64 = 1_000;
}

/// Most work one time step may take: about half a second (README, "Limits and
/// errors", has the measured worst case), so no single step can freeze a tab.
pub const MAX_WORK_PER_STEP: u64 = 500_000_000;

/// Most work one `steps(n)` or `advance` call may take: about 1.5 seconds.
pub const MAX_WORK_PER_CALL: u64 = 3 * MAX_WORK_PER_STEP;

/// The sweep a substep runs, which sets the cost of each constraint solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepPath {
    /// Four constraints at a time with SIMD ([`SolverOrder::Colored`], no damping).
    Colored,
    /// One by one in creation order ([`SolverOrder::Original`], no damping).
    Original,
    /// One by one with constraint damping (`damping > 0`, either order).
    Damped,
}

impl SweepPath {
    /// The path the solver takes with parameters `p`.
    pub fn of(p: &Params) -> SweepPath {
        if p.damping > 0.0 {
            SweepPath::Damped
        } else if p.solver_order == SolverOrder::Original {
            SweepPath::Original
        } else {
            SweepPath::Colored
        }
    }
}

/// What a step works on: the sizes its cost depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Workload {
    /// Particles of the cloth.
    pub particles: usize,
    /// Live (untorn) constraints.
    pub constraints: usize,
    /// The coloured sweep's runs and scattered constraints (see
    /// [`crate::constraints::ColoredLayout`]); used on the coloured path only.
    pub colored_runs: usize,
    /// See `colored_runs`.
    pub colored_scattered: usize,
}

/// Work units of one constraint solve on a scalar path (on the coloured one,
/// see [`colored_run_cost`]).
pub fn solve_cost(path: SweepPath) -> u64 {
    match path {
        SweepPath::Colored => work::SOLVE_COLORED,
        SweepPath::Original => work::SOLVE_ORIGINAL,
        SweepPath::Damped => work::SOLVE_DAMPED,
    }
}

/// Work units of one coloured run of `constraints` constraints, `scattered` of
/// them gathered one by one.
pub fn colored_run_cost(constraints: usize, scattered: usize) -> u64 {
    work::COLORED_RUN
        + constraints as u64 * work::SOLVE_COLORED
        + scattered as u64 * work::COLORED_SCATTERED
}

/// Work units of one sweep over the constraints of `load` on `path`.
pub fn sweep_cost(path: SweepPath, load: &Workload) -> u64 {
    let m = load.constraints as u64;
    work::SWEEP
        + match path {
            SweepPath::Colored => {
                m * work::SOLVE_COLORED
                    + load.colored_runs as u64 * work::COLORED_RUN
                    + load.colored_scattered as u64 * work::COLORED_SCATTERED
            }
            path => m * solve_cost(path),
        }
}

/// The work units of one substep's fixed part: everything but the sweeps.
pub fn substep_overhead(p: &Params, load: &Workload) -> u64 {
    let (n, m) = (load.particles as u64, load.constraints as u64);
    let mut cost =
        work::SUBSTEP + n * (work::PREDICT + work::VELOCITY_UPDATE) + m * work::CONSTRAINT_SUBSTEP;
    if SweepPath::of(p) == SweepPath::Colored && m > 0 {
        cost += n * work::SPLIT_MERGE;
    }
    if p.velocity_damping > 0.0 {
        cost += n * work::VELOCITY_DAMPING;
    }
    if p.tear_stretch > 0.0 {
        cost += m * work::TEAR_CHECK;
    }
    cost
}

/// The work units of one step with parameters `p` on the cloth `load`: every
/// sweep on its path, the per-particle work of every substep, tearing and
/// damping checks, and the step's own overhead. Never 0, even for a cloth whose
/// constraints all tore.
pub fn work_per_step(p: &Params, load: &Workload) -> u64 {
    let sweeps = p.iterations as u64 * sweep_cost(SweepPath::of(p), load);
    let substep = substep_overhead(p, load) + sweeps;
    work::STEP + load.particles as u64 * work::PARTICLE_STEP + p.substeps as u64 * substep
}

/// Checks that one step with parameters `p` stays within [`MAX_WORK_PER_STEP`] on
/// the cloth `load`; the error names `field`, the one being changed, and its `value`.
pub fn validate_work(
    field: &'static str,
    value: impl fmt::Display,
    p: &Params,
    load: &Workload,
) -> Result<(), ClothError> {
    let work = work_per_step(p, load);
    if work <= MAX_WORK_PER_STEP {
        return Ok(());
    }
    let switch = |on: bool| if on { "on" } else { "off" };
    Err(invalid(
        field,
        value,
        format!(
            "a value that keeps one step within the work limit: with it a step needs {work} \
             work units, at most {MAX_WORK_PER_STEP} (about 0.5 s) are allowed (this cloth: \
             {} particles, {} constraints; substeps {}, iterations {}, solverOrder {}, \
             damping {}, velocityDamping {}, tearing {}); lower substeps or iterations, or \
             use a smaller cloth",
            load.particles,
            load.constraints,
            p.substeps,
            p.iterations,
            p.solver_order.name(),
            switch(p.damping > 0.0),
            switch(p.velocity_damping > 0.0),
            switch(p.tear_stretch > 0.0),
        ),
    ))
}

/// How far from the origin anything may be, in metres: a point further out is
/// refused, and a cloth that gets there counts as diverged.
pub const MAX_COORDINATE: f64 = 1e6;

/// Accepts a point coordinate in metres: finite, within ±1e6 m.
pub fn validate_coordinate(field: &'static str, value: f64) -> Result<f32, ClothError> {
    validate_range(field, value, -MAX_COORDINATE, MAX_COORDINATE, " m").map(|v| v as f32)
}

/// Accepts a particle index (given as a number, as JavaScript passes it).
pub fn validate_index(value: f64, count: usize) -> Result<usize, ClothError> {
    if value.is_finite() && value.fract() == 0.0 && value >= 0.0 && value < count as f64 {
        Ok(value as usize)
    } else {
        Err(ClothError::ParticleIndex {
            index: Number(value).to_string(),
            count,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_field_value_and_range() {
        let err = validate_mass(0.0).unwrap_err().to_string();
        assert!(err.contains("mass"), "{err}");
        assert!(err.contains("got 0"), "{err}");
        assert!(err.contains("greater than 0"), "{err}");
        let err = validate_time_step(-1.0).unwrap_err().to_string();
        assert!(
            err.contains("timeStepSize") && err.contains("got -1"),
            "{err}"
        );
        let err = GridSize::new(0.0, 30.0).unwrap_err().to_string();
        assert!(err.contains("width") && err.contains("got 0"), "{err}");
    }

    #[test]
    fn messages_echo_a_short_beginning_of_long_strings() {
        assert_eq!(quoted("fast", 4), "\"fast\"");
        let long = "x".repeat(1_000_000);
        let err = SolverOrder::from_name(&long).unwrap_err().to_string();
        assert!(err.len() < 200, "{} bytes", err.len());
        assert!(
            err.starts_with(&format!(
                "invalid solverOrder: got \"{}\"… (1000000 characters)",
                "x".repeat(40)
            )),
            "{err}"
        );
        // cut by characters, not bytes: no panic inside a multi-byte character
        let wide = "é".repeat(100);
        assert_eq!(
            quoted(&wide, 100),
            format!("{:?}… (100 characters)", "é".repeat(40))
        );
        // a beginning of a longer string says so even when it is short itself
        assert_eq!(quoted("abc", 5000), "\"abc\"… (5000 characters)");
    }

    #[test]
    fn errors_carry_their_field_and_code() {
        let err = validate_mass(0.0).unwrap_err();
        assert_eq!((err.field(), err.code()), ("mass", "invalid_value"));
        let err = validate_index(-1.0, 4).unwrap_err();
        assert_eq!((err.field(), err.code()), ("index", "particle_index"));
        let err = GridSize::new(2.0, 1e300).unwrap_err();
        assert_eq!((err.field(), err.code()), ("height", "invalid_value"));
    }

    #[test]
    fn particle_ceiling_applies_to_the_product() {
        assert!(GridSize::new(500.0, 500.0).is_ok());
        assert!(GridSize::new(501.0, 500.0).is_err());
        assert!(GridSize::new(100000.0, 2.0).is_err());
    }

    #[test]
    fn non_numbers_are_rejected_everywhere() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(validate_time_step(bad).is_err());
            assert!(validate_iterations(bad).is_err());
            assert!(validate_stiffness(bad).is_err());
            assert!(validate_gravity(bad).is_err());
            assert!(validate_mass(bad).is_err());
            assert!(validate_index(bad, 10).is_err());
            assert!(GridSize::new(bad, 3.0).is_err());
            assert!(FixedPreset::from_count(bad).is_err());
        }
        assert!(validate_iterations(2.5).is_err());
        assert!(validate_index(-1.0, 10).is_err());
        assert!(validate_index(10.0, 10).is_err());
        assert_eq!(validate_index(9.0, 10), Ok(9));
    }
}
