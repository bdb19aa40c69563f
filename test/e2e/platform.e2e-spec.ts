import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root.js';
import { csrfToken, e2eUrl, newAgent, signInAdmin, signUp } from '../support/e2e.js';

describe('route order', () => {
  it('does not let the page catch-all shadow API routes', async () => {
    const response = await newAgent().get('/api/auth/csrf').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const health = await newAgent().get('/health/live').expect(200);
    expect(health.body.status).toBe('ok');
  });

  it('answers HEAD on pages', async () => {
    await newAgent().head('/').expect(200);
  });
});

describe('build manifest', () => {
  it('serves /_app/builds/latest.json with the id of the running build, never cached', async () => {
    const response = await newAgent().get('/_app/builds/latest.json').expect(200);
    const onDisk = JSON.parse(readFileSync(join(PROJECT_ROOT, 'dist/build-manifest.json'), 'utf8'));
    expect(response.body).toEqual({ id: onDisk.id, timestamp: onDisk.timestamp });
    expect(typeof response.body.timestamp).toBe('number');
    expect(response.headers['cache-control']).toMatch(/no-store/);
  });
});

describe('production build of the libraries', () => {
  const bundle = (dir: string, ext: string) =>
    readdirSync(join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith(ext))
      .map((file) => readFileSync(join(PROJECT_ROOT, dir, file), 'utf8'));

  it("bundles react-router's production build, not the development one its package.json exports, on the server and in the browser", () => {
    for (const [scripts, maps] of [
      [bundle('dist/server', '.js'), bundle('dist/server', '.js.map')],
      [bundle('dist/client', '.js'), bundle('dist/sourcemaps/client', '.js.map')],
    ]) {
      const sources = maps.flatMap((map) => (JSON.parse(map) as { sources: string[] }).sources);
      expect(sources.some((source) => source.includes('node_modules/react-router/dist/production/'))).toBe(true);
      expect(sources.filter((source) => source.includes('node_modules/react-router/dist/development/'))).toEqual([]);
      // react-router's Link is in the bundle, without a warning only the development build has.
      const code = scripts.join('\n');
      expect(code).toContain('data-discover');
      expect(code).not.toContain('You should not include both `Component` and `element`');
    }
  });
});

describe('security headers and assets', () => {
  it('sends a nonce-based CSP whose nonce is on every inline script, and nosniff', async () => {
    const response = await newAgent().get('/').expect(200);
    const csp = response.headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').find((directive) => directive.startsWith('script-src '))!;
    expect(scriptSrc).not.toContain('unsafe-inline');
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
    const scripts = response.text.match(/<script\b[^>]*>/g)!;
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();

    const second = await newAgent().get('/').expect(200);
    expect(second.headers['content-security-policy']).not.toContain(nonce);
  });

  it("allows no inline styles (style-src 'self' only) and switches off browser features no page uses", async () => {
    for (const path of ['/', '/login', '/api/auth/csrf']) {
      const response = await newAgent().get(path).expect(200);
      const csp = response.headers['content-security-policy'] as string;
      expect(csp.split(';').find((directive) => directive.startsWith('style-src '))).toBe("style-src 'self'");
      const policy = response.headers['permissions-policy'] as string;
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'browsing-topics']) {
        expect(policy.split(', ')).toContain(`${feature}=()`);
      }
    }
    const page = await newAgent().get('/').expect(200);
    expect(page.text).not.toMatch(/<style\b|\sstyle="/);
  });

  it("answers the machine API (/api/v1/, the apps) with a fixed strict set of headers instead of the pages' nonce and compression", async () => {
    const response = await newAgent()
      .post('/api/v1/licenses/validate')
      .set('Accept-Encoding', 'gzip')
      .send({ key: 'HSA-NOT-A-KEY', product: 'hitscope-for-apps', fingerprint: 'f'.repeat(64), nonce: 'n'.repeat(64) })
      .expect(200);
    expect(response.body).toMatchObject({ valid: false, code: 'NOT_FOUND' });
    expect(response.headers).toMatchObject({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
    // Not even considered for compression (the middleware would add Vary: Accept-Encoding).
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary ?? '').not.toMatch(/accept-encoding/i);
    // Everything else keeps the pages' headers, compression included.
    const page = await newAgent().get('/').set('Accept-Encoding', 'gzip').expect(200);
    expect(page.headers['content-security-policy']).toContain("'nonce-");
    expect(page.headers['content-encoding']).toBe('gzip');
  });

  it('keeps the client source maps out of the published files (built beside them for an error tracker)', async () => {
    const published = readdirSync(join(PROJECT_ROOT, 'dist/client'), { recursive: true, encoding: 'utf8' });
    expect(published.filter((file) => file.endsWith('.map'))).toEqual([]);
    const scripts = published.filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(5);
    for (const file of scripts) expect(readFileSync(join(PROJECT_ROOT, 'dist/client', file), 'utf8')).not.toContain('sourceMappingURL');
    const maps = readdirSync(join(PROJECT_ROOT, 'dist/sourcemaps/client/assets'));
    // One map per script (Rolldown's few-line runtime has none), each next to nothing public.
    expect(maps.length).toBeGreaterThanOrEqual(scripts.length - 1);
    for (const map of maps) expect(scripts).toContain(`assets/${map.slice(0, -'.map'.length)}`);

    const page = await newAgent().get('/').expect(200);
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    expect(maps).toContain(`${entry.slice('/assets/'.length)}.map`);
    const response = await newAgent().get(`${entry}.map`);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('sourcesContent');
  });

  it('never serves the raw index.html template or the Vite manifest', async () => {
    for (const path of ['/client/index.html', '/index.html', '/.vite/manifest.json']) {
      const response = await newAgent().get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.text).not.toContain('<!--app-html-->');
    }
  });

  it('serves hashed assets as immutable for a year and pages as no-cache', async () => {
    const page = await newAgent().get('/').expect(200);
    expect(page.headers['cache-control']).toContain('no-cache');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    const response = await newAgent().get(asset).expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('modulepreloads the chunk of the matched page', async () => {
    const page = await newAgent().get('/sponsor').expect(200);
    expect(page.text).toMatch(/<link rel="modulepreload" href="\/assets\/SponsorPage-[\w-]+\.js">/);
  });

  it("links the page's own stylesheet once, after the app-wide one, so its rules win at equal specificity", async () => {
    const page = await newAgent().get('/sponsor').expect(200);
    const stylesheets = [...page.text.matchAll(/<link rel="stylesheet"[^>]*href="\/assets\/([\w-]+)\.css"/g)].map((match) => match[1]);
    expect(stylesheets).toHaveLength(2);
    expect(stylesheets[0]).toMatch(/^index-/); // tokens, base and UI primitives: in every page
    expect(stylesheets[1]).toMatch(/^marketing-/); // the public pages' stylesheet (features/marketing), after it
  });
});

describe('SEO', () => {
  it('gives public pages a title, description, canonical URL, Open Graph tags and JSON-LD', async () => {
    const page = await newAgent().get('/sponsor').expect(200);
    expect(page.text).toContain('<title>Sponsor Hitscope</title>');
    expect(page.text).toMatch(/<meta name="description" content="[^"]+">/);
    expect(page.text).toContain(`<link rel="canonical" href="${e2eUrl()}/sponsor">`);
    expect(page.text).toContain('<meta property="og:title" content="Sponsor Hitscope">');
    expect(page.text).toContain('"@type":"Organization"');
    const home = await newAgent().get('/').expect(200);
    for (const type of ['Organization', 'WebSite', 'SoftwareApplication']) expect(home.text).toContain(`"@type":"${type}"`);
    expect(home.text).toContain('"@type":"Offer"');
    const login = await newAgent().get('/login').expect(200);
    expect(login.text).toContain('<meta name="robots" content="noindex">');
  });

  it('generates /sitemap.xml from the route table and serves /robots.txt', async () => {
    const sitemap = await newAgent().get('/sitemap.xml').expect(200);
    expect(sitemap.headers['content-type']).toMatch(/xml/);
    const locations = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual([`${e2eUrl()}/`, `${e2eUrl()}/sponsor`, `${e2eUrl()}/privacy-policy`, `${e2eUrl()}/terms`]);
    const robots = await newAgent().get('/robots.txt').expect(200);
    expect(robots.text).toContain(`Sitemap: ${e2eUrl()}/sitemap.xml`);
    expect(robots.text).toContain('Disallow: /admin');
  });
});

describe('server prefetch and safe dehydration', () => {
  it('renders signed-in data on the first load and escapes it inside the state script', async () => {
    // (Line separators, which a JSON string may hold and a script may not, are refused in names at the door.)
    const name = '</script><script>alert(1)</script>';
    const { agent } = await signUp({ name });
    const page = await agent.get('/dashboard/lounge').expect(200);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('Welcome, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const state = /window\.__HITSCOPE_STATE__=(.*?)<\/script>/s.exec(page.text)![1];
    expect(state).toContain('\\u003C/script>');
  });
});

describe('colour mode', () => {
  it.each([
    ['dark', 'data-color-mode="dark" data-theme="dark"'],
    ['light', 'data-color-mode="light" data-theme="light"'],
    ['system', 'data-color-mode="system">'],
    ['nonsense', 'data-color-mode="system">'],
  ])('renders <html> for the %s cookie so the first paint has the right theme', async (mode, attributes) => {
    const page = await newAgent().get('/').set('Cookie', `hs_color_mode=${mode}`).expect(200);
    expect(page.text).toContain(`<html lang="en" ${attributes}`);
  });
});

describe('route rules', () => {
  afterAll(async () => {
    const admin = await signInAdmin();
    await admin.agent.put('/api/admin/route-rules').set('x-csrf-token', admin.token).send({ rules: [] }).expect(200);
  });

  it('lets admins save rules that redirect on the server before rendering and answer GET /api/route-rules', async () => {
    const admin = await signInAdmin();
    const rules = [
      { source: '/moved', target: '/privacy-policy', status: 308 },
      { source: '/old-docs/*', target: '/sponsor', status: 301 },
      { source: '/dashboard/old-tools/*', target: '/dashboard/tools/*', status: 302 },
    ];
    const saved = await admin.agent.put('/api/admin/route-rules').set('x-csrf-token', admin.token).send({ rules }).expect(200);
    expect(saved.body.rules).toEqual(rules);

    const moved = await newAgent().get('/moved?utm=1').redirects(0).expect(308);
    expect(moved.headers.location).toBe('/privacy-policy?utm=1');
    const prefixed = await newAgent().get('/old-docs/a/b').redirects(0).expect(301);
    expect(prefixed.headers.location).toBe('/sponsor');
    // Rules run before the sign-in guard, then the guard runs on the target.
    const carried = await newAgent().get('/dashboard/old-tools/ga4mp').redirects(0).expect(302);
    expect(carried.headers.location).toBe('/dashboard/tools/ga4mp');

    const check = await newAgent().get('/api/route-rules').query({ path: '/moved' }).expect(200);
    expect(check.body).toEqual({ redirect: { location: '/privacy-policy', status: 308 } });
    expect(check.headers['cache-control']).toBe('public, max-age=30');
    const none = await newAgent().get('/api/route-rules').query({ path: '/sponsor' }).expect(200);
    expect(none.body).toEqual({ redirect: null });
  });

  it('validates rules field by field and keeps the saved ones on failure', async () => {
    const admin = await signInAdmin();
    const before = (await admin.agent.get('/api/admin/route-rules').expect(200)).body;
    const response = await admin.agent
      .put('/api/admin/route-rules')
      .set('x-csrf-token', admin.token)
      .send({ rules: [{ source: 'no-slash', target: 'javascript:alert(1)', status: 200 }] })
      .expect(400);
    expect(Object.keys(response.body.fields).sort()).toEqual(['rules.0.source', 'rules.0.status', 'rules.0.target']);
    const after = (await admin.agent.get('/api/admin/route-rules').expect(200)).body;
    expect(after).toEqual(before);
  });

  it('refuses non-admins and a missing path query', async () => {
    const user = await signUp();
    const token = await csrfToken(user.agent);
    await user.agent.put('/api/admin/route-rules').set('x-csrf-token', token).send({ rules: [] }).expect(403);
    const missing = await newAgent().get('/api/route-rules').expect(400);
    expect(missing.body.fields.path).toBeDefined();
  });
});
