// Types for www/lib/gpu/gpu-render.js: drawing a GpuSimulation with render.wgsl (internal).

import type { ClothStyle } from '../renderer.js';
import type { WebGpuDevice, WebGpuTexture } from './gpu-device.js';
import type { GpuResources } from './gpu-resources.js';

/** Draws one cloth's buffers with render.wgsl, one render pipeline per texture format. */
export class GpuRenderer {
  constructor(device: WebGpuDevice, resources: GpuResources);
  /** Draws into `texture`; `grabbed` is the held particle's index or −1. */
  render(
    texture: WebGpuTexture,
    format: string,
    view: object,
    style: ClothStyle,
    counts: { particles: number; constraints: number; grabbed: number },
  ): void;
}

/** Renders into a new rgba8unorm texture with `render` and resolves to its pixels, rows top to bottom. */
export function renderPixels(
  device: WebGpuDevice,
  width: number,
  height: number,
  render: (texture: WebGpuTexture, format: string) => void,
): Promise<Uint8Array>;
