//! Bending: a stiffness that resists folding.
//!
//! A bending constraint is a distance constraint between the two neighbours of
//! a particle that lie on opposite sides of it (`a – middle – b`), with rest
//! length their start distance and compliance `1 / bendingStiffness`. For a
//! grid these are the particles two apart along rows and columns. Folding the
//! chain `a – middle – b` brings `a` and `b` closer, which the constraint
//! resists; stretching is already held by the distance constraints.
//!
//! **Why distances rather than an angle constraint.** The solve is the
//! distance solve the cloth already runs ([`solver::solve_distance`]):
//! one square root per constraint, a gradient that is well defined however the
//! chain is bent, and XPBD multipliers that make the stiffness independent of
//! the iteration count. An angle constraint `C = θ - θ₀` needs `atan2` and a
//! gradient that blows up as a neighbour gets close to the middle particle, and
//! in 2D a fold through 180° flips the sign of the angle, so a chain folded
//! flat can end up held folded. The distance form cannot tell a fold to the
//! left from one to the right, which in 2D does not matter: both shorten
//! `|a - b|`. Its stiffness is not a pure bending stiffness: it also resists
//! stretching and compression along the line. Far stiffer than the distance
//! constraints, the pairs make a compressed row buckle in fewer, sharper kinks
//! instead of smoothing it (docs/physics.md, "Bending", has numbers).
//!
//! **Deriving them** ([`derive_auto`], `Bending::Auto`): for each particle, the
//! pairs of its neighbours (along its distance constraints) whose rest angle
//! through it is within 30° of straight, among its *structural* edges: those at
//! most 1.3 times as long as its shortest edge. A grid's diagonals, √2 ≈ 1.41
//! times as long as its rows and columns, are shear edges and make no bending
//! pairs, so the grid gets exactly its two-apart row and column pairs.
//!
//! **When they exist.** A scene's pairs are built with the scene. The grid
//! cloth built by `Cloth::try_new` derives its pairs when a bending
//! stiffness above 0 is first set (about two pairs per particle, 21 bytes each,
//! and neighbour lists to follow tears: about 105 bytes per
//! particle, over half the cloth's own memory, which a cloth without bending
//! should not pay for); a cloth too big for them refuses the setting with
//! `OutOfMemory`. Pairs remember their middle particle: a pair whose distance
//! constraint to the middle tore stops acting, so bending never holds torn
//! pieces together.

use std::collections::TryReserveError;

use super::neighbours::Neighbours;
use super::{on_points, ConstraintKind, Cost, Now, Particles, Positions, Sizes, Topology};
use crate::error::ClothError;
use crate::memory;
use crate::model::{grid, Bending, Scene};
use crate::params::{work, GridSize, Params};
use crate::solver::{self, Pair, Points};

/// Work units of one bending constraint solve (a scalar distance solve), per
/// pass (see [`crate::params::work`]; measured with the worst-case search,
/// docs/limits.md, "The work model").
pub const BENDING_SOLVE: u64 = 16;
/// Work units per bending pair, per substep in which bending is on and
/// tearing may cut the cloth: whether the tear cut it (two lookups in the
/// neighbour lists).
pub const BENDING_LIVE_CHECK: u64 = 4;

/// Rest angle of `a – middle – b` within 30° of straight: `cos ≤ cos 150°`.
const STRAIGHT_COS: f64 = -0.866_025_403_784_438_6;

/// Edges longer than this multiple of a particle's shortest edge are shear or
/// cross edges, and make no bending pairs through it.
const STRUCTURAL_RATIO: f64 = 1.3;

/// No middle particle known (pairs given by the scene).
pub const NO_MIDDLE: u32 = u32::MAX;

/// A bending pair: `a` and `b`, opposite neighbours of `middle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct BendingPair {
    /// One end.
    pub a: u32,
    /// The other end.
    pub b: u32,
    /// The particle between them, or [`NO_MIDDLE`].
    pub middle: u32,
}

/// The bending constraints of a cloth and their multipliers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BendingSet {
    pairs: Vec<BendingPair>,
    rest_lengths: Vec<f32>,
    lambdas: Vec<f32>,
    /// Whether each pair acts: its edges to the middle are intact.
    live: Vec<bool>,
    /// A grid whose pairs are derived when bending is first switched on.
    pending_grid: Option<GridSize>,
}

impl BendingSet {
    /// The given pairs, rest lengths measured on `positions`.
    pub fn try_new(
        pairs: Vec<BendingPair>,
        positions: &[f32],
    ) -> Result<BendingSet, TryReserveError> {
        BendingSet::measured(pairs, &|k| positions.point(k as usize))
    }

    /// The given pairs, rest lengths measured between their ends' `position`s:
    /// one function for a scene's positions and a pending grid's rule.
    fn measured(
        pairs: Vec<BendingPair>,
        position: &dyn Fn(u32) -> (f32, f32),
    ) -> Result<BendingSet, TryReserveError> {
        let rest_lengths = memory::collect(
            pairs.len(),
            pairs.iter().map(|p| {
                let (a, b) = (position(p.a), position(p.b));
                ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
            }),
        )?;
        Ok(BendingSet {
            lambdas: memory::filled(pairs.len(), 0.0)?,
            live: memory::filled(pairs.len(), true)?,
            rest_lengths,
            pairs,
            pending_grid: None,
        })
    }

    /// No pairs yet: the grid `size`'s are derived when bending is first
    /// switched on ([`BendingSet::derive_pending`]).
    pub fn pending_grid(size: GridSize) -> BendingSet {
        BendingSet {
            pending_grid: Some(size),
            ..BendingSet::default()
        }
    }

    /// Derives the pending grid's pairs, if any, from its live distance
    /// constraints `ids`; on an error nothing changes.
    pub fn derive_pending(&mut self, ids: &[u32]) -> Result<(), TryReserveError> {
        let Some(size) = self.pending_grid else {
            return Ok(());
        };
        let positions = |k: u32| grid_rest_position(size, k);
        let pairs = derive_pairs(ids, size.num_particles(), &positions)?;
        *self = BendingSet::measured(pairs, &positions)?;
        Ok(())
    }

    /// Whether the pairs still have to be derived.
    pub fn is_pending(&self) -> bool {
        self.pending_grid.is_some()
    }

    /// The number of pairs a pending grid will have, or the pairs there are.
    pub fn len(&self) -> usize {
        match self.pending_grid {
            Some(GridSize { width, height }) => {
                height * width.saturating_sub(2) + width * height.saturating_sub(2)
            }
            None => self.pairs.len(),
        }
    }

    /// Whether there are (or will be) none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether any pair knows its middle particle (and so can be cut by a tear).
    pub fn has_middles(&self) -> bool {
        self.pending_grid.is_some() || self.pairs.iter().any(|p| p.middle != NO_MIDDLE)
    }

    /// The pairs.
    pub fn pairs(&self) -> &[BendingPair] {
        &self.pairs
    }

    /// Rest length of each pair, metres.
    pub fn rest_lengths(&self) -> &[f32] {
        &self.rest_lengths
    }

    /// Whether each pair acts.
    pub fn live(&self) -> &[bool] {
        &self.live
    }

    /// Marks which pairs act: those whose middle is joined to both ends by a
    /// live distance constraint (`joined(a, b)`), and those without a middle.
    pub fn update_live(&mut self, joined: impl Fn(u32, u32) -> bool) {
        for (pair, live) in self.pairs.iter().zip(&mut self.live) {
            *live = pair.middle == NO_MIDDLE
                || (joined(pair.a, pair.middle) && joined(pair.middle, pair.b));
        }
    }

    /// One Gauss–Seidel pass over the live pairs with `alpha_tilde` of the
    /// bending compliance.
    pub fn pass<P: Points + ?Sized>(
        &mut self,
        points: &mut P,
        inverse_mass: &[f32],
        alpha_tilde: f32,
    ) {
        let items = self.pairs.iter().zip(&self.rest_lengths).zip(&self.live);
        for (((pair, &rest_length), &live), lambda) in items.zip(&mut self.lambdas) {
            if !live {
                continue;
            }
            let pair = Pair {
                a: pair.a as usize,
                b: pair.b as usize,
                rest_length,
            };
            *lambda += solver::solve_distance(points, inverse_mass, pair, *lambda, alpha_tilde);
        }
    }
}

impl ConstraintKind for BendingSet {
    /// The scene's `bending`: none, derived (`"auto"`, refused when it would
    /// compare more than [`MAX_AUTO_COMPARISONS`] pairs of edges), or given
    /// pairs (each two particles of the scene that do not start at one place).
    fn from_scene(scene: &Scene) -> Result<BendingSet, ClothError> {
        let out_of_memory = |_| scene.out_of_memory();
        let n = scene.num_particles();
        let pairs = match &scene.bending {
            Bending::None => Vec::new(),
            Bending::Auto => {
                // checked from the degrees, before the derivation's work
                let comparisons = auto_comparisons(&scene.distances, n).map_err(out_of_memory)?;
                if comparisons > MAX_AUTO_COMPARISONS {
                    return Err(ClothError::InvalidScene {
                        field: "bending",
                        index: None,
                        problem: format!(
                            "\"auto\" would compare {comparisons} pairs of edges, at most \
                             {MAX_AUTO_COMPARISONS}"
                        ),
                    });
                }
                derive_auto(&scene.distances, &scene.positions, n).map_err(out_of_memory)?
            }
            Bending::Pairs(ids) => {
                scene.validate_pairs("bending", ids)?;
                let pairs = ids.chunks_exact(2).map(|p| BendingPair {
                    a: p[0],
                    b: p[1],
                    middle: NO_MIDDLE,
                });
                memory::collect(ids.len() / 2, pairs).map_err(out_of_memory)?
            }
        };
        BendingSet::try_new(pairs, &scene.positions).map_err(out_of_memory)
    }

    /// On while `bendingStiffness` is above 0 and there are pairs (or a grid's
    /// pairs to derive).
    fn is_on(&self, p: &Params) -> bool {
        p.bending_stiffness > 0.0 && !self.is_empty()
    }

    fn cost(&self, _p: &Params, _sizes: Sizes) -> Cost {
        let pairs = self.len() as u64;
        Cost {
            begin: pairs * work::CONSTRAINT_SUBSTEP,
            pass: pairs * BENDING_SOLVE,
            end: 0,
            tear: pairs * BENDING_LIVE_CHECK,
        }
    }

    fn heap_bytes(&self) -> u64 {
        use memory::capacity_bytes as bytes;
        bytes(&self.pairs) + bytes(&self.rest_lengths) + bytes(&self.lambdas) + bytes(&self.live)
    }

    fn switch(&self) -> &'static str {
        "bendingStiffness"
    }

    /// A grid's pairs are derived when bending is first switched on.
    fn prepare(&mut self, p: &Params, topology: &Topology) -> Result<(), TryReserveError> {
        if p.bending_stiffness > 0.0 {
            self.derive_pending(topology.ids)?;
        }
        Ok(())
    }

    /// 21 bytes per pair.
    fn prepare_bytes(&self, _p: &Params, _sizes: Sizes) -> u64 {
        self.len() as u64 * 21
    }

    /// Pairs that know their middle stop acting when a tear cuts them.
    fn uses_neighbours(&self, _p: &Params) -> bool {
        self.has_middles()
    }

    fn topology_changed(&mut self, _p: &Params, _topology: &Topology, neighbours: &Neighbours) {
        self.update_live(|a, b| neighbours.joined(a, b));
    }

    /// Every multiplier back to 0.
    fn begin_substep(&mut self, _particles: &mut Particles, _now: &Now) {
        self.lambdas.fill(0.0);
    }

    fn solve(&mut self, positions: Positions, _previous: &[f32], inverse_mass: &[f32], now: &Now) {
        let alpha_tilde = solver::alpha_tilde(1.0 / now.p.bending_stiffness, now.h);
        on_points!(positions, |points| self.pass(
            points,
            inverse_mass,
            alpha_tilde
        ))
    }
}

/// Where particle `k` of the grid `size` starts (see [`grid`]).
fn grid_rest_position(size: GridSize, k: u32) -> (f32, f32) {
    grid::rest_position(k as usize / size.width, k as usize % size.width)
}

/// Most pairs of edges [`derive_auto`] may compare (each particle compares
/// every two of its edges, `d (d - 1) / 2` for `d` edges): a grid with both
/// diagonals compares 28 per particle, 7 million for the largest; a particle
/// with tens of thousands of edges would compare billions. 2e7 take about
/// 60 ms natively (a dot product each).
pub const MAX_AUTO_COMPARISONS: u64 = 20_000_000;

/// How many pairs of edges [`derive_auto`] would compare on the distance
/// constraints `ids` (flat pairs) between `n` particles: counted from the
/// particles' degrees, in one pass, before the derivation is started.
pub fn auto_comparisons(ids: &[u32], n: usize) -> Result<u64, TryReserveError> {
    let mut degree = memory::filled(n, 0u32)?;
    for &k in ids {
        if let Some(d) = degree.get_mut(k as usize) {
            *d = d.saturating_add(1);
        }
    }
    Ok(degree
        .iter()
        .map(|&d| u64::from(d) * u64::from(d.saturating_sub(1)) / 2)
        .sum())
}

/// `Bending::Auto`: the bending pairs of the distance constraints `ids` (flat
/// pairs) between `n` particles at `positions` (interleaved), ordered by middle
/// particle. See the module documentation for the rule.
pub fn derive_auto(
    ids: &[u32],
    positions: &[f32],
    n: usize,
) -> Result<Vec<BendingPair>, TryReserveError> {
    derive_pairs(ids, n, &|k| positions.point(k as usize))
}

/// [`derive_auto`] with rest positions given by `position` (a scene's
/// positions or a pending grid's rule: one copy of the derivation for both).
fn derive_pairs(
    ids: &[u32],
    n: usize,
    position: &dyn Fn(u32) -> (f32, f32),
) -> Result<Vec<BendingPair>, TryReserveError> {
    // neighbours of each particle, compressed rows
    let mut starts = memory::filled(n + 1, 0u32)?;
    for &k in ids {
        starts[k as usize + 1] += 1;
    }
    for k in 0..n {
        starts[k + 1] += starts[k];
    }
    let mut fill = memory::copied(&starts[..n])?;
    let mut neighbours = memory::filled(ids.len(), 0u32)?;
    for pair in ids.chunks_exact(2) {
        for (from, to) in [(pair[0], pair[1]), (pair[1], pair[0])] {
            neighbours[fill[from as usize] as usize] = to;
            fill[from as usize] += 1;
        }
    }
    drop(fill);
    let most = (0..n).map(|k| starts[k + 1] - starts[k]).max().unwrap_or(0) as usize;
    // each middle's structural neighbours with their offsets and lengths,
    // computed once per middle rather than once per pair
    let mut near: Vec<(u32, (f64, f64), f64)> = memory::with_capacity(most)?;
    // two passes: count, then fill exactly
    let mut visit = |emit: &mut dyn FnMut(BendingPair)| {
        for middle in 0..n {
            let around = &neighbours[starts[middle] as usize..starts[middle + 1] as usize];
            let m = position(middle as u32);
            let offset = |k: u32| {
                let p = position(k);
                ((p.0 - m.0) as f64, (p.1 - m.1) as f64)
            };
            let length = |d: (f64, f64)| (d.0 * d.0 + d.1 * d.1).sqrt();
            let shortest = around
                .iter()
                .map(|&k| length(offset(k)))
                .fold(f64::MAX, f64::min);
            near.clear();
            near.extend(around.iter().filter_map(|&k| {
                let d = offset(k);
                let l = length(d);
                (l <= STRUCTURAL_RATIO * shortest).then_some((k, d, l))
            }));
            for (x, &(a, u, la)) in near.iter().enumerate() {
                for &(b, v, lb) in &near[x + 1..] {
                    if a == b {
                        continue;
                    }
                    let cos = (u.0 * v.0 + u.1 * v.1) / (la * lb);
                    if cos <= STRAIGHT_COS {
                        let (a, b) = (a.min(b), a.max(b));
                        emit(BendingPair {
                            a,
                            b,
                            middle: middle as u32,
                        });
                    }
                }
            }
        }
    };
    let mut count = 0;
    visit(&mut |_| count += 1);
    let mut pairs = memory::with_capacity(count)?;
    visit(&mut |pair| pairs.push(pair));
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::FixedPreset;

    #[test]
    fn the_grid_gets_exactly_its_two_apart_row_and_column_pairs() {
        for (w, h) in [(2, 2), (3, 2), (5, 4), (9, 7)] {
            let size = GridSize {
                width: w,
                height: h,
            };
            let g = grid::build(size, FixedPreset::Two);
            let mut derived: Vec<(u32, u32)> = derive_auto(&g.constraint_ids, &g.positions, w * h)
                .unwrap()
                .iter()
                .map(|p| (p.a, p.b))
                .collect();
            derived.sort();
            let mut expected = Vec::new();
            for i in 0..h {
                for j in 0..w {
                    let k = (i * w + j) as u32;
                    if j + 2 < w {
                        expected.push((k, k + 2));
                    }
                    if i + 2 < h {
                        expected.push((k, k + 2 * w as u32));
                    }
                }
            }
            expected.sort();
            assert_eq!(derived, expected, "{w} × {h}");
            // the pending grid derives the same pairs with the same rest lengths
            let mut pending = BendingSet::pending_grid(size);
            assert_eq!(pending.len(), expected.len());
            pending.derive_pending(&g.constraint_ids).unwrap();
            let auto = BendingSet::try_new(
                derive_auto(&g.constraint_ids, &g.positions, w * h).unwrap(),
                &g.positions,
            )
            .unwrap();
            assert_eq!(pending.pairs(), auto.pairs());
            for (x, y) in pending.rest_lengths().iter().zip(auto.rest_lengths()) {
                assert!((x - y).abs() < 1e-6, "{x} vs {y}");
            }
        }
    }

    fn rope(bending: Bending) -> Scene {
        Scene {
            positions: vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0],
            masses: vec![0.0, 1.0, 1.0, 1.0],
            distances: vec![0, 1, 1, 2, 2, 3],
            bending,
            ..Scene::default()
        }
    }

    #[test]
    fn a_scene_brings_its_bending_pairs() {
        let auto = BendingSet::from_scene(&rope(Bending::Auto)).unwrap();
        let ends: Vec<_> = auto.pairs().iter().map(|p| (p.a, p.b, p.middle)).collect();
        assert_eq!(ends, vec![(0, 2, 1), (1, 3, 2)]);
        let given = BendingSet::from_scene(&rope(Bending::Pairs(vec![0, 3]))).unwrap();
        let pair = given.pairs()[0];
        assert_eq!((pair.a, pair.b, pair.middle), (0, 3, NO_MIDDLE));
        assert_eq!(given.rest_lengths(), &[3.0]);
        let none = BendingSet::from_scene(&rope(Bending::None)).unwrap();
        let on = Params {
            bending_stiffness: 10.0,
            ..Params::default()
        };
        assert!(!none.is_on(&on) && given.is_on(&on));
        assert!(!given.is_on(&Params::default()));
    }

    #[test]
    fn a_bent_rope_keeps_only_its_nearly_straight_pairs() {
        // 0 – 1 – 2 straight, 2 – 3 at a right angle
        let positions = [0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 2.0, 1.0];
        let pairs = derive_auto(&[0, 1, 1, 2, 2, 3], &positions, 4).unwrap();
        assert_eq!(
            pairs,
            vec![BendingPair {
                a: 0,
                b: 2,
                middle: 1
            }]
        );
        // 25° off straight still counts, 35° does not
        for (degrees, expected) in [(25.0f64, 1), (35.0, 0)] {
            let t = degrees.to_radians();
            let positions = [-1.0, 0.0, 0.0, 0.0, t.cos() as f32, t.sin() as f32];
            let pairs = derive_auto(&[0, 1, 1, 2], &positions, 3).unwrap();
            assert_eq!(pairs.len(), expected, "{degrees}°");
        }
    }
}
