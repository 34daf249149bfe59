// The Draw tool: a pointer stroke on the canvas (mouse, pen or one finger),
// drawn as a line while it is made, becomes on release
// - a rigid body when it is closed (its end within CLOSE_PX pixels of its
//   start): its outline, simplified (points closer than the spacing dropped),
//   filled with particles by controller.addBody, as the drop buttons' bodies;
// - a rope when it is open: controller.addRope lays a chain of particles
//   along it, joined by distance constraints with the scene's stiffness.
// Either falls into the scene, is saved in state files, and Undo takes it
// back. An outline that crosses itself or is too small, or a rope too short,
// is refused with a message under the tools (and so is whatever the
// Simulation refuses, in its words); the running cloth is kept.
//
// The page handles the stroke itself, before the cloth's controller sees the
// press (the controller's own tools are Drag, Cut and Pin): the line is an SVG
// overlay in the page's pixels, so it shows in the worker mode too.

import { byId } from './dom.js';
import { SPACING } from './drop.js';
import { forgetLastUndo, rememberForUndo } from './undo.js';

/** A stroke whose end comes back within this many CSS pixels of its start is closed (a body). */
export const CLOSE_PX = 24;
/** Most particles a drawn body or rope gets: a larger drawing gets a larger spacing. */
export const MOST_PARTICLES = 600;

const SVG = 'http://www.w3.org/2000/svg';

/** `[x0, y0, ...]` with every point closer than `spacing` to the last one kept dropped (the last point kept when `keepEnd`). */
export function simplify(points, spacing, keepEnd = false) {
  const kept = [points[0], points[1]];
  for (let k = 2; k < points.length; k += 2) {
    if (Math.hypot(points[k] - kept.at(-2), points[k + 1] - kept.at(-1)) >= spacing) kept.push(points[k], points[k + 1]);
  }
  const n = points.length;
  if (keepEnd && n >= 4 && (kept.at(-2) !== points[n - 2] || kept.at(-1) !== points[n - 1])) {
    if (kept.length >= 4) kept.length -= 2; // the last kept point gives way to the end
    kept.push(points[n - 2], points[n - 1]);
  }
  return kept;
}

/** Whether segments p1p2 and p3p4 cross or touch. */
function crosses(p1, p2, p3, p4) {
  const side = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  const [d1, d2, d3, d4] = [side(p3, p4, p1), side(p3, p4, p2), side(p1, p2, p3), side(p1, p2, p4)];
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  // a point of one on the other
  const on = (a, b, c) => Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
  return (d1 === 0 && on(p3, p4, p1)) || (d2 === 0 && on(p3, p4, p2)) || (d3 === 0 && on(p1, p2, p3)) || (d4 === 0 && on(p1, p2, p4));
}

/** Whether the closed polygon `outline` (`[x0, y0, ...]`) crosses itself. */
export function crossesItself(outline) {
  const n = outline.length / 2;
  const at = (k) => [outline[2 * (k % n)], outline[2 * (k % n) + 1]];
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 2; j < n; j += 1) {
      if (i === 0 && j === n - 1) continue; // neighbours through the closing side
      if (crosses(at(i), at(i + 1), at(j), at(j + 1))) return true;
    }
  }
  return false;
}

/** Twice the signed area of the polygon `outline`. */
function doubleArea(outline) {
  let sum = 0;
  for (let k = 0; k < outline.length; k += 2) {
    const next = (k + 2) % outline.length;
    sum += outline[k] * outline[next + 1] - outline[next] * outline[k + 1];
  }
  return sum;
}

/** The length of the line `[x0, y0, ...]`. */
function lineLength(points) {
  let length = 0;
  for (let k = 2; k < points.length; k += 2) length += Math.hypot(points[k] - points[k - 2], points[k + 1] - points[k - 1]);
  return length;
}

/**
 * What a finished stroke becomes: `{ body }` (the argument of addBody),
 * `{ rope }` (of addRope), or `{ refused }` (a message); `world` and
 * `client` are its points in metres and in CSS pixels.
 */
export function strokeToShape(world, client) {
  const n = client.length;
  const closed = n >= 6 && Math.hypot(client[n - 2] - client[0], client[n - 1] - client[1]) <= CLOSE_PX
    && lineLength(client) > 3 * CLOSE_PX;
  if (closed) {
    const area = Math.abs(doubleArea(world)) / 2;
    const spacing = Math.max(SPACING, Math.sqrt(area / MOST_PARTICLES));
    const outline = simplify(world, spacing);
    // the end comes back to the start: the closing side joins them
    while (outline.length >= 4 && Math.hypot(outline.at(-2) - outline[0], outline.at(-1) - outline[1]) < spacing) outline.length -= 2;
    const tooSmall = { refused: 'That shape is too small to fill with particles: draw it larger (or zoom in).' };
    if (outline.length < 6) return tooSmall;
    if (crossesItself(outline)) return { refused: 'That outline crosses itself: draw a shape whose line does not cross.' };
    if (area < 3 * spacing * spacing) return tooSmall;
    return { body: { outline, spacing } };
  }
  const length = lineLength(world);
  const spacing = Math.max(SPACING, length / (MOST_PARTICLES - 1));
  if (length < 2 * spacing) return { refused: 'That line is too short for a rope: draw a longer one (or zoom in).' };
  return { rope: { points: simplify(world, spacing / 2, true), spacing } };
}

/** Wires the Draw tool on the canvas to `controller`. */
export function wireDraw(controller) {
  const canvas = byId('cloth-canvas');
  const status = byId('draw-status');
  const overlay = document.createElementNS(SVG, 'svg');
  overlay.setAttribute('class', 'draw-overlay');
  overlay.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(SVG, 'polyline');
  overlay.append(line);
  document.body.append(overlay);
  overlay.hidden = true;
  let stroke = null; // { id, world: [...], client: [...] } while drawing

  const drawing = () => canvas.dataset.tool === 'draw';
  const add = (event) => {
    const world = controller.clientToWorld(event.clientX, event.clientY);
    stroke.world.push(world.x, world.y);
    stroke.client.push(event.clientX, event.clientY);
    line.setAttribute('points', stroke.client.join(' '));
  };
  const end = async (finished) => {
    const done = stroke;
    stroke = null;
    overlay.hidden = true;
    line.setAttribute('points', '');
    if (!finished || done.world.length < 4) return;
    const shape = strokeToShape(done.world, done.client);
    if (shape.refused) {
      status.textContent = shape.refused;
      return;
    }
    rememberForUndo();
    try {
      if (shape.body) await controller.addBody(shape.body);
      else await controller.addRope(shape.rope);
    } catch (error) {
      forgetLastUndo();
      status.textContent = `Could not add the ${shape.body ? 'body' : 'rope'}: ${error.message}`;
    }
  };
  const own = (event) => drawing() && event.target === canvas && event.isPrimary;
  const parent = canvas.parentElement;
  parent.addEventListener('pointerdown', (event) => {
    if (!own(event) || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.stopPropagation(); // the cloth's controller neither drags nor pans
    event.preventDefault();
    canvas.setPointerCapture?.(event.pointerId);
    status.textContent = '';
    stroke = { id: event.pointerId, world: [], client: [] };
    overlay.hidden = false;
    add(event);
  }, { capture: true });
  parent.addEventListener('pointermove', (event) => {
    if (!stroke || event.pointerId !== stroke.id) return;
    event.stopPropagation();
    for (const each of event.getCoalescedEvents?.() ?? [event]) add(each);
  }, { capture: true });
  for (const type of ['pointerup', 'pointercancel']) {
    parent.addEventListener(type, (event) => {
      if (!stroke || event.pointerId !== stroke.id) return;
      event.stopPropagation();
      if (type === 'pointerup') add(event);
      end(type === 'pointerup');
    }, { capture: true });
  }
}
