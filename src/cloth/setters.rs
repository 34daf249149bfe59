//! Setting the parameters: each setter checks its value against the table's
//! rule, and the ones that make a step dearer against the work limit, and
//! changes nothing when it refuses. What the constraint kinds need for a
//! feature switched on is reserved before the feature is accepted.

use super::Cloth;
use crate::error::{self, ClothError, Number};
use crate::kinds::Topology;
use crate::params::{
    self, with_solver_parameters, ParameterValue, Params, SolverKind, SolverOrder, Value,
};
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
        self.params.time_step = params::TIME_STEP.check_number(value)?;
        Ok(())
    }

    /// Sets the solver sweeps per step (1..=1000).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_iterations(&mut self, value: u32) -> Result<(), ClothError> {
        params::ITERATIONS.check_count(value.into())?;
        self.change_within_work_limit("iterations", &value, |p| p.iterations = value)
    }

    /// Sets the stiffness in N/m (0..=1e15; 0 is PBD).
    pub fn set_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        let value = params::STIFFNESS.check_number(value)?;
        // stiffness 0 with a PBD coefficient below 1 sweeps one by one
        self.change_within_work_limit("stiffness", &Number(value), |p| p.stiffness = value)
    }

    /// Sets plain PBD's stiffness coefficient k (0 < k <= 1; 1 is full PBD),
    /// which scales the corrections of rigid distance constraints only.
    pub fn set_pbd_coefficient(&mut self, value: f64) -> Result<(), ClothError> {
        let value = params::PBD_COEFFICIENT.check_number(value)?;
        self.change_within_work_limit("pbdCoefficient", &Number(value), |p| {
            p.pbd_coefficient = value
        })
    }

    /// Sets gravity in m/s² (-1e6..=1e6; negative pulls down).
    pub fn set_gravity(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.gravity = params::GRAVITY.check_number(value)?;
        Ok(())
    }

    /// Sets the mass of every free particle in kg (1e-6..=1e6); a scene's own
    /// masses are scaled alike so that their mean is the value (see
    /// [`Cloth::from_scene`]).
    pub fn set_mass(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.mass = params::MASS.check_number(value)?;
        self.update_inverse_masses();
        Ok(())
    }

    /// Sets the substeps per time step (1..=100).
    /// Refused too when one step would exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_substeps(&mut self, value: u32) -> Result<(), ClothError> {
        params::SUBSTEPS.check_count(value.into())?;
        self.change_within_work_limit("substeps", &value, |p| p.substeps = value)
    }

    /// Sets the constraint damping coefficient in N·s/m (0..=1e9). Above 0 the
    /// sweeps run on the slower scalar damped path, so turning it on is refused
    /// when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_damping(&mut self, value: f64) -> Result<(), ClothError> {
        let damping = params::DAMPING.check_number(value)?;
        self.change_within_work_limit("damping", &Number(value), |p| p.damping = damping)
    }

    /// Sets the global velocity damping rate in 1/s (0..=1000); turning it on
    /// is refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_velocity_damping(&mut self, value: f64) -> Result<(), ClothError> {
        let velocity_damping = params::VELOCITY_DAMPING.check_number(value)?;
        self.change_within_work_limit("velocityDamping", &Number(value), |p| {
            p.velocity_damping = velocity_damping
        })
    }

    /// Sets the tear threshold (0 = off, else a stretch factor above 1, up to
    /// 1000); turning tearing on is refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    pub fn set_tear_stretch(&mut self, value: f64) -> Result<(), ClothError> {
        let tear_stretch = params::TEAR_STRETCH.check_number(value)?;
        self.change_within_work_limit("tearStretch", &Number(value), |p| {
            p.tear_stretch = tear_stretch
        })
    }

    /// Sets the sweep order; the constraint arrays are rearranged to match (at
    /// once, or when the step in progress ends). Refused when one step would
    /// exceed [`params::MAX_WORK_PER_STEP`] in that order.
    pub fn set_solver_order(&mut self, order: SolverOrder) -> Result<(), ClothError> {
        // quoted as a message shows a word; built only if a refusal needs it
        let name = format_args!("\"{}\"", order.name());
        self.change_within_work_limit("solverOrder", &name, |p| p.solver_order = order)?;
        self.arrange_constraints();
        Ok(())
    }

    /// Sets the solver of the distance constraints (XPBD or soft step); it
    /// applies from the next substep. Refused when one step would exceed
    /// [`params::MAX_WORK_PER_STEP`] with it.
    pub fn set_solver(&mut self, solver: SolverKind) -> Result<(), ClothError> {
        let name = format_args!("\"{}\"", solver.name());
        self.change_within_work_limit("solver", &name, |p| p.solver = solver)
    }

    /// Sets the soft step's constraint frequency in Hz (above 0, up to 1e6).
    pub fn set_soft_frequency(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.soft_frequency = params::SOFT_FREQUENCY.check_number(value)?;
        Ok(())
    }

    /// Sets the soft step's constraint damping ratio (0..=1000).
    pub fn set_soft_damping_ratio(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.soft_damping_ratio = params::SOFT_DAMPING_RATIO.check_number(value)?;
        Ok(())
    }

    /// Sets the bending stiffness in N/m (0..=1e15; 0 turns bending off).
    /// Refused when one step would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_bending_stiffness(&mut self, value: f64) -> Result<(), ClothError> {
        let stiffness = params::BENDING_STIFFNESS.check_number(value)?;
        let mut p = self.params;
        p.bending_stiffness = stiffness;
        self.validate_work("bendingStiffness", &Number(value), &p)?;
        self.prepare_kinds(&p)?;
        self.params = p;
        Ok(())
    }

    /// Turns the long-range attachments on or off. Refused when one step
    /// would then exceed [`params::MAX_WORK_PER_STEP`].
    pub fn set_tethers(&mut self, on: bool) -> Result<(), ClothError> {
        let mut p = self.params;
        p.tethers = on;
        self.validate_work("tethers", &on, &p)?;
        self.prepare_kinds(&p)?;
        self.params = p;
        Ok(())
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
        self.params.friction = params::FRICTION.check_number(value)?;
        Ok(())
    }

    /// Sets the restitution of contacts (0..=1; see
    /// [`crate::contacts::velocity`]).
    pub fn set_restitution(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.restitution = params::RESTITUTION.check_number(value)?;
        Ok(())
    }

    /// Sets the particle radius of contacts in metres (1e-4..=10).
    pub fn set_particle_radius(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.particle_radius = params::PARTICLE_RADIUS.check_number(value)?;
        Ok(())
    }

    /// Turns self-collision on or off. Refused when one step would then exceed
    /// [`params::MAX_WORK_PER_STEP`].
    /// Its buffers (a spatial hash) are reserved when it is first switched on;
    /// `OutOfMemory` when they do not fit.
    pub fn set_self_collision(&mut self, on: bool) -> Result<(), ClothError> {
        let mut p = self.params;
        p.self_collision = on;
        self.validate_work("selfCollision", &on, &p)?;
        self.prepare_kinds(&p)?;
        self.params = p;
        Ok(())
    }

    /// Sets the horizontal wind velocity in m/s (-1000..=1000).
    pub fn set_wind_x(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_x = params::WIND_X.check_number(value)?;
        Ok(())
    }

    /// Sets the vertical wind velocity in m/s (-1000..=1000).
    pub fn set_wind_y(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_y = params::WIND_Y.check_number(value)?;
        Ok(())
    }

    /// Sets the wind drag coefficient in kg/m² (0..=1e6).
    pub fn set_wind_drag(&mut self, value: f64) -> Result<(), ClothError> {
        self.params.wind_drag = params::WIND_DRAG.check_number(value)?;
        Ok(())
    }

    /// Sets the gust strength in m/s (0..=1000; 0 is a steady wind).
    pub fn set_wind_gust(&mut self, value: f64) -> Result<(), ClothError> {
        let value = params::WIND_GUST.check_number(value)?;
        self.change_within_work_limit("windGust", &Number(value), |p| p.wind_gust = value)
    }

    /// Sets the turbulence in m/s (0..=1000; 0 turns it off).
    pub fn set_wind_turbulence(&mut self, value: f64) -> Result<(), ClothError> {
        let value = params::WIND_TURBULENCE.check_number(value)?;
        self.change_within_work_limit("windTurbulence", &Number(value), |p| {
            p.wind_turbulence = value
        })
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

    /// Sets the solver parameter called `name` in the table to `value`
    /// through its setter; a name that is no solver parameter, or a value of
    /// the wrong kind, is refused naming it.
    pub fn set_parameter(&mut self, name: &str, value: Value) -> Result<(), ClothError> {
        macro_rules! set_by_name {
            ($($field:ident: $ty:ty = $entry:ident, $js:ident / $js_setter:ident ($setter:ident), $ts:literal;)*) => {
                match name {
                    $(n if params::is_named(n, params::$entry.name) => {
                        let typed = <$ty as ParameterValue>::from_value(&params::$entry, value)?;
                        self.$setter(typed)
                    })*
                    _ => Err(error::invalid(
                        "name",
                        error::quoted(name, name.len()),
                        "the name of a solver parameter".to_string(),
                    )),
                }
            };
        }
        with_solver_parameters!(set_by_name)
    }
}
