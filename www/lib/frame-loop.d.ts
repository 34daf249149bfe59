// Types for www/lib/frame-loop.js: timing averages, the stepping budget, frame scheduling, visibility.

/** What the Stepper steps: a Simulation or any `Backend` (backend.d.ts). */
export interface Steppable {
  advance(maxSteps: number, workBudget: number): number;
  readonly stepProgress: number;
  readonly workDone: number;
  readonly isFinite: boolean;
}

export class RollingAverage {
  constructor(capacity: number);
  add(value: number, times?: number): void;
  readonly mean: number;
  clear(): void;
}

export const AVERAGED_SAMPLES: number;
/** Milliseconds of stepping per animation frame. */
export const FRAME_WORK_BUDGET_MS: number;

export class Stepper {
  readonly capped: boolean;
  readonly stepsLastFrame: number;
  readonly stepMs: number;
  idle(): void;
  clear(): void;
  advance(simulation: Steppable, wanted: number): number;
}

export class FrameScheduler {
  constructor(onFrame: () => void, onStep: () => void);
  /** Whether an animation frame is requested and has not come yet. */
  readonly framePending: boolean;
  requestFrame(): void;
  cancelFrame(): void;
  scheduleStepping(): void;
  cancelStepping(): void;
}

export function watchVisibility(
  canvas: Element,
  signal: AbortSignal,
  onChange: (visible: boolean) => void,
): () => void;
