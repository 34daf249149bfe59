// Draws a GpuSimulation onto a page's 2D canvas through a WebGPU canvas of its own.

import { DEFAULT_STYLE } from '../style.js';
import { gpuUnavailable } from './gpu-device.js';

/**
 * Draws a GpuSimulation on a 2D canvas: the GPU renders into a WebGPU canvas of
 * the same size kept off the page, and one `drawImage` copies it over (a GPU
 * texture copy where the browser accelerates canvas 2D). The page's canvas keeps
 * its 2D context, so the CPU backend can take over on the same element.
 */
export class GpuPainter {
  #canvas = document.createElement('canvas');
  #context;
  #format;
  #device;

  constructor(device) {
    this.#device = device;
    this.#context = this.#canvas.getContext('webgpu');
    if (!this.#context) throw gpuUnavailable('a canvas gave no webgpu context');
    this.#format = navigator.gpu.getPreferredCanvasFormat();
    this.#context.configure({ device, format: this.#format, alphaMode: 'opaque' });
  }

  /** Draws `simulation` with `view` (see GpuSimulation.render) in the colours of `style` (www/lib/theme.js). */
  paint(simulation, context2d, view, style = DEFAULT_STYLE) {
    const target = context2d.canvas;
    if (this.#canvas.width !== target.width) this.#canvas.width = target.width;
    if (this.#canvas.height !== target.height) this.#canvas.height = target.height;
    simulation.render(this.#context.getCurrentTexture(), this.#format, view, style);
    context2d.setTransform(1, 0, 0, 1, 0, 0);
    context2d.drawImage(this.#canvas, 0, 0);
  }
}
