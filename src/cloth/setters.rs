//! Setting the parameters: each setter checks its value against the table's
//! rule, and the ones that make a step dearer against the work limit, and
//! changes nothing when it refuses. What the constraint kinds need for a
//! feature switched on is reserved before the feature is accepted.

use super::Cloth;
use crate::error::{self, ClothError};
use crate::kinds::Topology;
use crate::params::{self, Parameter, Params, SolverKind, SolverOrder, Value};
use crate::solver::order::ConstraintSet;

/// The connectivity the constraint kinds read: the live constraints and the pins.
fn topology<'a>(constraints: &'a ConstraintSet, pinned: &'a [bool]) -> Topology<'a> {
    Topology {
        ids: constraints.ids(),
        rest_lengths: constraints.rest_lengths(),
        built_with: constraints.built_with(),
        pinned,
    }
}

impl Cloth {
    /// The live solver parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Replaces all parameters at once, after validating each; on error nothing changes.
    /// Values apply as their setters' do (see [`Cloth::advance`]).
    pub fn set_params(&mut self, p: Params) -> Result<(), ClothError> {
        p.validate()?;
        self.validate_work("iterations", &p.iterations, &p)?;
        self.prepare_kinds(&p)?;
        self.params = p;
        self.update_inverse_masses();
        self.arrange_constraints();
        Ok(())
    }

    /// Sets the time step `dt` in seconds (1e-6..=1). A step in progress keeps its own.
    pub fn set_time_step(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::TIME_STEP.name, Value::Number(value))
    }

    /// Sets the solver sweeps per step (1..=1000).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_iterations(&mut self, value: u32) -> Result<(), ClothError> {
        self.set_parameter(params::ITERATIONS.name, Value::Number(value.into()))
    }

    /// Sets the stiffness in N/m (0..=1e15; 0 is PBD).
    pub fn set_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::STIFFNESS.name, Value::Number(value))
    }

    /// Sets plain PBD's stiffness coefficient k (0 < k <= 1; 1 is full PBD),
    /// which scales the corrections of rigid distance constraints only.
    pub fn set_pbd_coefficient(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::PBD_COEFFICIENT.name, Value::Number(value))
    }

    /// Sets gravity in m/s² (-1e6..=1e6; negative pulls down).
    pub fn set_gravity(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::GRAVITY.name, Value::Number(value))
    }

    /// Sets the mass of every free particle in kg (1e-6..=1e6); a scene's own
    /// masses are scaled alike so that their mean is the value (see
    /// [`Cloth::from_scene`]).
    pub fn set_mass(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::MASS.name, Value::Number(value))
    }

    /// Sets the substeps per time step (1..=100).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_substeps(&mut self, value: u32) -> Result<(), ClothError> {
        self.set_parameter(params::SUBSTEPS.name, Value::Number(value.into()))
    }

    /// Sets the constraint damping coefficient in N·s/m (0..=1e9). Above 0 the
    /// sweeps run on the slower scalar damped path, so turning it on is refused
    /// when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_damping(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::DAMPING.name, Value::Number(value))
    }

    /// Sets the global velocity damping rate in 1/s (0..=1000); turning it on
    /// is refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_velocity_damping(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::VELOCITY_DAMPING.name, Value::Number(value))
    }

    /// Sets the tear threshold (0 = off, else a stretch factor above 1, up to
    /// 1000); turning tearing on is refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    pub fn set_tear_stretch(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::TEAR_STRETCH.name, Value::Number(value))
    }

    /// Sets the sweep order; the constraint arrays are rearranged to match (at
    /// once, or when the step in progress ends). Refused when one step would
    /// exceed [`params::MAX_WORK_PER_STEP`] in that order.
    pub fn set_solver_order(&mut self, order: SolverOrder) -> Result<(), ClothError> {
        self.set_parameter(params::SOLVER_ORDER.name, Value::Word(order.name()))
    }

    /// Sets the solver of the distance constraints (XPBD or soft step); it
    /// applies from the next substep. Refused when one step would exceed
    /// [`params::MAX_WORK_PER_STEP`] with it.
    pub fn set_solver(&mut self, solver: SolverKind) -> Result<(), ClothError> {
        self.set_parameter(params::SOLVER.name, Value::Word(solver.name()))
    }

    /// Sets the soft step's constraint frequency in Hz (above 0, up to 1e6).
    pub fn set_soft_frequency(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::SOFT_FREQUENCY.name, Value::Number(value))
    }

    /// Sets the soft step's constraint damping ratio (0..=1000).
    pub fn set_soft_damping_ratio(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::SOFT_DAMPING_RATIO.name, Value::Number(value))
    }

    /// Sets the bending stiffness in N/m (0..=1e15; 0 turns bending off).
    /// Refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_bending_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::BENDING_STIFFNESS.name, Value::Number(value))
    }

    /// Turns the long-range attachments on or off. Refused when one step
    /// would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_tethers(&mut self, on: bool) -> Result<(), ClothError> {
        self.set_parameter(params::TETHERS.name, Value::Flag(on))
    }

    /// Lets the constraint kinds reserve what parameters `p` switch on;
    /// `OutOfMemory` names the parameter that switches on the kind refused.
    pub(super) fn prepare_kinds(&mut self, p: &Params) -> Result<(), ClothError> {
        let topology = topology(&self.constraints, &self.pinned);
        self.kinds.prepare(p, &topology)
    }

    /// Tells the constraint kinds that pins changed or constraints tore or
    /// came back.
    pub(super) fn topology_changed(&mut self) {
        let topology = topology(&self.constraints, &self.pinned);
        self.kinds.topology_changed(&self.params, &topology);
    }

    /// Sets the friction coefficient μ of contacts (0..=10).
    pub fn set_friction(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::FRICTION.name, Value::Number(value))
    }

    /// Sets the restitution of contacts (0..=1; see
    /// [`crate::contacts::velocity`]).
    pub fn set_restitution(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::RESTITUTION.name, Value::Number(value))
    }

    /// Sets the particle radius of contacts in metres (1e-4..=10).
    pub fn set_particle_radius(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::PARTICLE_RADIUS.name, Value::Number(value))
    }

    /// Turns self-collision on or off. Refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    /// Its buffers (a spatial hash) are reserved when it is first switched on;
    /// `OutOfMemory` when they do not fit.
    pub fn set_self_collision(&mut self, on: bool) -> Result<(), ClothError> {
        self.set_parameter(params::SELF_COLLISION.name, Value::Flag(on))
    }

    /// Sets the horizontal wind velocity in m/s (-1000..=1000).
    pub fn set_wind_x(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::WIND_X.name, Value::Number(value))
    }

    /// Sets the vertical wind velocity in m/s (-1000..=1000).
    pub fn set_wind_y(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::WIND_Y.name, Value::Number(value))
    }

    /// Sets the wind drag coefficient in kg/m² (0..=1e6).
    pub fn set_wind_drag(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::WIND_DRAG.name, Value::Number(value))
    }

    /// Sets the gust strength in m/s (0..=1000; 0 is a steady wind).
    pub fn set_wind_gust(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::WIND_GUST.name, Value::Number(value))
    }

    /// Sets the turbulence in m/s (0..=1000; 0 turns it off).
    pub fn set_wind_turbulence(&mut self, value: f64) -> Result<(), ClothError> {
        self.set_parameter(params::WIND_TURBULENCE.name, Value::Number(value))
    }

    /// Puts the constraints in the order the parameters ask for, unless a step is
    /// in progress: its tear log must stay valid, so it rearranges them when it ends.
    pub(super) fn arrange_constraints(&mut self) {
        if !self.step_in_progress() {
            self.constraints.set_order(self.params.solver_order);
        }
    }

    /// Every particle's inverse mass (see [`Cloth::update_inverse_mass`]).
    pub(super) fn update_inverse_masses(&mut self) {
        for k in 0..self.num_particles() {
            self.update_inverse_mass(k);
        }
    }

    /// Particle `k`'s inverse mass: 0 while pinned, else `1/mass`.
    pub(super) fn update_inverse_mass(&mut self, k: usize) {
        self.inverse_mass[k] = if self.pinned[k] {
            0.0
        } else {
            (1.0 / self.mass_of(k)) as f32
        };
    }

    /// Particle `k`'s mass in kg when free: in a scene of differing masses
    /// its own, scaled by `mass` over the scene's mean; else the `mass`
    /// parameter.
    pub(super) fn mass_of(&self, k: usize) -> f64 {
        match &self.masses {
            Some(masses) if masses[k] > 0.0 => {
                masses[k] as f64 * (self.params.mass / self.masses_mean)
            }
            _ => self.params.mass,
        }
    }

    /// Sets the solver parameter called `name` in the table to `value`: its
    /// kind and rule checked, then what `change_of` says the change needs
    /// (the work limit, the constraint kinds' room) before it is stored, and
    /// what follows from it after. A name that is no solver parameter, or a
    /// value of the wrong kind, is refused naming it; on any refusal nothing
    /// changes. Every typed setter above is this call.
    pub fn set_parameter(&mut self, name: &str, value: Value) -> Result<(), ClothError> {
        let Some(parameter) = params::SOLVER_PARAMETERS
            .iter()
            .find(|parameter| params::is_named(name, parameter.name))
        else {
            return Err(error::invalid(
                "name",
                error::quoted(name, name.len()),
                "the name of a solver parameter".to_string(),
            ));
        };
        let mut p = self.params;
        p.set_named(parameter.name, value)?;
        if let Value::Number(v) = value {
            parameter.check_number(v)?;
        }
        let change = change_of(parameter);
        if change != Change::Store {
            self.validate_work(parameter.name, &Shown(value), &p)?;
        }
        if change == Change::Kinds {
            self.prepare_kinds(&p)?;
        }
        self.params = p;
        if parameter.name == params::MASS.name {
            self.update_inverse_masses();
        } else if parameter.name == params::SOLVER_ORDER.name {
            self.arrange_constraints();
        }
        Ok(())
    }
}

/// A value as a refusal shows it (see [`Value::shown`]), written only when
/// one is.
struct Shown(Value);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.shown())
    }
}

/// What a change of a solver parameter needs before it is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Nothing: it cannot make a step dearer.
    Store,
    /// One step with it stays within [`params::MAX_WORK_PER_STEP`].
    WithinWorkLimit,
    /// That, and the constraint kinds it switches on have their room reserved
    /// (`OutOfMemory` names the parameter when they do not fit).
    Kinds,
}

/// The solver parameters that can make a step dearer: more sweeps, the
/// slower scalar or damped paths, tearing, and the wind (any of its
/// velocity, drag, gusts or turbulence can start it blowing).
const WITHIN_WORK_LIMIT: [&str; 14] = [
    params::ITERATIONS.name,
    params::STIFFNESS.name,
    params::PBD_COEFFICIENT.name,
    params::SUBSTEPS.name,
    params::DAMPING.name,
    params::VELOCITY_DAMPING.name,
    params::TEAR_STRETCH.name,
    params::SOLVER_ORDER.name,
    params::SOLVER.name,
    params::WIND_X.name,
    params::WIND_Y.name,
    params::WIND_DRAG.name,
    params::WIND_GUST.name,
    params::WIND_TURBULENCE.name,
];

/// The solver parameters that switch on a constraint kind with buffers of
/// its own (bending, tethers, self-collision).
const SWITCH_KINDS: [&str; 3] = [
    params::BENDING_STIFFNESS.name,
    params::TETHERS.name,
    params::SELF_COLLISION.name,
];

/// What a change of `parameter` needs (see [`Change`]).
fn change_of(parameter: &Parameter) -> Change {
    let among = |names: &[&str]| names.iter().any(|n| params::is_named(parameter.name, n));
    if among(&SWITCH_KINDS) {
        Change::Kinds
    } else if among(&WITHIN_WORK_LIMIT) {
        Change::WithinWorkLimit
    } else {
        Change::Store
    }
}
