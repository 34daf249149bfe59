// What a scene can reach: the world box it will move in, estimated from what
// it is made of, once, when it is built; the camera (camera.js) fits its view
// to that box. Nothing here runs the simulation.
//
// - A particle joined to a pinned particle (through constraints) hangs from
//   the nearest pin, at most its reach away: the rest length of the shortest
//   path of constraints from the pins, plus how far that path stretches under
//   the load. The load is each free particle's weight, m·|g|, plus an
//   estimate of the wind's push (drag · wind speed² · its share of edge
//   length). Everything beyond reach d hangs on the constraints that cross d,
//   shared between them; each stretches by its share / stiffness (stiffness 0
//   is rigid). A suddenly released load swings to twice its static stretch
//   (DYNAMIC_STRETCH), a body swinging down about a pivot to three times.
// - A body hanging from one point (its pins within a small fraction of its
//   reach: a rope, a pendulum, a cloth held by one corner) swings: each
//   particle may go anywhere on its reach around that pivot no higher than it
//   started. A body held by pins apart (a cloth by two corners, a flag on its
//   pole) cannot swing sideways: it hangs from its pins along the load (down,
//   or down and downwind) by its reach; pins on one line let it fold over to
//   the line's other side unless the load holds it on its own.
// - A body with no pin (a balloon, a soft body, a cloth dropped on a ball)
//   falls onto what is under it (the ground, a collider) and may squash, spread
//   or bounce (FREE_SPREAD, FREE_BOUNCE of its size).
// - Colliders are part of the picture, the ground near the scene as a line:
//   nothing goes below it.
//
// The shortest paths from the pins are the crate's (`pathsFromPins`, the
// Dijkstra the tethers run, src/kinds/shortest_paths.rs): the wasm module must
// be loaded before a scene's reach is estimated (a Simulation exists by then).

import { pathsFromPins } from './wasm.js';

/** Peak stretch of a suddenly released hanging load, in static stretches. */
export const DYNAMIC_STRETCH = 2;
/** Peak stretch of a body swinging down about a pivot, in static stretches: from level, the pull at the bottom is three times its weight. */
export const SWING_STRETCH = 3;
/**
 * The constraints crossing a front of equal reach meet it at 0° (along the
 * path) to 45° (the diagonals): one at θ stretches 1 / cos²θ times as far
 * along the path for the same pull, 1.5 times on average over the two.
 */
export const CROSSING_SLANT = 1.5;
/**
 * No path stretches beyond this many times its rest length in the estimate:
 * a scene that would has diverged (it then runs off any picture), and the
 * picture keeps showing where it started.
 */
export const MAX_STRETCH = 50;
/** Pins closer together than this fraction of the body's reach act as one pivot. */
export const PIVOT_FRACTION = 0.1;
/** How far a body with no pin may squash and spread sideways, and bounce up: fractions of its larger side. */
export const FREE_SPREAD = 0.5;
export const FREE_BOUNCE = 0.25;
/** The smallest box a scene is framed in, metres (a single particle, a point). */
export const MIN_EXTENT = 0.5;
/** A ground further below the scene than this many scene heights is left out of the picture. */
const GROUND_NEAR = 1;

/** The box a scene with nothing to show is framed in: MIN_EXTENT around the origin. */
export function nothingToShow() {
  return { minX: -MIN_EXTENT, minY: -MIN_EXTENT, maxX: MIN_EXTENT, maxY: MIN_EXTENT };
}

/** The box of `scene`'s particles and colliders as they start (grounds as their line). */
export function startBounds({ positions, colliders = [] }) {
  const box = new Boxes(1);
  for (let k = 0; k + 1 < positions.length; k += 2) box.add(0, positions[k], positions[k + 1]);
  addColliders(box, colliders);
  return box.isEmpty(0) ? nothingToShow() : box.get(0);
}

// ---------------------------------------------------------------- where a scene moves

/**
 * The world box { minX, minY, maxX, maxY } (metres) that `scene` will move in
 * (see the top of this file). `scene`:
 *   positions    [x0, y0, x1, y1, ...] (metres)
 *   pinned       per particle, truthy when pinned (mass 0)
 *   constraints  [a0, b0, a1, b1, ...] particle indices of the distance constraints
 *   restLengths  per constraint (metres)
 *   stiffness    N/m of every constraint (0: rigid)
 *   mass         kg of each free particle
 *   gravity      m/s² along y (negative: down)
 *   wind         [x, y] m/s, and windDrag in kg/m² (optional)
 *   tearStretch  constraints break beyond this × their rest length (optional; 0: never)
 *   colliders    as Simulation.colliders() gives them (optional)
 */
export function sceneBounds(scene) {
  const work = sceneBoundsInSlices(scene);
  for (;;) {
    const { done, value } = work.next();
    if (done) return value;
  }
}

/**
 * The scene `source` runs, as sceneBounds reads it: copies, which stay valid
 * while the camera works on them. `source` is a Simulation or a GpuSimulation
 * (positions(), constraints(), restLengths(), isPinned(k) or
 * pinnedParticles(), colliders(), and the parameters as properties); a
 * backend describes its cloth once, as built.
 */
export function describeScene(source) {
  const positions = source.positions().slice();
  const pinned = new Uint8Array(positions.length / 2);
  if (source.pinnedParticles) for (const k of source.pinnedParticles()) pinned[k] = 1;
  else for (let k = 0; k < pinned.length; k++) pinned[k] = source.isPinned(k) ? 1 : 0;
  return {
    positions,
    pinned,
    constraints: source.constraints().slice(),
    restLengths: source.restLengths().slice(),
    colliders: source.colliders?.() ?? [],
    ...Object.fromEntries(['stiffness', 'mass', 'gravity', 'windDrag', 'tearStretch'].map((name) => [name, source[name]])),
    wind: [source.windX, source.windY],
  };
}

/**
 * sceneBounds, a slice at a time: a generator that yields after every
 * SLICE_WORK particles or constraints it went through and returns the box.
 * `scene` must not change until it is done (pass copies of the arrays).
 */
export function* sceneBoundsInSlices(scene) {
  const { positions, pinned, colliders = [] } = scene;
  const count = Math.floor(positions.length / 2);
  const total = new Boxes(1);
  if (count > 0) {
    const graph = yield* constraintGraph(scene, count);
    const paths = shortestPaths(scene, count);
    const bodies = yield* bodiesOf(graph, scene);
    const [loadX, loadY] = particleLoad(scene, bodies.free, graph.edgeLength);
    const stretch = yield* stretchOfPaths(graph, paths, scene, Math.hypot(loadX, loadY));
    yield* addHanging(bodies, paths, scene, stretch, [loadX, loadY]);
    addFree(bodies, scene);
    for (let c = 0; c < bodies.count; c++) total.addBox(0, bodies.moves, c);
  }
  addColliders(total, colliders);
  if (total.isEmpty(0)) return nothingToShow();
  return total.get(0);
}

/** Particles or constraints sceneBoundsInSlices goes through between two yields. */
export const SLICE_WORK = 1 << 14;
const SLICE_MASK = SLICE_WORK - 1;

/** Axis-aligned boxes, one per index, growing to take in points: [minX, minY, maxX, maxY] each. */
class Boxes {
  values;

  constructor(count) {
    this.values = new Float64Array(4 * count);
    for (let i = 0; i < count; i++) this.values.set([Infinity, Infinity, -Infinity, -Infinity], 4 * i);
  }

  add(i, x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const v = this.values;
    const at = 4 * i;
    if (x < v[at]) v[at] = x;
    if (y < v[at + 1]) v[at + 1] = y;
    if (x > v[at + 2]) v[at + 2] = x;
    if (y > v[at + 3]) v[at + 3] = y;
  }

  /** Adds box `from` of `other` to box `i` of these. */
  addBox(i, other, from) {
    if (other.isEmpty(from)) return;
    const { minX, minY, maxX, maxY } = other.get(from);
    this.add(i, minX, minY);
    this.add(i, maxX, maxY);
  }

  isEmpty(i) {
    return !(this.values[4 * i] <= this.values[4 * i + 2]);
  }

  get(i) {
    const v = this.values;
    return { minX: v[4 * i], minY: v[4 * i + 1], maxX: v[4 * i + 2], maxY: v[4 * i + 3] };
  }
}

/**
 * The constraints as an adjacency list (compressed rows: the neighbours of k
 * are `neighbour[start[k]..start[k + 1]]`, at rest lengths `rest[...]`), their
 * number `pairs` and their summed rest length `edgeLength`.
 */
function* constraintGraph({ constraints, restLengths }, count) {
  const start = new Uint32Array(count + 1);
  const given = Math.floor(constraints.length / 2);
  for (let c = 0; c < given; c++) {
    if ((c & SLICE_MASK) === SLICE_MASK) yield;
    const a = constraints[2 * c];
    const b = constraints[2 * c + 1];
    if (a < count && b < count) {
      start[a + 1]++;
      start[b + 1]++;
    }
  }
  for (let k = 0; k < count; k++) start[k + 1] += start[k];
  const fill = start.slice(0, count);
  const neighbour = new Uint32Array(start[count]);
  const rest = new Float64Array(start[count]);
  let edgeLength = 0;
  for (let c = 0; c < given; c++) {
    if ((c & SLICE_MASK) === SLICE_MASK) yield;
    const a = constraints[2 * c];
    const b = constraints[2 * c + 1];
    if (a >= count || b >= count) continue;
    const length = Math.abs(restLengths[c]) || 0;
    edgeLength += length;
    neighbour[fill[a]] = b;
    rest[fill[a]++] = length;
    neighbour[fill[b]] = a;
    rest[fill[b]++] = length;
  }
  return { count, start, neighbour, rest, pairs: start[count] / 2, edgeLength };
}
/**
 * The shortest paths of rest length from the pins (Dijkstra from all pins at
 * once, in the wasm module): for every particle joined to a pin, `reach`
 * (rest length of its path; Infinity for none), `pin` (the pin it hangs from,
 * -1 for none), and `order` (those particles by reach, the pins first).
 */
function shortestPaths({ constraints, restLengths, pinned }, count) {
  const given = Math.floor(constraints.length / 2);
  const ends = constraints instanceof Uint32Array ? constraints.subarray(0, 2 * given) : Uint32Array.from(constraints.slice(0, 2 * given));
  const rest = new Float64Array(given);
  for (let c = 0; c < given; c++) rest[c] = restLengths[c];
  const pins = new Uint8Array(count);
  for (let k = 0; k < count; k++) pins[k] = pinned[k] ? 1 : 0;
  const found = pathsFromPins(ends, rest, pins);
  const reach = found.subarray(count, 2 * count);
  const pin = Int32Array.from(found.subarray(2 * count));
  let settled = 0;
  while (settled < count && found[settled] >= 0) settled++;
  return { reach, pin, order: Int32Array.from(found.subarray(0, settled)) };
}

/**
 * The bodies of the scene (connected components of the constraint graph):
 * `label` (each particle's body), `count`, `pins` (pinned particles per
 * body), `free` (free particles in all), and per body the box it starts in
 * (`starts`), the box of its pins (`pinBoxes`) and the box it moves in
 * (`moves`, filled in by addHanging and addFree).
 */
function* bodiesOf({ count, start, neighbour }, { positions, pinned }) {
  const label = new Int32Array(count).fill(-1);
  const stack = new Int32Array(count);
  let bodies = 0;
  for (let seed = 0; seed < count; seed++) {
    if ((seed & SLICE_MASK) === SLICE_MASK) yield;
    if (label[seed] >= 0) continue;
    let top = 0;
    label[seed] = bodies;
    stack[top++] = seed;
    let visited = 0;
    while (top > 0) {
      if ((++visited & SLICE_MASK) === 0) yield;
      const k = stack[--top];
      for (let e = start[k]; e < start[k + 1]; e++) {
        const j = neighbour[e];
        if (label[j] < 0) {
          label[j] = bodies;
          stack[top++] = j;
        }
      }
    }
    bodies++;
  }
  const pins = new Int32Array(bodies);
  const starts = new Boxes(bodies);
  const pinBoxes = new Boxes(bodies);
  let free = 0;
  for (let k = 0; k < count; k++) {
    if ((k & SLICE_MASK) === SLICE_MASK) yield;
    const x = positions[2 * k];
    const y = positions[2 * k + 1];
    starts.add(label[k], x, y);
    if (pinned[k]) {
      pins[label[k]]++;
      pinBoxes.add(label[k], x, y);
    } else {
      free++;
    }
  }
  return { label, count: bodies, pins, free, starts, pinBoxes, moves: new Boxes(bodies) };
}

/**
 * The load on each free particle, newtons: its weight along y, plus the wind's
 * push, drag · L · (u·n)² across an edge of length L (its share of the scene's
 * edge length: each edge pushes its two particles), with (u·n)² = u²/2, the
 * wind meeting the edges at 45° on average.
 */
function particleLoad({ mass, gravity, wind = [0, 0], windDrag = 0 }, free, edgeLength) {
  const share = free > 0 ? edgeLength / (2 * free) : 0;
  const speed = Math.hypot(wind[0], wind[1]);
  const push = windDrag > 0 ? (windDrag * share * speed) / 2 : 0; // times the wind velocity
  return [push * wind[0], mass * gravity + push * wind[1]];
}

/**
 * How far each particle held by pins moves away from its pin as the paths to
 * it stretch under `load` (newtons on each free particle), statically. The
 * particles at reach d from the pins hold up every free particle beyond d,
 * through the constraints that cross d (the front), each its share; along a
 * path, 1 / (mean edge length) constraints follow one another per metre of
 * reach. A constraint crossing the front at an angle θ to the path stretches
 * 1 / cos²θ times as far along the path for the same pull (CROSSING_SLANT).
 */
function* stretchOfPaths({ start, neighbour, pairs, edgeLength }, { reach, order }, { pinned, stiffness }, load) {
  const stretch = new Float64Array(reach.length);
  if (!(stiffness > 0) || !(load > 0) || order.length < 2 || !(edgeLength > 0)) return stretch; // rigid, or nothing pulls
  const rank = new Int32Array(reach.length).fill(-1);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  // crossing[i]: the constraints from the first i + 1 particles (by reach) to the rest
  const crossing = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) yield;
    const k = order[i];
    for (let e = start[k]; e < start[k + 1]; e++) {
      const r = rank[neighbour[e]];
      if (r > i) {
        crossing[i] += 1;
        crossing[r] -= 1;
      }
    }
  }
  for (let i = 1; i < order.length; i++) crossing[i] += crossing[i - 1];
  let beyond = 0;
  for (let i = 0; i < order.length; i++) if (!pinned[order[i]]) beyond++;
  const perNewton = (CROSSING_SLANT * pairs) / edgeLength / stiffness;
  for (let i = 0; i + 1 < order.length; i++) {
    const k = order[i];
    if (!pinned[k]) beyond--;
    const gap = reach[order[i + 1]] - reach[k];
    const share = crossing[i] > 0 ? (beyond * load) / crossing[i] : 0;
    stretch[order[i + 1]] = stretch[k] + gap * share * perNewton;
  }
  return stretch;
}

/**
 * Adds to each body held by pins the box it moves in: each particle within
 * its stretched reach of its pin, swinging about a pivot or sagging below pins
 * apart (and for pins on one line, mirrored across it unless the load keeps
 * the body on its side). With tearing on (`tearStretch` above 1), no path
 * stretches beyond tearStretch times its rest length.
 */
function* addHanging(bodies, { reach, pin, order }, { positions, pinned, tearStretch = 0 }, stretch, [loadX, loadY]) {
  const { label, starts, pinBoxes, moves } = bodies;
  const longest = new Float64Array(bodies.count);
  for (const k of order) longest[label[k]] = Math.max(longest[label[k]], reach[k]);
  const pivot = new Uint8Array(bodies.count);
  for (let c = 0; c < bodies.count; c++) {
    if (bodies.pins[c] === 0) continue;
    const { minX, minY, maxX, maxY } = pinBoxes.get(c);
    pivot[c] = Math.hypot(maxX - minX, maxY - minY) <= PIVOT_FRACTION * longest[c] ? 1 : 0;
  }
  const load = Math.hypot(loadX, loadY);
  const ux = load > 0 ? loadX / load : 0;
  const uy = load > 0 ? loadY / load : 0;
  const down = Math.sign(uy); // the way things hang: -1 when gravity pulls down
  for (let i = 0; i < order.length; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) yield;
    const k = order[i];
    const c = label[k];
    const x = positions[2 * k];
    const y = positions[2 * k + 1];
    moves.add(c, x, y);
    if (pinned[k]) continue;
    const px = positions[2 * pin[k]];
    const py = positions[2 * pin[k] + 1];
    // with tearing on, a path stretched past tearStretch × its rest length breaks: what it held falls away
    const limit = tearStretch > 1 ? Math.min(tearStretch - 1, MAX_STRETCH) : MAX_STRETCH;
    const swing = Math.min((pivot[c] ? SWING_STRETCH : DYNAMIC_STRETCH) * stretch[k], limit * reach[k]);
    // along the load: the stretch; hanging from its pin along the load: the whole reach
    moves.add(c, x + swing * ux, y + swing * uy);
    moves.add(c, px + (reach[k] + swing) * ux, py + (reach[k] + swing) * uy);
    if (pivot[c]) {
      // anywhere on its reach around the pivot, no higher than it started
      const across = reach[k] + swing * Math.abs(ux);
      const below = down === 0 ? 0 : Math.max(0, (py - y) * -down);
      const side = Math.sqrt(Math.max(0, across * across - below * below));
      moves.add(c, px - side, y);
      moves.add(c, px + side, y);
    }
  }
  const pinsOf = pinsByBody(bodies, pinned);
  for (let c = 0; c < bodies.count; c++) {
    if (bodies.pins[c] > 0 && !pivot[c]) mirrorAcrossPins(bodies, c, pinsOf(c), positions, [ux, uy], down);
  }
}

/** `pinsOf(c)`: the pinned particles of body c (an Int32Array). */
function pinsByBody({ label, count, pins }, pinned) {
  const first = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) first[c + 1] = first[c] + pins[c];
  const fill = first.slice(0, count);
  const all = new Int32Array(first[count]);
  for (let k = 0; k < label.length; k++) if (pinned[k]) all[fill[label[k]]++] = k;
  return (c) => all.subarray(first[c], first[c + 1]);
}

/** The cosine above which the load keeps a body on its side of the line of its pins. */
const LOAD_KEEPS_SIDE = 0.5;

/**
 * Pins on one line let body `c` fold over to the other side of it (the mirror
 * image has the same lengths): adds the mirror of its box, no higher than it
 * started, unless the load pushes the body away from the line on its own side
 * (a flag in the wind, a cloth hanging from its top edge).
 */
function mirrorAcrossPins({ starts, pinBoxes, moves }, c, pins, positions, [ux, uy], down) {
  // the line: through the two corners of the pins' box the pins lie between
  const around = pinBoxes.get(c);
  const candidates = [
    [around.minX, around.minY, around.maxX, around.maxY],
    [around.minX, around.maxY, around.maxX, around.minY],
  ];
  let line = null;
  for (const [ax, ay, bx, by] of candidates) {
    const length = Math.hypot(bx - ax, by - ay);
    if (length === 0) return; // one point: a pivot, handled by the swing
    const dx = (bx - ax) / length;
    const dy = (by - ay) / length;
    const onLine = pins.every((k) => Math.abs((positions[2 * k] - ax) * dy - (positions[2 * k + 1] - ay) * dx) <= 1e-3 * length);
    if (onLine) {
      line = { ax, ay, dx, dy };
      break;
    }
  }
  if (!line) return;
  const { ax, ay, dx, dy } = line;
  const body = starts.get(c);
  const side = Math.sign(((body.minX + body.maxX) / 2 - ax) * -dy + ((body.minY + body.maxY) / 2 - ay) * dx) || 1;
  if ((ux * -dy + uy * dx) * side >= LOAD_KEEPS_SIDE) return;
  const box = moves.get(c);
  for (const [x, y] of [[box.minX, box.minY], [box.maxX, box.minY], [box.minX, box.maxY], [box.maxX, box.maxY]]) {
    const along = (x - ax) * dx + (y - ay) * dy;
    const mirroredY = 2 * (ay + along * dy) - y;
    moves.add(c, 2 * (ax + along * dx) - x, down < 0 ? Math.min(mirroredY, body.maxY) : mirroredY);
  }
}

/**
 * Adds to each body with no pin the box it moves in: its own box, with room to
 * spread and bounce, and down to what it falls on.
 */
function addFree({ count, pins, starts, moves }, { colliders = [], gravity }) {
  for (let c = 0; c < count; c++) {
    if (pins[c] > 0 || starts.isEmpty(c)) continue;
    const own = starts.get(c);
    const size = Math.max(own.maxX - own.minX, own.maxY - own.minY);
    const spread = FREE_SPREAD * size;
    const bounce = FREE_BOUNCE * size;
    moves.add(c, own.minX - spread, own.minY);
    moves.add(c, own.maxX + spread, own.maxY + bounce);
    if (!(gravity < 0)) continue;
    // it falls onto the highest surface under it, if any
    let landing = -Infinity;
    for (const collider of colliders) {
      landing = Math.max(landing, surfaceUnder(collider, own.minX - spread, own.maxX + spread, own.minY));
    }
    if (landing > -Infinity) moves.add(c, own.minX, landing);
  }
}

/** The top of `collider` under the span minX..maxX, at or below height `below`; -Infinity when none. */
function surfaceUnder(collider, minX, maxX, below) {
  let top = -Infinity;
  if (collider.shape === 'ground') top = collider.y;
  else if (collider.shape === 'circle' && collider.x + collider.radius >= minX && collider.x - collider.radius <= maxX) {
    top = collider.y + collider.radius;
  } else if (collider.shape === 'box' && collider.x + collider.width / 2 >= minX && collider.x - collider.width / 2 <= maxX) {
    top = collider.y + collider.height / 2;
  }
  return Number.isFinite(top) && top <= below ? top : -Infinity;
}

/**
 * Adds the colliders to box 0 of `total`: circles and boxes whole; a ground
 * under the scene, within GROUND_NEAR of its height, as its line; and nothing
 * goes below a ground.
 */
function addColliders(total, colliders) {
  for (const collider of colliders) {
    if (collider.shape === 'circle') {
      total.add(0, collider.x - collider.radius, collider.y - collider.radius);
      total.add(0, collider.x + collider.radius, collider.y + collider.radius);
    } else if (collider.shape === 'box') {
      total.add(0, collider.x - collider.width / 2, collider.y - collider.height / 2);
      total.add(0, collider.x + collider.width / 2, collider.y + collider.height / 2);
    }
  }
  for (const collider of colliders) {
    if (collider.shape !== 'ground' || !Number.isFinite(collider.y) || total.isEmpty(0)) continue;
    const { minY, maxY } = total.get(0);
    if (collider.y > maxY) continue; // a ground above the scene: nothing to show of it
    const height = Math.max(maxY - minY, MIN_EXTENT);
    if (minY < collider.y || minY - collider.y <= GROUND_NEAR * height) total.values[1] = collider.y;
  }
}
