// The tool a press on the cloth uses: Drag, Cut or Pin, a group of radio buttons
// above the canvas and the keys D, C and P (not while a field or button has the
// focus). The cloth's controller does what each tool does (setTool).

import { byId } from './dom.js';
import { KEY_OWNERS } from './keys.js';

/** Each tool's key. */
export const TOOL_KEYS = Object.freeze({ d: 'drag', c: 'cut', p: 'pin' });

function choose(controller, tool) {
  controller.setTool(tool);
  const radio = document.querySelector(`input[name="tool"][value="${tool}"]`);
  radio.checked = true;
  byId('cloth-canvas').dataset.tool = tool;
}

export function wireTools(controller) {
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
