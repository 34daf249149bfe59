// The controller's API is written once (www/lib/controller-api.js); this test
// checks what is not generated from it against it, in Node: the declared type
// (ClothController in www/lib/cloth.d.ts, read with the TypeScript compiler)
// has every method with the same parameters, a Promise exactly where the list
// says `promise`, and every getter as a readonly member, and nothing else;
// both controllers perform every method (installApi throws otherwise, so
// importing them is the check); and the worker performs exactly the methods
// that run where the cloth runs (cloth-worker.js dispatches by WORKER_CALLS).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers.mjs';
import { METHODS, GETTERS, WORKER_CALLS, PERFORM } from '../../www/lib/controller-api.js';

/** The members of the interface `name` in the declaration file `file`: { methods: { name: { params, promise } }, readonly: [names] }. */
function declaredMembers(file, name) {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = { methods: {}, readonly: [], other: [] };
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) {
      for (const member of node.members) {
        const memberName = member.name?.getText(source);
        if (ts.isMethodSignature(member)) {
          // overloads (set) must agree; the first states the parameters
          const params = member.parameters.map((p) => `${p.name.getText(source)}${p.questionToken || p.initializer ? '?' : ''}`);
          const promise = /^Promise</.test(member.type?.getText(source) ?? '');
          found.methods[memberName] ??= { params, promise };
        } else if (ts.isPropertySignature(member)) {
          const readonly = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
          (readonly ? found.readonly : found.other).push(memberName);
        } else {
          found.other.push(member.getText(source).slice(0, 60));
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the controller's API, written once", () => {
  it('cloth.d.ts declares every method of the list with its parameters, a Promise where it answers with one, and every getter, and nothing else', () => {
    const declared = declaredMembers('www/lib/cloth.d.ts', 'ClothController');
    assert.deepEqual(Object.keys(declared.methods).sort(), Object.keys(METHODS).sort(), 'the methods');
    for (const [name, method] of Object.entries(METHODS)) {
      assert.deepEqual(declared.methods[name].params, method.params, `${name}: its parameters`);
      assert.equal(declared.methods[name].promise, method.answer === 'promise', `${name}: a Promise exactly where the list says so`);
    }
    assert.deepEqual(declared.readonly.sort(), Object.keys(GETTERS).sort(), 'the getters, each readonly');
    assert.deepEqual(declared.other, [], 'no other member');
  });

  it('both controllers perform every method and have every getter (installApi refuses a class that lacks one)', async () => {
    const { installApi } = await import('../../www/lib/controller-api.js');
    class Lacking {
      get destroyed() {
        return false;
      }
    }
    assert.throws(() => installApi(Lacking, () => {}), /Lacking lacks \[PERFORM\.pause\]/);
    for (const [file, className] of [['www/lib/worker-controller.js', 'WorkerClothController'], ['www/lib/cloth-controller.js', 'ClothController']]) {
      const module = await import(join(ROOT, file));
      const prototype = module[className].prototype;
      for (const name of Object.keys(METHODS)) {
        assert.equal(typeof prototype[PERFORM[name]], 'function', `${className} performs ${name}`);
        assert.equal(typeof prototype[name], 'function', `${className}.${name}`);
      }
      for (const name of Object.keys(GETTERS)) assert.ok(name in prototype, `${className}.${name}`);
    }
  });

  it("the worker performs the methods that run where the cloth runs, and the page's proxy posts exactly those", () => {
    assert.deepEqual([...WORKER_CALLS].sort(), Object.keys(METHODS).filter((name) => METHODS[name].where === 'cloth').sort());
    const worker = readFileSync(join(ROOT, 'www/lib/cloth-worker.js'), 'utf8');
    assert.match(worker, /WORKER_CALLS\.includes\(method\)/, 'cloth-worker.js dispatches by the list');
    assert.doesNotMatch(worker, /new Set\(\[\s*'pause'/, 'no list of its own');
  });
});
