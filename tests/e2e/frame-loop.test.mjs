// Unit tests of www/lib/frame-loop.js in node, no browser: the Stepper spends a
// frame's budget in slices of SLICE_WORK_MS (counted in work units, never timed:
// the fake simulation below costs microseconds, so the measured rate never
// moves from its start), its numbers (steps, slices, capped) add up over the
// slices and across frames with a step in progress, a simulation that makes no
// progress (a busy GPU) ends the frame, and the FrameScheduler's stepping task
// runs once and not after it was cancelled, and so does its drawing task; the
// PiecePacer sizes pieces of drawing from the rates it is told.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_WORK_BUDGET_MS, SLICE_WORK_MS, Stepper, FrameScheduler, PiecePacer } from '../../www/lib/frame-loop.js';

/** The rate the Stepper starts from (frame-loop.js): work units per ms. */
const START_RATE = 1e6;
const FRAME_UNITS = FRAME_WORK_BUDGET_MS * START_RATE;
const SLICE_UNITS = SLICE_WORK_MS * START_RATE;
/** Work units of one piece of work the fake stops after (the core's chunk). */
const CHUNK = 1e5;

/**
 * A Steppable that counts work as the core does: steps of `workPerStep` units
 * in pieces of CHUNK, stopping at the first piece that reaches the budget,
 * mid-step if need be. `stalled`: advances nothing (a GPU still busy).
 */
class FakeSimulation {
  workDone = 0;
  isFinite = true;
  calls = [];
  #into = 0; // units of the step in progress done

  constructor(workPerStep, { stalled = false } = {}) {
    this.workPerStep = workPerStep;
    this.stalled = stalled;
  }

  get stepProgress() {
    return this.#into / this.workPerStep;
  }

  advance(maxSteps, budget) {
    this.calls.push({ maxSteps, budget });
    if (this.stalled) return 0;
    let finished = 0;
    let work = 0;
    while (finished < maxSteps && !(work > 0 && work >= budget)) {
      const piece = Math.min(CHUNK, this.workPerStep - this.#into);
      this.#into += piece;
      work += piece;
      if (this.#into >= this.workPerStep) {
        this.#into = 0;
        finished += 1;
      }
    }
    this.workDone += work;
    return finished;
  }
}

/** One frame's stepping as the controller runs it: begin, slices until done, end; returns the slices. */
function stepFrame(stepper, simulation, wanted) {
  stepper.begin(simulation, wanted);
  let slices = 0;
  while (!stepper.frameDone) {
    stepper.slice(simulation);
    slices += 1;
    assert.ok(slices <= 1000, 'the frame ends');
  }
  stepper.end(simulation);
  return slices;
}

describe('Stepper: a frame stepped in slices', () => {
  it('a frame that cannot do its steps spends its budget in slices of SLICE_WORK_MS, and is capped', () => {
    const stepper = new Stepper();
    const simulation = new FakeSimulation(FRAME_UNITS / 4); // 8 steps wanted, 4 fit
    const slices = stepFrame(stepper, simulation, 8);
    assert.equal(slices, FRAME_UNITS / SLICE_UNITS);
    for (const call of simulation.calls) assert.ok(call.budget <= SLICE_UNITS, JSON.stringify(call));
    assert.equal(simulation.workDone, FRAME_UNITS);
    assert.deepEqual(
      { steps: stepper.stepsLastFrame, slices: stepper.slicesLastFrame, capped: stepper.capped, run: stepper.slicesRun },
      { steps: 4, slices, capped: true, run: slices },
    );
    // each slice asks only for the steps left: those the slices before it did not finish
    const left = simulation.calls.map((_, k) => 8 - Math.floor((k * SLICE_UNITS) / simulation.workPerStep));
    assert.deepEqual(simulation.calls.map((call) => call.maxSteps), left);
    assert.ok(new Set(left).size > 1, 'the test sees steps finish between slices');
  });

  it('a frame whose steps fit stops when they are done, not capped', () => {
    const stepper = new Stepper();
    const simulation = new FakeSimulation(SLICE_UNITS / 2);
    const slices = stepFrame(stepper, simulation, 8); // 4 slices' worth
    assert.equal(slices, 4);
    assert.deepEqual({ steps: stepper.stepsLastFrame, capped: stepper.capped }, { steps: 8, capped: false });
  });

  it('a step longer than a frame goes on across frames: each frame counts the part it did', () => {
    const stepper = new Stepper();
    const simulation = new FakeSimulation(1.5 * FRAME_UNITS);
    stepFrame(stepper, simulation, 1);
    assert.equal(stepper.stepsLastFrame, 0.67);
    assert.equal(stepper.capped, true);
    stepFrame(stepper, simulation, 1); // the rest of the step, then nothing more: one step was wanted
    assert.equal(stepper.stepsLastFrame, 0.33);
    assert.equal(simulation.stepProgress, 0);
  });

  it('a simulation that advances nothing (a busy GPU) ends the frame after one slice', () => {
    const stepper = new Stepper();
    const simulation = new FakeSimulation(SLICE_UNITS, { stalled: true });
    assert.equal(stepFrame(stepper, simulation, 8), 1);
    assert.equal(stepper.stepsLastFrame, 0);
  });

  it('clear() drops the frame being stepped (a new cloth)', () => {
    const stepper = new Stepper();
    const simulation = new FakeSimulation(FRAME_UNITS);
    stepper.begin(simulation, 1);
    stepper.slice(simulation);
    assert.equal(stepper.stepping, true);
    stepper.clear();
    assert.deepEqual({ stepping: stepper.stepping, done: stepper.frameDone }, { stepping: false, done: true });
  });
});

/** A FrameScheduler whose stepping or drawing tasks (`kind`) count their runs in `ran.count`. */
function countingScheduler(kind) {
  const ran = { count: 0 };
  const count = () => (ran.count += 1);
  const scheduler = kind === 'stepping' ? new FrameScheduler(() => {}, count) : new FrameScheduler(() => {}, () => {}, count);
  return { scheduler, ran };
}

describe('FrameScheduler: stepping and drawing tasks', () => {
  const settle = () => new Promise((done) => setTimeout(done, 20));

  for (const [kind, schedule, cancel] of [
    ['stepping', 'scheduleStepping', 'cancelStepping'],
    ['drawing', 'scheduleDrawing', 'cancelDrawing'],
  ]) {
    it(`runs one ${kind} task however often it is asked for before it runs, none once cancelled, none after stop()`, async () => {
      const { scheduler, ran } = countingScheduler(kind);
      scheduler[schedule]();
      scheduler[schedule]();
      await settle();
      assert.equal(ran.count, 1);
      scheduler[schedule]();
      scheduler[cancel]();
      await settle();
      assert.equal(ran.count, 1, 'a cancelled task does not run');
      scheduler[schedule]();
      await settle();
      assert.equal(ran.count, 2, 'scheduled again after a cancel');
      scheduler[schedule]();
      scheduler.stop();
      await settle();
      assert.equal(ran.count, 2, 'stop() cancels it');
    });
  }

  it('runs a drawing task and a stepping task asked for at the same time, each once', async () => {
    const ran = [];
    const scheduler = new FrameScheduler(() => {}, () => ran.push('step'), () => ran.push('draw'));
    scheduler.scheduleStepping();
    scheduler.scheduleDrawing();
    await settle();
    assert.deepEqual(ran.sort(), ['draw', 'step']);
    scheduler.stop();
  });
});

describe('PiecePacer', () => {
  /** The rate the pacer starts from (frame-loop.js): shapes per ms. */
  const START = 1e4;

  it('starts at SLICE_WORK_MS of drawing at its calibrated rate', () => {
    assert.equal(new PiecePacer().maxShapes, SLICE_WORK_MS * START);
  });

  it('follows a slower rate at once and a faster one gradually', () => {
    const pacer = new PiecePacer();
    pacer.measured(SLICE_WORK_MS * START, 4 * SLICE_WORK_MS); // four times slower
    assert.equal(pacer.maxShapes, (SLICE_WORK_MS * START) / 4);
    pacer.measured(SLICE_WORK_MS * START, SLICE_WORK_MS / 2 + 4); // faster: a fifth of the way there
    const rate = (SLICE_WORK_MS * START) / (SLICE_WORK_MS / 2 + 4);
    assert.equal(pacer.maxShapes, Math.round(SLICE_WORK_MS * (0.8 * (START / 4) + 0.2 * rate)));
  });

  it('adds up pieces too short to time until they are long enough, so a slow start does not stick', () => {
    const pacer = new PiecePacer();
    pacer.measured(100_000, 100); // a slow start: 1000 shapes a ms
    assert.equal(pacer.maxShapes, SLICE_WORK_MS * 1000);
    for (let k = 0; k < 3; k += 1) {
      pacer.measured(8000, 1); // 8000 shapes a ms, but 1 ms says little alone
      assert.equal(pacer.maxShapes, SLICE_WORK_MS * 1000, 'not timed yet');
    }
    pacer.measured(8000, 1); // 4 ms in all: timed
    assert.equal(pacer.maxShapes, Math.round(SLICE_WORK_MS * (0.8 * 1000 + 0.2 * 8000)));
  });

  it('never asks for less than one shape, and stays within its range', () => {
    const pacer = new PiecePacer();
    pacer.measured(1, 1e9);
    assert.ok(pacer.maxShapes >= 1);
    assert.equal(pacer.maxShapes, SLICE_WORK_MS * 1e2);
  });
});
