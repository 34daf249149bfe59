// The view from the keyboard, on the focused cloth canvas: the arrow keys pan
// (a tenth of the canvas a press), + and − zoom about the centre (by a quarter),
// 0 fits the scene again; and the Full screen button, where the browser has one.

import { byId } from './dom.js';

/** Each arrow press moves the picture by this share of the canvas' shorter side. */
const PAN_SHARE = 0.1;
/** Each + or − zooms by this factor. */
const ZOOM_STEP = 1.25;
/** The camera's scale range, px per metre (www/lib/camera.js). */
const SCALE_RANGE = [1, 10_000];

/** Arrow key → direction the view moves, in screen terms (x right, y up). */
const ARROWS = Object.freeze({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] });

/** The view after key `key`, or null when the key is not one of the view's. */
function viewAfter(key, view, canvas) {
  const { x, y, scale } = view;
  if (Object.hasOwn(ARROWS, key)) {
    const [dx, dy] = ARROWS[key];
    const step = (PAN_SHARE * Math.min(canvas.clientWidth, canvas.clientHeight)) / scale; // metres
    return { x: x + dx * step, y: y + dy * step, scale };
  }
  const factor = { '+': ZOOM_STEP, '=': ZOOM_STEP, '-': 1 / ZOOM_STEP, '−': 1 / ZOOM_STEP }[key];
  if (!factor) return null;
  return { x, y, scale: Math.min(SCALE_RANGE[1], Math.max(SCALE_RANGE[0], scale * factor)) };
}

/** Arrows, +, − and 0 on the focused `canvas` move, zoom and fit `controller`'s view. */
export function wireCanvasKeys(canvas, controller) {
  canvas.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (event.key === '0') {
      event.preventDefault();
      controller.fit();
      return;
    }
    const next = viewAfter(event.key, controller.view, canvas);
    if (!next) return;
    event.preventDefault(); // an arrow would scroll the page
    controller.setView(next);
  });
}

/** The Full screen button: shown where the browser can show an element full screen. */
export function wireFullscreen(canvas) {
  const button = byId('fullscreen');
  if (!document.fullscreenEnabled || !canvas.requestFullscreen) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    canvas.requestFullscreen().then(() => canvas.focus({ preventScroll: true }), () => {});
  });
}
