//! What the simulation must conserve, and what it must not create: the checks
//! `tests/conservation.rs` runs natively and `tests/wasm_conservation.rs` runs
//! in the browser, on the same Rust cloths.
//!
//! Energy is `kinetic + gravitational + elastic`, the elastic part `½ C²/α`
//! of every compliant constraint (distance: `½ k C²`; bending: `½ k_b C²`;
//! area: `½ C²/α`); rigid constraints (stiffness 0, tethers, contacts) store
//! none. The presets' area constraints are rigid and start satisfied (the
//! balloon starts inflated, its skin stretched: that stretch is counted), so
//! they count zero.

// Each test file uses some of these, not all.
#![allow(dead_code)]

use xpbd_cloth::contacts::velocity::MAX_DEPENETRATION_SPEED;
use xpbd_cloth::model::presets;
use xpbd_cloth::model::{Scene, Shape};
use xpbd_cloth::params::Value;
use xpbd_cloth::{Cloth, FixedPreset, GridSize, SolverOrder};

/// Both sweep orders.
pub const ORDERS: [SolverOrder; 2] = [SolverOrder::Original, SolverOrder::Colored];

/// Half an ulp of 1 in `f32`: the relative rounding error of one operation.
pub const ROUNDING: f64 = 1.0 / (1u64 << 24) as f64;

/// Particle `k`'s mass, kg (0 when it does not move).
fn mass(cloth: &Cloth, k: usize) -> f64 {
    let w = cloth.inverse_masses()[k];
    if w == 0.0 {
        0.0
    } else {
        1.0 / w as f64
    }
}

fn point(values: &[f32], k: usize) -> [f64; 2] {
    [values[2 * k] as f64, values[2 * k + 1] as f64]
}

fn distance(positions: &[f32], a: usize, b: usize) -> f64 {
    let (pa, pb) = (point(positions, a), point(positions, b));
    ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt()
}

/// The elastic energy of every compliant constraint, J.
pub fn elastic_energy(cloth: &Cloth) -> f64 {
    let p = cloth.params();
    let x = cloth.positions();
    let mut energy = 0.0;
    if p.stiffness > 0.0 {
        let ids = cloth.constraint_ids();
        for (c, &rest) in cloth.rest_lengths().iter().enumerate() {
            let (a, b) = (ids[2 * c] as usize, ids[2 * c + 1] as usize);
            energy += 0.5 * p.stiffness * (distance(x, a, b) - rest as f64).powi(2);
        }
    }
    let bending = &cloth.kinds().bending;
    if p.bending_stiffness > 0.0 {
        for (pair, &rest) in bending.pairs().iter().zip(bending.rest_lengths()) {
            let c = distance(x, pair.a as usize, pair.b as usize) - rest as f64;
            energy += 0.5 * p.bending_stiffness * c * c;
        }
    }
    let areas = &cloth.kinds().areas;
    for k in 0..areas.len() {
        let compliance = areas.compliance(k);
        if compliance > 0.0 {
            energy += 0.5 * (areas.area(k, x) - areas.target(k)).powi(2) / compliance;
        }
    }
    energy
}

/// Kinetic, gravitational and elastic energy together, J.
pub fn energy(cloth: &Cloth) -> f64 {
    cloth.kinetic_energy() + cloth.potential_energy() + elastic_energy(cloth)
}

/// The mass of the particles that move, kg.
pub fn moving_mass(cloth: &Cloth) -> f64 {
    (0..cloth.num_particles()).map(|k| mass(cloth, k)).sum()
}

/// Linear momentum `(px, py)` and angular momentum about the origin of the
/// moving particles.
pub fn momentum(cloth: &Cloth) -> ([f64; 2], f64) {
    let (x, v) = (cloth.positions(), cloth.velocities());
    let (mut p, mut l) = ([0.0, 0.0], 0.0);
    for k in 0..cloth.num_particles() {
        let (m, xk, vk) = (mass(cloth, k), point(x, k), point(v, k));
        p[0] += m * vk[0];
        p[1] += m * vk[1];
        l += m * (xk[0] * vk[1] - xk[1] * vk[0]);
    }
    (p, l)
}

/// The mean x of the particles, metres.
pub fn mean_x(cloth: &Cloth) -> f64 {
    let n = cloth.num_particles();
    (0..n).map(|k| cloth.positions()[2 * k] as f64).sum::<f64>() / n as f64
}

/// The highest y of any particle, metres.
pub fn highest(cloth: &Cloth) -> f64 {
    cloth
        .positions()
        .chunks_exact(2)
        .map(|p| p[1] as f64)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// How deep a point of `radius` at `(x, y)` is inside `shape` (negative:
/// its clearance).
pub fn depth(shape: Shape, radius: f64, [x, y]: [f64; 2]) -> f64 {
    match shape {
        Shape::Ground { y: g } => g as f64 + radius - y,
        Shape::Circle {
            x: cx,
            y: cy,
            radius: big,
        } => big as f64 + radius - ((x - cx as f64).powi(2) + (y - cy as f64).powi(2)).sqrt(),
        Shape::Box {
            x: cx,
            y: cy,
            width,
            height,
        } => {
            let ox = width as f64 / 2.0 + radius - (x - cx as f64).abs();
            let oy = height as f64 / 2.0 + radius - (y - cy as f64).abs();
            ox.min(oy)
        }
    }
}

/// The deepest any free particle is inside any collider of `cloth`, metres.
pub fn deepest(cloth: &Cloth) -> f64 {
    let radius = cloth.params().particle_radius;
    let mut worst = f64::NEG_INFINITY;
    for c in cloth.colliders() {
        for k in 0..cloth.num_particles() {
            if cloth.inverse_masses()[k] > 0.0 {
                worst = worst.max(depth(c.shape, radius, point(cloth.positions(), k)));
            }
        }
    }
    worst
}

/// A preset built as `Simulation.preset` builds it, with `options`.
pub fn preset(name: &str, options: &[(&str, Value)]) -> Cloth {
    Cloth::from_preset(name, options).unwrap_or_else(|e| panic!("{name} {options:?}: {e}"))
}

// ----- presets start sound -------------------------------------------------------

/// The values each shaping option of `name` is checked at: its default and
/// both ends of its rule (sizes the grid refuses, beyond 250 000 particles,
/// are left out).
fn shapes(name: &str) -> Vec<Vec<(&'static str, Value)>> {
    let options = presets::shape(name);
    let mut out = vec![Vec::new()];
    for &(option, _) in options {
        let parameter = xpbd_cloth::params::PARAMETERS
            .iter()
            .find(|p| p.name == option)
            .unwrap();
        let ends: Vec<f64> = match parameter.rule {
            xpbd_cloth::params::Rule::Whole { min, max } => vec![min, max],
            xpbd_cloth::params::Rule::Numbers(values) => values.to_vec(),
            _ => Vec::new(),
        };
        for end in ends {
            out.push(vec![(option, Value::Number(end))]);
        }
    }
    out
}

/// No preset starts with a free particle inside a collider (grown by the
/// particle radius it runs with) or with two particles closer than
/// self-collision's minimum distance, `min(2r, their start distance)`: at its
/// defaults and at each end of each of its sizes.
pub fn presets_start_sound() {
    let mut checked = 0;
    for name in presets::names() {
        for options in shapes(name) {
            let Ok(preset) = presets::preset(name, &options) else {
                continue;
            };
            let cloth = Cloth::from_preset(name, &options).unwrap();
            let scene = &preset.scene;
            let radius = cloth.params().particle_radius;
            let n = scene.masses.len();
            for &shape in &scene.colliders {
                for k in (0..n).filter(|&k| scene.masses[k] > 0.0) {
                    let d = depth(shape, radius, point(&scene.positions, k));
                    assert!(
                        d <= 0.0,
                        "{name} {options:?}: particle {k} starts {d} m inside {shape:?}"
                    );
                }
            }
            // the minimum distance holds by construction (it is measured on
            // the start positions); a small scene is checked pair by pair
            if n <= 2000 {
                let diameter = 2.0 * radius;
                let start = |a: usize, b: usize| distance(&scene.positions, a, b);
                for a in 0..n {
                    for b in a + 1..n {
                        let minimum = diameter.min(start(a, b));
                        let now = distance(cloth.positions(), a, b);
                        assert!(
                            now >= minimum - 1e-6,
                            "{name} {options:?}: particles {a} and {b} start {now} m apart"
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} preset shapes checked");
}

// ----- momentum ----------------------------------------------------------------

/// A free scene for the momentum checks: the soft body's block (area and
/// distance constraints, no ground) or a grid cloth, centred on the origin,
/// its constraints 1 % shorter at rest than at the start (stretched; the
/// areas compliant, so that they shrink with the edges instead of all at
/// once), nothing pinned, every particle 0.05 kg.
fn stretched(kind: &str) -> Scene {
    let mut scene = match kind {
        "soft-body" => presets::preset("soft-body", &[]).unwrap().scene,
        _ => {
            let options = [
                ("width", Value::Number(12.0)),
                ("height", Value::Number(10.0)),
            ];
            presets::preset("cloth", &options).unwrap().scene
        }
    };
    scene.colliders.clear();
    scene.masses.fill(0.05);
    let n = scene.masses.len();
    let centre: [f32; 2] =
        [0, 1].map(|axis| (0..n).map(|k| scene.positions[2 * k + axis]).sum::<f32>() / n as f32);
    for p in scene.positions.chunks_exact_mut(2) {
        p[0] -= centre[0];
        p[1] -= centre[1];
    }
    let rest = scene
        .distances
        .chunks_exact(2)
        .map(|pair| 0.99 * distance(&scene.positions, pair[0] as usize, pair[1] as usize) as f32)
        .collect();
    scene.rest_lengths = Some(rest);
    for area in &mut scene.areas {
        area.pressure = 0.99 * 0.99;
        area.stiffness = 1e4;
    }
    scene
}

/// How many constraints act on each particle of `scene`.
fn degrees(scene: &Scene) -> Vec<usize> {
    let mut degree = vec![0usize; scene.masses.len()];
    for &k in &scene.distances {
        degree[k as usize] += 1;
    }
    for area in &scene.areas {
        for &k in &area.particles {
            degree[k as usize] += 1;
        }
    }
    degree
}

/// The most rounding alone can change the linear momentum (per component)
/// and the moment of the impulses of one step of one substep (`h` = the
/// time step), from the state before it.
///
/// Every correction is symmetric (equal and opposite along the line of
/// centres, or an area gradient that sums to zero and has no moment about
/// the corners), so in exact arithmetic the solve's impulses have no sum and
/// no moment. In `f32` each correction of a particle rounds its position, by
/// at most half an ulp: `ROUNDING · X`, `X` the largest coordinate (with a
/// tenth to spare). A particle is corrected at most `R = 2 + iterations ·
/// degree` times (the prediction, each pass over its constraints, the
/// velocity update), which moves its velocity by `R · ROUNDING · X / h` at
/// most; the velocity update's product rounds it by `2 · ROUNDING · |v|`
/// more. Summed over the particles: `ΔP ≤ Σ m (R · ROUNDING · X / h + 2 ·
/// ROUNDING · |v|)` per component; the moment, each term times its lever, at
/// most `2X`.
fn rounding_bounds(cloth: &Cloth, degree: &[usize]) -> (f64, f64) {
    let p = cloth.params();
    let h = p.time_step;
    let x = cloth.positions();
    let big = 1.1 * x.iter().fold(0.0f32, |m, &c| m.max(c.abs())) as f64;
    let (mut dp, mut dl) = (0.0, 0.0);
    for (k, &degree) in degree.iter().enumerate() {
        let m = mass(cloth, k);
        let v = point(cloth.velocities(), k);
        let speed = 1.1 * (v[0].abs() + v[1].abs());
        let corrections = (2 + p.iterations as usize * degree) as f64;
        let velocity = corrections * ROUNDING * big / h + 2.0 * ROUNDING * speed;
        dp += m * velocity;
        dl += m * 2.0 * big * velocity;
    }
    (dp, dl)
}

/// With gravity off and nothing pinned, a free, spinning (2 rad/s), stretched
/// scene (contacts and friction off) keeps its linear and angular momentum
/// through the solve, within what rounding can change them by
/// ([`rounding_bounds`]), in both orders, with five and twenty iterations
/// and substeps of 10 ms and 2.5 ms (one substep a step: a step of four
/// substeps is four such steps).
///
/// "Through the solve": the solve's impulses, `J_k = m_k (v_k' − v̄_k)`
/// (`v̄` the velocity it starts from, `v'` the one it ends with), sum to no
/// force and no moment about the positions they act at (the predicted ones,
/// `x + h v̄`). Linear momentum is then kept exactly. The angular momentum the
/// state reads, `Σ m x × v`, also moves by the corrections' displacement of
/// the positions, `Σ m Δx × v̄`, at first order: a particle turning at `ω` is
/// pulled back along its new radius, which shortens its step along the
/// circle by `1 − 1/√(1 + (ωh)²)`. That is the integrator's (measured here:
/// about 0.04 % of `L` a step at 10 ms), not the solve's, and is printed, not
/// bounded.
pub fn momentum_is_kept_through_the_solve() {
    for kind in ["soft-body", "cloth"] {
        let scene = stretched(kind);
        let degree = degrees(&scene);
        for order in ORDERS {
            for (h, iterations) in [(0.01, 5), (0.0025, 5), (0.01, 20)] {
                let mut cloth = Cloth::from_scene(&scene).unwrap();
                cloth.set_gravity(0.0).unwrap();
                cloth.set_friction(0.0).unwrap();
                cloth.set_solver_order(order).unwrap();
                cloth.set_substeps(1).unwrap();
                cloth.set_time_step(h).unwrap();
                cloth.set_iterations(iterations).unwrap();
                cloth.set_stiffness(500.0).unwrap();
                let x = cloth.positions().to_vec();
                let v: Vec<f32> = x
                    .chunks_exact(2)
                    .flat_map(|p| [-2.0 * p[1], 2.0 * p[0]])
                    .collect();
                cloth.set_state(&x, &v, 0.0).unwrap();
                let (_, l_start) = momentum(&cloth);
                assert!(cloth.max_stretch() > 0.009, "{kind}: stretched");
                let mut worst = (0.0f64, 0.0f64);
                for step in 0..200 {
                    let (bound_p, bound_l) = rounding_bounds(&cloth, &degree);
                    let (x0, v0) = (cloth.positions().to_vec(), cloth.velocities().to_vec());
                    cloth.step();
                    let v1 = cloth.velocities();
                    let (mut force, mut moment) = ([0.0f64; 2], 0.0);
                    for k in 0..cloth.num_particles() {
                        let m = mass(&cloth, k);
                        let (xk, vk, wk) = (point(&x0, k), point(&v0, k), point(v1, k));
                        let at = [xk[0] + h * vk[0], xk[1] + h * vk[1]];
                        let j = [m * (wk[0] - vk[0]), m * (wk[1] - vk[1])];
                        force[0] += j[0];
                        force[1] += j[1];
                        moment += at[0] * j[1] - at[1] * j[0];
                    }
                    let dp = force[0].abs().max(force[1].abs());
                    worst = (
                        worst.0.max(dp / bound_p),
                        worst.1.max(moment.abs() / bound_l),
                    );
                    assert!(
                        dp <= bound_p && moment.abs() <= bound_l,
                        "{kind} {order:?} h {h} iterations {iterations}: step {step}: the \
                         solve's impulses sum to {force:?} (bound {bound_p:.3e} a component) \
                         and their moment is {moment:.3e} (bound {bound_l:.3e})"
                    );
                }
                assert!(cloth.is_finite());
                let (_, l_end) = momentum(&cloth);
                println!(
                    "{kind} {order:?} h {h} × {iterations}: worst impulse sum / bound \
                     {:.3}, moment / bound {:.3}; L {l_start:.4} → {l_end:.4} in 200 steps",
                    worst.0, worst.1
                );
            }
        }
    }
}

// ----- energy ------------------------------------------------------------------

/// The energy scale of `cloth`: its moving mass times `|g|` times its height
/// plus 1 m, J (what dropping it by its own height and a metre releases).
pub fn energy_scale(cloth: &Cloth) -> f64 {
    let ys = cloth.positions().chunks_exact(2).map(|p| p[1] as f64);
    let (low, high) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| {
        (l.min(y), h.max(y))
    });
    moving_mass(cloth) * cloth.params().gravity.abs() * (high - low + 1.0)
}

/// How far the energy of a scene left alone may rise above its start, as a
/// fraction of [`energy_scale`]. XPBD's implicit steps only lose energy in
/// exact arithmetic; what is left:
///
/// * `f32` positions move by up to half an ulp at every correction, which
///   feeds noise of about `ulp / h` into the velocities every substep; the
///   energy takes a random walk of `√(substeps) · m v ulp / h` (the double
///   pendulum at its 50 substeps of 0.2 ms: 0.5 % of its scale over 10 s; at
///   100 substeps, 3.7 %, which is why no variant goes below 0.2 ms);
/// * constraints the sweeps leave unconverged: a rigid one counts no energy
///   though its residual is undone as motion next substep, a compliant one
///   acts softer than its stiffness while `½ k C²` counts it at full
///   stiffness (the rope at 5 substeps of 4 sweeps, half what it is built
///   for, stretches and "rises" 0.9 %).
///
/// An overlap undone as speed, as contacts did, is many times the scale (the
/// soft body that started 4 cm in the ground: 6 times).
pub const ENERGY_TOLERANCE: f64 = 0.01;

/// [`ENERGY_TOLERANCE`] for the runs of a few seconds at a few substeps the
/// contact checks make, where rounding has little time to add up.
pub const SHORT_RUN_TOLERANCE: f64 = 1e-3;

/// The solver settings a preset is checked with, from its own `substeps`
/// and `iterations`: its own, four times the iterations, and twice both (at
/// most 50 substeps: a substep of 0.2 ms at the default step).
pub fn variants(substeps: u32, iterations: u32) -> [(u32, u32); 3] {
    [
        (substeps, iterations),
        (substeps, 4 * iterations),
        ((2 * substeps).min(50), 2 * iterations),
    ]
}

/// Steps `cloth` for `seconds` and returns the largest rise of its energy
/// above the start, as a fraction of its energy scale.
pub fn energy_rise(cloth: &mut Cloth, seconds: f64) -> f64 {
    let (start, scale) = (energy(cloth), energy_scale(cloth));
    let steps = (seconds / cloth.params().time_step).round() as usize;
    let mut worst = f64::NEG_INFINITY;
    for _ in 0..steps {
        cloth.step();
        worst = worst.max((energy(cloth) - start) / scale);
    }
    assert!(cloth.is_finite());
    worst
}

/// For every preset, at its defaults and with substeps and iterations
/// varied ([`variants`]), over 10 s from rest with the wind off, kinetic +
/// gravitational + elastic energy never rises above its start by more than
/// [`ENERGY_TOLERANCE`] of its scale.
pub fn energy_never_rises_in_any_preset() {
    for name in presets::names() {
        let own = preset(name, &[]).params();
        for (substeps, iterations) in variants(own.substeps, own.iterations) {
            let options = [
                ("substeps", Value::Number(substeps as f64)),
                ("iterations", Value::Number(iterations as f64)),
                ("windX", Value::Number(0.0)),
            ];
            let mut cloth = preset(name, &options);
            let rise = energy_rise(&mut cloth, 10.0);
            println!(
                "{name} {substeps} × {iterations}: energy rose at most {rise:.2e} of its scale"
            );
            assert!(
                rise <= ENERGY_TOLERANCE,
                "{name} {substeps} substeps × {iterations} iterations: the energy rose \
                 {rise:.3e} of its scale above the start (tolerance {ENERGY_TOLERANCE})"
            );
        }
    }
}

// ----- contacts that do no work they should not ------------------------------------

/// A free `width × height` grid cloth (spacing 0.2 m, 0.5 kg a particle,
/// nothing pinned) with its top left particle at `(x, y)`.
pub fn free_cloth(width: usize, height: usize, x: f32, y: f32) -> Cloth {
    let mut scene =
        xpbd_cloth::model::grid::scene(GridSize { width, height }, FixedPreset::One).unwrap();
    scene.masses.fill(0.5);
    for p in scene.positions.chunks_exact_mut(2) {
        p[0] += x;
        p[1] += y;
    }
    Cloth::from_scene(&scene).unwrap()
}

/// Lets `cloth` come to rest: `seconds` with velocity damping, then none.
pub fn settle(cloth: &mut Cloth, seconds: f64) {
    let damping = cloth.params().velocity_damping;
    cloth.set_velocity_damping(5.0).unwrap();
    for _ in 0..(seconds / cloth.params().time_step) as usize {
        cloth.step();
    }
    cloth.set_velocity_damping(damping).unwrap();
}

/// Steps `cloth` `steps` times, calling `before_step(cloth, step)` before
/// each, and checks after each that its kinetic energy came from potential
/// energy: it is at most what its potential energy (gravitational and
/// elastic) has fallen from the highest it has been since the start, plus
/// `budget` joules, plus [`SHORT_RUN_TOLERANCE`] of its energy scale. The
/// potential energy a contact stores while it undoes an overlap (lifting a
/// pile, stretching a cloth around a collider) may come back as motion; speed
/// given directly, an overlap undone as velocity, may not. Returns the
/// largest excess of the kinetic energy over that fall, J.
pub fn kinetic_within_released(
    what: &str,
    cloth: &mut Cloth,
    steps: usize,
    budget: f64,
    mut before_step: impl FnMut(&mut Cloth, usize),
) -> f64 {
    let potential = |cloth: &Cloth| cloth.potential_energy() + elastic_energy(cloth);
    let tolerance = SHORT_RUN_TOLERANCE * energy_scale(cloth);
    let (mut highest, mut worst) = (potential(cloth), f64::NEG_INFINITY);
    for step in 0..steps {
        before_step(cloth, step);
        cloth.step();
        let (kinetic, now) = (cloth.kinetic_energy(), potential(cloth));
        highest = highest.max(now);
        let released = highest - now;
        worst = worst.max(kinetic - released);
        assert!(
            kinetic <= released + budget + tolerance,
            "{what}: step {step}: kinetic energy {kinetic:.4} J, but the potential energy \
             fell only {released:.4} J (allowed {budget:.4} J more, tolerance {tolerance:.4} J)"
        );
    }
    assert!(cloth.is_finite(), "{what}");
    worst
}

/// The most a contact may give what it pushes out of an overlap directly,
/// J: it pushes at no more than the depenetration speed beyond the
/// collider's own speed `collider_speed`, and what it pushes springs ahead at
/// up to twice the speed of the push (the far end of a spring pushed at a
/// constant speed from rest), for the whole moving mass of `cloth`.
pub fn push_budget(cloth: &Cloth, collider_speed: f64) -> f64 {
    let speed = 2.0 * (MAX_DEPENETRATION_SPEED as f64 + collider_speed);
    0.5 * moving_mass(cloth) * speed * speed
}

/// A cloth dropped onto the ground, onto a circle and onto a box (each clear
/// below it): its kinetic energy never exceeds what gravity and its
/// constraints released, in both orders.
pub fn a_dropped_cloth_gains_no_energy() {
    let shapes = [
        Shape::Ground { y: -2.5 },
        Shape::Circle {
            x: 0.9,
            y: -3.2,
            radius: 0.6,
        },
        Shape::Box {
            x: 0.9,
            y: -3.0,
            width: 1.2,
            height: 0.6,
        },
    ];
    for order in ORDERS {
        for shape in shapes {
            let mut cloth = free_cloth(10, 10, 0.0, 0.0);
            cloth.set_solver_order(order).unwrap();
            cloth.set_substeps(4).unwrap();
            cloth.add_collider(shape).unwrap();
            let what = format!("cloth dropped onto {shape:?}, {order:?}");
            let worst = kinetic_within_released(&what, &mut cloth, 300, 0.0, |_, _| {});
            assert!(deepest(&cloth) > -0.01, "{what}: it must land");
            println!("{what}: kinetic energy at most {worst:.3} J beyond what was released");
        }
    }
}

/// A cloth hanging at rest from its top corners (12 × 10, settled), for the
/// colliders moved into it.
fn hanging_cloth(order: SolverOrder) -> Cloth {
    let mut cloth = Cloth::new(
        GridSize {
            width: 12,
            height: 10,
        },
        FixedPreset::Two,
    );
    cloth.set_solver_order(order).unwrap();
    cloth.set_substeps(4).unwrap();
    settle(&mut cloth, 5.0);
    cloth
}

/// A circle moved into a cloth hanging at rest, at once (teleported: it
/// lands 0.4 m deep in the cloth) or dragged in at 1 m/s: what the
/// contacts push out moves no faster than the depenetration speed beyond the
/// circle's own, so the cloth's kinetic energy stays within what its
/// potential energy released and that ([`kinetic_within_released`],
/// [`push_budget`]).
pub fn a_collider_moved_into_a_resting_cloth_launches_nothing() {
    for order in ORDERS {
        // teleported: from far to the right into the middle of the cloth
        let mut cloth = hanging_cloth(order);
        let circle = Shape::Circle {
            x: 8.0,
            y: -0.9,
            radius: 0.4,
        };
        let id = cloth.add_collider(circle).unwrap();
        cloth.steps(10).unwrap();
        cloth.move_collider(id, 1.1, -0.9).unwrap();
        // placed, not thrown: a single move tells no velocity
        assert_eq!(cloth.colliders()[0].velocity, [0.0, 0.0]);
        let budget = push_budget(&cloth, 0.0);
        let what = format!("circle teleported into a hanging cloth, {order:?}");
        let worst = kinetic_within_released(&what, &mut cloth, 300, budget, |_, _| {});
        println!("{what}: kinetic energy at most {worst:.3} J beyond what was released (budget {budget:.3} J)");
        // dragged as a pointer drags it, one move a frame of 8 steps: at
        // 1 m/s from beside the cloth 0.8 m into it
        let mut cloth = hanging_cloth(order);
        cloth.set_substeps(10).unwrap();
        let id = cloth
            .add_collider(Shape::Circle {
                x: -0.6,
                y: -0.9,
                radius: 0.4,
            })
            .unwrap();
        let budget = push_budget(&cloth, 1.0);
        let what = format!("circle dragged into a hanging cloth, {order:?}");
        let worst = kinetic_within_released(&what, &mut cloth, 300, budget, |cloth, step| {
            if step % 8 == 0 && step <= 80 {
                let x = -0.6 + 0.01 * step as f64;
                cloth.move_collider(id, x, -0.9).unwrap();
            }
        });
        println!("{what}: kinetic energy at most {worst:.3} J beyond what was released (budget {budget:.3} J)");
    }
}

/// The particle radius raised from 0.05 m to 0.15 m while a cloth lies on the
/// ground (dropped and settled): every particle touching it is 0.1 m deep at
/// once, and comes out at the depenetration speed, launching nothing.
pub fn a_radius_raised_on_the_ground_launches_nothing() {
    for order in ORDERS {
        let mut cloth = free_cloth(10, 10, 0.0, 0.0);
        cloth.set_solver_order(order).unwrap();
        cloth.set_substeps(4).unwrap();
        cloth.add_collider(Shape::Ground { y: -2.5 }).unwrap();
        settle(&mut cloth, 5.0);
        let before = deepest(&cloth);
        cloth.set_particle_radius(0.15).unwrap();
        assert!(
            deepest(&cloth) > before + 0.09,
            "the radius must make overlaps"
        );
        let budget = push_budget(&cloth, 0.0);
        let what = format!("radius raised on the ground, {order:?}");
        let worst = kinetic_within_released(&what, &mut cloth, 400, budget, |_, _| {});
        assert!(
            deepest(&cloth) <= 1e-3,
            "{what}: the overlap must be undone in 4 s"
        );
        println!("{what}: kinetic energy at most {worst:.3} J beyond what was released (budget {budget:.3} J)");
    }
}

// ----- what rests stays at rest --------------------------------------------------

/// The soft body, from rest, stays on the ground: its highest point over
/// 10 s stays within 1 cm of where it started, in both orders.
pub fn the_soft_body_stays_on_the_ground() {
    for order in ORDERS {
        let mut cloth = resting("soft-body", order);
        let start = highest(&cloth);
        let mut top = start;
        for _ in 0..1000 {
            cloth.step();
            top = top.max(highest(&cloth));
        }
        println!("soft body, {order:?}: highest point {top:.4} m, from {start:.4} m");
        assert!(
            top - start <= 0.01,
            "{order:?}: the soft body rose to {top} m from {start} m"
        );
    }
}

/// The balloon preset moved down to rest on the ground (its lowest particle
/// one radius above it), at rest.
pub fn resting_balloon(order: SolverOrder) -> Cloth {
    resting("balloon", order)
}

/// Preset `name` (a body that starts in the air) moved down to rest on the
/// ground (its lowest particle one radius above it), at rest.
pub fn resting(name: &str, order: SolverOrder) -> Cloth {
    let mut preset = presets::preset(name, &[]).unwrap();
    preset.rest_on_ground();
    let mut cloth = Cloth::from_scene(&preset.scene).unwrap();
    for (name, value) in preset.params {
        cloth.set_parameter(name, value).unwrap();
    }
    cloth.set_solver_order(order).unwrap();
    cloth
}

/// A balloon and a soft body resting on flat ground drift less than 1 cm
/// over 60 s, in both orders (their mean x never farther than that from
/// where it started).
pub fn resting_bodies_do_not_drift() {
    for order in ORDERS {
        let bodies = [
            ("balloon", resting_balloon(order)),
            ("soft body", resting("soft-body", order)),
        ];
        for (name, mut cloth) in bodies {
            let start = mean_x(&cloth);
            let mut drift: f64 = 0.0;
            for _ in 0..6000 {
                cloth.step();
                drift = drift.max((mean_x(&cloth) - start).abs());
            }
            println!("{name} at rest, {order:?}: drifted at most {drift:.5} m in 60 s");
            assert!(drift < 0.01, "{name}, {order:?}: drifted {drift} m in 60 s");
        }
    }
}

/// Kinetic energy under which a body counts as at rest, joules (the balloon
/// weighs 0.64 kg: 1e-4 J is about 1.8 cm/s).
const AT_REST: f64 = 1e-4;

/// Most seconds a dropped body may take to come to rest.
const LANDING_SECONDS: usize = 30;

/// Steps `cloth` a second at a time until its kinetic energy stayed below
/// [`AT_REST`] for a whole second; returns the seconds it took, at most
/// [`LANDING_SECONDS`] (`None` if it never rested).
fn come_to_rest(cloth: &mut Cloth) -> Option<usize> {
    let steps = (1.0 / cloth.params().time_step).round() as usize;
    (1..=LANDING_SECONDS).find(|_| {
        let mut most: f64 = 0.0;
        for _ in 0..steps {
            cloth.step();
            most = most.max(cloth.kinetic_energy());
        }
        most < AT_REST
    })
}

/// The balloon and the soft body, dropped as their presets build them, come
/// to rest within [`LANDING_SECONDS`] and then drift less than 1 cm over
/// 60 s, in both orders.
pub fn dropped_bodies_come_to_rest_and_stay() {
    for order in ORDERS {
        for name in ["balloon", "soft-body"] {
            let mut cloth = preset(name, &[("solverOrder", Value::Word(order.name()))]);
            let rested = come_to_rest(&mut cloth);
            let seconds = rested.unwrap_or_else(|| {
                let k = cloth.kinetic_energy();
                panic!("{name} {order:?}: not at rest after {LANDING_SECONDS} s (kinetic energy {k:e} J)")
            });
            let start = mean_x(&cloth);
            let mut drift: f64 = 0.0;
            for _ in 0..6000 {
                cloth.step();
                drift = drift.max((mean_x(&cloth) - start).abs());
            }
            println!("{name} dropped, {order:?}: at rest after {seconds} s, then drifted at most {drift:.5} m in 60 s");
            assert!(
                drift < 0.01,
                "{name}, {order:?}: drifted {drift} m in 60 s after landing"
            );
        }
    }
}

/// A cloth over the ball, the balloon and the soft body: no free particle
/// ends a step deeper than 1e-4 m in a collider, over 10 s.
pub fn contacts_keep_particles_out() {
    for name in ["cloth-over-ball", "balloon", "soft-body"] {
        for order in ORDERS {
            let mut cloth = preset(name, &[("solverOrder", Value::Word(order.name()))]);
            let mut worst = f64::NEG_INFINITY;
            for step in 0..1000 {
                cloth.step();
                let d = deepest(&cloth);
                worst = worst.max(d);
                assert!(
                    d <= 1e-4,
                    "{name} {order:?}: step {step}: a particle is {d} m inside"
                );
            }
            println!("{name} {order:?}: deepest {worst:.2e} m");
        }
    }
}
