// `make serve`: the release build (dist/) at http://127.0.0.1:8080, served as fast sites serve it:
// the precompressed FILE.br or FILE.gz the browser accepts, with the headers they need. The same
// server as the end-to-end tests (tests/e2e/serve.mjs), so what they check is what runs here.
// Usage: node scripts/serve.mjs [DIR] [--port N]   (after `trunk build --release`)
import { existsSync } from 'node:fs';
import { serve } from '../tests/e2e/serve.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--port');
const port = at >= 0 ? Number(args[at + 1]) : 8080;
const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--port') ?? 'dist';

if (!existsSync(`${dir}/index.html`)) {
  console.error(`serve: ${dir}/index.html is missing: run \`trunk build --release\` first`);
  process.exit(1);
}
if (!existsSync(`${dir}/index.html.br`)) console.warn(`serve: no precompressed copies in ${dir}/ (a debug build?): files go out as they are`);

try {
  const { url } = await serve(dir, { port });
  console.log(`serving ${dir}/ at ${url} (brotli or gzip when the browser accepts it); Ctrl-C stops`);
} catch (e) {
  console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.code ?? e.message}`);
  process.exit(1);
}
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
