// `make bench`'s browser figures, on the release build in Debian's Chromium: first content and
// first frame after navigation, and seeking with the timeline scrubber in a 2 h timeline of a /16
// with 5 apiservers and 1,000 Services (the scenario of `workloads::control_plane_scenario_on`).
// Figures only: nothing here fails on a time. Usage: node tests/e2e/bench.mjs (after a release build)
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST } from './harness.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const worst = (xs) => Math.max(...xs);
const ms = (x) => `${x.toFixed(1).padStart(8)} ms`;

/** 10.0.0.0/16: the kubernetes Service at .1, Services from offset 1000, as the Rust workload. */
function bigScenario() {
  const ipAt = (offset) => {
    const n = 1 + offset;
    return `10.0.${n >> 8}.${n & 255}`;
  };
  const services = Array.from({ length: 1000 }, (_, i) => ({
    namespace: 'default', name: `svc-${String(i).padStart(5, '0')}`, cluster_ip: ipAt(1000 + i), ports: [{ port: 80 }],
  }));
  return {
    name: 'bench', seed: 1,
    cluster: {
      service_cluster_ip_range: '10.0.0.0/16',
      apiservers: Array.from({ length: 5 }, (_, i) => ({ name: `apiserver-${i}`, advertise_address: `192.168.10.${11 + i}` })),
    },
    initial: {
      namespaces: ['default'], services,
      cluster_ip_allocation: { range: '10.0.0.0/16', allocated: [ipAt(0), ...services.map((s) => s.cluster_ip)] },
    },
  };
}

/** A scenario as a reader meets it (crash-one-of-three, 1280×720): seeking with the scrubber,
 *  from the input to the frame that shows it painted (a task after that frame's callbacks), and
 *  the frames while it plays at 20×. */
async function readerFeel(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#scrubber');
  await page.waitForTimeout(1000);
  const painted = await page.evaluate(async () => {
    const input = document.querySelector('#scrubber');
    const max = Number(input.max);
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const afterPaint = () => new Promise((r) => requestAnimationFrame(() => {
      const c = new MessageChannel();
      c.port1.onmessage = () => r(performance.now());
      c.port2.postMessage(0);
    }));
    let x = 7;
    const out = [];
    for (let i = 0; i < 40; i += 1) {
      x = (x * 48271) % 2147483647;
      await frame();
      const start = performance.now();
      input.value = String(Math.round(((x % 1000) / 1000) * (max / 100)) * 100);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      out.push((await afterPaint()) - start);
    }
    return out;
  });
  console.log(`browser: seek to the painted frame, crash-one-of-three      median ${ms(median(painted))}   worst ${ms(worst(painted))}   (40 seeks; target 16 / 33 ms)`);
  // 20×: the speed slider at log10(20), then Play, 8 s of frames.
  const frames = await page.evaluate(async () => {
    const speed = document.querySelector('.speed input[type=range]');
    speed.value = String(Math.log10(20));
    speed.dispatchEvent(new Event('input', { bubbles: true }));
    document.querySelector('.controls button.primary').click();
    const gaps = [];
    let last = await new Promise((r) => requestAnimationFrame(r));
    const end = last + 8000;
    while (last < end) {
      const now = await new Promise((r) => requestAnimationFrame(r));
      gaps.push(now - last);
      last = now;
    }
    return gaps;
  });
  const p95 = [...frames].sort((a, b) => a - b)[Math.floor(frames.length * 0.95)];
  console.log(`browser: frames while playing at 20×, 8 s                   median ${ms(median(frames))}   p95 ${ms(p95)}   longest ${ms(worst(frames))}   over 100 ms: ${frames.filter((f) => f > 100).length}   (target: none over 100 ms)`);
  await page.close();
}

const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
try {
  const firstContent = [];
  const firstFrame = [];
  for (let i = 0; i < 5; i += 1) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(server.url);
    await page.waitForSelector('#kubernetes-ip');
    firstFrame.push(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now())))));
    firstContent.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
    await page.close();
  }
  console.log(`browser: first content after navigation         median ${ms(median(firstContent))}   (5 loads, 1280×720)`);
  console.log(`browser: first frame of the lab after navigation median ${ms(median(firstFrame))}   (5 loads, 1280×720)`);

  // A moment link carries the whole scenario and the time: the page opens at t = 2 h.
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}#file=${encodeURIComponent(JSON.stringify(bigScenario()))}&t=2h`);
  await page.waitForFunction(() => document.querySelector('#scrubber')?.value === '7200000', null, { timeout: 60_000 });
  // Each seek: the input event, the core's seek and Yew's render, until the main thread is free
  // (a macrotask after it), and whether the next frame shows the new time.
  const seeks = await page.evaluate(async () => {
    const input = document.querySelector('#scrubber');
    const yieldTask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    let x = 1;
    const out = [];
    for (let i = 0; i < 60; i += 1) {
      x = (x * 48271) % 2147483647;
      const t = (x % 72000) * 100;
      await frame();
      const start = performance.now();
      input.value = String(t);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await yieldTask();
      const work = performance.now() - start;
      await frame();
      out.push({ t, work, shown: input.value === String(t) });
    }
    return out;
  });
  const work = seeks.map((s) => s.work);
  if (process.env.BENCH_VERBOSE) console.log(seeks.map((s) => `${s.t / 1000}s:${s.work.toFixed(0)}`).join(' '));
  console.log(`browser: seek with the scrubber, 2 h, /16, 1,000 services  median ${ms(median(work))}   worst ${ms(worst(work))}   (60 seeks incl. render; target 16 / 33 ms)`);
  if (errors.length || seeks.some((s) => !s.shown)) console.log(`browser: WARNING ${errors.join('; ')} ${seeks.filter((s) => !s.shown).length} seeks not shown`);
  await page.close();
  await readerFeel(browser, server.url);
} finally {
  await browser.close();
  server.close();
}
