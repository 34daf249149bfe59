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
