// The shape of the JavaScript under www/, read from its source (pure Node, no
// browser): no import cycle (static or dynamic imports), no module of the npm
// package (www/lib/) reaching outside www/lib/ except into pkg/ (the wasm glue
// ships beside it), every dynamic import and every `new URL(…, import.meta.url)`
// a literal (what bundlers can follow), and no function longer than
// MAX_FUNCTION_LINES. Sources are parsed with acorn, so a brace inside a string
// or a regular expression cannot confuse the count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import { ROOT } from './helpers.mjs';

/** The longest a function may be, in lines from its first to its last. */
const MAX_FUNCTION_LINES = 80;
/** The package's folder: what it ships, and all it may import besides pkg/. */
const PACKAGE_DIR = 'www/lib';
/** Where the package's modules may reach outside their own folder: the wasm glue. */
const PACKAGE_MAY_IMPORT = ['pkg'];

/** Every .js file under `folder` (repository paths, `/`-separated). */
function jsFiles(folder) {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** A string the source spells out whole: a literal, or a template without `${}`. */
function literalText(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

/** The name a reader would look for: `name`, `Class.method`, `get size`, or `(anonymous)`. */
function functionName(node, ancestors) {
  if (node.id?.name) return node.id.name;
  const parent = ancestors[ancestors.length - 2];
  if (parent?.type === 'MethodDefinition' || parent?.type === 'Property') {
    const key = parent.key.type === 'PrivateIdentifier' ? `#${parent.key.name}` : parent.key.name ?? parent.key.value ?? '[computed]';
    const kind = parent.kind === 'get' || parent.kind === 'set' ? `${parent.kind} ` : '';
    const owner = ancestors.findLast((a) => a.type === 'ClassDeclaration' || a.type === 'ClassExpression');
    return `${kind}${owner?.id ? `${owner.id.name}.` : ''}${key}`;
  }
  if (parent?.type === 'VariableDeclarator') return parent.id.name;
  if (parent?.type === 'PropertyDefinition') return parent.key.name ?? '(field)';
  return '(anonymous)';
}

/**
 * What one module's source says about its place in the graph: `imports`
 * (static and dynamic specifiers), `urls` (of `new URL(…, import.meta.url)`),
 * `unliteral` (dynamic imports and URLs built from expressions, by line) and
 * `functions` ({ name, line, lines }).
 */
export function readModule(source) {
  const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  const found = { imports: [], urls: [], unliteral: [], functions: [] };
  const addFunction = (node, ancestors) => {
    const lines = node.loc.end.line - node.loc.start.line + 1;
    found.functions.push({ name: functionName(node, ancestors), line: node.loc.start.line, lines });
  };
  ancestor(ast, {
    ImportDeclaration: (node) => found.imports.push(node.source.value),
    ExportNamedDeclaration: (node) => node.source && found.imports.push(node.source.value),
    ExportAllDeclaration: (node) => found.imports.push(node.source.value),
    ImportExpression(node) {
      const text = literalText(node.source);
      if (text === null) found.unliteral.push(`import() on line ${node.loc.start.line}`);
      else found.imports.push(text);
    },
    NewExpression(node) {
      const [first, base] = node.arguments;
      const isMetaUrl = base?.type === 'MemberExpression' && base.object.type === 'MetaProperty' && base.property.name === 'url';
      if (node.callee.name !== 'URL' || !isMetaUrl) return;
      const text = literalText(first);
      if (text === null) found.unliteral.push(`new URL() on line ${node.loc.start.line}`);
      else found.urls.push(text);
    },
    FunctionDeclaration: addFunction,
    FunctionExpression: addFunction,
    ArrowFunctionExpression: addFunction,
  });
  return found;
}

/** `specifier` of `from` as a repository path, or null for a bare or absolute one. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  return relative(ROOT, resolve(ROOT, dirname(from), specifier)).split(sep).join('/');
}

/** The import cycles among `graph` (path → paths it imports), each as a path list. */
export function findCycles(graph) {
  const cycles = [];
  const state = new Map(); // path → 'open' while on the stack, 'done' after
  const stack = [];
  const visit = (path) => {
    state.set(path, 'open');
    stack.push(path);
    for (const next of graph.get(path) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const path of [...graph.keys()].sort()) if (!state.has(path)) visit(path);
  return cycles;
}

/**
 * Every problem of the modules in `sources` (repository path → source text), as
 * readable lines naming the files: cycles, package modules reaching outside the
 * package, non-literal imports and URLs, and functions longer than `maxLines`.
 */
export function moduleProblems(sources, { maxLines = MAX_FUNCTION_LINES } = {}) {
  const problems = [];
  const graph = new Map();
  for (const [path, source] of sources) {
    const module = readModule(source);
    graph.set(path, module.imports.map((spec) => resolveSpecifier(path, spec)).filter(Boolean));
    for (const where of module.unliteral) problems.push(`${path}: ${where} is not a literal path (bundlers cannot follow it)`);
    for (const { name, line, lines } of module.functions) {
      if (lines > maxLines) problems.push(`${path}:${line}: ${name} is ${lines} lines long (at most ${maxLines})`);
    }
    if (!path.startsWith(`${PACKAGE_DIR}/`)) continue;
    for (const spec of [...module.imports, ...module.urls]) {
      const target = resolveSpecifier(path, spec);
      const allowed = target && [PACKAGE_DIR, ...PACKAGE_MAY_IMPORT].some((folder) => target.startsWith(`${folder}/`));
      if (!allowed) problems.push(`${path} reaches outside the package: "${spec}"`);
    }
  }
  for (const cycle of findCycles(graph)) problems.push(`import cycle: ${cycle.join(' → ')}`);
  return problems;
}

describe('the modules of www/', () => {
  test('no cycle, the package imports only itself and pkg/, literal paths, no function over 80 lines', () => {
    const files = jsFiles('www');
    assert.ok(files.includes('www/lib/cloth.js') && files.includes('www/lib/gpu/gpu-cloth.js'), `found ${files.length} modules`);
    const sources = new Map(files.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
    assert.deepEqual(moduleProblems(sources), []);
  });

  // Each check on made-up modules that break it: the checks above can fail.
  test('a cycle through a dynamic import is found and named', () => {
    const problems = moduleProblems(new Map([
      ['www/lib/a.js', "import { b } from './b.js'; export const a = 1;"],
      ['www/lib/b.js', "export const b = () => import('./c.js');"],
      ['www/lib/c.js', "export * from './a.js';"],
      ['www/lib/d.js', "import './a.js';"],
    ]));
    assert.deepEqual(problems, ['import cycle: www/lib/a.js → www/lib/b.js → www/lib/c.js → www/lib/a.js']);
  });

  test('a package module importing the demo, or a URL outside the package, is refused; pkg/ is not', () => {
    const problems = moduleProblems(new Map([
      ['www/lib/a.js', "import { plot } from '../demo/plot.js';\nimport init from '../../pkg/xpbd_cloth.js';"],
      ['www/lib/gpu/b.js', "const u = new URL('../../../bench/x.wasm', import.meta.url);\nconst ok = new URL('./solver.wgsl', import.meta.url);"],
      ['www/demo/c.js', "import { a } from '../lib/a.js';"],
    ]));
    assert.deepEqual(problems, [
      'www/lib/a.js reaches outside the package: "../demo/plot.js"',
      'www/lib/gpu/b.js reaches outside the package: "../../../bench/x.wasm"',
    ]);
  });

  test('an import or URL built from an expression is refused', () => {
    const problems = moduleProblems(new Map([
      ['www/lib/a.js', "const name = 'x';\nconst m = import(`./${name}.js`);\nconst u = new URL(`./${name}`, import.meta.url);"],
    ]));
    assert.deepEqual(problems, [
      'www/lib/a.js: import() on line 2 is not a literal path (bundlers cannot follow it)',
      'www/lib/a.js: new URL() on line 3 is not a literal path (bundlers cannot follow it)',
    ]);
  });

  test('a long function, method or arrow is named with its length; braces in strings do not count', () => {
    const body = (n) => Array.from({ length: n }, (_, k) => `  total += ${k}; // }`).join('\n');
    const source = [
      `export function long() {\n  let total = '{';\n${body(80)}\n  return total;\n}`,
      `export class Cloth {\n  step() {\n${body(79)}\n  }\n}`,
      `export const arrow = () => {\n${body(5)}\n};`,
    ].join('\n');
    const problems = moduleProblems(new Map([['www/demo/a.js', source]]));
    assert.deepEqual(problems, ['www/demo/a.js:1: long is 84 lines long (at most 80)', 'www/demo/a.js:86: Cloth.step is 81 lines long (at most 80)']);
  });
});
