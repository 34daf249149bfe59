// The frame's state machine (www/lib/frame-machine.js), in Node, on a cloth of
// its own making and animation frames the test hands out one at a time (with
// timestamps of its choice): the phases a frame goes through and the events
// that move between them, the steps each frame takes from the clock, a
// picture drawn in pieces that draws a drag move's state whole, and a drag
// move drawn before the next slice of stepping.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrameMachine, TRANSITIONS } from '../../www/lib/frame-machine.js';

/** Animation frames handed out by the test: `frame(time)` runs the frames asked for. */
function fakeFrames() {
  let queue = [];
  let next = 1;
  globalThis.requestAnimationFrame = (callback) => {
    queue.push({ handle: next, callback });
    return next++;
  };
  globalThis.cancelAnimationFrame = (handle) => {
    queue = queue.filter((frame) => frame.handle !== handle);
  };
  return {
    get pending() {
      return queue.length;
    },
    frame(time) {
      const due = queue;
      queue = [];
      for (const { callback } of due) callback(time);
    },
  };
}

/** Runs the tasks queued so far (stepping slices, pieces, drawings of drag moves) until none is left. */
async function settle() {
  for (let k = 0; k < 200; k += 1) await new Promise((done) => setTimeout(done, 0));
}

/**
 * A cloth for the machine: each step is one unit of work done at once, a
 * picture of `shapes` shapes drawn `maxShapes` at a time; it records what it did.
 */
function fakeCloth({ shapes = 1, drawsOnInput = false } = {}) {
  const log = { steps: 0, drawings: 0, frames: 0, wholeDrawings: 0 };
  let left = 0;
  const backend = {
    stepProgress: 0,
    workDone: 0,
    isFinite: true,
    advance(maxSteps) {
      const steps = Math.min(maxSteps, 1);
      log.steps += steps;
      this.workDone += steps;
      return steps;
    },
  };
  const cloth = {
    log,
    loop: { speed: 'real', timeStepSize: 0.01, stepsPerFrame: 8 },
    draw(maxShapes) {
      log.drawings += 1;
      if (maxShapes === undefined) {
        log.wholeDrawings += 1;
        left = 0;
        return 0;
      }
      left = left > 0 ? left : shapes;
      left = Math.max(0, left - maxShapes);
      return left;
    },
    steppable: () => backend,
    isStepping: () => true,
    isOnScreen: () => true,
    drawsOnInput,
    canDrawOnInput: () => true,
    beforeFrame() {},
    afterSlice: () => true,
    emitFrame() {
      log.frames += 1;
    },
    halt(error) {
      throw error;
    },
  };
  cloth.loopSettings = () => cloth.loop;
  return cloth;
}

function machineOf(cloth) {
  return new FrameMachine({ ...cloth, loop: () => cloth.loop });
}

describe('the frame as a state machine', () => {
  it('every phase names a handler the machine has for each event it takes', () => {
    for (const [phase, events] of Object.entries(TRANSITIONS)) {
      for (const [event, handler] of Object.entries(events)) {
        assert.equal(typeof FrameMachine.prototype[handler], 'function', `${phase} + ${event} → ${handler}`);
      }
    }
    assert.deepEqual(Object.keys(TRANSITIONS).sort(), ['drawing', 'shown', 'stepping', 'waiting']);
  });

  it('a frame draws, then steps in slices what the clock owes, then asks for the next frame: the steps follow the frames\' times at 60 and 120 Hz', async () => {
    // the first frame counts as a typical one (1/60 s); every step is 0.01 s
    const owed = (k, hz) => Math.floor((1 / 60 + k / hz) / 0.01 + 1e-9);
    for (const hz of [60, 120]) {
      const expected = Array.from({ length: 12 }, (_, k) => owed(k + 1, hz) - owed(k, hz));
      const frames = fakeFrames();
      const cloth = fakeCloth();
      const machine = machineOf(cloth);
      machine.changed();
      const perFrame = [];
      let before = 0;
      for (let k = 0; k < 13; k += 1) {
        assert.equal(frames.pending, 1, 'a frame is asked for');
        frames.frame((k * 1000) / hz);
        assert.equal(machine.phase, 'stepping', 'after drawing, the frame steps');
        await settle();
        assert.equal(machine.phase, 'waiting', 'its steps done, it waits for the next frame');
        if (k > 0) perFrame.push(cloth.log.steps - before); // the first frame counts as a typical one
        before = cloth.log.steps;
      }
      assert.deepEqual(perFrame, expected, `${hz} Hz`);
      assert.deepEqual(new Set(perFrame), new Set(hz === 60 ? [1, 2] : [0, 1]), `${hz} Hz: ${perFrame}`);
      assert.equal(cloth.log.frames, 13, 'one onFrame a frame');
      machine.stop();
    }
  });

  it('a large picture is drawn in pieces; a drag move meanwhile has the rest drawn whole, of the moved cloth, and only then does the frame step', async () => {
    const frames = fakeFrames();
    const cloth = fakeCloth({ shapes: 1e9 });
    const machine = machineOf(cloth);
    machine.changed();
    frames.frame(0);
    assert.equal(machine.phase, 'drawing');
    const steps = cloth.log.steps;
    machine.moved(Date.now());
    assert.equal(machine.phase, 'drawing', 'a move does not start the picture over');
    await settle();
    assert.equal(cloth.log.wholeDrawings, 1, 'the rest of the picture drawn whole');
    assert.ok(cloth.log.steps > steps, 'then the frame stepped');
    assert.equal(machine.phase, 'waiting');
    assert.equal(machine.dragDrawn.pieces, 0, 'the move waited for no piece of an older picture');
    machine.stop();
  });

  it('on a host that draws on input, a drag move during stepping is drawn before the next slice, and the frame then draws nothing', async () => {
    const frames = fakeFrames();
    const cloth = fakeCloth({ drawsOnInput: true });
    cloth.loop = { speed: 'original', timeStepSize: 0.01, stepsPerFrame: 50 };
    const machine = machineOf(cloth);
    machine.changed();
    frames.frame(0);
    assert.equal(machine.phase, 'stepping');
    machine.moved(Date.now());
    const drawings = cloth.log.drawings;
    await new Promise((done) => setTimeout(done, 0)); // one task: the move's drawing or a slice
    await new Promise((done) => setTimeout(done, 0));
    assert.equal(cloth.log.drawings, drawings + 1, 'the move was drawn');
    assert.equal(machine.dragDrawn.slices <= 1, true, `it waited for at most one slice: ${machine.dragDrawn.slices}`);
    await settle();
    frames.frame(16);
    assert.ok(['stepping', 'waiting'].includes(machine.phase));
    machine.stop();
  });
});
