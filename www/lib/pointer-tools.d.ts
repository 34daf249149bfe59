// Types for www/lib/pointer-tools.js: what the pointer does to a cloth, by the tool (Drag, Cut, Pin).

import type { PointerActions } from './pointer.js';
import type { Backend } from './backend.js';
import type { ClothView } from './cloth-view.js';

/** What the tools act on. */
export interface ToolsCloth {
  /** The running backend. */
  backend(): Backend;
  readonly view: ClothView;
  /** The frame's state machine (frame-machine.js): what the pointer changed. */
  readonly machine: { changed(): void; moved(time: number): void };
  report(error: unknown): void;
  scrollPage(pointerId: number): void;
}

export declare class PointerTools {
  constructor(cloth: ToolsCloth);
  /** What a press on the cloth does; setting it ends a Cut stroke. */
  tool: 'drag' | 'cut' | 'pin';
  /** Grabs (particle or collider), strokes that cut and pin changes made with the pointer. */
  readonly edits: number;
  readonly holdsCollider: boolean;
  /** A new cloth runs: no collider is held. */
  dropCollider(): void;
  /** The actions of pointer input, by the tool. */
  actions(): PointerActions<any>;
}
