// Drawing the cloth straight from the solver's buffers: the axes, every
// constraint as a quad along its segment (grey, or coloured by stretch with the
// ramp of src/raster/look.rs), every particle as a disc, the held one larger and red.
// Sizes are in backing-store pixels; y is up in the world and down on screen.

struct View {
  // Where the world origin is, backing-store pixels from the top-left corner.
  origin: vec2f,
  // Backing-store pixels per metre.
  scale: f32,
  // Constraint line width, pixels.
  line_width: f32,
  // Canvas size, pixels.
  size: vec2f,
  particle_radius: f32,
  grabbed_radius: f32,
  constraint_color: vec4f,
  particle_color: vec4f,
  grabbed_color: vec4f,
  x_axis_color: vec4f,
  y_axis_color: vec4f,
  axis_length: f32,
  axis_width: f32,
  // Index of the held particle, or 0xffffffff.
  grabbed: u32,
  // 1: colour constraints by stretch.
  strain_colors: u32,
  ramp_count: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
  // Ramp stops: (relative stretch, r, g, b) with channels 0..255.
  ramp: array<vec4f, 8>,
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> positions: array<vec2f>;
@group(0) @binding(2) var<storage, read> ends: array<vec2u>;
@group(0) @binding(3) var<storage, read> rest_lengths: array<f32>;

struct Varyings {
  @builtin(position) clip: vec4f,
  @location(0) color: vec4f,
  // Offset from a disc's centre in pixels (0 for lines).
  @location(1) offset: vec2f,
  @location(2) radius: f32,
}

fn to_pixels(world: vec2f) -> vec2f {
  return vec2f(view.origin.x + world.x * view.scale, view.origin.y - world.y * view.scale);
}

fn to_clip(pixels: vec2f) -> vec4f {
  return vec4f(pixels.x / view.size.x * 2.0 - 1.0, 1.0 - pixels.y / view.size.y * 2.0, 0.0, 1.0);
}

// Corner `vertex` (0..5, two triangles) of the quad of width `width` along a..b.
fn segment_corner(a: vec2f, b: vec2f, width: f32, vertex: u32) -> vec2f {
  let along = b - a;
  let length = max(length(along), 1e-6);
  let normal = vec2f(-along.y, along.x) / length;
  let corners = array<vec2f, 6>(
    vec2f(0.0, -1.0), vec2f(1.0, -1.0), vec2f(0.0, 1.0),
    vec2f(0.0, 1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
  );
  let corner = corners[vertex];
  return a + along * corner.x + normal * (corner.y * 0.5 * width);
}

// The ramp colour of a relative stretch, as strain_rgb in src/raster/look.rs:
// compression and NaN take the first stop, beyond the last the last one, linear
// in between, each channel rounded to a whole 0..255 value.
fn strain_color(stretch: f32) -> vec4f {
  let first = view.ramp[0];
  let last = view.ramp[view.ramp_count - 1u];
  if (!(stretch > first.x)) {
    return vec4f(first.yzw / 255.0, 1.0);
  }
  if (stretch >= last.x) {
    return vec4f(last.yzw / 255.0, 1.0);
  }
  var upper = 1u;
  while (upper < view.ramp_count - 1u && view.ramp[upper].x <= stretch) {
    upper = upper + 1u;
  }
  let s0 = view.ramp[upper - 1u];
  let s1 = view.ramp[upper];
  let t = (stretch - s0.x) / (s1.x - s0.x);
  return vec4f(round(s0.yzw + (s1.yzw - s0.yzw) * t) / 255.0, 1.0);
}

@vertex
fn constraint_vertex(@builtin(vertex_index) vertex: u32, @builtin(instance_index) c: u32) -> Varyings {
  let ab = ends[c];
  let wa = positions[ab.x];
  let wb = positions[ab.y];
  var out: Varyings;
  out.clip = to_clip(segment_corner(to_pixels(wa), to_pixels(wb), view.line_width, vertex));
  if (view.strain_colors == 1u) {
    let rest = rest_lengths[c];
    out.color = strain_color((length(wa - wb) - rest) / rest);
  } else {
    out.color = view.constraint_color;
  }
  out.offset = vec2f(0.0);
  out.radius = 1.0;
  return out;
}

@vertex
fn axis_vertex(@builtin(vertex_index) vertex: u32, @builtin(instance_index) axis: u32) -> Varyings {
  var direction = vec2f(view.axis_length, 0.0);
  var out: Varyings;
  out.color = view.x_axis_color;
  if (axis == 1u) {
    direction = vec2f(0.0, -view.axis_length);
    out.color = view.y_axis_color;
  }
  out.clip = to_clip(segment_corner(view.origin, view.origin + direction, view.axis_width, vertex));
  out.offset = vec2f(0.0);
  out.radius = 1.0;
  return out;
}

// A disc of `radius` pixels around `centre`: a square one pixel wider, cut in
// the fragment shader.
fn disc_vertex(centre: vec2f, radius: f32, vertex: u32, color: vec4f) -> Varyings {
  let corners = array<vec2f, 6>(
    vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0),
    vec2f(-1.0, 1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
  );
  let offset = corners[vertex] * (radius + 1.0);
  var out: Varyings;
  out.clip = to_clip(centre + offset);
  out.color = color;
  out.offset = offset;
  out.radius = radius;
  return out;
}

@vertex
fn particle_vertex(@builtin(vertex_index) vertex: u32, @builtin(instance_index) k: u32) -> Varyings {
  return disc_vertex(to_pixels(positions[k]), view.particle_radius, vertex, view.particle_color);
}

@vertex
fn grabbed_vertex(@builtin(vertex_index) vertex: u32) -> Varyings {
  return disc_vertex(to_pixels(positions[view.grabbed]), view.grabbed_radius, vertex, view.grabbed_color);
}

@fragment
fn fill(in: Varyings) -> @location(0) vec4f {
  if (length(in.offset) > in.radius) {
    discard;
  }
  return in.color;
}
