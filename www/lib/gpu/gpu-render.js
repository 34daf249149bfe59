// Drawing a GpuSimulation with render.wgsl: the View uniform from a view and a
// style, one render pipeline per texture format, and a pass that draws the axes,
// the constraints, the particles and the held particle.

import { VIEW_BYTES } from './gpu-resources.js';

function rgba(hex) {
  const value = parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => c / 255).concat(1);
}

/**
 * The View uniform of render.wgsl for `texture`, `view` (CSS pixels) and
 * `style`; `grabbed` is the held particle's index or −1.
 */
function viewUniform(texture, view, style, grabbed) {
  const ratio = view.pixelRatio || 1;
  const data = new ArrayBuffer(VIEW_BYTES);
  const f = new Float32Array(data);
  const u = new Uint32Array(data);
  f.set([view.originX * ratio, view.originY * ratio, view.scale * ratio, style.constraintWidth * ratio, texture.width, texture.height, view.particleRadius * ratio, style.grabbedRadius * ratio], 0);
  f.set(rgba(style.constraintColor), 8);
  f.set(rgba(style.particleColor), 12);
  f.set(rgba(style.grabbedColor), 16);
  f.set(rgba(style.xAxisColor), 20);
  f.set(rgba(style.yAxisColor), 24);
  f.set([style.axisLength * ratio, style.axisWidth * ratio], 28);
  const ramp = view.ramp ?? [[0, '#000000']];
  u.set([grabbed >= 0 ? grabbed : 0xffffffff, view.strainColors ? 1 : 0, Math.min(8, ramp.length)], 30);
  ramp.slice(0, 8).forEach(([stretch, hex], s) => {
    f.set([stretch, ...rgba(hex).slice(0, 3).map((c) => Math.round(c * 255))], 36 + 4 * s);
  });
  return data;
}

/** Draws one cloth's buffers (from createResources) with render.wgsl. */
export class GpuRenderer {
  #device;
  #viewBuffer;
  #module;
  #layout;
  #bindGroup;
  #pipelines = new Map();

  /** `resources`: `{ buffers, pipelines, renderBindGroup }` from createResources. */
  constructor(device, { buffers, pipelines, renderBindGroup }) {
    this.#device = device;
    this.#viewBuffer = buffers.view;
    this.#module = pipelines.renderModule;
    this.#layout = pipelines.renderLayout;
    this.#bindGroup = renderBindGroup;
  }

  #renderPipeline(format) {
    if (!this.#pipelines.has(format)) {
      const device = this.#device;
      const module = this.#module;
      const layout = device.createPipelineLayout({ bindGroupLayouts: [this.#layout] });
      const make = (entryPoint) => device.createRenderPipeline({
        layout,
        vertex: { module, entryPoint },
        fragment: { module, entryPoint: 'fill', targets: [{ format }] },
        primitive: { topology: 'triangle-list' },
      });
      this.#pipelines.set(format, {
        axes: make('axis_vertex'),
        constraints: make('constraint_vertex'),
        particles: make('particle_vertex'),
        grabbed: make('grabbed_vertex'),
      });
    }
    return this.#pipelines.get(format);
  }

  /**
   * Draws into `texture` (a render attachment of `format`) as
   * GpuSimulation.render describes: `counts` = { particles, constraints,
   * grabbed } (grabbed: the held particle's index, or −1).
   */
  render(texture, format, view, style, { particles, constraints, grabbed }) {
    const device = this.#device;
    device.queue.writeBuffer(this.#viewBuffer, 0, viewUniform(texture, view, style, grabbed));
    const pipelines = this.#renderPipeline(format);
    const background = rgba(style.background);
    const encoder = device.createCommandEncoder({ label: 'draw' });
    const pass = encoder.beginRenderPass({
      colorAttachments: [{
        view: texture.createView(),
        clearValue: { r: background[0], g: background[1], b: background[2], a: 1 },
        loadOp: 'clear',
        storeOp: 'store',
      }],
    });
    pass.setBindGroup(0, this.#bindGroup);
    pass.setPipeline(pipelines.axes);
    pass.draw(6, 2);
    pass.setPipeline(pipelines.constraints);
    pass.draw(6, constraints);
    pass.setPipeline(pipelines.particles);
    pass.draw(6, particles);
    if (grabbed >= 0) {
      pass.setPipeline(pipelines.grabbed);
      pass.draw(6, 1);
    }
    pass.end();
    device.queue.submit([encoder.finish()]);
  }
}

/**
 * Calls `render(texture, format)` with a new `width × height` rgba8unorm
 * texture on `device` and reads it back: resolves to its pixels, 4 bytes each,
 * rows top to bottom.
 */
export async function renderPixels(device, width, height, render) {
  const texture = device.createTexture({
    size: [width, height],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  render(texture, 'rgba8unorm');
  const bytesPerRow = Math.ceil((4 * width) / 256) * 256;
  const buffer = device.createBuffer({ size: bytesPerRow * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, [width, height]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const rows = new Uint8Array(buffer.getMappedRange());
  const pixels = new Uint8Array(4 * width * height);
  for (let y = 0; y < height; y += 1) pixels.set(rows.subarray(y * bytesPerRow, y * bytesPerRow + 4 * width), 4 * width * y);
  buffer.unmap();
  buffer.destroy();
  texture.destroy();
  return pixels;
}
