//! Plain data: what a simulation is built from.
//!
//! * [`scene`]: a [`Scene`], any particles and the constraints between them,
//!   with its checks (`validate.rs`) and the colours of its constraints
//!   ([`coloring`]);
//! * [`shape`]: a collider's [`Shape`] (what colliders do is
//!   [`crate::contacts`]'s);
//! * [`grid`]: the original demo's grid cloth as a scene, in its order;
//! * [`presets`]: the ready-made scenes of `Simulation.preset` ([`circle`]:
//!   the sine and cosine of their rings);
//! * [`footprint`]: what a grid cloth costs in memory.

pub mod body_presets;
pub mod body_shapes;
pub mod circle;
pub mod coloring;
pub mod footprint;
pub mod grid;
pub mod pieces;
pub mod presets;
pub mod scene;
pub mod shape;
pub mod validate;

pub use scene::{AreaSpec, Bending, BodySpec, DistanceStiffness, Plasticity, Scene};
pub use shape::Shape;
