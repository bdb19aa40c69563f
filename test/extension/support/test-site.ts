import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The shop the extension tests browse, and every analytics collector it sends to, on one loopback
 * HTTPS server. Chromium maps every host name to it (`--host-resolver-rules`), so the page and its
 * hits carry their real URLs (www.google-analytics.com, www.facebook.com, analytics.tiktok.com…):
 * nothing leaves the machine. The certificate is self-signed, made here with openssl, and the test
 * browser is told to accept it.
 *
 * - `www.shop.example` serves the pages: `/` (consent default denied, then the tags), `/checkout`
 *   (a purchase), `/tags.js` (sends the real-world requests of test/fixtures/har, as the vendors'
 *   tags would: images for GETs, `sendBeacon` for POSTs) and `/samples.json`.
 * - `metrics.shop.example` is a server-side GTM container on the shop's own domain.
 * - Every other host answers as a collector: 204 (or a 1×1 GIF for images), CORS allowed.
 */
export const SHOP = 'https://www.shop.example';
export const SGTM = 'https://metrics.shop.example';
export const MEASUREMENT_ID = 'G-SHOP0001';

export interface Sample {
  name: string;
  method: string;
  url: string;
  body?: string;
  /** As lib/tools/har/real-world.spec.ts asserts it of the decoders (`secondary` both ways). */
  expect: { vendor: string | null; type?: string; accountId?: string; secondary?: boolean; container?: boolean };
}

export const SAMPLES: Sample[] = (
  JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/har/real-world-requests.json'), 'utf8')) as { samples: Sample[] }
).samples;

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const CID = '1234567890.1764320000';

const ga4 = (en: string, extra: string, page = `${SHOP}/`) =>
  `https://www.google-analytics.com/g/collect?v=2&tid=${MEASUREMENT_ID}&gtm=45je5b10v9&_p=1764320000001&_s=1&sid=1764320000&sct=1&seg=0&dl=${encodeURIComponent(page)}&dt=Shop&en=${en}${extra}`;

/** The hits the home page sends itself, besides the real-world samples (names as the panel shows them). */
export const HOME_HITS = {
  /** Before gtag('consent', 'default'): flagged by the live check. */
  early: ga4('early_ping', `&cid=${CID}`),
  /** Cookieless page_view under denied consent (no client id). */
  pageView: ga4('page_view', '&gcs=G100&gcd=13p3p3p3p5&npa=1'),
  /** One beacon, two events. */
  batch: ga4('', '&gcs=G100&gcd=13p3p3p3p5').replace('&en=', ''),
  batchBody:
    'en=view_item&_et=12&pr1=idSKU-1~nmRunning%20shoe~pr89.90&cu=EUR&epn.value=89.90\r\nen=scroll&_et=3000&epn.percent_scrolled=90',
  /** Server-side GTM on the shop's own domain, fetch keepalive. */
  sgtm: `${SGTM}/g/collect?v=2&tid=${MEASUREMENT_ID}&_p=1764320000001&cid=${CID}&gcs=G100&dl=${encodeURIComponent(`${SHOP}/`)}&en=sgtm_page_view`,
  /** Meta with its browser id after ad_storage was denied: flagged. */
  meta: `https://www.facebook.com/tr/?id=998877665544332&ev=PageView&dl=${encodeURIComponent(`${SHOP}/`)}&fbp=fb.1.1764320000000.111222333`,
  /** Universal Analytics, still on some sites (its processing stopped in 2023). */
  ua: `https://www.google-analytics.com/collect?v=1&_v=j101&t=pageview&tid=UA-123456-1&cid=${CID}&dl=${encodeURIComponent(`${SHOP}/`)}&dt=Shop`,
  /** After the visitor accepts. */
  accepted: ga4('consent_granted_view', `&cid=${CID}&gcs=G111&gcd=13r3r3r3r5`),
};

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;
}

const HOME = page(
  'Shop',
  `<p>Running shoes</p>
<button id="accept" type="button">Accept cookies</button>
<button id="more" type="button">Send one more hit</button>
<a id="checkout" href="/checkout">Checkout</a>
<script>
  // A tag that fires before the consent default (a hard-coded snippet above the CMP).
  navigator.sendBeacon(${JSON.stringify(HOME_HITS.early)});
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('consent', 'default', { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', wait_for_update: 500 });
  gtag('js', new Date());
  gtag('config', ${JSON.stringify(MEASUREMENT_ID)});
  dataLayer.push({ event: 'page_ready', page_type: 'home' });
  new Image().src = ${JSON.stringify(HOME_HITS.pageView)};
  navigator.sendBeacon(${JSON.stringify(HOME_HITS.batch)}, ${JSON.stringify(HOME_HITS.batchBody)});
  fetch(${JSON.stringify(HOME_HITS.sgtm)}, { method: 'POST', keepalive: true, mode: 'no-cors' });
  new Image().src = ${JSON.stringify(HOME_HITS.meta)};
  new Image().src = ${JSON.stringify(HOME_HITS.ua)};
  document.getElementById('accept').addEventListener('click', () => {
    gtag('consent', 'update', { ad_storage: 'granted', analytics_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' });
    dataLayer.push({ event: 'consent_granted' });
    navigator.sendBeacon(${JSON.stringify(HOME_HITS.accepted)});
  });
  let more = 0;
  document.getElementById('more').addEventListener('click', () => {
    more += 1;
    navigator.sendBeacon(${JSON.stringify(ga4('more', `&cid=${CID}&gcs=G111`))} + '&ep.n=' + more);
  });
</script>
<script src="/tags.js"></script>`,
);

const CHECKOUT = page(
  'Checkout',
  `<p>Thank you</p>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('consent', 'default', { ad_storage: 'granted', analytics_storage: 'granted' });
  dataLayer.push({ event: 'purchase', ecommerce: { transaction_id: 'T-1001', value: 89.9, currency: 'EUR', items: [{ item_id: 'SKU-1', item_name: 'Running shoe', price: 89.9 }] } });
  navigator.sendBeacon(${JSON.stringify(ga4('purchase', `&cid=${CID}&gcs=G111&cu=EUR&epn.value=89.90&ep.transaction_id=T-1001&pr1=idSKU-1~nmRunning%20shoe~pr89.90`, `${SHOP}/checkout`))});
</script>`,
);

// The vendors' tags, as far as the wire goes: every real-world sample, GETs as images (pixels),
// POSTs as beacons (gtag.js, the TikTok and Snap pixels send their bodies this way).
const TAGS = `(async () => {
  const samples = await (await fetch('/samples.json')).json();
  for (const sample of samples) {
    if (sample.method === 'POST') navigator.sendBeacon(sample.url, sample.body || '');
    else new Image().src = sample.url;
  }
  document.documentElement.dataset.tagsSent = String(samples.length);
})();`;

function collector(request: IncomingMessage, response: ServerResponse) {
  // Never from the cache: a reload must send every hit again, as collectors' answers make browsers do.
  response.setHeader('cache-control', 'no-store');
  const origin = request.headers.origin;
  if (origin) {
    response.setHeader('access-control-allow-origin', origin);
    response.setHeader('access-control-allow-credentials', 'true');
  }
  const image = request.headers.accept?.startsWith('image/') ?? false;
  if (image) {
    response.writeHead(200, { 'content-type': 'image/gif', 'content-length': GIF.length });
    response.end(GIF);
  } else {
    response.writeHead(204);
    response.end();
  }
}

export interface TestSite {
  port: number;
  /** Chromium's flag that sends every host name (but loopback) to this server. */
  resolverRule: string;
  /**
   * Holds the shop's pages' scripts, and so their hits, until the returned function is called: the
   * pages load up to their first script (a browser restart uses it, see capture.spec.ts).
   */
  holdPages(): () => void;
  stop(): Promise<void>;
}

/** Starts the shop and the collectors on a free loopback port. */
export async function startTestSite(): Promise<TestSite> {
  const dir = mkdtempSync(join(tmpdir(), 'hitscope-ext-site-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=hitscope-extension-tests',
      ],
      { stdio: 'ignore' },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`openssl could not make the test site's certificate (apt-get install openssl): ${(error as Error).message}`);
  }
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });

  const samples = JSON.stringify(SAMPLES.map(({ method, url, body }) => ({ method, url, body })));
  let held: Promise<void> = Promise.resolve();
  const server: Server = createServer({ key, cert }, (request, response) => {
    request.resume();
    request.on('end', () => {
      const host = (request.headers.host ?? '').replace(/:\d+$/, '');
      const path = (request.url ?? '/').split('?')[0];
      if (host === 'www.shop.example') {
        const html = (body: string) => {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          // While pages are held, the page is shown up to its scripts: they come once released.
          const scripts = body.indexOf('<script>');
          response.write(body.slice(0, scripts));
          void held.then(() => response.end(body.slice(scripts)));
        };
        if (path === '/') return html(HOME);
        if (path === '/checkout') return html(CHECKOUT);
        if (path === '/tags.js') {
          response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
          return response.end(TAGS);
        }
        if (path === '/samples.json') {
          response.writeHead(200, { 'content-type': 'application/json' });
          return response.end(samples);
        }
        response.writeHead(404);
        return response.end();
      }
      return collector(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    resolverRule: `--host-resolver-rules=MAP * 127.0.0.1:${port}, EXCLUDE 127.0.0.1`,
    holdPages: () => {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The rows the home page's first load lists: its own hits and every real-world sample a decoder reads. */
export const HOME_ROWS = 1 + 1 + 2 + 1 + 1 + 1 + SAMPLES.filter((sample) => sample.expect.vendor !== null).length;
/** Of those, the secondary requests (pixel mirrors, follow-up pings, cookie syncs): the samples say which. */
export const HOME_SECONDARY = SAMPLES.filter((sample) => sample.expect.vendor !== null && sample.expect.secondary).length;
/** Of those, the container and tag loads (none among the home page's requests today). */
export const HOME_CONTAINERS = SAMPLES.filter((sample) => sample.expect.vendor !== null && sample.expect.container).length;
/**
 * The hits the home page's first load must show, counted as the HAR analyser counts them (issue 25):
 * its own seven and every sample that is neither a secondary request nor a container load.
 */
export const HOME_HIT_COUNT = HOME_ROWS - HOME_SECONDARY - HOME_CONTAINERS;
