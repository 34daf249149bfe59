//! The list of the constraint kinds a cloth runs besides its distance
//! constraints, one line each, in the order a pass solves them (see
//! [`crate::kinds`] for what a kind answers and how to add one), and what the
//! cloth asks of the list: each question put to every kind that is on.

use std::collections::TryReserveError;

use crate::error::ClothError;
use crate::kinds::neighbours::Neighbours;
use crate::kinds::{
    self, Addition, ConstraintKind, Cost, Now, Particles, Positions, Sizes, Topology,
};
use crate::model::Scene;
use crate::params::{work, Params};

/// Declares [`Kinds`] from its list: a field per kind, built from the scene in
/// the order of the list and visited in that order by every hook.
macro_rules! constraint_kinds {
    ($($(#[doc = $doc:literal])* $name:ident: $kind:ty,)*) => {
        /// Every constraint kind of a cloth besides its distance constraints.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Kinds {
            $($(#[doc = $doc])* pub $name: $kind,)*
            /// The live distance constraints as neighbour lists, kept for the
            /// kinds that read them; empty until one is switched on.
            neighbours: Neighbours,
        }

        /// The names of the kinds, in the order of the list.
        pub const KIND_NAMES: &[&str] = &[$(stringify!($name)),*];

        impl Kinds {
            /// Each kind built from `scene` (checked but for the kinds' own
            /// fields), in the order of the list.
            pub fn from_scene(scene: &Scene) -> Result<Kinds, ClothError> {
                Ok(Kinds {
                    $($name: <$kind as ConstraintKind>::from_scene(scene)?,)*
                    neighbours: Neighbours::default(),
                })
            }

            /// Every kind, in the order of the list.
            fn all(&self) -> [&dyn ConstraintKind; KIND_NAMES.len()] {
                [$(&self.$name),*]
            }

            /// Every kind, in the order of the list, and the neighbour lists.
            fn all_mut(&mut self) -> ([&mut dyn ConstraintKind; KIND_NAMES.len()], &mut Neighbours) {
                ([$(&mut self.$name),*], &mut self.neighbours)
            }
        }
    };
}

constraint_kinds! {
    /// Bending.
    bending: kinds::bending::BendingSet,
    /// Area constraints.
    areas: kinds::area::Areas,
    /// Tethers; empty until switched on.
    tethers: kinds::tethers::Tethers,
    /// Wind.
    wind: kinds::wind::Wind,
    /// The held particle's attachment to the pointer: before the bodies, so
    /// a held body's particle is pulled and the body then keeps its shape.
    grab: kinds::grab::Grab,
    /// Bodies held in shape by shape matching.
    bodies: kinds::bodies::Bodies,
    /// Colliders and self-collision: last, so they have the final word in
    /// every pass.
    contacts: crate::contacts::Contacts,
}

/// Which kinds are on, one bit per kind in the order of the list: asked once
/// at the start of a substep, and what its hooks and its cost follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct On(u32);

impl On {
    fn has(self, k: usize) -> bool {
        self.0 & (1 << k) != 0
    }

    /// Whether no kind is on.
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl Kinds {
    /// Which kinds are on with parameters `p`.
    pub fn on(&self, p: &Params) -> On {
        let bits = self.all().into_iter().enumerate();
        On(bits.fold(0, |on, (k, kind)| on | u32::from(kind.is_on(p)) << k))
    }

    /// What one substep of the kinds `on` costs with parameters `p` on a
    /// cloth of `sizes`; with tearing on, following the tears includes
    /// rebuilding the neighbour lists when a kind reads them.
    pub fn cost(&self, p: &Params, sizes: Sizes, on: On) -> Cost {
        let mut total = Cost::default();
        for (k, kind) in self.all().into_iter().enumerate() {
            if on.has(k) {
                let cost = kind.cost(p, sizes);
                total.begin += cost.begin;
                total.pass += cost.pass;
                total.end += cost.end;
                total.tear += cost.tear;
            }
        }
        if self.neighbours_used(p, on) {
            total.tear += (sizes.particles + sizes.constraints) as u64 * work::NEIGHBOURS_REBUILD;
        }
        total
    }

    /// Whether a kind of `on` reads the neighbour lists with parameters `p`.
    fn neighbours_used(&self, p: &Params, on: On) -> bool {
        let all = self.all().into_iter().enumerate();
        all.filter(|&(k, _)| on.has(k))
            .any(|(_, kind)| kind.uses_neighbours(p))
    }

    /// Bytes of memory the kinds hold.
    pub fn heap_bytes(&self) -> u64 {
        let kinds: u64 = self.all().iter().map(|kind| kind.heap_bytes()).sum();
        kinds + self.neighbours.heap_bytes()
    }

    /// Reserves what parameters `p` switch on, in the order of the list
    /// (the neighbour lists first, when a kind switched on reads them), and
    /// brings every kind up to date with `topology`. A refusal is
    /// `OutOfMemory` naming the parameter that switches the kind on; the kinds
    /// before it keep what they reserved (for when they are switched on).
    pub fn prepare(&mut self, p: &Params, topology: &Topology) -> Result<(), ClothError> {
        let sizes = Sizes {
            particles: topology.pinned.len(),
            constraints: topology.built_with,
        };
        let on = self.on(p);
        let refusal = |field: &'static str, bytes: u64| ClothError::OutOfMemory {
            field,
            what: format!(
                "{} particles and {} constraints need {} MiB more for it",
                sizes.particles,
                sizes.constraints,
                crate::memory::mib(bytes)
            ),
        };
        // the first kind switched on that reads the neighbour lists names a refusal
        let reader = (self.all().into_iter().enumerate())
            .find(|&(k, kind)| on.has(k) && kind.uses_neighbours(p))
            .map(|(_, kind)| kind.switch());
        if let (Some(field), false) = (reader, self.neighbours.is_reserved()) {
            self.neighbours = Neighbours::try_new(sizes.particles, sizes.constraints)
                .map_err(|_: TryReserveError| refusal(field, neighbours_bytes(sizes)))?;
        }
        for kind in self.all_mut().0 {
            let (field, bytes) = (kind.switch(), kind.prepare_bytes(p, sizes));
            kind.prepare(p, topology)
                .map_err(|_| refusal(field, bytes))?;
        }
        self.topology_changed(p, topology);
        Ok(())
    }

    /// Pins changed or constraints tore or came back: the neighbour lists
    /// are rebuilt when a kind on with parameters `p` reads them, and each
    /// kind on follows (see [`ConstraintKind::topology_changed`]).
    pub fn topology_changed(&mut self, p: &Params, topology: &Topology) {
        let on = self.on(p);
        let rebuild = self.neighbours_used(p, on) && self.neighbours.is_reserved();
        let (kinds, neighbours) = self.all_mut();
        if rebuild {
            neighbours.rebuild(topology.ids, topology.rest_lengths);
        }
        for (k, kind) in kinds.into_iter().enumerate() {
            if on.has(k) {
                kind.topology_changed(p, topology, neighbours);
            }
        }
    }

    /// Reserves what every kind (and the neighbour lists) needs for
    /// `addition`; refused with `OutOfMemory` naming `field`, with nothing
    /// changed but room reserved.
    pub fn reserve_addition(
        &mut self,
        addition: &Addition,
        field: &'static str,
    ) -> Result<(), ClothError> {
        let refusal = |_| ClothError::OutOfMemory {
            field,
            what: format!(
                "room for {} particles more among {}",
                addition.masses.len(),
                addition.first
            ),
        };
        let (kinds, neighbours) = self.all_mut();
        neighbours
            .reserve_particles(addition.particles_after())
            .map_err(refusal)?;
        neighbours
            .reserve_constraints(addition.constraints_after)
            .map_err(refusal)?;
        for kind in kinds {
            kind.reserve_addition(addition).map_err(refusal)?;
        }
        Ok(())
    }

    /// Takes `addition` into every kind, in the room
    /// [`Kinds::reserve_addition`] reserved.
    pub fn add(&mut self, addition: &Addition) {
        let (kinds, neighbours) = self.all_mut();
        neighbours.grow(addition.particles_after());
        for kind in kinds {
            kind.add(addition);
        }
    }

    /// After [`Kinds::add`]: kept, what the addition replaced goes; not
    /// kept, every kind (and the neighbour lists) is as it was before.
    pub fn finish_addition(&mut self, addition: &Addition, kept: bool) {
        let (kinds, neighbours) = self.all_mut();
        if !kept {
            neighbours.grow(addition.first);
        }
        for kind in kinds {
            kind.finish_addition(addition, kept);
        }
    }

    /// Where the kinds are before additions to a simulation of `particles`
    /// particles, for [`Kinds::take_out`].
    pub fn mark(&self, particles: usize) -> KindsMark {
        KindsMark {
            particles,
            bodies: self.bodies.len(),
            unreserved: self.contacts.unreserved(),
        }
    }

    /// Takes out every addition made since `mark` (each kept by
    /// [`Kinds::finish_addition`]): every kind (and the neighbour lists) is as
    /// it was at `mark`. The kinds that take additions in are the ones named
    /// here. Never allocates.
    pub fn take_out(&mut self, mark: KindsMark) {
        self.neighbours.grow(mark.particles);
        self.tethers.take_out(mark.particles);
        self.bodies.truncate(mark.bodies);
        self.contacts.take_out(mark.particles, mark.unreserved);
    }

    /// The start of a substep, for the kinds `on`.
    pub fn begin_substep(&mut self, particles: &mut Particles, now: &Now, on: On) {
        for (k, kind) in self.all_mut().0.into_iter().enumerate() {
            if on.has(k) {
                kind.begin_substep(particles, now);
            }
        }
    }

    /// One pass of the kinds `on` after a sweep, in the order of the list.
    pub fn solve(
        &mut self,
        mut positions: Positions,
        previous: &[f32],
        inverse_mass: &[f32],
        now: &Now,
        on: On,
    ) {
        for (k, kind) in self.all_mut().0.into_iter().enumerate() {
            if on.has(k) {
                kind.solve(positions.reborrow(), previous, inverse_mass, now);
            }
        }
    }

    /// After the last sweep of a substep, for the kinds `on`.
    pub fn end_substep(&mut self, particles: &mut Particles, now: &Now, on: On) {
        for (k, kind) in self.all_mut().0.into_iter().enumerate() {
            if on.has(k) {
                kind.end_substep(particles, now);
            }
        }
    }

    /// Right after the velocity update of a substep, for the kinds `on`.
    pub fn after_velocities(&mut self, particles: &mut Particles, now: &Now, on: On) {
        for (k, kind) in self.all_mut().0.into_iter().enumerate() {
            if on.has(k) {
                kind.after_velocities(particles, now);
            }
        }
    }

    /// The end of a step at simulated `time`, for every kind (bookkeeping:
    /// no work is counted for it).
    pub fn end_step(&mut self, time: f64) {
        for kind in self.all_mut().0 {
            kind.end_step(time);
        }
    }

    /// What a saved state keeps of the kinds: each kind's name and its
    /// [`ConstraintKind::saved`] numbers, for the kinds that keep any.
    pub fn saved(&self) -> Vec<(&'static str, &[f32])> {
        let names = KIND_NAMES.iter().zip(self.all());
        names
            .map(|(&name, kind)| (name, kind.saved()))
            .filter(|(_, values)| !values.is_empty())
            .collect()
    }

    /// Checks the saved numbers of `saved` (name and numbers of each kind
    /// that keeps any): kinds of this cloth, each named once at most, with
    /// numbers it accepts. The refusal names the kind.
    pub fn check_saved(&self, saved: &[(String, Vec<f32>)]) -> Result<(), String> {
        for (&name, kind) in KIND_NAMES.iter().zip(self.all()) {
            check_kind_saved(name, kind, saved)?;
        }
        match saved
            .iter()
            .find(|(n, _)| !KIND_NAMES.contains(&n.as_str()))
        {
            Some((name, _)) => Err(format!("names {name}, which is no kind of this cloth")),
            None => Ok(()),
        }
    }

    /// Takes the saved numbers of `saved`, checked by [`Kinds::check_saved`].
    pub fn restore_saved(&mut self, saved: &[(String, Vec<f32>)]) {
        for (&name, kind) in KIND_NAMES.iter().zip(self.all_mut().0) {
            restore_kind_saved(name, kind, saved);
        }
    }
}

/// [`Kinds::check_saved`] for the kind `name`: named once at most, with
/// numbers it accepts. Out of line and through the trait object, so that
/// the list's loop is a call per kind rather than a copy of this per kind.
#[inline(never)]
fn check_kind_saved(
    name: &str,
    kind: &dyn ConstraintKind,
    saved: &[(String, Vec<f32>)],
) -> Result<(), String> {
    let mut given = saved.iter().filter(|(n, _)| n == name);
    let values = given.next().map_or(&[][..], |(_, values)| values);
    if given.next().is_some() {
        return Err(format!("names {name} twice"));
    }
    kind.check_saved(values)
        .map_err(|problem| format!("{name}: {problem}"))
}

/// [`Kinds::restore_saved`] for the kind `name` (out of line, as
/// [`check_kind_saved`]).
#[inline(never)]
fn restore_kind_saved(name: &str, kind: &mut dyn ConstraintKind, saved: &[(String, Vec<f32>)]) {
    let values = saved.iter().find(|(n, _)| n == name);
    kind.restore_saved(values.map_or(&[][..], |(_, values)| values));
}

/// What [`Kinds::take_out`] goes back to: the particles and bodies there
/// were, and what the contacts had not reserved.
#[derive(Debug, Clone, Copy)]
pub struct KindsMark {
    particles: usize,
    bodies: usize,
    unreserved: [bool; 2],
}

/// Bytes of the neighbour lists of a cloth of `sizes`.
fn neighbours_bytes(sizes: Sizes) -> u64 {
    4 * (sizes.particles as u64 + 1) + 16 * sizes.constraints as u64
}
