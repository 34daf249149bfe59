// Writes the published package.json: packaging/package.template.json with the
// version, description and repository read from Cargo.toml's [package] table.
//   node packaging/package-json.mjs Cargo.toml dist/package.json
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [cargoPath, outPath] = process.argv.slice(2);
if (!cargoPath || !outPath) throw new Error('usage: package-json.mjs <Cargo.toml> <out package.json>');

/** The string value of `key` in the [package] table of a Cargo.toml. */
function cargoField(toml, key) {
  const table = toml.split(/^\[/m).find((section) => section.startsWith('package]'));
  if (!table) throw new Error('Cargo.toml has no [package] table');
  const match = table.match(new RegExp(`^${key}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'm'));
  return match ? JSON.parse(`"${match[1]}"`) : undefined;
}

const toml = readFileSync(cargoPath, 'utf8');
const version = cargoField(toml, 'version');
if (!version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(version)) {
  throw new Error(`Cargo.toml [package] version is not semver: ${version}`);
}
const here = dirname(fileURLToPath(import.meta.url));
const template = JSON.parse(readFileSync(join(here, 'package.template.json'), 'utf8'));
const fill = (value) =>
  typeof value === 'string'
    ? value
        .replace('@VERSION@', version)
        .replace('@DESCRIPTION@', cargoField(toml, 'description') ?? 'An XPBD 2D cloth in WebAssembly')
        .replace('@REPOSITORY@', cargoField(toml, 'repository') ?? '')
    : Array.isArray(value)
      ? value.map(fill)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]))
        : value;
const manifest = fill(template);
if (!manifest.repository.url) delete manifest.repository;
writeFileSync(outPath, JSON.stringify(manifest, null, 2) + '\n');
console.log(`${outPath}: ${manifest.name}@${manifest.version}`);
