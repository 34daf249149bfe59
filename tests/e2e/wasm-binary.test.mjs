// The shipped .wasm really solves with SIMD: its code section contains f32x4
// arithmetic (the solver's sqrt and divisions), and the module says so. The
// embedding module (both flavours) stays small and holds no experiment; the
// experiments page's build (pkg/experiments/) has them.
// Reads pkg/ as built by scripts/build.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const WASM = new URL('../../pkg/xpbd_cloth_bg.wasm', import.meta.url);
const SCALAR_WASM = new URL('../../pkg/xpbd_cloth_scalar_bg.wasm', import.meta.url);
const EXPERIMENTS_WASM = new URL('../../pkg/experiments/xpbd_cloth_bg.wasm', import.meta.url);

/**
 * The most either flavour of the embedding module may weigh, in bytes, as is and
 * gzipped (level 9): its size with wasm-opt plus about 2 % (0.7 % gzipped;
 * docs/limits.md), so that any growth is a decision.
 */
const MAX_BYTES = 335_000;
const MAX_GZIP_BYTES = 144_100;

/** Reads an unsigned LEB128 number at `offset`: [value, next offset]. */
function leb(bytes, offset) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, offset];
    shift += 7;
  }
}

/** The bytes of the code section (id 10). */
function codeSection(bytes) {
  let offset = 8; // magic and version
  while (offset < bytes.length) {
    const id = bytes[offset];
    const [size, start] = leb(bytes, offset + 1);
    if (id === 10) return bytes.subarray(start, start + size);
    offset = start + size;
  }
  throw new Error('no code section');
}

/** How often the SIMD opcode `0xfd <code as LEB128>` occurs in `code`. */
function countSimd(code, opcode) {
  const pattern = [0xfd, (opcode & 0x7f) | 0x80, opcode >> 7];
  let count = 0;
  for (let i = 0; i + 2 < code.length; i += 1) {
    if (code[i] === pattern[0] && code[i + 1] === pattern[1] && code[i + 2] === pattern[2]) count += 1;
  }
  return count;
}

test('the shipped wasm contains f32x4 sqrt, div, mul and add instructions', () => {
  const code = codeSection(new Uint8Array(readFileSync(WASM)));
  const counts = {
    'f32x4.sqrt': countSimd(code, 0xe3),
    'f32x4.add': countSimd(code, 0xe4),
    'f32x4.div': countSimd(code, 0xe7),
    'f32x4.mul': countSimd(code, 0xe6),
  };
  console.log('SIMD instructions in the code section:', counts);
  for (const [name, count] of Object.entries(counts)) assert.ok(count > 0, `${name} missing`);
});

test('the module validates and reports that it was built with SIMD', async () => {
  const bytes = readFileSync(WASM);
  assert.equal(WebAssembly.validate(bytes), true);
  const glue = await import('../../pkg/xpbd_cloth.js');
  glue.initSync({ module: bytes });
  assert.equal(glue.simdEnabled(), true);
  // the same check can fail: a module without the SIMD code has no f32x4 ops
  assert.equal(countSimd(new Uint8Array([0x00, 0x61, 0x73, 0x6d]), 0xe3), 0);
});

test('the scalar build has no SIMD instruction, the same exports, and reports that it is scalar', async () => {
  const bytes = readFileSync(SCALAR_WASM);
  const code = codeSection(new Uint8Array(bytes));
  // any v128 arithmetic the SIMD build uses, counted as above
  const counts = [0xe3, 0xe4, 0xe6, 0xe7].map((opcode) => countSimd(code, opcode));
  assert.deepEqual(counts, [0, 0, 0, 0], 'f32x4 sqrt, add, mul, div in the scalar build');
  const names = (file) =>
    WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file)))
      .map((e) => `${e.kind} ${e.name}`)
      .sort();
  const importsOf = (file) =>
    WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(file)))
      .map((e) => `${e.module}.${e.name}`)
      .sort();
  assert.deepEqual(names(SCALAR_WASM), names(WASM), 'one glue serves both builds: same exports');
  assert.deepEqual(importsOf(SCALAR_WASM), importsOf(WASM), 'one glue serves both builds: same imports');
  const { execFileSync } = await import('node:child_process');
  // A fresh process: the glue holds one instance per JavaScript realm.
  const script = `import * as glue from ${JSON.stringify(new URL('../../pkg/xpbd_cloth.js', import.meta.url).href)};
import { readFileSync } from 'node:fs';
glue.initSync({ module: readFileSync(new URL(${JSON.stringify(SCALAR_WASM.href)})) });
process.stdout.write(String(glue.simdEnabled()));`;
  assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString(), 'false');
});

test('both flavours of the embedding module stay within their size bounds', () => {
  for (const file of [WASM, SCALAR_WASM]) {
    const bytes = readFileSync(file);
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    const name = file.pathname.split('/').pop();
    console.log(`${name}: ${bytes.length} bytes, ${gzipped} gzipped`);
    assert.ok(bytes.length <= MAX_BYTES, `${name} is ${bytes.length} bytes, more than ${MAX_BYTES}`);
    assert.ok(gzipped <= MAX_GZIP_BYTES, `${name} is ${gzipped} bytes gzipped, more than ${MAX_GZIP_BYTES}`);
  }
});

test('the embedding module exports no experiment; the experiments build exports them', () => {
  const experimentExports = (file) =>
    WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file)))
      .map((e) => e.name)
      .filter((name) => /experiment/i.test(name));
  // the same filter finds the bindings where they are meant to be
  const inExperimentsBuild = experimentExports(EXPERIMENTS_WASM);
  for (const name of ['experimentDefinitions', 'experimentrun_new', 'experimentrun_advance', 'experimentrun_report']) {
    assert.ok(inExperimentsBuild.includes(name), `${name} in the experiments build: ${inExperimentsBuild}`);
  }
  assert.deepEqual(experimentExports(WASM), [], 'experiment exports in the SIMD embedding module');
  assert.deepEqual(experimentExports(SCALAR_WASM), [], 'experiment exports in the scalar embedding module');
  const glue = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
  assert.doesNotMatch(glue('../../pkg/xpbd_cloth.js'), /ExperimentRun|experimentDefinitions/);
  assert.match(glue('../../pkg/experiments/xpbd_cloth.js'), /export class ExperimentRun/);
});
