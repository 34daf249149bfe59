// Sanity checks on an assembled package folder before it is packed:
// every file the manifest lists exists, every exports target exists, every relative
// import of every shipped module resolves to a shipped file, every module has a .d.ts,
// and no benchmark code (the repository's bench/ folder) is shipped.
//   node packaging/check-dist.mjs dist
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const dist = process.argv[2];
if (!dist) throw new Error('usage: check-dist.mjs <package folder>');
const manifest = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
const problems = [];
const shipped = new Set(manifest.files.map((file) => normalize(file)));

for (const file of manifest.files) {
  if (!existsSync(join(dist, file))) problems.push(`listed in "files" but missing: ${file}`);
  if (/(^|\/)bench/.test(file)) problems.push(`${file} is benchmark code, which stays out of the package`);
}
const targets = (value) => (typeof value === 'string' ? [value] : Object.values(value).flatMap(targets));
for (const [entry, value] of Object.entries(manifest.exports)) {
  for (const target of targets(value)) {
    if (!existsSync(join(dist, target))) problems.push(`exports["${entry}"] points to a missing ${target}`);
    else if (!shipped.has(normalize(target)) && normalize(target) !== 'package.json') {
      problems.push(`exports["${entry}"] points to ${target}, which "files" leaves out`);
    }
  }
}
const specifiers = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]|new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/gm;
for (const file of manifest.files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
  const path = join(dist, file);
  if (!existsSync(path)) continue;
  const source = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
  for (const match of source.matchAll(specifiers)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
    // new URL('name', import.meta.url) is a URL path: relative even without './'
    const relativeUrl = match[4] !== undefined && !/^[a-z][a-z0-9+.-]*:|^\//i.test(spec);
    if (!spec.startsWith('.') && !relativeUrl) {
      problems.push(`${file} imports "${spec}": the package has no dependencies, only relative imports work`);
      continue;
    }
    let target = normalize(join(dirname(file), spec));
    if (file.endsWith('.d.ts') && target.endsWith('.js')) target = target.replace(/\.js$/, '.d.ts');
    if (relative('.', target).startsWith('..')) problems.push(`${file} imports ${spec}, outside the package`);
    else if (!shipped.has(target)) problems.push(`${file} imports ${spec} → ${target}, which is not shipped`);
  }
  if (file.endsWith('.js') && !shipped.has(file.replace(/\.js$/, '.d.ts'))) {
    problems.push(`${file} has no .d.ts beside it`);
  }
}
if (problems.length) {
  console.error(`package check failed in ${dist}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`package check: ${manifest.files.length} files, exports and imports all resolve`);
