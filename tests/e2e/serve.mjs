// The static server of the built app (dist/), for the end-to-end tests and `make serve`
// (scripts/serve.mjs): the MIME types browsers insist on, and the precompressed FILE.br and
// FILE.gz that the release build leaves beside each file (scripts/weight.mjs), sent the way
// nginx's gzip_static/brotli_static and Caddy's `precompressed br gzip` send them.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff',
};
/** Content-Encoding → the suffix of its precompressed copy, in the order the server prefers them. */
export const SUFFIX = { br: '.br', gzip: '.gz' };

/**
 * The encodings of `offered` (in that order: the server's preference, as nginx and Caddy) that an
 * Accept-Encoding header allows: named, or covered by `*`, with a q-value above 0.
 */
export function acceptable(header, offered) {
  const q = new Map();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    const weight = params.find((p) => p.startsWith('q='));
    if (name) q.set(name, weight ? Number(weight.slice(2)) : 1);
  }
  return offered.filter((e) => (q.get(e) ?? q.get('*') ?? 0) > 0);
}

const fileAt = (path) => stat(path).then((s) => (s.isFile() ? s : null), () => null);

/**
 * The representation to send for `file`: its first acceptable precompressed copy that is not
 * older than it (a file edited after the build must not be shadowed by a stale copy), or itself.
 */
async function pick(file, accept, encodings) {
  const plain = await fileAt(file);
  if (!plain) return null;
  for (const enc of acceptable(accept, encodings)) {
    const s = await fileAt(file + SUFFIX[enc]);
    if (s && s.mtimeMs >= plain.mtimeMs) return { path: file + SUFFIX[enc], size: s.size, mtime: s.mtime, enc };
  }
  return { path: file, size: plain.size, mtime: plain.mtime, enc: null };
}

/**
 * Serves `root` on `host`:`port` (port 0: a free one); resolves to { url, close }. `cors: false`
 * leaves out the CORS header (a lab that other origins cannot load); `headers(path)` adds headers
 * to a file (a docs site's Content-Security-Policy); `encodings` are the precompressed copies it
 * may send (`[]`: every file as it is).
 */
export function serve(root, { cors = true, headers = () => ({}), encodings = ['br', 'gzip'], host = '127.0.0.1', port = 0 } = {}) {
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return res.writeHead(405, { allow: 'GET, HEAD' }).end();
    let path;
    try {
      path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    } catch {
      return res.writeHead(400).end('bad request');
    }
    let file = join(root, path);
    if (!path.endsWith('/') && (await stat(file).catch(() => null))?.isDirectory()) {
      // As static hosts do: the page's relative URLs (Trunk's public_url "./") need the slash.
      // The normalised path, never the raw one: `//host` there would send the browser elsewhere.
      return res.writeHead(301, { location: `${encodeURI(path)}/${new URL(req.url, 'http://x').search}` }).end();
    }
    if (path.endsWith('/')) file = join(file, 'index.html');
    const rep = await pick(file, req.headers['accept-encoding'], encodings);
    if (!rep) return res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    // One validator per representation: a cached gzip body must never answer a br request.
    const etag = `"${rep.size.toString(16)}-${Math.floor(rep.mtime.getTime()).toString(16)}${rep.enc ? `-${rep.enc}` : ''}"`;
    const head = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      // A development server: caches may keep a file but ask each time (a rebuild shows at once;
      // an unchanged file costs a 304).
      'cache-control': 'no-cache',
      etag,
      'last-modified': rep.mtime.toUTCString(),
      // Caches must key on Accept-Encoding, whichever copy this answer is.
      ...(encodings.length ? { vary: 'Accept-Encoding' } : {}),
      ...(rep.enc ? { 'content-encoding': rep.enc } : {}),
      // CORS like a static host: pages on other origins load embed.js, the module and the wasm.
      ...(cors ? { 'access-control-allow-origin': '*' } : {}),
      ...headers(path),
    };
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return res.writeHead(304, head).end();
    let body;
    try {
      body = await readFile(rep.path);
    } catch {
      return res.writeHead(404).end('not found');
    }
    res.writeHead(200, { ...head, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      resolve({ url: `http://${host}:${server.address().port}/`, close: () => server.close() });
    });
  });
}
