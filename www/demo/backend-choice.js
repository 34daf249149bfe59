// The Backend select offers WebGPU only where the browser has a GPU adapter the
// page can use (a hardware one: the page does not ask for the software
// fallback, www/lib/backend.js); and a backend that cannot run is said once,
// under the select, in words for people.

import { fieldOf } from '../lib/errors.js';
import { byId } from './dom.js';

/** Whether this browser offers a hardware WebGPU adapter. */
async function hasGpuAdapter() {
  try {
    const adapter = await globalThis.navigator?.gpu?.requestAdapter?.({ powerPreference: 'high-performance' });
    return Boolean(adapter) && !(adapter.isFallbackAdapter ?? adapter.info?.isFallbackAdapter);
  } catch {
    return false;
  }
}

/**
 * Takes the WebGPU option out of the Backend select where no adapter exists
 * (a link that asks for it says so under the select, once). Resolves when decided.
 */
export async function offerBackends() {
  if (await hasGpuAdapter()) return;
  const select = byId('backend');
  select.querySelector('option[value="webgpu"]')?.remove();
  if (select.value === '' || select.selectedIndex < 0) select.value = 'auto';
}

/** Whether `error` is the backend's (said under the Backend select, not in a banner). */
export function isBackendError(error) {
  return fieldOf(error) === 'backend';
}

/** The words under the Backend select for `error`, a backend that cannot run: once, without the API's terms. */
export function backendMessage(error) {
  const why = String(error?.message ?? '').replace(/^.*?not available: /, '');
  if (/adapter|navigator\.gpu|could not be loaded|webgpu context/i.test(why)) {
    return 'WebGPU cannot run in this browser: it offers no graphics card to use. The cloth runs on the CPU.';
  }
  return `WebGPU cannot run this cloth (${why.replace(/\.$/, '')}). The cloth runs on the CPU.`;
}
