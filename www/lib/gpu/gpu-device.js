// A WebGPU adapter and device, and the shaders the backend compiles on it
// (solver.wgsl, render.wgsl, fetched once per page).

import { fieldError } from '../errors.js';

/** The shader sources once loaded: { solver, render }. */
let shaderCode = null;
let shaderLoading = null;

/**
 * Where the shaders are, next to this module: literal URLs, which bundlers
 * follow (and copy the files along).
 */
const SHADER_URLS = {
  solver: new URL('./solver.wgsl', import.meta.url),
  render: new URL('./render.wgsl', import.meta.url),
};

async function fetchShader(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url}: HTTP ${response.status}`);
  return response.text();
}

/** Fetches solver.wgsl and render.wgsl (once per page; a failed load is tried again next time). */
export function loadShaders() {
  shaderLoading ??= Promise.all([fetchShader(SHADER_URLS.solver), fetchShader(SHADER_URLS.render)]).then(
    ([solver, render]) => {
      shaderCode = { solver, render };
    },
    (error) => {
      shaderLoading = null;
      throw error;
    },
  );
  return shaderLoading;
}

/** A refusal of the WebGPU backend, with `field` "backend" and `code` "unsupported". */
export function gpuUnavailable(why) {
  return fieldError('backend', 'unsupported', `the WebGPU backend is not available: ${why}`);
}

/**
 * An adapter and a device. `allowFallbackAdapter` accepts a software adapter
 * (SwiftShader): right for tests, never fast. Throws gpuUnavailable otherwise.
 */
export async function requestGpu({ allowFallbackAdapter = false, powerPreference = 'high-performance' } = {}) {
  const gpu = globalThis.navigator?.gpu;
  if (!gpu) throw gpuUnavailable('this browser has no navigator.gpu (WebGPU needs a secure context and a browser that ships it)');
  let adapter;
  try {
    adapter = await gpu.requestAdapter({ powerPreference });
  } catch (error) {
    throw gpuUnavailable(`requestAdapter failed: ${error?.message ?? error}`);
  }
  if (!adapter) throw gpuUnavailable('no adapter (no GPU, or WebGPU disabled)');
  const info = adapter.info ?? {};
  const isFallbackAdapter = Boolean(adapter.isFallbackAdapter ?? info.isFallbackAdapter);
  if (isFallbackAdapter && !allowFallbackAdapter) {
    throw gpuUnavailable('only a software (fallback) adapter is present; pass allowFallbackAdapter: true to use it anyway');
  }
  const name = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') || 'unknown adapter';
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
    },
  });
  return { adapter, device, name, isFallbackAdapter };
}

/** The shader sources loaded by loadShaders(), { solver, render }, or null before. */
export function loadedShaders() {
  return shaderCode;
}
