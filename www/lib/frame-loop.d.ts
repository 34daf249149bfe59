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
/** Milliseconds of work in one slice of a frame's stepping (input is handled between slices). */
export const SLICE_WORK_MS: number;

/** A frame's stepping is `begin`, `slice` until `frameDone`, then `end`. */
export class Stepper {
  readonly capped: boolean;
  readonly stepsLastFrame: number;
  /** The slices the last frame's stepping took. */
  readonly slicesLastFrame: number;
  /** Slices run since this Stepper was made. */
  readonly slicesRun: number;
  readonly stepMs: number;
  /** Whether a frame's stepping has begun and not ended. */
  readonly stepping: boolean;
  /** Whether the frame's stepping is over (its steps ran, its budget is spent, or no progress). */
  readonly frameDone: boolean;
  idle(): void;
  clear(): void;
  begin(simulation: Steppable, wanted: number): void;
  /** One slice of at most SLICE_WORK_MS of work; returns the milliseconds it took. */
  slice(simulation: Steppable): number;
  end(simulation: Steppable): void;
}

/** Simulated seconds per second for each `speed` but "original" (stepsPerFrame steps a frame). */
export const SPEED_FACTORS: Readonly<Record<'quarter' | 'half' | 'real' | 'double', number>>;
/** The longest a frame counts for, seconds. */
export const LONGEST_FRAME_S: number;

/** The cloth's clock: the steps each frame runs so that simulated time goes with the frames' times at the chosen speed. */
export class StepClock {
  reset(): void;
  /** The steps of the frame at `frameTime` (ms, a frame's timestamp). */
  stepsFor(frameTime: number, loop: { speed: string; timeStepSize: number; stepsPerFrame: number }): number;
}

/** The size of the pieces a large picture is drawn in: SLICE_WORK_MS of drawing at the measured rate. */
export class PiecePacer {
  /** The shapes (lines, discs) the next piece may draw. */
  readonly maxShapes: number;
  /** A piece that drew `shapes` took `elapsed` ms. */
  measured(shapes: number, elapsed: number): void;
}

export class FrameScheduler {
  constructor(onFrame: (time: number) => void, onStep: () => void, onDraw?: () => void);
  /** Whether an animation frame is requested and has not come yet. */
  readonly framePending: boolean;
  requestFrame(): void;
  cancelFrame(): void;
  scheduleStepping(): void;
  cancelStepping(): void;
  /** A drawing task (the next piece of a picture): a message on a channel of the scheduler's own. */
  scheduleDrawing(): void;
  cancelDrawing(): void;
  /** Cancels everything pending and closes the drawing channel. */
  stop(): void;
}

export function watchVisibility(
  canvas: Element,
  signal: AbortSignal,
  onChange: (visible: boolean) => void,
): () => void;
