// Sanity checks on an assembled package folder before it is packed: every entry
// of the manifest's "files" exists (a folder entry ships every file under it),
// every exports target is shipped, every relative import of every shipped module
// resolves to a shipped file, every shipped .js has its .d.ts beside it, only the
// top-level files of pkg/ ship (its subfolders are builds for the repository's
// own pages), and no benchmark code (the repository's bench/ folder) is shipped.
//   node packaging/check-dist.mjs dist
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const dist = process.argv[2];
if (!dist) throw new Error('usage: check-dist.mjs <package folder>');
const manifest = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
const problems = [];

/** Every file under `folder` (a path inside the package), as package paths. */
function filesUnder(folder) {
  return readdirSync(join(dist, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [normalize(path)];
  });
}

const shipped = new Set();
for (const entry of manifest.files) {
  const path = join(dist, entry);
  if (!existsSync(path)) problems.push(`listed in "files" but missing: ${entry}`);
  else if (statSync(path).isDirectory()) for (const file of filesUnder(entry)) shipped.add(file);
  else shipped.add(normalize(entry));
}
for (const file of shipped) {
  if (/(^|\/)bench/.test(file)) problems.push(`${file} is benchmark code, which stays out of the package`);
  if (file.startsWith('pkg/') && dirname(file) !== 'pkg') problems.push(`${file} is in a subfolder of pkg/, which stays out of the package`);
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
for (const file of [...shipped].filter((f) => /\.(js|d\.ts)$/.test(f))) {
  const source = readFileSync(join(dist, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
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
console.log(`package check: ${shipped.size} files, exports and imports all resolve, every module has its .d.ts`);
