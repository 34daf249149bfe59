// What the pointer does to a cloth, by the tool: Drag, Cut or Pin. The host
// (page-host.js, worker-host.js; pointer.js reads the events) turns presses,
// moves and releases into the actions made here; they act on the running
// backend and count the edits the pointer made.

import { fieldError } from './errors.js';

/**
 * The tools of one cloth. `cloth` answers what they act on: `backend()` (the
 * running one), `view` (cloth-view.js), `machine` (frame-machine.js: changed,
 * moved), `report(error)` and `scrollPage(pointerId)`.
 */
export class PointerTools {
  #cloth;
  #tool = 'drag'; // what a press on the cloth does: 'drag', 'cut' or 'pin'
  #edits = 0; // grabs, cutting strokes and pin changes made with the pointer
  #heldCollider = null; // { collider, offsetX, offsetY } while a pointer drags a collider
  #lastPick = null; // where the pointer last pressed: { x, y, radius } in metres
  #stroke = null; // { x, y, cut } while a Cut stroke is drawn: its last point (metres), whether it cut

  constructor(cloth) {
    this.#cloth = cloth;
  }

  /** What a press on the cloth does: "drag", "cut" or "pin". */
  get tool() {
    return this.#tool;
  }

  set tool(tool) {
    this.#stroke = null;
    this.#tool = tool;
  }

  /** How many edits the pointer made: grabs (particle or collider), strokes that cut, pin changes. */
  get edits() {
    return this.#edits;
  }

  /** Whether a pointer drags a collider. */
  get holdsCollider() {
    return this.#heldCollider !== null;
  }

  /** A new cloth runs: no collider is held. */
  dropCollider() {
    this.#heldCollider = null;
  }

  /**
   * The actions of pointer input (pointer.js' PointerActions), by the tool.
   * Drag: a press near a particle drags the particle; elsewhere on a collider,
   * the collider (held at the point pressed, so it does not jump to the
   * pointer). Cut: a stroke cuts every constraint it crosses. Pin: a press near
   * a particle pins it, or frees it when pinned. A press on nothing the tool
   * acts on pans.
   */
  actions() {
    const cloth = this.#cloth;
    const { view, machine } = cloth;
    return {
      pick: (clientX, clientY) => {
        const at = view.clientToWorld(clientX, clientY);
        if (this.#tool === 'cut') return { stroke: at };
        const radiusMetres = view.pickRadius;
        this.#lastPick = { ...at, radius: radiusMetres };
        const backend = cloth.backend();
        const index = backend.pick(at.x, at.y, radiusMetres);
        if (index >= 0) return { particle: index };
        if (this.#tool === 'pin') return null;
        const id = backend.pickCollider(at.x, at.y);
        const collider = id > 0 ? backend.colliders().find((c) => c.id === id) : undefined;
        if (!collider) return null;
        return { collider: id, offsetX: (collider.x ?? at.x) - at.x, offsetY: collider.y - at.y };
      },
      grab: (target) => {
        if (target.stroke) this.#stroke = { ...target.stroke, cut: false };
        else if (this.#tool === 'pin') this.#togglePin(target.particle);
        else if (target.collider) {
          this.#heldCollider = target;
          this.#edits += 1;
        } else {
          this.#settle(cloth.backend().grabNear(target.particle, this.#lastPick));
          this.#edits += 1;
        }
        machine.changed();
      },
      dragTo: (clientX, clientY, time) => {
        const at = view.clientToWorld(clientX, clientY);
        const held = this.#heldCollider;
        if (this.#stroke) this.#cutTo(at);
        else if (this.#tool === 'pin') return;
        else if (held) cloth.backend().moveCollider(held.collider, at.x + held.offsetX, at.y + held.offsetY);
        else cloth.backend().drag(at.x, at.y);
        machine.moved(time);
      },
      release: () => {
        if (this.#stroke) this.#stroke = null;
        else if (this.#tool === 'pin') return;
        else if (this.#heldCollider) this.#heldCollider = null;
        else cloth.backend().release();
        machine.changed();
      },
      zoomBy: (factor, clientX, clientY) => view.zoom(factor, clientX, clientY),
      panBy: (dx, dy) => view.pan(dx, dy),
      scrollPage: (pointerId) => cloth.scrollPage(pointerId),
      fail: (error) => cloth.report(error),
    };
  }

  /** The Cut stroke goes on to `at` (metres): the constraints its new segment crosses are cut. */
  #cutTo(at) {
    const stroke = this.#stroke;
    const backend = this.#cloth.backend();
    if (typeof backend.cut !== 'function') throw fieldError('tool', 'unsupported', 'Cut works on the CPU backend: pick Backend: CPU');
    const cut = backend.cut(stroke.x, stroke.y, at.x, at.y);
    if (cut > 0 && !stroke.cut) this.#edits += 1;
    this.#stroke = { x: at.x, y: at.y, cut: stroke.cut || cut > 0 };
  }

  /** Pins particle `index`, or frees it when it is pinned. */
  #togglePin(index) {
    const backend = this.#cloth.backend();
    if (typeof backend.isPinned !== 'function') throw fieldError('tool', 'unsupported', 'Pin works on the CPU backend: pick Backend: CPU');
    backend.setPinned(index, !backend.isPinned(index));
    this.#edits += 1;
  }

  /** A grab the backend finishes later (WebGPU picks again first): a frame when it does, its Error reported. */
  #settle(grabbing) {
    const { machine } = this.#cloth;
    grabbing?.then(() => machine.changed(), (error) => {
      this.#cloth.report(error);
      machine.changed();
    });
  }
}
