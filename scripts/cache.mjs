// A build cache keyed by content: the output of a pure step (the same bytes and tools in, the
// same bytes out) kept under target/cache/KIND/ by the SHA-256 of everything it reads, so a
// rebuild whose input did not change copies the last output instead of computing it again, as
// cargo keeps a crate it need not rebuild. A changed input, tool or option is a new key; only
// the newest `keep` entries of a kind are kept. Used by scripts/split.mjs (wasm-split,
// wasm-bindgen and wasm-opt: about 35 s of a release build) and scripts/weight.mjs (gzip -9 and
// brotli 11 of each file: about 11 s, twice in `make test`). CACHE=off turns it off.
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { resolve } from 'node:path';

// Absolute: a step may run in another working directory.
const ROOT = resolve(process.env.CARGO_TARGET_DIR ?? 'target', 'cache');

/** The key of `parts` (strings and buffers, in order; each length-prefixed so no two lists meet). */
export function keyOf(...parts) {
  const h = createHash('sha256');
  for (const p of parts) {
    const b = Buffer.isBuffer(p) ? p : Buffer.from(String(p));
    h.update(`${b.length}:`).update(b);
  }
  return h.digest('hex');
}

/**
 * The directory holding the output for `key` of `kind`: made by `produce(dir)` into a fresh
 * directory the first time (kept only when it succeeds), found the next times (the same key
 * and the same `produce` source). Resolves to
 * { dir, hit }.
 */
export async function cached(kind, key, produce, keep = 8) {
  // The step's own text is part of the key: editing how it computes is a new key too.
  const dir = `${ROOT}/${kind}/${keyOf(key, produce.toString())}`;
  if (process.env.CACHE !== 'off' && (await stat(dir).catch(() => null))) {
    const now = new Date();
    await utimes(dir, now, now);
    return { dir, hit: true };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    await produce(tmp);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  await prune(`${ROOT}/${kind}`, keep);
  return { dir, hit: false };
}

/** Copies the cached output `dir` into `to`. */
export const copyOut = (dir, to) => cp(dir, to, { recursive: true });

async function prune(folder, keep) {
  const entries = [];
  for (const name of await readdir(folder)) {
    if (!name.includes('.tmp-')) entries.push({ name, at: (await stat(`${folder}/${name}`)).mtimeMs });
  }
  entries.sort((a, b) => b.at - a.at);
  for (const e of entries.slice(keep)) await rm(`${folder}/${e.name}`, { recursive: true, force: true });
}
