// The XPBD grid cloth on the GPU: the same substep as the CPU's coloured order
// (src/solver/), one entry point per pass.
//
// A substep is: `predict` over the particles, the multipliers cleared (a buffer
// clear on the queue), `iterations` times one `solve` dispatch per colour (and
// `hold`, the grab's spring, while a free particle is held), then
// `update_velocities`. No two constraints of one colour share a particle, so the
// invocations of one `solve` dispatch never touch the same particle, and the
// result equals the CPU's sweep of that colour in any order up to f32 rounding.
// WebGPU orders the dispatches of a pass: each sees the writes of the one before.

struct Params {
  // Substep size h = dt / substeps, seconds.
  h: f32,
  // Vertical acceleration, m/s².
  gravity: f32,
  // alpha_tilde = compliance / h² (0 in PBD mode).
  alpha_tilde: f32,
  // XPBD damping gamma = compliance · beta / h (0 without constraint damping).
  gamma: f32,
  // Every velocity is multiplied by this after a substep: max(0, 1 − rate·h).
  velocity_factor: f32,
  num_particles: u32,
  // Constraints; the grab's multiplier follows theirs in `lambdas`.
  num_constraints: u32,
  _pad0: u32,
  // Where the pointer holds the held particle, metres.
  grab_target: vec2f,
  // The grab's alpha_tilde = w / (ω² h²) (src/kinds/grab.rs).
  grab_alpha_tilde: f32,
  // The held free particle, or 0xffffffff.
  grab_index: u32,
}

// One colour's constraints: [offset, offset + count) of the constraint arrays.
// For `pick` the same 16 bytes hold the query instead: x, y and the radius
// squared as f32 bits in offset, count and _pad0.
struct Range {
  offset: u32,
  count: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> positions: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> previous: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> velocities: array<vec2f>;
@group(0) @binding(4) var<storage, read> inverse_mass: array<f32>;
@group(0) @binding(5) var<storage, read> ends: array<vec2u>;
@group(0) @binding(6) var<storage, read> rest_lengths: array<f32>;
@group(0) @binding(7) var<storage, read_write> lambdas: array<f32>;
@group(0) @binding(8) var<storage, read_write> status: array<atomic<u32>>;
@group(1) @binding(0) var<uniform> range: Range;

// Constraints shorter than this (metres) are skipped: their direction is undefined.
const MIN_SOLVE_LENGTH: f32 = 0.001;
// A position beyond this (metres), or not finite, means the cloth diverged.
const DIVERGENCE_LIMIT: f32 = 1e6;
// `pick` keeps the nearest particle in status[1] as (distance level << 20) | index:
// 4096 levels of the squared distance within the radius, and 20 bits of index
// (the largest cloth has 1000 000 particles, below 2^20).
const PICK_INDEX_BITS: u32 = 20u;
const PICK_LEVELS: f32 = 4095.0;
// Invocations per workgroup; the dispatch sizes in gpu-cloth.js use it too.
const WORKGROUP: u32 = 64u;

// The thread index of a dispatch that may be 2D (more than 65535 workgroups).
fn thread_index(id: vec3u, groups: vec3u) -> u32 {
  return id.x + id.y * groups.x * WORKGROUP;
}

@compute @workgroup_size(WORKGROUP)
fn predict(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let k = thread_index(id, groups);
  if (k >= params.num_particles) {
    return;
  }
  let x = positions[k];
  previous[k] = x;
  if (inverse_mass[k] == 0.0) {
    return;
  }
  var v = velocities[k];
  v.y = v.y + params.h * params.gravity;
  velocities[k] = v;
  positions[k] = vec2f(x.x + params.h * v.x, x.y + params.h * v.y);
}

@compute @workgroup_size(WORKGROUP)
fn solve(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let t = thread_index(id, groups);
  if (t >= range.count) {
    return;
  }
  let c = range.offset + t;
  let ab = ends[c];
  let pa = positions[ab.x];
  let pb = positions[ab.y];
  let dx = pa.x - pb.x;
  let dy = pa.y - pb.y;
  let distance = sqrt(dx * dx + dy * dy);
  if (distance <= MIN_SOLVE_LENGTH) {
    return;
  }
  let w_a = inverse_mass[ab.x];
  let w_b = inverse_mass[ab.y];
  let w_sum = w_a + w_b;
  let gamma = params.gamma;
  var damped_w_sum = w_sum;
  if (gamma != 0.0) {
    damped_w_sum = (1.0 + gamma) * w_sum;
  }
  let denominator = damped_w_sum + params.alpha_tilde;
  if (denominator == 0.0) {
    return;
  }
  let lambda = lambdas[c];
  var residual = (distance - rest_lengths[c]) + params.alpha_tilde * lambda;
  if (gamma != 0.0) {
    // ∇C·(x − x_prev): how fast the constraint is stretching, times h
    let qa = previous[ab.x];
    let qb = previous[ab.y];
    let moved_x = (pa.x - qa.x) - (pb.x - qb.x);
    let moved_y = (pa.y - qa.y) - (pb.y - qb.y);
    residual = residual + gamma * ((dx * moved_x + dy * moved_y) / distance);
  }
  let delta_lambda = -residual / denominator;
  let scale = delta_lambda / distance;
  lambdas[c] = lambda + delta_lambda;
  positions[ab.x] = vec2f(pa.x + w_a * scale * dx, pa.y + w_a * scale * dy);
  positions[ab.y] = vec2f(pb.x - w_b * scale * dx, pb.y - w_b * scale * dy);
}

// The grab's spring: the held particle pulled towards the pointer by a
// zero-length XPBD attachment, as the CPU's (src/kinds/grab.rs). One invocation.
@compute @workgroup_size(1)
fn hold() {
  let k = params.grab_index;
  if (k >= params.num_particles) {
    return;
  }
  let w = inverse_mass[k];
  if (w == 0.0) {
    return;
  }
  let x = positions[k];
  let dx = x.x - params.grab_target.x;
  let dy = x.y - params.grab_target.y;
  let c = sqrt(dx * dx + dy * dy);
  if (c == 0.0) {
    return;
  }
  let alpha_tilde = params.grab_alpha_tilde;
  let lambda = lambdas[params.num_constraints];
  let delta_lambda = (-c - alpha_tilde * lambda) / (w + alpha_tilde);
  lambdas[params.num_constraints] = lambda + delta_lambda;
  let scale = w * delta_lambda / c;
  positions[k] = vec2f(x.x + scale * dx, x.y + scale * dy);
}

@compute @workgroup_size(WORKGROUP)
fn update_velocities(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let k = thread_index(id, groups);
  if (k >= params.num_particles) {
    return;
  }
  let x = positions[k];
  if (!(abs(x.x) <= DIVERGENCE_LIMIT && abs(x.y) <= DIVERGENCE_LIMIT)) {
    // NaN fails the comparison too
    atomicMax(&status[0], 1u);
  }
  if (inverse_mass[k] == 0.0) {
    return;
  }
  let inverse_h = 1.0 / params.h;
  let v = (x - previous[k]) * inverse_h;
  if (params.velocity_factor == 1.0) {
    velocities[k] = v;
  } else {
    velocities[k] = v * params.velocity_factor;
  }
}

// The particle nearest to the query point within its radius: one atomicMin over
// every particle, so picking reads back 4 bytes, not the cloth.
@compute @workgroup_size(WORKGROUP)
fn pick(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let k = thread_index(id, groups);
  if (k >= params.num_particles) {
    return;
  }
  let at = vec2f(bitcast<f32>(range.offset), bitcast<f32>(range.count));
  let radius_squared = bitcast<f32>(range._pad0);
  let d = positions[k] - at;
  let d2 = dot(d, d);
  if (!(d2 <= radius_squared)) {
    return;
  }
  var level = 0u;
  if (radius_squared > 0.0) {
    level = u32(round(d2 / radius_squared * PICK_LEVELS));
  }
  atomicMin(&status[1], (level << PICK_INDEX_BITS) | k);
}

// The largest relative stretch (length − rest) / rest of the constraints in
// `range`, kept in status[2] as f32 bits (non-negative floats order as their
// bits do; the maximum starts at 0, as the CPU's does).
@compute @workgroup_size(WORKGROUP)
fn measure(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let t = thread_index(id, groups);
  if (t >= range.count) {
    return;
  }
  let c = range.offset + t;
  let ab = ends[c];
  let rest = rest_lengths[c];
  let stretch = (length(positions[ab.x] - positions[ab.y]) - rest) / rest;
  if (stretch > 0.0) {
    atomicMax(&status[2], bitcast<u32>(stretch));
  }
}
