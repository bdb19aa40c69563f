// Hitscope for Browsers in Debian's Chromium: the built extension (dist/companions/browser/chrome)
// loaded into a fresh profile, a page on a loopback server sending BENCH_EXTENSION_REQUESTS (5 000)
// GA4 beacons of two batched events each (10 000 hits), and:
//   - the capture cost in the extension's service worker: the time its webRequest listener spends per
//     request and per hit (its own performance.now() totals: the URL check, reading the body, decoding
//     to count the hits, queueing the record), the IndexedDB writes (wall time per transaction, which
//     includes waiting for the disk), and the wall time until every hit is captured;
//   - the panel (sidepanel.html as a tab) opened on the 10 000 hits: time until the list shows them
//     (read from IndexedDB, decoded, checked, first rows drawn), the renderer's JS heap, the time a
//     search over every decoded value takes to update the list, and a scroll from top to bottom.
// Numbers only, no thresholds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const title = 'Hitscope for Browsers: capture cost per hit and the panel on 10 000 hits';

const REQUESTS = Number(process.env.BENCH_EXTENSION_REQUESTS ?? 5_000);
const millis = (value) => `${value.toFixed(value < 10 ? 3 : 0)} ms`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench shop</title></head><body>
<script>
window.dataLayer = window.dataLayer || [];
function gtag(){dataLayer.push(arguments);}
gtag('consent', 'default', { ad_storage: 'denied', analytics_storage: 'granted' });
// The requests gtag.js sends, as fetch POSTs (sendBeacon's 64 kB queue would refuse most of a burst
// this size), 50 at a time.
window.sendHits = async (count) => {
  for (let from = 0; from < count; from += 50) {
    const batch = [];
    for (let index = from; index < Math.min(count, from + 50); index++) {
      batch.push(fetch('http://collect.bench.test/g/collect?v=2&tid=G-BENCH0001&cid=1.2&_p=9&gcs=G101&dl=http%3A%2F%2Fshop.bench.test%2F&dt=Bench&_s=' + index, {
        method: 'POST', mode: 'no-cors',
        body: 'en=view_item&_et=10&epn.value=' + index + '&cu=EUR&pr1=idSKU' + index + '~nmShoe\\r\\nen=scroll&epn.percent_scrolled=90',
      }).catch(() => undefined));
    }
    await Promise.all(batch);
  }
};
</script></body></html>`;

export default async function bench({ root }) {
  const extension = join(root, 'dist/companions/browser/chrome');
  if (!existsSync(join(extension, 'manifest.json'))) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-extension.mjs')], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('The extension could not be built');
  }
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if ((request.headers.host ?? '').startsWith('shop.bench.test')) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(PAGE);
      } else {
        response.writeHead(204, { 'cache-control': 'no-store' });
        response.end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const profile = mkdtempSync(join(tmpdir(), 'hitscope-bench-extension-'));
  const { chromium } = await import('@playwright/test');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      `--host-resolver-rules=MAP *.bench.test 127.0.0.1:${port}`,
    ],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    const id = new URL(worker.url()).host;
    const stats = () =>
      Promise.race([
        worker.evaluate(() => ({ ...globalThis.hitscope.stats, store: { ...globalThis.hitscope.store } })),
        new Promise((_, reject) => setTimeout(() => reject(new Error('the service worker did not answer')), 10_000)),
      ]);
    const shop = await context.newPage();
    await shop.goto('http://shop.bench.test/');
    const tabId = await (async () => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${id}/options.html`);
      // eslint-disable-next-line no-undef -- the extension's own page has the WebExtension APIs
      const found = await page.evaluate(async () => (await chrome.tabs.query({ url: 'http://shop.bench.test/*' }))[0]?.id);
      await page.close();
      return found;
    })();
    const before = await stats();
    const started = performance.now();
    await shop.evaluate((count) => window.sendHits(count), REQUESTS);
    const panel = await context.newPage();
    await panel.setViewportSize({ width: 1280, height: 800 });
    // The store has them all when a panel opened now shows them all.
    const expected = `${(REQUESTS * 2).toLocaleString('en-GB')} hits`;
    for (;;) {
      const after = await stats();
      if (after.hits - before.hits >= REQUESTS * 2) break;
      if (performance.now() - started > 180_000) throw new Error(`Only ${after.hits - before.hits} hits captured in 3 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const captured = performance.now() - started;
    const after = await stats();
    const requests = after.requests - before.requests;
    const hits = after.hits - before.hits;
    console.log(
      `Captured ${requests.toLocaleString('en-GB')} requests (${hits.toLocaleString('en-GB')} hits) in ${(captured / 1000).toFixed(1)} s of wall time`,
    );
    console.log(
      `Service worker, webRequest listener: ${millis(after.ms - before.ms)} in all, ${millis((after.ms - before.ms) / requests)} per request, ${millis((after.ms - before.ms) / hits)} per hit`,
    );
    const transactions = after.store.transactions - before.store.transactions;
    const written = after.store.records - before.store.records;
    console.log(
      `Service worker, IndexedDB: ${written.toLocaleString('en-GB')} records (requests and their answers) in ${transactions.toLocaleString('en-GB')} transactions, ${millis((after.store.ms - before.store.ms) / transactions)} of wall time per transaction, ${millis((after.store.ms - before.store.ms) / hits)} per hit`,
    );

    const opened = performance.now();
    await panel.goto(`chrome-extension://${id}/sidepanel.html?tab=${tabId}`);
    await panel.waitForFunction(
      (text) => document.querySelector('[data-testid="capture-counts"]')?.textContent?.startsWith(text),
      expected,
      { timeout: 120_000, polling: 50 },
    );
    const shown = performance.now() - opened;
    const cdp = await context.newCDPSession(panel);
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
    console.log(
      `Panel: ${expected} listed ${millis(shown)} after opening (read, decoded, checked, drawn); JS heap ${(heap / 1024 / 1024).toFixed(0)} MB`,
    );

    const searched = await panel.evaluate(async () => {
      const input = document.querySelector('input[type="search"]');
      const start = performance.now();
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      setter.call(input, 'SKU4999');
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => {
        const check = () =>
          document.querySelector('.filters__count')?.textContent?.startsWith('1 matching hit') ? resolve() : requestAnimationFrame(check);
        check();
        setTimeout(resolve, 30_000);
      });
      return performance.now() - start;
    });
    console.log(`Search over every decoded value of ${expected}: ${millis(searched)} until the list shows the match`);
    const scrolled = await panel.evaluate(async () => {
      const list = document.querySelector('.vlist');
      const input = document.querySelector('input[type="search"]');
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, '');
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      let frames = 0;
      let worst = 0;
      let last = performance.now();
      const start = last;
      for (let top = 0; top < list.scrollHeight; top += list.clientHeight) {
        list.scrollTop = top;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
        frames++;
      }
      return { frames, worst, total: performance.now() - start };
    });
    console.log(
      `Scrolling the list page by page to its end: ${scrolled.frames} frames in ${millis(scrolled.total)}, slowest frame ${millis(scrolled.worst)}`,
    );
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
