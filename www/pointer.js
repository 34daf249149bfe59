// Pointer input on a cloth's canvas: one pointer drags what it picks (a particle
// or a collider) or else pans, two pointers pinch-zoom about their midpoint and
// pan as it moves, the wheel zooms about the pointer. Knows nothing of the
// Simulation: it calls actions.

/** Pick radius in CSS pixels, as in the original. */
export const PICK_RADIUS_PX = 10;
/** Wheel zoom: factor e^(-k·deltaY); 100 px of wheel ≈ 10 %, like the original's 0.05 px/unit at 50 px/m. */
const WHEEL_ZOOM_RATE = 0.001;

function wheelPixels(event, pageHeight) {
  if (event.deltaMode === 1) return event.deltaY * 16; // lines
  if (event.deltaMode === 2) return event.deltaY * pageHeight; // pages
  return event.deltaY;
}

/**
 * Pointer Events on `canvas`: one pointer on something draggable drags it,
 * elsewhere it pans; two pointers pinch-zoom about their midpoint and pan as
 * it moves (a second finger lets go of what the first held); the wheel zooms
 * about the pointer. `actions`: pick(clientX, clientY) → a target or null,
 * grab(target), dragTo(clientX, clientY), release(), zoomBy(factor, clientX,
 * clientY), panBy(dx, dy) (client px), fail(error). Listeners go away with
 * `signal`.
 */
export function attachPointerInput(canvas, signal, actions) {
  const pointers = new Map(); // pointerId → { x, y } client coordinates
  let dragPointerId = null;
  let panPointerId = null;
  let pinch = null; // { distance, x, y }: the first two pointers' distance and midpoint

  const measurePinch = () => {
    const [a, b] = pointers.values();
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  const guarded = (handler) => (event) => {
    try {
      handler(event);
    } catch (error) {
      actions.fail(error);
    }
  };

  const onDown = (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault(); // no text selection, no emulated mouse events
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // the pointer may already be gone; nothing to capture
    }
    if (pointers.size === 1) {
      const target = actions.pick(event.clientX, event.clientY);
      if (target != null) {
        dragPointerId = event.pointerId;
        actions.grab(target);
        actions.dragTo(event.clientX, event.clientY);
      } else {
        panPointerId = event.pointerId;
      }
    } else if (pointers.size === 2) {
      if (dragPointerId !== null) {
        dragPointerId = null;
        actions.release();
      }
      panPointerId = null;
      pinch = measurePinch();
    }
  };

  const onMove = (event) => {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    const dx = event.clientX - pointer.x;
    const dy = event.clientY - pointer.y;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (pointers.size >= 2) {
      // the midpoint carries the picture; the spread zooms about it
      const now = measurePinch();
      actions.panBy(now.x - pinch.x, now.y - pinch.y);
      if (pinch.distance > 0 && now.distance > 0) actions.zoomBy(now.distance / pinch.distance, now.x, now.y);
      pinch = now;
    } else if (event.pointerId === dragPointerId) {
      actions.dragTo(event.clientX, event.clientY);
    } else if (event.pointerId === panPointerId) {
      actions.panBy(dx, dy);
    }
  };

  const onUp = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    if (event.pointerId === dragPointerId) {
      dragPointerId = null;
      actions.release();
    }
    if (event.pointerId === panPointerId) panPointerId = null;
    if (pointers.size >= 2) {
      pinch = measurePinch(); // another pair pinches on from here
    } else if (pinch) {
      pinch = null;
      // the finger left of a pinch goes on panning
      if (pointers.size === 1) [panPointerId] = pointers.keys();
    }
  };

  const onWheel = (event) => {
    event.preventDefault(); // zoom the cloth, not scroll the page
    actions.zoomBy(Math.exp(-WHEEL_ZOOM_RATE * wheelPixels(event, window.innerHeight)), event.clientX, event.clientY);
  };

  const options = { signal };
  canvas.addEventListener('pointerdown', guarded(onDown), options);
  canvas.addEventListener('pointermove', guarded(onMove), options);
  canvas.addEventListener('pointerup', guarded(onUp), options);
  canvas.addEventListener('pointercancel', guarded(onUp), options);
  canvas.addEventListener('lostpointercapture', guarded(onUp), options);
  canvas.addEventListener('wheel', guarded(onWheel), { signal, passive: false });

  return {
    /** Forget every pointer (after a restart the old grab is gone). */
    reset() {
      pointers.clear();
      dragPointerId = null;
      panPointerId = null;
      pinch = null;
    },
  };
}
