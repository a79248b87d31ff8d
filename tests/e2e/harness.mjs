// What the end-to-end tests share: where the build and the screenshots are, how Debian's
// Chromium is launched (never a downloaded browser), and the ok/FAIL tally.
export const DIST = 'dist';
export const ARTIFACTS = 'test-artifacts/e2e';
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

let failures = 0;
export function check(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures += 1;
}

/** Prints the tally and exits 1 when a check failed. */
export function finish(label) {
  console.log(failures ? `${label}: ${failures} failed` : `${label}: all passed`);
  process.exit(failures ? 1 : 0);
}
