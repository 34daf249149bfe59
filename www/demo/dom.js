// The demo page's elements: found by id, their text written only when it changes;
// which elements keep the keys typed in them.



export const byId = (id) => document.getElementById(id);

export function setText(id, text) {
  const element = byId(id);
  if (element.textContent !== text) element.textContent = text; // skip needless DOM writes
}

/** Keys typed here belong to the element (Space types, ticks or clicks), not to the page's shortcuts. */
export const KEY_OWNERS = 'input, select, textarea, button, [contenteditable]:not([contenteditable="false"])';
