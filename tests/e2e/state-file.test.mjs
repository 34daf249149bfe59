// The saved-state file (www/lib/state-file.js), in Node: unknown keys are
// refused at every level of a saved scene (the spec, each area, each collider
// of the spec, each collider of the state), a value nested deeply anywhere is
// refused without overflowing the stack, and saving a cloth built from a spec
// that carries deeply nested extras writes only the spec's own keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeState, encodeState } from '../../www/lib/state-file.js';

/** A valid spec: a triangle with an area, bending pairs and a collider. */
function spec() {
  return {
    positions: [0, 0, 1, 0, 0, 1],
    masses: [0, 1, 1],
    distances: [0, 1, 1, 2, 2, 0],
    distanceStiffness: 500,
    restLengths: [1, 1.4142135, 1],
    areas: [{ particles: [0, 1, 2], stiffness: 0, pressure: 1 }],
    bending: [0, 2],
    colliders: [{ shape: 'circle', x: 0, y: -2, radius: 0.5 }],
  };
}

/** A saved state of the triangle. */
function saved() {
  return {
    params: { stiffness: 500 },
    time: 0.5,
    positions: new Float32Array([0, 0, 1, 0, 0, 1]),
    velocities: new Float32Array(6),
    pinned: new Uint32Array([0]),
    constraints: new Uint32Array([0, 1, 2]),
    torn: new Uint32Array(0),
    colliders: [{ id: 1, shape: 'box', x: 0, y: -3, width: 2, height: 1 }],
  };
}

/** A file of the triangle's state, as JSON would give it back. */
function file() {
  return JSON.parse(JSON.stringify(encodeState(saved(), { spec: spec() })));
}

/** A value nested `depth` levels deep (built without recursion). */
function nested(depth) {
  let value = 0;
  for (let i = 0; i < depth; i++) value = { inner: [value] };
  return value;
}

/** Every place of a file where an object takes keys, and how to reach it. */
const OBJECTS = {
  'the file': (f) => f,
  scene: (f) => f.scene,
  'scene.spec': (f) => f.scene.spec,
  'scene.spec.areas[0]': (f) => f.scene.spec.areas[0],
  'scene.spec.colliders[0]': (f) => f.scene.spec.colliders[0],
  'colliders[0]': (f) => f.colliders[0],
};

describe('state files', () => {
  it('a file of a scene spec decodes to the same spec and state', () => {
    const { scene, state } = decodeState(file());
    assert.deepEqual(scene.spec, spec());
    assert.deepEqual(state.positions, saved().positions);
    assert.deepEqual(state.colliders, saved().colliders);
  });

  it('an unknown key anywhere is refused, naming where it is', () => {
    for (const [where, reach] of Object.entries(OBJECTS)) {
      for (const value of [1, 'x', nested(3)]) {
        const bad = file();
        reach(bad).extra = value;
        assert.throws(
          () => decodeState(bad),
          (error) => error.message.includes(`${where} has the unknown key "extra"`),
          `${where}: an unknown key`,
        );
      }
    }
  });

  it('a value nested deeply where a number or an array of numbers belongs is refused without overflowing the stack', () => {
    const places = {
      'scene.spec.positions': (f, v) => (f.scene.spec.positions = [v]),
      'scene.spec.distanceStiffness': (f, v) => (f.scene.spec.distanceStiffness = v),
      'scene.spec.bending': (f, v) => (f.scene.spec.bending = [0, v]),
      'scene.spec.areas[0].particles': (f, v) => (f.scene.spec.areas[0].particles = [0, 1, v]),
      'scene.spec.areas[0].pressure': (f, v) => (f.scene.spec.areas[0].pressure = v),
      'scene.spec.colliders[0].radius': (f, v) => (f.scene.spec.colliders[0].radius = v),
      'params.stiffness': (f, v) => (f.params.stiffness = v),
      'colliders[0].x': (f, v) => (f.colliders[0].x = v),
    };
    for (const [where, put] of Object.entries(places)) {
      const bad = file();
      put(bad, nested(200_000));
      assert.throws(
        () => decodeState(bad),
        (error) => error.message.startsWith('invalid state file:') && error.message.includes(where),
        `${where}: a nested value`,
      );
    }
  });

  it('every refusal carries field (the place in the file) and code, and a file read through getters or Proxies is read once into plain data', () => {
    const cases = {
      'not an object': [() => 5, 'file', 'wrong_type'],
      'an unknown key': [(f) => ({ ...f, extra: 1 }), 'file', 'invalid_state'],
      'a wrong version': [(f) => ({ ...f, version: 2 }), 'version', 'invalid_state'],
      'positions of the wrong type': [(f) => ({ ...f, positions: 5 }), 'positions', 'wrong_type'],
      'a collider coordinate not finite': [(f) => ({ ...f, colliders: [{ ...f.colliders[0], x: NaN }] }), 'colliders.x', 'invalid_state'],
      'an area of the spec with a string corner': [(f) => ({ ...f, scene: { spec: { ...f.scene.spec, areas: [{ particles: [0, 1, 'x'] }] } } }), 'scene.spec.areas.particles', 'wrong_type'],
      'a throwing getter': [(f) => Object.defineProperty({ ...f }, 'time', { get() { throw new Error('hostile'); }, enumerable: true }), 'time', 'wrong_type'],
      'a revoked Proxy as params': [(f) => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return { ...f, params: proxy };
      }, 'params', 'wrong_type'],
      'a speed that is none': [(f) => ({ ...f, loop: { speed: 'warp' } }), 'loop.speed', 'invalid_value'],
    };
    for (const [label, [make, field, code]] of Object.entries(cases)) {
      assert.throws(() => decodeState(make(file())), (error) => {
        assert.equal(error.field, field, `${label}: field (${error.message})`);
        assert.equal(error.code, code, `${label}: code (${error.message})`);
        assert.match(error.message, /^invalid state file: /, label);
        return true;
      }, label);
    }
    // getters read once, Proxies of arrays copied: what comes out is plain
    let reads = 0;
    const hostile = file();
    const times = Object.defineProperty({ ...hostile }, 'time', { get() { reads += 1; return 0.5; }, enumerable: true });
    times.pinned = new Proxy([0], {});
    const { state } = decodeState(times);
    assert.equal(reads, 1, 'the getter was read once');
    assert.equal(state.time, 0.5);
    assert.deepEqual(Array.from(state.pinned), [0]);
    assert.doesNotThrow(() => structuredClone(decodeState(times)), 'plain data: it clones');
  });

  it('saving a cloth built from a spec with deeply nested extras keeps only the spec', () => {
    const given = { ...spec(), extra: nested(200_000) };
    given.areas[0].note = nested(200_000);
    given.colliders[0].label = nested(200_000);
    const encoded = encodeState(saved(), { spec: given });
    assert.deepEqual(encoded.scene.spec, spec());
    // and the file it makes is read back
    decodeState(JSON.parse(JSON.stringify(encoded)));
  });

  it('typed arrays of a spec are saved as plain arrays of the same numbers', () => {
    const given = { ...spec(), positions: new Float32Array([0, 0, 1, 0, 0, 1]), masses: new Float64Array([0, 1, 1]) };
    const encoded = encodeState(saved(), { spec: given });
    assert.deepEqual(encoded.scene.spec.positions, [0, 0, 1, 0, 0, 1]);
    assert.deepEqual(encoded.scene.spec.masses, [0, 1, 1]);
  });
});
