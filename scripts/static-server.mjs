// A small static file server for the repository, bound to 127.0.0.1.
// Used by scripts/serve.sh and by the end-to-end tests (startServer).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `root` on 127.0.0.1:`port` (0 picks a free port); resolves to { server, url }.
 * For tests: `route(path)` may answer a path itself ({ type, body, status }) instead of a
 * file, `transformHtml(html, path)` rewrites every HTML file served, and
 * `onResponse(status, path)` hears of every answer.
 */
export function startServer({ port = 0, root = ROOT, route, transformHtml, onResponse } = {}) {
  const server = createServer(async (request, response) => {
    let path = request.url;
    if (onResponse) response.once('finish', () => onResponse(response.statusCode, path));
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      const routed = route?.(path);
      if (routed) {
        response.writeHead(routed.status ?? 200, { 'Content-Type': routed.type, 'Cache-Control': 'no-store' });
        response.end(routed.body);
        return;
      }
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      let body = await readFile(file);
      if (transformHtml && extname(file) === '.html') body = transformHtml(body.toString('utf8'), path);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolvePromise({ server, url: `http://127.0.0.1:${actual}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 8080);
  const { url } = await startServer({ port });
  console.log(`xpbd-cloth is served at ${url}  (Ctrl+C stops)`);
}
