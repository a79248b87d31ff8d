// End-to-end, `make serve`'s server (scripts/serve.mjs, on tests/e2e/serve.mjs): each file goes
// out as the browser asked (brotli preferred, then gzip, else as it is) with the headers a static
// host must send, and the bytes decode to the very file of the build; then the app loads from it
// in Chromium under the page's policy.
// Usage: node tests/e2e/served.mjs   (after `trunk build --release`)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST, check, finish } from './harness.mjs';

const FILES = [
  ['index.html', 'text/html; charset=utf-8'],
  ['kube-bootstrap-lab_bg.wasm', 'application/wasm'],
  ['kube-bootstrap-lab.js', 'text/javascript'],
  ['embed.js', 'text/javascript'],
  ['style.css', 'text/css'],
];
// Accept-Encoding as sent → the encoding the answer must have.
const ASKS = [['br', 'br'], ['gzip', 'gzip'], ['gzip, deflate, br, zstd', 'br'], ['br;q=0, gzip', 'gzip'], ['identity', null], [null, null]];
const DECODE = { br: brotliDecompressSync, gzip: gunzipSync };

/** Starts `node scripts/serve.mjs` as `make serve` does, on a free port; resolves to { url, stop }. */
function startServeScript() {
  const child = spawn('node', ['scripts/serve.mjs', DIST, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = out.match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0];
      if (url) resolve({ url, stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`scripts/serve.mjs exited with ${code}: ${out}`)));
  });
}

/** A request by node:http, which adds no Accept-Encoding and decodes nothing: the bytes as sent. */
function get(url, { headers = {}, method = 'GET' } = {}) {
  return new Promise((resolve, reject) => request(url, { headers, method }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', reject).end());
}

async function headersAndBytes(url) {
  for (const [file, type] of FILES) {
    const raw = await readFile(`${DIST}/${file}`);
    for (const [ask, want] of ASKS) {
      const { status, headers: h, body } = await get(`${url}${file}`, { headers: ask === null ? {} : { 'accept-encoding': ask } });
      const enc = h['content-encoding'] ?? null;
      const tag = `${file}, Accept-Encoding ${ask === null ? '(none)' : `"${ask}"`}`;
      check(status === 200 && enc === want && h['content-type'] === type && h.vary === 'Accept-Encoding'
        && h['access-control-allow-origin'] === '*' && h['cache-control'] === 'no-cache' && !!h.etag
        && Number(h['content-length']) === body.length,
      `${tag}: ${status}, ${enc ?? 'identity'}, ${h['content-type']}, Vary, CORS, no-cache, ETag, Content-Length ${body.length}`);
      check((enc ? DECODE[enc](body) : body).equals(raw), `${tag}: decodes to the file of the build (${raw.length} bytes)`);
    }
  }
}

async function otherAnswers(url) {
  const ask = (file, headers, method) => get(`${url}${file}`, { headers, method });
  const first = await ask('index.html', { 'accept-encoding': 'gzip' });
  const again = await ask('index.html', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
  const other = await ask('index.html', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
  check(again.status === 304 && other.status === 200, `a revalidation is a 304 for the same encoding (${again.status}), not for another (${other.status})`);
  const head = await ask('kube-bootstrap-lab_bg.wasm', { 'accept-encoding': 'br' }, 'HEAD');
  check(head.status === 200 && head.headers['content-encoding'] === 'br' && head.body.length === 0, 'HEAD answers with the headers of GET and no body');
  const root = await ask('', { 'accept-encoding': 'br' });
  check(root.status === 200 && root.headers['content-type'] === 'text/html; charset=utf-8', 'the folder answers with its index.html');
  const missing = await ask('nothing-here.js', {});
  const escape = await ask('..%2f..%2fetc%2fpasswd', {});
  check(missing.status === 404 && escape.status === 404, `a missing file is a 404 (${missing.status}), and so is a path out of the folder (${escape.status})`);
}

/** A precompressed copy older than its file (the file edited after the build) is not sent; folders. */
async function staleCopy() {
  const dir = await mkdtemp(join(tmpdir(), 'served-'));
  await writeFile(join(dir, 'a.js'), 'new();\n');
  await writeFile(join(dir, 'a.js.gz'), gzipSync('old();\n'));
  await utimes(join(dir, 'a.js.gz'), new Date(0), new Date(0));
  await writeFile(join(dir, 'b.js'), 'b();\n');
  await writeFile(join(dir, 'b.js.gz'), gzipSync('b();\n'));
  const server = await serve(dir);
  const a = await fetch(`${server.url}a.js`, { headers: { 'accept-encoding': 'gzip' } });
  const b = await fetch(`${server.url}b.js`, { headers: { 'accept-encoding': 'gzip' } });
  check(a.headers.get('content-encoding') === null && await a.text() === 'new();\n' && b.headers.get('content-encoding') === 'gzip',
    'a .gz older than its file is not sent; a fresh one is');
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub/index.html'), '<!doctype html>');
  const [bare, slash] = [await get(`${server.url}sub?x=1`), await get(`${server.url}sub/`)];
  check(bare.status === 301 && bare.headers.location === '/sub/?x=1' && slash.status === 200,
    `a folder without its slash is redirected to it (${bare.status} to ${bare.headers.location}), as static hosts do; with it, its index.html (${slash.status})`);
  server.close();
  await rm(dir, { recursive: true });
}

/** The app from that server in Chromium: it renders, nothing is blocked, the wasm came compressed. */
async function inChromium(url) {
  const browser = await chromium.launch(CHROMIUM);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const wasm = page.waitForResponse('**/kube-bootstrap-lab_bg.wasm');
  await page.goto(url);
  await page.waitForSelector('#kubernetes-ip', { timeout: 60000 });
  const res = await wasm;
  const enc = (await res.allHeaders())['content-encoding'];
  check(await page.textContent('#kubernetes-ip') === '10.96.0.1', 'Chromium: the app renders from `make serve`\'s server (10.96.0.1)');
  check(['br', 'gzip'].includes(enc), `Chromium: the wasm arrived compressed (${enc}; Chromium sent "${await res.request().headerValue('accept-encoding')}")`);
  check(problems.length === 0, `Chromium: no error and nothing blocked by the page's policy${problems.length ? `: ${problems.join('; ')}` : ''}`);
  await browser.close();
}

const server = await startServeScript();
try {
  await headersAndBytes(server.url);
  await otherAnswers(server.url);
  await staleCopy();
  await inChromium(server.url);
} finally {
  server.stop();
}
finish('served');
