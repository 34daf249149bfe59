// Pointer input on a cloth's canvas: one pointer drags what it picks (a particle
// or a collider), two pointers pinch-zoom, the wheel zooms. Knows nothing of the
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
 * Pointer Events on `canvas`: one pointer on something draggable drags it, two
 * pointers pinch-zoom (a second finger lets go), the wheel zooms.
 * `actions`: pick(clientX, clientY) → a target or null, grab(target),
 * dragTo(clientX, clientY), release(), zoomBy(factor), fail(error). Listeners go
 * away with `signal`. Returns `{ reset() }`.
 */
export function attachPointerInput(canvas, signal, actions) {
  return new PointerInput(canvas, signal, actions);
}

/** The pointers on one canvas and what they do (see attachPointerInput). */
class PointerInput {
  #canvas;
  #actions;
  #pointers = new Map(); // pointerId → { x, y } client coordinates
  #dragPointerId = null;
  #pinchDistance = 0;

  constructor(canvas, signal, actions) {
    this.#canvas = canvas;
    this.#actions = actions;
    const guarded = (handler) => (event) => {
      try {
        handler.call(this, event);
      } catch (error) {
        actions.fail(error);
      }
    };
    const options = { signal };
    canvas.addEventListener('pointerdown', guarded(this.#down), options);
    canvas.addEventListener('pointermove', guarded(this.#move), options);
    canvas.addEventListener('pointerup', guarded(this.#up), options);
    canvas.addEventListener('pointercancel', guarded(this.#up), options);
    canvas.addEventListener('lostpointercapture', guarded(this.#up), options);
    canvas.addEventListener('wheel', guarded(this.#wheel), { signal, passive: false });
  }

  /** Forget every pointer (after a restart the old grab is gone). */
  reset() {
    this.#pointers.clear();
    this.#dragPointerId = null;
    this.#pinchDistance = 0;
  }

  #distanceOfFirstTwo() {
    const [a, b] = this.#pointers.values();
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  #down(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault(); // no text selection, no emulated mouse events
    this.#pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    try {
      this.#canvas.setPointerCapture(event.pointerId);
    } catch {
      // the pointer may already be gone; nothing to capture
    }
    if (this.#pointers.size === 1) {
      const target = this.#actions.pick(event.clientX, event.clientY);
      if (target != null) {
        this.#dragPointerId = event.pointerId;
        this.#actions.grab(target);
        this.#actions.dragTo(event.clientX, event.clientY);
      }
    } else if (this.#pointers.size === 2) {
      if (this.#dragPointerId !== null) {
        this.#dragPointerId = null;
        this.#actions.release();
      }
      this.#pinchDistance = this.#distanceOfFirstTwo();
    }
  }

  #move(event) {
    const pointer = this.#pointers.get(event.pointerId);
    if (!pointer) return;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (this.#pointers.size >= 2) {
      const distance = this.#distanceOfFirstTwo();
      if (this.#pinchDistance > 0 && distance > 0) this.#actions.zoomBy(distance / this.#pinchDistance);
      this.#pinchDistance = distance;
    } else if (event.pointerId === this.#dragPointerId) {
      this.#actions.dragTo(event.clientX, event.clientY);
    }
  }

  #up(event) {
    if (!this.#pointers.delete(event.pointerId)) return;
    if (event.pointerId === this.#dragPointerId) {
      this.#dragPointerId = null;
      this.#actions.release();
    }
    if (this.#pointers.size < 2) this.#pinchDistance = 0;
  }

  #wheel(event) {
    event.preventDefault(); // zoom the cloth, not scroll the page
    this.#actions.zoomBy(Math.exp(-WHEEL_ZOOM_RATE * wheelPixels(event, window.innerHeight)));
  }
}
