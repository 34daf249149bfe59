//! What the presets are made of: a preset (see [`super::presets`]) is a list
//! of [`Piece`]s, and [`build`] lays them out into one [`Scene`], in order.
//! A piece's particles and constraints follow those of the pieces before it.
//!
//! Each piece's builder is kept out of line (`#[inline(never)]`): inlined
//! into [`build`], the compiler specialises their loops for each variant of
//! their settings, and the module carries several copies of one loop.

use super::body_presets::{SPACING, STACK_GAP};
use super::body_shapes::rigid;
use super::circle;
use super::grid;
use super::scene::{
    AreaSpec, Bending, BodySpec, DistanceStiffness, Plasticity, Scene, MAX_SCENE_CONSTRAINTS,
};
use super::shape::Shape;
use crate::error::{self, ClothError};
use crate::params::{self, FixedPreset, GridSize};

/// One piece of a preset's scene.
#[derive(Debug, Clone, Copy)]
pub enum Piece {
    /// The original demo's grid cloth of the preset's `width × height`, 0.2 m
    /// apart, in its order (see [`grid`]). First, if at all: it starts the
    /// scene.
    Grid { pins: Pins, bending: GridBending },
    /// A chain of particles joined one to the next, the first pinned.
    Chain(Chain),
    /// A closed ring of particles, inflated, with one rigid ring area.
    Ring(Ring),
    /// A grid of particles joined to their neighbours in rows and columns,
    /// and braced across each cell as `braces` says.
    Lattice(Lattice),
    /// A rigid box of `size` (columns, rows) particles [`SPACING`] apart, of
    /// `mass` each, centred at `centre`, turned by `angle` radians.
    Box {
        centre: (f32, f32),
        size: (usize, usize),
        mass: f32,
        angle: f32,
    },
    /// A rigid ball of particles [`SPACING`] apart (a hexagonal packing)
    /// within `radius` of `centre`, of `mass` each; when `tied`, its
    /// rightmost particle is joined to the particle added just before it.
    Ball {
        centre: (f32, f32),
        radius: f32,
        mass: f32,
        tied: bool,
    },
    /// A bridge of `planks` rigid planks (`plank × 2` particles of `mass`),
    /// laid end to end at y = 0 with a gap of one spacing between them,
    /// hinged at their top corners to each other and to two pinned posts.
    Bridge {
        planks: usize,
        plank: usize,
        mass: f32,
    },
    /// A stack of `boxes` rigid square boxes (`size × size` particles of
    /// `mass`) on the ground at y = 0, each offset by half a spacing from the
    /// one below so its bottom row rests in the grooves of the top row below,
    /// each starting [`STACK_GAP`] above its
    /// resting place.
    Stack {
        boxes: usize,
        size: usize,
        mass: f32,
    },
    /// The wall of a `columns × rows` rectangle of particles of `mass`,
    /// standing on the ground at y = 0 and centred on x = 0, joined along
    /// it, a soft body of `compliance` and `plastic`ity.
    Can {
        columns: usize,
        rows: usize,
        mass: f32,
        compliance: f64,
        plastic: Plasticity,
    },
    /// A circle collider of radius a quarter of the grid's width (at most
    /// 1.5 m) 1 m below the grid's middle, and the ground 1 m below it.
    BallBelowGrid,
    /// The ground at this height.
    Ground(f32),
}

/// Which particles of a grid or a lattice are pinned (mass 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pins {
    /// None.
    None,
    /// The grid's corners the preset's `fixed` option names.
    Corners,
    /// The first column.
    FirstColumn,
    /// The first row.
    FirstRow,
    /// The first and the last columns.
    EndColumns,
}

impl Pins {
    /// Whether the particle of row `i`, column `j` of a grid `columns` wide is
    /// pinned ([`Pins::Corners`] is the grid's own, see [`grid::scene`]).
    /// Out of line: the loops that ask it stay one plain loop each.
    #[inline(never)]
    fn pinned(self, i: usize, j: usize, columns: usize) -> bool {
        match self {
            Pins::None | Pins::Corners => false,
            Pins::FirstColumn => j == 0,
            Pins::FirstRow => i == 0,
            Pins::EndColumns => j == 0 || j + 1 == columns,
        }
    }
}

/// The bending of the grid piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridBending {
    /// None.
    Off,
    /// Derived from its constraints as the scene is built (`Bending::Auto`).
    Auto,
    /// Derived when bending is first switched on, as `new Simulation` does.
    WhenSwitchedOn,
}

/// How many particles a piece has along one side.
#[derive(Debug, Clone, Copy)]
pub enum Count {
    /// This many.
    Fixed(usize),
    /// The preset's `width` option.
    Width,
    /// The preset's `height` option.
    Height,
}

/// Which way a chain runs from its first particle.
#[derive(Debug, Clone, Copy)]
pub enum Heading {
    /// Along +x.
    Right,
    /// Along -x.
    Left,
    /// Up, leaning to the right by this many radians.
    UpLeaning(f32),
}

/// A chain: `count` particles `link` apart from `start` along `heading`, of
/// `mass` each but the first, which is pinned.
#[derive(Debug, Clone, Copy)]
pub struct Chain {
    pub start: (f32, f32),
    pub heading: Heading,
    pub link: f32,
    pub count: Count,
    pub mass: f32,
}

/// A balloon: a ring of `count` particles (at least three) of `mass`, its
/// centre `height` above x = 0, skin edges whose rest lengths are the sides of
/// a ring of radius `radius`, and a rigid ring area holding `pressure` times
/// the area that ring encloses. It starts inflated (on a circle √`pressure`
/// times larger). The edges are created even ones first, then odd ones.
#[derive(Debug, Clone, Copy)]
pub struct Ring {
    pub count: Count,
    pub radius: f32,
    pub pressure: f32,
    pub height: f32,
    pub mass: f32,
}

/// A lattice of `columns × rows` particles `spacing` apart, of `mass` each
/// but the `pins`: row `i` at `first_row + row_step · i` (plus the particle
/// radius when `lifted`), column `j` at `left + spacing · j` (`left` `None`:
/// centred on x = 0). Each particle is joined to the next in its row and in
/// its column, then each cell braced as `braces` says. Its constraints have
/// `stiffness` (`None`: the preset's).
#[derive(Debug, Clone, Copy)]
pub struct Lattice {
    pub columns: Count,
    pub rows: Count,
    pub spacing: f32,
    pub left: Option<f32>,
    pub first_row: f32,
    pub row_step: f32,
    pub lifted: bool,
    pub mass: f32,
    pub pins: Pins,
    pub braces: Braces,
    pub stiffness: Option<f64>,
}

/// How each cell of a lattice is braced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Braces {
    /// Not at all.
    None,
    /// Both diagonals.
    Cross,
    /// One diagonal (first corner to the opposite one), and two rigid
    /// counter-clockwise triangles of area on either side of it.
    Triangles,
}

/// What a preset's options give its pieces.
pub struct Given<'a> {
    /// `width` and `height`, where the preset reads them.
    pub width: usize,
    pub height: usize,
    /// `fixed`, for [`Pins::Corners`].
    pub fixed: FixedPreset,
    /// The particle radius the preset runs with (read when asked).
    pub radius: &'a dyn Fn() -> Result<f64, ClothError>,
}

impl Given<'_> {
    fn count(&self, count: Count) -> usize {
        match count {
            Count::Fixed(n) => n,
            Count::Width => self.width,
            Count::Height => self.height,
        }
    }
}

/// The scene of `pieces`, in order, whose distance constraints have
/// `stiffness` but for a piece's own; and the grid whose bending is derived
/// when first switched on, if there is one.
pub fn build(
    pieces: &[Piece],
    stiffness: f64,
    given: &Given,
) -> Result<(Scene, Option<GridSize>), ClothError> {
    // the grid starts the scene (only the first piece may be one)
    let mut deferred = None;
    let (mut scene, rest) = match pieces {
        [Piece::Grid { pins, bending }, rest @ ..] => {
            let size = GridSize {
                width: given.width,
                height: given.height,
            };
            if *bending == GridBending::WhenSwitchedOn {
                deferred = Some(size);
            }
            (grid_scene(size, *pins, *bending, given.fixed)?, rest)
        }
        _ => (Scene::default(), pieces),
    };
    // one value per constraint, once a piece has a stiffness of its own
    let mut own: Option<Vec<f64>> = None;
    for piece in rest {
        let before = scene.num_distances();
        let mut value = stiffness;
        match *piece {
            Piece::Grid { .. } => {}
            Piece::Chain(chain) => scene.add_chain(&chain, given),
            Piece::Ring(ring) => scene.add_ring(&ring, given),
            Piece::Lattice(lattice) => {
                scene.add_lattice(&lattice, given)?;
                value = lattice.stiffness.unwrap_or(stiffness);
            }
            Piece::Box {
                centre,
                size,
                mass,
                angle,
            } => {
                scene.push_box(centre, size, (SPACING, mass, angle), rigid());
            }
            Piece::Ball {
                centre,
                radius,
                mass,
                tied,
            } => scene.add_tied_ball(centre, radius, mass, tied),
            Piece::Bridge {
                planks,
                plank,
                mass,
            } => scene.add_bridge(planks, plank, mass),
            Piece::Stack { boxes, size, mass } => scene.add_stack(boxes, size, mass),
            Piece::Can {
                columns,
                rows,
                mass,
                compliance,
                plastic,
            } => scene.add_can((columns, rows), mass, compliance, plastic),
            Piece::BallBelowGrid => scene.add_ball_below_grid(given.width, given.height),
            Piece::Ground(y) => scene.add_collider(Shape::Ground { y }),
        }
        if value != stiffness && own.is_none() {
            own = Some(Vec::new());
        }
        if let Some(own) = &mut own {
            // the constraints before this piece at the preset's stiffness
            own.resize(before, stiffness);
            own.resize(scene.num_distances(), value);
        }
    }
    scene.distance_stiffness = match own {
        Some(values) => DistanceStiffness::PerConstraint(values),
        None => DistanceStiffness::Uniform(stiffness),
    };
    Ok((scene, deferred))
}

/// The grid cloth of `size` pinned as `pins` say, its bending as `bending`
/// says.
#[inline(never)]
fn grid_scene(
    size: GridSize,
    pins: Pins,
    bending: GridBending,
    fixed: FixedPreset,
) -> Result<Scene, ClothError> {
    let corners = if pins == Pins::Corners {
        fixed
    } else {
        FixedPreset::One
    };
    let mut scene = grid::scene(size, corners)?;
    if pins != Pins::Corners {
        let mass = params::MASS.default_number() as f32;
        for (k, m) in scene.masses.iter_mut().enumerate() {
            let pinned = pins.pinned(k / size.width, k % size.width, size.width);
            *m = if pinned { 0.0 } else { mass };
        }
    }
    if bending == GridBending::Auto {
        scene.bending = Bending::Auto;
    }
    Ok(scene)
}

impl Scene {
    /// Adds `chain`, of as many particles as `given` says.
    #[inline(never)]
    fn add_chain(&mut self, chain: &Chain, given: &Given) {
        let count = given.count(chain.count);
        let (dx, dy) = match chain.heading {
            Heading::Right => (1.0, 0.0),
            Heading::Left => (-1.0, 0.0),
            Heading::UpLeaning(angle) => circle::sin_cos(angle),
        };
        let (x, y) = chain.start;
        for k in 0..count {
            let along = chain.link * k as f32;
            let mass = if k == 0 { 0.0 } else { chain.mass };
            let id = self.add_particle(x + along * dx, y + along * dy, mass);
            if k > 0 {
                self.add_distance(id - 1, id);
            }
        }
    }

    /// Adds `ring`, of as many particles as `given` says (at least three).
    #[inline(never)]
    fn add_ring(&mut self, ring: &Ring, given: &Given) {
        let count = given.count(ring.count).max(3);
        let first = self.num_particles() as u32;
        let inflated = ring.radius * ring.pressure.sqrt();
        for k in 0..count {
            let (sin, cos) = circle::sin_cos(std::f32::consts::TAU * k as f32 / count as f32);
            self.add_particle(inflated * cos, ring.height + inflated * sin, ring.mass);
        }
        // a ring under tension swept edge after edge around it turns (each
        // particle is pulled by the edge behind it, then by the edge ahead,
        // and the two corrections do not commute): even edges first, then
        // odd ones, so that the creation order meets it alternately
        let n = count as u32;
        for k in (0..n).step_by(2).chain((1..n).step_by(2)) {
            self.add_distance(first + k, first + (k + 1) % n);
        }
        let side = 2.0 * ring.radius * circle::sin_cos(std::f32::consts::PI / count as f32).0;
        self.rest_lengths = Some(vec![side; count]);
        self.add_rigid_area((first..first + n).collect());
    }

    /// Adds a rigid area constraint keeping the area `particles` enclose.
    #[inline(never)]
    fn add_rigid_area(&mut self, particles: Vec<u32>) {
        self.areas.push(AreaSpec {
            particles,
            stiffness: 0.0,
            pressure: 1.0,
        });
    }

    /// Adds `lattice`, refusing one with more triangle corners than a scene
    /// may have before anything is built.
    #[inline(never)]
    fn add_lattice(&mut self, lattice: &Lattice, given: &Given) -> Result<(), ClothError> {
        let (w, h) = (given.count(lattice.columns), given.count(lattice.rows));
        if lattice.braces == Braces::Triangles {
            check_corners(w, h)?;
        }
        let mut bottom = lattice.first_row;
        if lattice.lifted {
            bottom += (given.radius)()? as f32;
        }
        let spacing = lattice.spacing;
        let left = lattice.left.unwrap_or(-spacing * (w - 1) as f32 / 2.0);
        let first = self.num_particles() as u32;
        for i in 0..h {
            for j in 0..w {
                let mass = if lattice.pins.pinned(i, j, w) {
                    0.0
                } else {
                    lattice.mass
                };
                let y = bottom + lattice.row_step * i as f32;
                self.add_particle(left + spacing * j as f32, y, mass);
            }
        }
        let at = |i: usize, j: usize| first + (i * w + j) as u32;
        for i in 0..h {
            for j in 0..w {
                let (right, up) = (j + 1 < w, i + 1 < h);
                if right {
                    self.add_distance(at(i, j), at(i, j + 1));
                }
                if up {
                    self.add_distance(at(i, j), at(i + 1, j));
                }
                if right && up {
                    self.brace(
                        lattice.braces,
                        [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)],
                    );
                }
            }
        }
        Ok(())
    }

    /// Braces the cell of corners `[a, b, c, d]` (counter-clockwise when the
    /// rows go up) as `braces` says.
    #[inline(never)]
    fn brace(&mut self, braces: Braces, [a, b, c, d]: [u32; 4]) {
        match braces {
            Braces::None => {}
            Braces::Cross => {
                self.add_distance(a, c);
                self.add_distance(b, d);
            }
            Braces::Triangles => {
                self.add_distance(a, c);
                self.add_rigid_area(vec![a, b, c]);
                self.add_rigid_area(vec![a, c, d]);
            }
        }
    }

    /// Adds a rigid ball; when `tied`, joins its rightmost particle (the
    /// first of the rightmost) to the particle added just before it.
    #[inline(never)]
    fn add_tied_ball(&mut self, centre: (f32, f32), radius: f32, mass: f32, tied: bool) {
        let first = self.push_ball(centre, radius, (SPACING, mass), rigid());
        if tied {
            let end = self.num_particles() as u32;
            let mut rightmost = first;
            for k in first..end {
                let x = |p: u32| self.positions[2 * p as usize];
                if x(k).total_cmp(&x(rightmost)).is_ge() {
                    rightmost = k;
                }
            }
            self.add_distance(first - 1, rightmost);
        }
    }

    /// Adds the rope bridge of [`Piece::Bridge`].
    #[inline(never)]
    fn add_bridge(&mut self, planks: usize, plank: usize, mass: f32) {
        // a post, a gap, the planks with a gap after each, the other post
        let span = SPACING * ((planks * plank) as f32 + (planks + 1) as f32);
        let left = -span / 2.0;
        let mut last = self.add_particle(left, 0.0, 0.0);
        let mut x = left + SPACING;
        for _ in 0..planks {
            let centre = x + SPACING * (plank - 1) as f32 / 2.0;
            let first = self.push_box(
                (centre, -SPACING / 2.0),
                (plank, 2),
                (SPACING, mass, 0.0),
                rigid(),
            );
            // the top row is the second: its first and last are the hinges
            let plank = plank as u32;
            self.add_distance(last, first + plank);
            last = first + 2 * plank - 1;
            x += SPACING * (plank + 1) as f32;
        }
        let post = self.add_particle(x, 0.0, 0.0);
        self.add_distance(last, post);
    }

    /// Adds the stack of boxes of [`Piece::Stack`].
    #[inline(never)]
    fn add_stack(&mut self, boxes: usize, size: usize, mass: f32) {
        let r = SPACING / 2.0;
        // a row resting in the grooves of the one below sits √3 r above it
        let nest = 3f32.sqrt() * r;
        let side = (size - 1) as f32;
        for b in 0..boxes {
            let offset = if b % 2 == 1 { r } else { 0.0 };
            let bottom = r + b as f32 * (side * SPACING + nest) + (b + 1) as f32 * STACK_GAP;
            let centre = (offset, bottom + side / 2.0 * SPACING);
            self.push_box(centre, (size, size), (SPACING, mass, 0.0), rigid());
        }
    }

    /// Adds the can of [`Piece::Can`].
    #[inline(never)]
    fn add_can(
        &mut self,
        (columns, rows): (usize, usize),
        mass: f32,
        compliance: f64,
        plastic: Plasticity,
    ) {
        let (left, bottom) = (-SPACING * (columns - 1) as f32 / 2.0, SPACING / 2.0);
        // the wall counter-clockwise from the bottom left corner
        let first = self.num_particles() as u32;
        let sides = [
            (1, 0, columns - 1),
            (0, 1, rows - 1),
            (-1, 0, columns - 1),
            (0, -1, rows - 1),
        ];
        let (mut i, mut j) = (0i32, 0i32);
        for (dj, di, count) in sides {
            for _ in 0..count {
                let x = left + SPACING * j as f32;
                let y = bottom + SPACING * i as f32;
                self.add_particle(x, y, mass);
                (i, j) = (i + di, j + dj);
            }
        }
        let n = self.num_particles() as u32 - first;
        for k in 0..n {
            self.add_distance(first + k, first + (k + 1) % n);
        }
        let behaviour = BodySpec {
            particles: Vec::new(),
            compliance,
            plastic: Some(plastic),
        };
        self.push_body(first, behaviour);
    }

    /// Adds the colliders of [`Piece::BallBelowGrid`] below the grid of
    /// `width × height`.
    #[inline(never)]
    fn add_ball_below_grid(&mut self, width: usize, height: usize) {
        let width_m = grid::SPACING * (width - 1) as f32;
        let bottom = -grid::SPACING * (height - 1) as f32;
        let radius = (width_m / 4.0).clamp(grid::SPACING, 1.5);
        let (x, y) = (width_m / 2.0, bottom - 1.0 - radius);
        self.add_collider(Shape::Circle { x, y, radius });
        self.add_collider(Shape::Ground {
            y: y - radius - 1.0,
        });
    }

    /// Adds the collider `shape` (out of line, as [`Scene::add_particle`]).
    #[inline(never)]
    fn add_collider(&mut self, shape: Shape) {
        self.colliders.push(shape);
    }
}

/// Refuses a lattice of `w × h` whose triangles would have more corners than
/// a scene may ([`MAX_SCENE_CONSTRAINTS`]), naming the width the user gave.
#[inline(never)]
fn check_corners(w: usize, h: usize) -> Result<(), ClothError> {
    let corners = 6 * (w - 1) * (h - 1);
    if corners <= MAX_SCENE_CONSTRAINTS {
        return Ok(());
    }
    Err(error::invalid(
        params::WIDTH.name,
        format!("{w} (with height {h}: {corners} triangle corners)"),
        format!("at most {MAX_SCENE_CONSTRAINTS} triangle corners"),
    ))
}
