// A minimal static server for the built app (dist/), with the MIME types browsers insist on.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff',
};

/**
 * Serves `root` on 127.0.0.1 at a free port; resolves to { url, close }. `cors: false` leaves out
 * the CORS header (a lab that other origins cannot load); `headers(path)` adds headers to a file
 * (a docs site's Content-Security-Policy).
 */
export function serve(root, { cors = true, headers = () => ({}) } = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      // CORS like a static host (and `make serve`): pages on other origins embed the lab.
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        ...(cors ? { 'access-control-allow-origin': '*' } : {}),
        ...headers(path),
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() });
  }));
}
