// Types for www/lib/gpu/gpu-device.js: a WebGPU adapter and device, and the shaders.

/**
 * WebGPU objects, typed loosely so that no WebGPU type library is needed
 * (with @webgpu/types they are GPUAdapter, GPUDevice and GPUTexture).
 */
export type WebGpuAdapter = object;
export interface WebGpuDevice {
  destroy(): void;
  readonly lost: Promise<{ reason: string; message: string }>;
}
export type WebGpuTexture = object;

/** An adapter and its device, from requestGpu. */
export interface GpuDevice {
  adapter: WebGpuAdapter;
  device: WebGpuDevice;
  /** The adapter's vendor, architecture and description, e.g. "google swiftshader". */
  name: string;
  /** A software adapter (SwiftShader): correct, never fast. */
  isFallbackAdapter: boolean;
}

/** An Error with `field` "backend" and `code` "unsupported" saying why WebGPU cannot run. */
export function gpuUnavailable(why: string): Error & { field: 'backend'; code: 'unsupported' };
/** Fetches solver.wgsl and render.wgsl once. */
export function loadShaders(): Promise<void>;
/** The shader sources once loadShaders() has resolved, else null. */
export function loadedShaders(): { solver: string; render: string } | null;
/** An adapter and a device; a software adapter only with allowFallbackAdapter. Throws gpuUnavailable otherwise. */
export function requestGpu(options?: { allowFallbackAdapter?: boolean; powerPreference?: 'low-power' | 'high-performance' }): Promise<GpuDevice>;
