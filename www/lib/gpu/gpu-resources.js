// The GPU objects of one GpuSimulation: its buffers (positions, velocities,
// multipliers, the grid's constraints, uniforms), the compute pipelines of
// solver.wgsl with their bind groups (one per colour), and the bind group the
// render pipelines of render.wgsl read.

/** Invocations per workgroup (WORKGROUP in solver.wgsl). */
const WORKGROUP = 64;
/** Size of the Params uniform of solver.wgsl, bytes. */
export const PARAMS_BYTES = 48;
/** Size of the View uniform of render.wgsl, bytes. */
export const VIEW_BYTES = 272;

/** `count` invocations as a dispatch of WORKGROUP-wide groups, 2D beyond the 1D limit. */
export function dispatchSize(count, maxPerDimension) {
  const groups = Math.max(1, Math.ceil(count / WORKGROUP));
  if (groups <= maxPerDimension) return [groups, 1];
  const x = maxPerDimension;
  return [x, Math.ceil(groups / x)];
}

/** Encodes one compute pass `label` of `pipeline` over `size` workgroups, with bind groups `main` and `range`. */
export function computePass(encoder, label, { main, range, pipeline, size }) {
  const pass = encoder.beginComputePass({ label });
  pass.setBindGroup(0, main);
  pass.setBindGroup(1, range);
  pass.setPipeline(pipeline);
  pass.dispatchWorkgroups(...size);
  pass.end();
}

/**
 * Creates the GPU objects of the cloth of `grid` (from gridLayout) with
 * `inverseMass` on `device`, from the shaders' source. Each buffer goes into
 * `buffers` as it is made, so the caller can destroy those made before a
 * failure. Returns `{ pipelines, bindGroups, renderBindGroup }`.
 */
export function createResources(device, grid, inverseMass, { solver, render }, buffers) {
  const pipelines = {};
  const bindGroups = {};
  createBuffers(device, grid, inverseMass, buffers);
  const rangeLayout = createComputePipelines(device, solver, buffers, pipelines, bindGroups);
  createRanges(device, grid, rangeLayout, buffers, bindGroups);
  const renderBindGroup = createRenderBindings(device, render, buffers, pipelines);
  return { pipelines, bindGroups, renderBindGroup };
}

/** A buffer of `data` (storage unless `usage` says otherwise). */
function filledBuffer(device, label, data, usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC) {
  const created = device.createBuffer({ label, size: Math.max(16, data.byteLength), usage });
  device.queue.writeBuffer(created, 0, data);
  return created;
}

function createBuffers(device, grid, inverseMass, b) {
  const n = grid.positions.length / 2;
  const m = grid.restLengths.length;
  b.params = device.createBuffer({ label: 'params', size: PARAMS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  b.positions = filledBuffer(device, 'positions', grid.positions);
  b.previous = filledBuffer(device, 'previous', grid.positions);
  b.velocities = filledBuffer(device, 'velocities', new Float32Array(2 * n));
  b.inverseMass = filledBuffer(device, 'inverse masses', inverseMass);
  b.ends = filledBuffer(device, 'constraint ends', grid.ends);
  b.restLengths = filledBuffer(device, 'rest lengths', grid.restLengths);
  b.lambdas = filledBuffer(device, 'multipliers', new Float32Array(m + 1)); // and the grab's, last
  b.status = filledBuffer(device, 'status', new Uint32Array(4));
  b.readback = device.createBuffer({ label: 'readback', size: 16 * n + 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  b.view = device.createBuffer({ label: 'view', size: VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
}

/** The compute pipelines of solver.wgsl and their main bind group; returns the layout of a range. */
function createComputePipelines(device, solverCode, b, pipelines, bindGroups) {
  const module = device.createShaderModule({ label: 'solver.wgsl', code: solverCode });
  const layout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      ...[1, 2, 3].map((binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } })),
      ...[4, 5, 6].map((binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } })),
      ...[7, 8].map((binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } })),
    ],
  });
  const rangeLayout = device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } }],
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout, rangeLayout] });
  for (const entryPoint of ['predict', 'solve', 'hold', 'update_velocities', 'pick', 'measure']) {
    pipelines[entryPoint] = device.createComputePipeline({ layout: pipelineLayout, compute: { module, entryPoint } });
  }
  bindGroups.main = device.createBindGroup({
    layout,
    entries: ['params', 'positions', 'previous', 'velocities', 'inverseMass', 'ends', 'restLengths', 'lambdas', 'status']
      .map((name, binding) => ({ binding, resource: { buffer: b[name] } })),
  });
  return rangeLayout;
}

/** The ranges a dispatch covers: each colour's constraints, all of them, the pick query, none. */
function createRanges(device, grid, rangeLayout, b, bindGroups) {
  const UNIFORM = GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST;
  const m = grid.restLengths.length;
  const offsets = grid.colorOffsets;
  bindGroups.colors = Array.from({ length: grid.colors }, (_, color) => {
    const range = filledBuffer(device, `colour ${color}`, new Uint32Array([offsets[color], offsets[color + 1] - offsets[color], 0, 0]), UNIFORM);
    return { group: device.createBindGroup({ layout: rangeLayout, entries: [{ binding: 0, resource: { buffer: range } }] }), count: offsets[color + 1] - offsets[color] };
  });
  bindGroups.all = device.createBindGroup({
    layout: rangeLayout,
    entries: [{ binding: 0, resource: { buffer: filledBuffer(device, 'all constraints', new Uint32Array([0, m, 0, 0]), UNIFORM) } }],
  });
  b.pickQuery = device.createBuffer({ label: 'pick query', size: 16, usage: UNIFORM });
  bindGroups.pick = device.createBindGroup({ layout: rangeLayout, entries: [{ binding: 0, resource: { buffer: b.pickQuery } }] });
  bindGroups.empty = device.createBindGroup({
    layout: rangeLayout,
    entries: [{ binding: 0, resource: { buffer: filledBuffer(device, 'no range', new Uint32Array(4), UNIFORM) } }],
  });
}

/** render.wgsl's module and bind group layout (in `pipelines`); returns the bind group it draws from. */
function createRenderBindings(device, renderCode, b, pipelines) {
  pipelines.renderModule = device.createShaderModule({ label: 'render.wgsl', code: renderCode });
  pipelines.renderLayout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } },
      ...[1, 2, 3].map((binding) => ({ binding, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } })),
    ],
  });
  return device.createBindGroup({
    layout: pipelines.renderLayout,
    entries: ['view', 'positions', 'ends', 'restLengths'].map((name, binding) => ({ binding, resource: { buffer: b[name] } })),
  });
}
