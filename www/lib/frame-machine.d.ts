// Types for www/lib/frame-machine.js: the frame of a cloth as a state machine.

import type { Steppable } from './frame-loop.js';

export type FramePhase = 'waiting' | 'drawing' | 'stepping' | 'shown';
export type FrameEvent = 'frame' | 'piece' | 'slice' | 'move' | 'moveDrawing' | 'change';

/** For each phase, the handler (a method name of FrameMachine) of each event it handles. */
export declare const TRANSITIONS: Readonly<Record<FramePhase, Partial<Record<FrameEvent, string>>>>;

/** What the machine asks of the cloth it runs. */
export interface FrameCloth {
  draw(maxShapes: number | undefined): number;
  steppable(): Steppable;
  loop(): { speed: string; timeStepSize: number; stepsPerFrame: number };
  isStepping(): boolean;
  isOnScreen(): boolean;
  readonly drawsOnInput: boolean;
  canDrawOnInput(): boolean;
  beforeFrame(): void;
  afterSlice(): boolean;
  emitFrame(): void;
  halt(error: unknown): void;
}

export declare class FrameMachine {
  constructor(cloth: FrameCloth);
  readonly phase: FramePhase;
  moved(time: number): void;
  changed(): void;
  restarted(): void;
  hidden(): void;
  stop(): void;
  drawNow(): void;
  readonly stepMs: number;
  readonly frameMs: number;
  readonly stepping: { capped: boolean; stepsLastFrame: number; slicesLastFrame: number };
  readonly piecesLastFrame: number;
  readonly dragDrawn: { eventTime: number; latencyMs: number; slices: number; pieces: number };
  drawFrame(time: number): FramePhase;
  skipDrawing(time: number): FramePhase;
  drawPiece(): FramePhase;
  restale(): FramePhase;
  stepSlice(): FramePhase;
  afterMove(): FramePhase;
  drawMove(): FramePhase;
  afterChange(): FramePhase;
}
