// Pointer input on a cloth's canvas: one pointer drags what it picks (a particle
// or a collider) or else pans (a mouse or a pen) or scrolls the page (a finger,
// as on a map: the canvas must not trap a swipe), two pointers pinch-zoom about
// their midpoint and pan as it moves, the wheel zooms about the pointer. Knows
// nothing of the Simulation: it calls actions.

/** Pick radius in CSS pixels, as in the original. */
export const PICK_RADIUS_PX = 10;
/** Wheel zoom: factor e^(-k·deltaY); 100 px of wheel ≈ 10 %, like the original's 0.05 px/unit at 50 px/m. */
const WHEEL_ZOOM_RATE = 0.001;

/** A wheel event's vertical delta in CSS px (lines and pages converted). */
export function wheelPixels(event, pageHeight) {
  if (event.deltaMode === 1) return event.deltaY * 16; // lines
  if (event.deltaMode === 2) return event.deltaY * pageHeight; // pages
  return event.deltaY;
}

/**
 * When `event` happened, in ms since the epoch (`performance.timeOrigin` + its
 * `timeStamp`), a clock the page and its workers share: an event a worker
 * re-dispatches carries the page's as `time`.
 */
export function eventTime(event) {
  return event.time ?? performance.timeOrigin + event.timeStamp;
}

/**
 * Scrolls the page of `canvas` with the touch pointer `pointerId` as a browser
 * would (the content follows the finger), until it lifts or another pointer
 * comes down. The canvas' `touch-action: none` leaves this to the page;
 * positions are the events' viewport coordinates, which the scrolling does not
 * change. Events marked `mirrored` (a page's copies of another canvas'
 * pointer) are left out.
 */
export function scrollPageWith(canvas, pointerId) {
  const view = canvas.ownerDocument?.defaultView;
  if (!view) return;
  const stop = new AbortController();
  let last = null;
  const options = { signal: stop.signal };
  canvas.addEventListener('pointermove', (event) => {
    // a copy of another canvas' pointer (the experiments' mirrored cloth marks
    // its copies `mirrored`) scrolls nothing: the original scrolls the page
    if (event.pointerId !== pointerId || event.mirrored) return;
    if (last) view.scrollBy(0, last - event.clientY);
    last = event.clientY;
  }, options);
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) {
    canvas.addEventListener(type, (event) => {
      if (event.pointerId === pointerId) stop.abort();
    }, options);
  }
  canvas.addEventListener('pointerdown', () => stop.abort(), options); // a second finger: pinch, not scroll
}

/**
 * Pointer Events on `canvas`: one pointer on something draggable drags it,
 * elsewhere it pans (a finger scrolls the page instead, with
 * actions.scrollPage(pointerId), where given); two pointers pinch-zoom about
 * their midpoint and pan as it moves (a second finger lets go of what the first
 * held); the wheel zooms about the pointer. `actions`: pick(clientX, clientY) →
 * a target or null, grab(target), dragTo(clientX, clientY, time), release(),
 * zoomBy(factor, clientX, clientY), panBy(dx, dy) (client px), scrollPage(pointerId)
 * (optional), fail(error). Listeners go away with
 * `signal`. Returns `{ reset() }`.
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
  #panPointerId = null;
  #pinch = null; // { distance, x, y }: the first two pointers' distance and midpoint

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
    this.#panPointerId = null;
    this.#pinch = null;
  }

  #measurePinch() {
    const [a, b] = this.#pointers.values();
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
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
        this.#actions.dragTo(event.clientX, event.clientY, eventTime(event));
      } else if (event.pointerType === 'touch' && this.#actions.scrollPage) {
        this.#actions.scrollPage(event.pointerId); // its moves are the page's from here
      } else {
        this.#panPointerId = event.pointerId;
      }
    } else if (this.#pointers.size === 2) {
      if (this.#dragPointerId !== null) {
        this.#dragPointerId = null;
        this.#actions.release();
      }
      this.#panPointerId = null;
      this.#pinch = this.#measurePinch();
    }
  }

  #move(event) {
    const pointer = this.#pointers.get(event.pointerId);
    if (!pointer) return;
    const dx = event.clientX - pointer.x;
    const dy = event.clientY - pointer.y;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (this.#pointers.size >= 2) {
      // the midpoint carries the picture; the spread zooms about it
      const pinch = this.#pinch;
      const now = this.#measurePinch();
      this.#actions.panBy(now.x - pinch.x, now.y - pinch.y);
      if (pinch.distance > 0 && now.distance > 0) this.#actions.zoomBy(now.distance / pinch.distance, now.x, now.y);
      this.#pinch = now;
    } else if (event.pointerId === this.#dragPointerId) {
      this.#actions.dragTo(event.clientX, event.clientY, eventTime(event));
    } else if (event.pointerId === this.#panPointerId) {
      this.#actions.panBy(dx, dy);
    }
  }

  #up(event) {
    if (!this.#pointers.delete(event.pointerId)) return;
    if (event.pointerId === this.#dragPointerId) {
      this.#dragPointerId = null;
      this.#actions.release();
    }
    if (event.pointerId === this.#panPointerId) this.#panPointerId = null;
    if (this.#pointers.size >= 2) {
      this.#pinch = this.#measurePinch(); // another pair pinches on from here
    } else if (this.#pinch) {
      this.#pinch = null;
      // the finger left of a pinch goes on panning
      if (this.#pointers.size === 1) [this.#panPointerId] = this.#pointers.keys();
    }
  }

  #wheel(event) {
    event.preventDefault(); // zoom the cloth, not scroll the page
    this.#actions.zoomBy(Math.exp(-WHEEL_ZOOM_RATE * wheelPixels(event, globalThis.innerHeight ?? 0)), event.clientX, event.clientY);
  }
}
