// Every exported call that reads a JavaScript value, given each kind of value
// whose reading throws: a typed array whose buffer was transferred (detached),
// a Proxy of one, a Proxy whose every trap throws, a revoked Proxy, an object
// whose getters throw, one whose getters call back into the same Simulation,
// and a typed array whose own `length` getter throws or calls back in. Each
// call must return or throw an Error with `field` and `code`, and the
// Simulation must then still step, answer, and free().
//
// Runs in the blank API harness page (see helpers.mjs) in Chromium.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inPage, openApiHarness, useBrowserAndServer } from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/**
 * In the page: runs every call with every hostile kind; returns the cases that
 * misbehaved and how many ran.
 */
function attackEveryCall() {
  const { Simulation } = window.glue;
  // names every call reads from an object argument
  const NAMES = ['params', 'time', 'positions', 'velocities', 'pinned', 'constraints', 'torn', 'colliders',
    'shape', 'x', 'y', 'radius', 'width', 'height', 'id', 'originX', 'originY', 'scale', 'pixelRatio',
    'particleRadius', 'strainColors', 'full', 'stiffness', 'masses', 'distances', 'length', '0'];
  const detach = (array) => {
    structuredClone(array.buffer, { transfer: [array.buffer] });
    return array;
  };
  const throwing = () => {
    throw new Error('hostile');
  };
  const trapsThatThrow = Object.fromEntries(
    ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'].map((trap) => [trap, throwing]),
  );
  const getters = (get) => Object.defineProperties({}, Object.fromEntries(NAMES.map((n) => [n, { get, enumerable: true }])));
  const lengthGetter = (array, get) => Object.defineProperty(array, 'length', { get });
  /** Hostile kinds: each makes a value for an argument of `sim` that expects an array of `n` numbers. */
  const KINDS = {
    'a detached Float32Array': (sim, n) => detach(new Float32Array(n)),
    'a detached Uint32Array': (sim, n) => detach(new Uint32Array(n)),
    'a Proxy of a Float32Array': (sim, n) => new Proxy(new Float32Array(n), {}),
    'a Proxy whose traps throw': () => new Proxy({}, trapsThatThrow),
    'a revoked Proxy': () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    'getters that throw': () => getters(throwing),
    'getters that call back in': (sim) =>
      getters(() => {
        sim.step();
        return 1;
      }),
    'a Float32Array whose length throws': (sim, n) => lengthGetter(new Float32Array(n), throwing),
    'a Float32Array whose length calls back in': (sim, n) =>
      lengthGetter(new Float32Array(n), () => {
        sim.positions();
        return n;
      }),
  };
  const canvas = document.getElementById('scratch');
  const ctx = canvas.getContext('2d');
  const view = { originX: 100, originY: 20, scale: 40 };
  /** Calls that read a JavaScript value: [label, how many numbers an array there holds, call]. */
  const CALLS = [];
  const addPositions = (label, make) => CALLS.push([label, (sim) => 2 * sim.numParticles, make]);
  addPositions('setState(positions)', (sim, v) => sim.setState(v, new Float32Array(2 * sim.numParticles), 0));
  addPositions('setState(velocities)', (sim, v) => sim.setState(sim.positions().slice(), v, 0));
  addPositions('setState(time)', (sim, v) => sim.setState(sim.positions().slice(), new Float32Array(2 * sim.numParticles), v));
  addPositions('restoreState(state)', (sim, v) => sim.restoreState(v));
  for (const field of ['params', 'time', 'positions', 'velocities', 'pinned', 'constraints', 'torn', 'colliders']) {
    addPositions(`restoreState({ ${field} })`, (sim, v) => sim.restoreState({ ...sim.saveState(), [field]: v }));
  }
  addPositions('restoreState({ colliders: [x] })', (sim, v) => sim.restoreState({ ...sim.saveState(), colliders: [v] }));
  addPositions('restoreState({ params: { stiffness } })', (sim, v) =>
    sim.restoreState({ ...sim.saveState(), params: { stiffness: v } }),
  );
  addPositions('addCollider(spec)', (sim, v) => sim.addCollider(v));
  addPositions('addCollider({ radius })', (sim, v) => sim.addCollider({ shape: 'circle', x: 0, y: 0, radius: v }));
  addPositions('moveCollider(id)', (sim, v) => sim.moveCollider(v, 0, 0));
  addPositions('drawInto(ctx)', (sim, v) => sim.drawInto(v, view));
  addPositions('drawInto(view)', (sim, v) => sim.drawInto(ctx, v));
  addPositions('drawInto({ scale })', (sim, v) => sim.drawInto(ctx, { ...view, scale: v }));
  addPositions('steps(n)', (sim, v) => sim.steps(v));
  addPositions('advance(maxSteps)', (sim, v) => sim.advance(v, 1e6));
  addPositions('pick(x)', (sim, v) => sim.pick(v, 0, 1));
  addPositions('setPinned(pinned)', (sim, v) => sim.setPinned(0, v));
  addPositions('stiffness = v', (sim, v) => {
    sim.stiffness = v;
  });
  addPositions('solverOrder = v', (sim, v) => {
    sim.solverOrder = v;
  });
  const bad = [];
  let cases = 0;
  const describeError = (e) => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e));
  for (const [label, count, call] of CALLS) {
    for (const [kind, make] of Object.entries(KINDS)) {
      cases += 1;
      const problems = [];
      const sim = new Simulation(6, 5, 2);
      let outcome = 'returned';
      try {
        call(sim, make(sim, count(sim)));
      } catch (e) {
        outcome = describeError(e);
        if (!(e instanceof Error) || typeof e.field !== 'string' || typeof e.code !== 'string') {
          problems.push('threw without field and code');
        }
      }
      try {
        sim.step();
        if (sim.numParticles !== 30 || !sim.isFinite) problems.push('the simulation changed shape');
        sim.saveState();
      } catch (e) {
        problems.push(`unusable afterwards: ${describeError(e)}`);
      }
      try {
        sim.free();
      } catch (e) {
        problems.push(`free() failed: ${describeError(e)}`);
      }
      if (problems.length > 0) bad.push(`${label} with ${kind}: ${problems.join('; ')} (outcome: ${outcome})`);
    }
  }
  // the static constructors: a clean error, never a TypeError from the engine
  for (const [label, call] of [
    ['fromScene(scene)', (v) => Simulation.fromScene(v)],
    ['fromScene({ positions })', (v) => Simulation.fromScene({ positions: v, masses: [1] })],
    ['preset(name, options)', (v) => Simulation.preset('cloth', v)],
  ]) {
    for (const [kind, make] of Object.entries(KINDS)) {
      cases += 1;
      const witness = new Simulation(4, 4, 2);
      try {
        call(make(witness, 2)).free();
      } catch (e) {
        if (!(e instanceof Error) || typeof e.field !== 'string' || typeof e.code !== 'string') {
          bad.push(`${label} with ${kind}: threw without field and code (${describeError(e)})`);
        }
      }
      try {
        witness.step();
        witness.free();
      } catch (e) {
        bad.push(`${label} with ${kind}: the witness broke: ${describeError(e)}`);
      }
    }
  }
  return { bad, cases };
}

/**
 * In the page: for each call that reads an object, an object whose getters make
 * the same call on that same object again, without end. Returns what
 * misbehaved, the codes the innermost calls were refused with, and the cases.
 */
function recurseWithoutEnd() {
  const { Simulation } = window.glue;
  const canvas = document.getElementById('scratch');
  const ctx = canvas.getContext('2d');
  const host = new Simulation(6, 5, 2);
  /** [label, call]: the call reads its argument, whose getters make the call again. */
  const CALLS = [
    ['fromScene(scene)', (v) => Simulation.fromScene(v).free()],
    ['preset(name, options)', (v) => Simulation.preset('rope', v).free()],
    ['restoreState(state)', (v) => host.restoreState(v)],
    ['addCollider(spec)', (v) => host.addCollider(v)],
    ['drawInto(view)', (v) => host.drawInto(ctx, v)],
  ];
  const bad = [];
  const codes = new Set();
  for (const [label, call] of CALLS) {
    const value = {};
    for (const name of ['positions', 'distances', 'params', 'shape', 'scale', 'originX', 'width']) {
      Object.defineProperty(value, name, {
        enumerable: true,
        get() {
          try {
            call(value);
          } catch (e) {
            if (e && typeof e.code === 'string') codes.add(e.code);
          }
          return 1;
        },
      });
    }
    try {
      call(value);
    } catch (e) {
      if (!(e instanceof Error) || typeof e.field !== 'string' || typeof e.code !== 'string') {
        bad.push(`${label}: threw without field and code (${e})`);
      }
    }
    try {
      const fresh = Simulation.fromScene({ positions: [0, 0, 0.1, 0], distances: [0, 1] });
      fresh.step();
      fresh.free();
      host.step();
    } catch (e) {
      bad.push(`${label}: the module broke: ${e}`);
    }
  }
  host.free();
  return { bad, codes: [...codes] };
}

describe('hostile arguments', () => {
  it('every call that reads a JavaScript value refuses each hostile kind cleanly and leaves the Simulation usable', async () => {
    await inPage(await openApiHarness(browser, server), async ({ page }) => {
      const { bad, cases } = await page.evaluate(attackEveryCall);
      console.log(`${cases} cases`);
      assert.ok(cases > 200, `${cases} cases: the test needs every call and kind`);
      assert.deepEqual(bad, [], `${bad.length} of ${cases} cases misbehaved:\n${bad.join('\n')}`);
    });
  });

  it('a getter that makes the same call again without end is refused past a depth, and the module survives', async () => {
    await inPage(await openApiHarness(browser, server), async ({ page }) => {
      const { bad, codes } = await page.evaluate(recurseWithoutEnd);
      assert.deepEqual(bad, [], bad.join('\n'));
      assert.ok(codes.includes('reentrant'), `the innermost calls are refused as reentrant (saw ${codes.join(', ')})`);
    });
  });
});
