// The frame of a cloth as a state machine: one value, `phase`, and beside it
// the transitions every event makes (TRANSITIONS). The controller
// (cloth-controller.js) keeps the cloth, its options and the API; this file
// keeps when the cloth steps and when it is drawn.
//
// Phases:
//   waiting   nothing runs: the next animation frame draws the state
//   drawing   a large picture is drawn in pieces, each a task of its own; the
//             frame's stepping waits for the picture (the stepper keeps where
//             it was)
//   stepping  the frame that drew steps, in slices, each a task of its own
//             (the steps of the frame come from the clock: StepClock)
//   shown     a drag move's drawing showed the state the pending frame would
//             draw: that frame draws nothing (stepping may go on meanwhile)
// Events:
//   frame        an animation frame (its timestamp)
//   piece        a drawing task: the next piece of the picture
//   slice        a stepping task: the next slice of the frame's stepping
//   move         a drag move (its event's time): the cloth changed under the pointer
//   moveDrawing  the task that draws the drag moves that arrived (a worker's host
//                draws them at once; a page's next frame draws them)
//   change       anything else that changed what the canvas shows (a setting,
//                the view, a restart, the canvas' size)
// Every event is handled by the handler TRANSITIONS names for the phase, which
// returns the next phase; an event a phase has no handler for changes nothing.
//
// What the frame reports (diagnostics): the steps and slices of the last
// frame's stepping, the pieces of its picture, the work per frame, and for the
// latest drag move drawn how long and how many slices and pieces it waited.

import { RollingAverage, AVERAGED_SAMPLES, Stepper, PiecePacer, StepClock, FrameScheduler } from './frame-loop.js';

/** The transitions: for each phase, the handler of each event (a method of FrameMachine), or none. */
export const TRANSITIONS = Object.freeze({
  waiting: { frame: 'drawFrame', slice: 'stepSlice', move: 'afterMove', moveDrawing: 'drawMove', change: 'afterChange' },
  drawing: { piece: 'drawPiece', move: 'restale', change: 'restale' },
  stepping: { frame: 'drawFrame', slice: 'stepSlice', move: 'afterMove', moveDrawing: 'drawMove', change: 'afterChange' },
  shown: { frame: 'skipDrawing', slice: 'stepSlice', move: 'afterMove', change: 'afterChange' },
});

export class FrameMachine {
  #phase = 'waiting';
  #cloth; // what the machine asks of the cloth (see the constructor)
  #scheduler;
  #stepper = new Stepper();
  #clock = new StepClock();
  #pacer = new PiecePacer(); // how many shapes a piece draws
  #frameTimes = new RollingAverage(AVERAGED_SAMPLES);
  #frameTime = NaN; // the timestamp of the last animation frame, ms
  #picture = null; // while drawing: { stale, pieces }
  #piecesRun = 0; // pieces drawn since this machine was made (a clock in pieces)
  #piecesLastFrame = 0; // the pieces the last frame's picture took
  #work = { stepping: 0, drawing: 0, early: 0 }; // ms since the last frame drawn: stepping, the picture, drag moves' drawings
  #moveDrawing = 0; // the timer of the task that draws the drag moves that arrived
  #undrawnDrag = NaN; // the time (ms since the epoch) of the latest drag move not drawn yet
  // the slice and piece clocks when the oldest drag move not drawn yet arrived, and
  // the pieces of older pictures it waited for once a picture that shows it began
  #undrawnSince = { slices: 0, pieces: 0, waitedPieces: NaN };
  #dragDrawn = { eventTime: NaN, latencyMs: NaN, slices: NaN, pieces: NaN }; // the latest drag move drawn, how long and how many slices and pieces it waited
  #stopped = false;

  /**
   * `cloth`: what the machine asks of the cloth it runs:
   *   draw(maxShapes)   draws the state (whole, or at most maxShapes shapes of the
   *                     picture in progress); returns the shapes left, 0 once shown
   *   steppable()       the backend the Stepper steps
   *   loop()            the loop's settings: { speed, timeStepSize, stepsPerFrame }
   *   isStepping()      whether the cloth steps now (not paused, diverged, hidden...)
   *   isOnScreen()      whether frames are wanted at all
   *   drawsOnInput      whether drag moves are drawn at once (a worker's host)
   *   canDrawOnInput()  whether the cloth can draw a move at once now (the CPU's backend)
   *   beforeFrame()     at each frame, before drawing (the pixel ratio checked)
   *   afterSlice()      after each slice: false stops the frame's stepping (diverged)
   *   emitFrame()       the frame's diagnostics are ready (onFrame)
   *   halt(error)       an unexpected Error stopped the loop
   */
  constructor(cloth) {
    this.#cloth = cloth;
    this.#scheduler = new FrameScheduler(
      (time) => this.#dispatch('frame', time),
      () => this.#dispatch('slice'),
      () => this.#dispatch('piece'),
    );
  }

  /** The phase the frame is in (see the top of this file). */
  get phase() {
    return this.#phase;
  }

  #dispatch(event, data) {
    if (this.#stopped) return;
    const handler = TRANSITIONS[this.#phase][event];
    if (!handler) return;
    try {
      this.#phase = this[handler](data);
    } catch (error) {
      this.#picture = null;
      this.#phase = this.#resting();
      this.#cloth.halt(error);
    }
  }

  // -- the events from outside

  /** A drag move, handled at its event's `time` (ms since the epoch). */
  moved(time) {
    if (Number.isNaN(this.#undrawnDrag)) this.#undrawnSince = { slices: this.#stepper.slicesRun, pieces: this.#piecesRun, waitedPieces: NaN };
    this.#undrawnDrag = time;
    this.#dispatch('move');
  }

  /** Something else changed what the canvas shows: the next frame draws it. */
  changed() {
    this.#dispatch('change');
  }

  /** The cloth was replaced or moved to another backend: the steps and times of the old one say nothing of it. */
  restarted() {
    this.#stepper.clear();
    this.#frameTimes.clear();
    this.#clock.reset();
    this.changed();
  }

  /** The canvas was hidden: no frame until it is seen again. */
  hidden() {
    this.#scheduler.cancelFrame();
  }

  /** Stops everything pending; no event is handled afterwards. */
  stop() {
    this.#stopped = true;
    this.#scheduler.stop();
    clearTimeout(this.#moveDrawing);
    this.#picture = null;
  }

  /** Draws the state whole now (a snapshot): a picture in pieces is finished by it. */
  drawNow() {
    this.#drawWhole();
    const picture = this.#picture;
    if (!picture) return;
    this.#scheduler.cancelDrawing();
    this.#scheduler.cancelFrame();
    this.#piecesLastFrame = picture.pieces;
    this.#picture = null;
    this.#phase = this.#frameDrawn();
  }

  // -- what the diagnostics read

  get stepMs() {
    return this.#stepper.stepMs;
  }

  get frameMs() {
    return this.#frameTimes.mean;
  }

  get stepping() {
    return { capped: this.#stepper.capped, stepsLastFrame: this.#stepper.stepsLastFrame, slicesLastFrame: this.#stepper.slicesLastFrame };
  }

  get piecesLastFrame() {
    return this.#piecesLastFrame;
  }

  get dragDrawn() {
    return { ...this.#dragDrawn };
  }

  // -- the handlers (TRANSITIONS): each returns the next phase

  /**
   * An animation frame: draws the state, the first piece of a large picture
   * here and the others in tasks of their own, so that what arrives meanwhile
   * is handled between them (a drag move, above all, which the next piece then
   * draws); then steps.
   */
  drawFrame(time) {
    this.#beginFrame(time);
    this.#picture = { stale: false, pieces: 0 };
    // a drag move not drawn yet is in this picture: its pieces are not a wait
    const since = this.#undrawnSince;
    if (!Number.isNaN(this.#undrawnDrag) && Number.isNaN(since.waitedPieces)) since.waitedPieces = this.#piecesRun - since.pieces;
    return this.drawPiece();
  }

  /** An animation frame when a drag move's drawing showed its state already: nothing to draw. */
  skipDrawing(time) {
    this.#beginFrame(time);
    this.#piecesLastFrame = 0;
    return this.#frameDrawn();
  }

  /**
   * Draws a piece of the frame's picture: at most the pacer's shapes, or, once
   * the state changed since the picture began, the rest whole (a picture
   * started over at every drag move would never end). Schedules the next
   * piece while pieces are left; once the picture is whole, the frame is drawn.
   */
  drawPiece() {
    const picture = this.#picture;
    const maxShapes = picture.stale ? undefined : this.#pacer.maxShapes;
    const started = performance.now();
    const left = this.#cloth.draw(maxShapes);
    if (left === 0) this.#shown(); // before this piece counts: a move it shows did not wait for it
    const elapsed = performance.now() - started;
    this.#work.drawing += elapsed;
    this.#piecesRun += 1;
    picture.pieces += 1;
    if (left > 0) {
      this.#pacer.measured(maxShapes, elapsed);
      this.#scheduler.scheduleDrawing();
      return 'drawing';
    }
    this.#piecesLastFrame = picture.pieces;
    this.#picture = null;
    // the canvas shows the state now: a frame asked for meanwhile has nothing left to draw
    this.#scheduler.cancelFrame();
    return this.#frameDrawn();
  }

  /** While a picture is drawn: the state changed, so the rest of it is drawn whole, of the new state. */
  restale() {
    this.#picture.stale = true;
    this.#requestFrame();
    return 'drawing';
  }

  /**
   * A slice of the frame's stepping (a drag move waiting to be drawn is drawn
   * first); then another slice, or, once the frame's steps are done, the
   * diagnostics and the next frame, which draws this state. Stepping that
   * stopped meanwhile (paused, say) ends the frame's stepping.
   */
  stepSlice() {
    if (this.#moveDrawing) {
      clearTimeout(this.#moveDrawing);
      this.#moveDrawing = 0;
      if (this.#phase !== 'shown' && this.#canDrawMove()) this.#phase = this.drawMove();
    }
    const cloth = this.#cloth;
    const backend = cloth.steppable();
    if (!cloth.isStepping()) {
      this.#stepper.end(backend);
      return this.afterChange();
    }
    if (!this.#stepper.stepping) this.#stepper.begin(backend, this.#clock.stepsFor(this.#frameTime, cloth.loop()));
    if (!this.#stepper.frameDone) this.#work.stepping += this.#stepper.slice(backend);
    const going = cloth.afterSlice();
    if (this.#stopped) return this.#phase; // the cloth was destroyed meanwhile (an onError callback)
    if (going && !this.#stepper.frameDone && cloth.isStepping()) {
      this.#scheduler.scheduleStepping();
      return this.#phase === 'shown' ? 'shown' : 'stepping';
    }
    this.#stepper.end(backend);
    cloth.emitFrame();
    return this.afterChange();
  }

  /**
   * A drag move: the next frame draws it; a host that draws on input (a
   * worker's: its animation frames keep a phase of their own, up to a frame
   * after the page's input) draws it in the next task, after the moves already
   * queued (a burst of them is drawn once), and the frame then draws only if
   * something else changed meanwhile.
   */
  afterMove() {
    const next = this.afterChange();
    if (!this.#moveDrawing && this.#cloth.drawsOnInput) {
      this.#moveDrawing = setTimeout(() => {
        this.#moveDrawing = 0;
        this.#dispatch('moveDrawing');
      }, 0);
    }
    return next;
  }

  /** The drag moves that arrived, drawn whole at once, when a frame is pending to draw them. */
  drawMove() {
    if (!this.#canDrawMove()) return this.#phase;
    const started = performance.now();
    this.#drawWhole();
    this.#work.early += performance.now() - started;
    return 'shown';
  }

  /** Something changed: the next frame draws it (a frame is asked for while the canvas can be seen). */
  afterChange() {
    this.#requestFrame();
    return this.#resting();
  }

  // -- the parts of the handlers

  #canDrawMove() {
    return this.#scheduler.framePending && this.#cloth.canDrawOnInput();
  }

  #requestFrame() {
    if (this.#cloth.isOnScreen()) this.#scheduler.requestFrame();
  }

  /** Where the frame rests when nothing is drawn: stepping while the stepper has a frame, else waiting. */
  #resting() {
    return this.#stepper.stepping ? 'stepping' : 'waiting';
  }

  #beginFrame(time) {
    this.#frameTime = time;
    this.#cloth.beforeFrame();
    if (!this.#cloth.isStepping()) {
      this.#stepper.idle();
      this.#clock.reset(); // a pause is not owed to the cloth
    }
  }

  /** The frame's picture is on the canvas: its time is counted, and stepping follows (or the diagnostics). */
  #frameDrawn() {
    const work = this.#work;
    this.#frameTimes.add(work.drawing + work.stepping + work.early);
    this.#work = { stepping: 0, drawing: 0, early: 0 };
    if (this.#cloth.isStepping()) {
      this.#scheduler.scheduleStepping();
      return 'stepping';
    }
    this.#cloth.emitFrame();
    return this.#resting();
  }

  /** Draws the state whole. */
  #drawWhole() {
    this.#cloth.draw(undefined);
    this.#shown();
  }

  /** The canvas shows the state: the latest drag move is drawn, how long after its event and after how many slices and pieces. */
  #shown() {
    if (Number.isNaN(this.#undrawnDrag)) return;
    const eventTime = this.#undrawnDrag;
    const latencyMs = performance.timeOrigin + performance.now() - eventTime;
    const since = this.#undrawnSince;
    const pieces = Number.isNaN(since.waitedPieces) ? this.#piecesRun - since.pieces : since.waitedPieces;
    this.#dragDrawn = { eventTime, latencyMs, slices: this.#stepper.slicesRun - since.slices, pieces };
    this.#undrawnDrag = NaN;
  }
}
