import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, DIST } from './harness.mjs';
const server = await serve(DIST);
const browser = await chromium.launch(CHROMIUM);
for (const [w, h] of [[1280, 900], [750, 1000]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(`${server.url}?scenario=crash-one-of-three`);
  await page.waitForSelector('#write-tour');
  await page.screenshot({ path: `/tmp/shot-top-${w}.png`, clip: { x: 0, y: 0, width: w, height: 120 } });
  await page.click('#write-tour');
  await page.click('#writer-add');
  await page.fill('#writer-say-en', 'Three apiservers.');
  await page.click('#writer-add');
  await page.fill('#writer-say-en', 'Again.');
  await page.check('#writer-ask');
  await page.fill('#writer-question-en', 'When?');
  await page.$eval('.writer-ask', (e) => e.scrollIntoView());
  await page.screenshot({ path: `/tmp/shot-ask-${w}.png` });
}
await browser.close(); server.close();
