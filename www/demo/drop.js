// The "Drop a box" and "Drop a ball" buttons: each adds a rigid body
// (controller.addBody, the same call the embedder has) above the scene's
// highest particle, at the middle of what the canvas shows, the camera moving
// up when there is no room above the scene in view. Its
// size follows the view (a tenth of the visible width, at least four particles
// across), so a drop looks alike on a small cloth and a large one.

import { byId } from './dom.js';

/** Corners of the ball's outline: a polygon close enough to a circle at these sizes. */
const BALL_CORNERS = 24;
/** The particles' spacing, m: twice the default particle radius (the presets'). */
export const SPACING = 0.1;

/** The outline of a square of side `side` centred at (x, y). */
export function boxOutline(x, y, side) {
  const h = side / 2;
  return [x - h, y - h, x + h, y - h, x + h, y + h, x - h, y + h];
}

/** The outline of a disc of `radius` centred at (x, y), as a polygon of BALL_CORNERS corners. */
export function ballOutline(x, y, radius) {
  const outline = [];
  for (let k = 0; k < BALL_CORNERS; k += 1) {
    const angle = (2 * Math.PI * k) / BALL_CORNERS;
    outline.push(x + radius * Math.cos(angle), y + radius * Math.sin(angle));
  }
  return outline;
}

/**
 * Where a body of `size` metres goes: centred across the view, its bottom a
 * body's size above the highest particle; and how far the view must move up
 * to show it (0 when it is in view already).
 */
export function dropPlace(positions, view, canvasHeight, size) {
  let highest = -Infinity;
  for (let k = 1; k < positions.length; k += 2) highest = Math.max(highest, positions[k]);
  const top = view.y + canvasHeight / 2 / view.scale;
  const y = Number.isFinite(highest) ? highest + 1.5 * size : view.y;
  return { x: view.x, y, raise: Math.max(0, y + size - top) };
}

/** Wires the two buttons to `controller`; a refusal is shown under them. */
export function wireDrops(controller) {
  const drop = async (shape) => {
    const status = byId('drop-error');
    status.textContent = '';
    try {
      const canvas = byId('cloth-canvas');
      const view = controller.view;
      const width = canvas.clientWidth / view.scale;
      const size = Math.max(4 * SPACING, width / 10);
      const place = dropPlace(await controller.readPositions(), view, canvas.clientHeight, size);
      // no room above the scene in view: the camera moves up to show the drop
      if (place.raise > 0) controller.setView({ x: view.x, y: view.y + place.raise, scale: view.scale });
      const outline = shape === 'box' ? boxOutline(place.x, place.y, size) : ballOutline(place.x, place.y, size / 2);
      await controller.addBody({ outline, spacing: Math.max(SPACING, size / 8) });
    } catch (error) {
      status.textContent = `Could not drop a ${shape}: ${error.message}`;
    }
  };
  byId('drop-box').addEventListener('click', () => drop('box'));
  byId('drop-ball').addEventListener('click', () => drop('ball'));
}
