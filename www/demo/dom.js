// The demo page's elements: found by id, their text written only when it changes.



export const byId = (id) => document.getElementById(id);

export function setText(id, text) {
  const element = byId(id);
  if (element.textContent !== text) element.textContent = text; // skip needless DOM writes
}
