// Types for www/lib/cloth-view.js: what a cloth's canvas shows and where (its camera, box and coordinates).

import type { Camera, SceneDescription } from './camera.js';
import type { View, CanvasSize } from './renderer.js';
import type { ClothHost } from './page-host.js';
import type { Backend } from './backend.js';

/** The view of a cloth on `host`; `moved()` is called when the camera moved and the picture must be drawn again. */
export declare class ClothView {
  constructor(host: ClothHost, moved: () => void);
  /** The renderers' view (where the world origin is on the canvas); set once a scene is framed. */
  readonly view: View;
  readonly camera: Camera & { fitted: boolean };
  /** The canvas measured anew. */
  resize(measured: CanvasSize): void;
  /** Frames `scene`: shows `view` when given, else the scene's fit (a large scene's bounds in tasks of their own). */
  frame(scene: SceneDescription, view?: Camera | null): void;
  fit(): void;
  /** Shows `view`, or the fit when null. */
  show(view: Camera | null | undefined): void;
  zoom(factor: number, clientX: number, clientY: number): void;
  pan(dx: number, dy: number): void;
  /** A fitted camera follows the CPU backend's particles out of its box, unless something is held; true when the view changed. */
  follow(backend: Backend, holds: boolean): boolean;
  /** The pick radius in metres. */
  readonly pickRadius: number;
  worldToClient(x: number, y: number): { x: number; y: number };
  clientToWorld(clientX: number, clientY: number): { x: number; y: number };
  /** Stops the framing tasks. */
  stop(): void;
}
