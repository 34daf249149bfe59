// The tool a press on the cloth uses: Drag, Cut, Pin or Draw, a group of radio
// buttons under the canvas and the keys D, C, P and W (not while a field or
// button has the focus). The cloth's controller does what Drag, Cut and Pin do (setTool);
// draw.js does what Draw does. And "Page
// defaults": back to the values the page opens with.

import { byId, KEY_OWNERS } from './dom.js';
import { LIVE_FIELDS, PARAMETER_BY_NAME, pageDefault, RESTART_FIELDS } from './form.js';
import { restart } from './restart.js';
import { DEFAULT_SPEED } from './speed-control.js';

/** Each tool's key. */
export const TOOL_KEYS = Object.freeze({ d: 'drag', c: 'cut', p: 'pin', w: 'draw' });

function choose(controller, tool) {
  // Draw is the page's own (draw.js handles its strokes); the cloth's controller drags meanwhile
  controller.setTool(tool === 'draw' ? 'drag' : tool);
  const radio = document.querySelector(`input[name="tool"][value="${tool}"]`);
  radio.checked = true;
  byId('cloth-canvas').dataset.tool = tool;
}

/** The page's own values: its default scene at its size, every parameter's page default, real time (undoable, as a restart). */
function pageDefaults(controller, plot) {
  for (const id of RESTART_FIELDS) byId(id).value = String(PARAMETER_BY_NAME.get(id).defaultValue);
  byId('speed').value = DEFAULT_SPEED;
  byId('speed').dispatchEvent(new Event('change'));
  const scene = PARAMETER_BY_NAME.get('preset').defaultValue; // the default scene's own values
  restart(controller, plot, Object.fromEntries(LIVE_FIELDS.map((id) => [id, pageDefault(id, scene)])));
}

/** Wires the tool choice, its keys, and the Page defaults button. */
export function wireTools(controller, plot) {
  byId('page-defaults').addEventListener('click', () => pageDefaults(controller, plot));
  for (const radio of document.querySelectorAll('input[name="tool"]')) {
    radio.addEventListener('change', () => {
      if (radio.checked) choose(controller, radio.value);
    });
  }
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing || event.repeat) return;
    if (event.target instanceof Element && event.target.closest(KEY_OWNERS) && !event.target.matches('input[name="tool"]')) return;
    const tool = TOOL_KEYS[event.key.toLowerCase()];
    if (!tool) return;
    event.preventDefault();
    choose(controller, tool);
  });
  choose(controller, document.querySelector('input[name="tool"]:checked')?.value ?? 'drag');
}
