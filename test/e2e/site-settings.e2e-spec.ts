import { MongoClient } from 'mongodb';
import { SITE_SETTINGS_CACHE_MS } from '../../src/settings/site-settings.service.js';
import { ANNOUNCEMENT_DISMISSED_COOKIE, SPONSOR_LOGO_MAX_BYTES } from '../../lib/api/site-settings.js';
import { type Agent, cookieNamed, csrfToken, newAgent, PASSWORD, signUp, type SignedUp, uniqueEmail } from '../support/e2e.js';
import { freePort, OidcTestProvider, TEST_CLIENT, TestBrowser } from '../support/oidc-test-provider.js';
import { tinyPng } from '../support/png.js';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance, type TestInstance } from '../support/test-instance.js';

const ADMIN = 'settings-admin@example.test';
const CALLBACK = '/api/auth/oidc/callback';

/**
 * Two instances of the app on one database (as behind a load balancer), the first with a real
 * OpenID Connect provider on loopback: registration can be closed here without touching the app
 * the other suites share.
 */
describe('site settings (two instances on one database, a real OpenID provider)', () => {
  let provider: OidcTestProvider;
  let a: TestInstance;
  let b: TestInstance;
  let mongo: MongoClient;
  let mongodbUri: string;
  let admin: SignedUp;
  let user: SignedUp;

  const put = (who: SignedUp, section: string, body: unknown) =>
    who.agent
      .put(`/api/admin/site-settings/${section}`)
      .set('x-csrf-token', who.token)
      .send(body as object);
  const page = async (agent: Agent, path: string) => (await agent.get(path).expect(200)).text;

  beforeAll(async () => {
    mongodbUri = testDatabaseUri('site_settings');
    const port = await freePort();
    provider = new OidcTestProvider();
    const issuer = await provider.start(`http://127.0.0.1:${port}${CALLBACK}`);
    a = await startInstance(
      mongodbUri,
      {
        ADMIN_EMAILS: ADMIN,
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: TEST_CLIENT.id,
        OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
        OIDC_DISPLAY_NAME: 'Test IdP',
      },
      port,
    );
    b = await startInstance(mongodbUri, { ADMIN_EMAILS: ADMIN });
    mongo = await MongoClient.connect(mongodbUri);
    admin = await signUp({ agent: newAgent(a.origin), email: ADMIN, name: 'Admin', database: mongodbUri });
    user = await signUp({ agent: newAgent(a.origin), database: mongodbUri });
  }, 90_000);

  afterAll(async () => {
    await a?.running.close();
    await b?.running.close();
    await provider?.stop();
    await mongo?.close();
  });

  describe('access', () => {
    it.each(['general', 'registration', 'announcement', 'sponsors', 'contact', 'privacy', 'terms'])(
      'refuses %s to visitors (401) and to users (403)',
      async (section) => {
        const anonymous = newAgent(a.origin);
        await anonymous.get(`/api/admin/site-settings/${section}`).expect(401);
        await user.agent.get(`/api/admin/site-settings/${section}`).expect(403);
        await put(user, section, {}).expect(403);
        await admin.agent.get(`/api/admin/site-settings/${section}`).expect(200);
      },
    );

    it('refuses the legal documents’ placeholder values (the editors’ preview) to visitors and users', async () => {
      await newAgent(a.origin).get('/api/admin/site-settings/legal-values').expect(401);
      await user.agent.get('/api/admin/site-settings/legal-values').expect(403);
      const values = (await admin.agent.get('/api/admin/site-settings/legal-values').expect(200)).body;
      expect(values).toMatchObject({ currencies: 'euros', graceDays: '7' });
    });

    it('refuses a write without the CSRF token', async () => {
      await admin.agent.put('/api/admin/site-settings/general').send({ siteName: 'No token' }).expect(403);
    });
  });

  describe('validation', () => {
    it.each([
      ['general', { siteName: '   ' }, 'siteName', 'Enter a site name'],
      ['general', { siteName: 'x'.repeat(61) }, 'siteName', 'The site name can have at most 60 characters'],
      ['registration', { open: 'no' }, 'open', 'open must be true or false'],
      [
        'announcement',
        { enabled: true, text: ' ', tone: 'info', linkLabel: '', linkUrl: '' },
        'text',
        'Write the announcement before switching it on',
      ],
      [
        'announcement',
        { enabled: false, text: 'x', tone: 'info', linkLabel: 'Go', linkUrl: 'javascript:alert(1)' },
        'linkUrl',
        'The link must be an http(s) URL or a path on this site such as /pricing',
      ],
      ['announcement', { enabled: false, text: 'x', tone: 'info', linkLabel: '', linkUrl: '//evil.example' }, 'linkUrl', undefined],
      ['announcement', { enabled: false, text: 'x', tone: 'loud', linkLabel: '', linkUrl: '' }, 'tone', 'The tone must be info or warning'],
      [
        'sponsors',
        { tiers: [{ id: 'a', name: 'A', monthlyAmount: -1, currency: 'EUR', description: '', perks: [] }], sponsors: [] },
        'tiers.0.monthlyAmount',
        'The monthly amount cannot be negative',
      ],
      [
        'sponsors',
        { tiers: [], sponsors: [{ id: 's', name: 'S', url: 'ftp://x.example', tierId: 'a', logoId: null }] },
        'sponsors.0.url',
        'Enter an http(s) URL such as https://example.com',
      ],
      ['privacy', { markdown: '' }, 'markdown', 'The policy cannot be empty'],
      ['privacy', { markdown: 'Write to {{privacyEmial}}.' }, 'markdown', undefined],
      ['terms', { markdown: ' ' }, 'markdown', 'The terms cannot be empty'],
      [
        'terms',
        { markdown: '## Terms\n\nNo withdrawal section.' },
        'markdown',
        'Keep the section on the right of withdrawal, headed “## … {#withdrawal}”: checkout links to /terms#withdrawal',
      ],
      ['terms', { markdown: '## Right of withdrawal {#withdrawal}\n\n{{plans}} {{price}}' }, 'markdown', undefined],
      ['contact', { legalEmail: 'not an address', privacyEmail: 'privacy@example.test' }, 'legalEmail', undefined],
      ['contact', { legalEmail: 'legal@example.test' }, 'privacyEmail', undefined],
    ])('%s: %j is a 400 naming %s', async (section, body, field, message) => {
      const response = await put(admin, section, body).expect(400);
      expect(response.body.fields[field]).toBeDefined();
      if (message) expect(response.body.fields[field]).toContain(message);
    });

    it('refuses unknown fields, tier ids used twice and sponsors in a tier that is not listed', async () => {
      await put(admin, 'general', { siteName: 'Fine', role: 'admin' }).expect(400);
      const tier = { id: 'gold', name: 'Gold', monthlyAmount: 1000, currency: 'EUR', description: '', perks: [] };
      const twice = await put(admin, 'sponsors', { tiers: [tier, tier], sponsors: [] }).expect(400);
      expect(twice.body.fields).toEqual({ 'tiers.1.id': ['Two tiers have the same id'] });
      const orphan = await put(admin, 'sponsors', {
        tiers: [tier],
        sponsors: [{ id: 'acme', name: 'Acme', url: 'https://acme.example', tierId: 'silver', logoId: null }],
      }).expect(400);
      expect(orphan.body.fields).toEqual({ 'sponsors.0.tierId': ['Choose one of the tiers'] });
    });
  });

  it('audits every change: who, which section, a summary of before and after', async () => {
    await put(admin, 'general', { siteName: 'Audited Name' }).expect(200);
    const log = await admin.agent.get('/api/admin/audit-log').expect(200);
    const entry = (log.body.items as Array<Record<string, unknown>>).find((item) => item.action === 'settings.general.update');
    expect(entry).toMatchObject({
      actor: { email: ADMIN },
      target: { type: 'site_settings', id: 'general', label: 'Site name' },
      after: { siteName: 'Audited Name' },
    });
    await admin.agent
      .put('/api/admin/route-rules')
      .set('x-csrf-token', admin.token)
      .send({ rules: [{ source: '/old', target: '/sponsor', status: 301 }] })
      .expect(200);
    const rules = (await admin.agent.get('/api/admin/audit-log').expect(200)).body.items[0];
    expect(rules).toMatchObject({
      action: 'settings.route_rules.update',
      actor: { email: ADMIN },
      target: { type: 'site_settings', id: 'route-rules', label: 'Redirect rules' },
      after: { count: 1, rules: ['/old → /sponsor (301)'] },
    });
    await put(admin, 'privacy', { markdown: `# Policy\n\n${'words '.repeat(2000)}` }).expect(200);
    const privacy = (await admin.agent.get('/api/admin/audit-log').expect(200)).body.items[0];
    expect(privacy.action).toBe('settings.privacy.update');
    // A summary, not the document.
    expect(JSON.stringify(privacy).length).toBeLessThan(2000);
    expect(privacy.after).toMatchObject({ characters: 12010 });
  });

  it('is seen at once by the instance that saved it and within the cache window by another', async () => {
    const visitorA = newAgent(a.origin);
    const visitorB = newAgent(b.origin);
    await put(admin, 'general', { siteName: 'Before Name' }).expect(200);
    // Let B's cached copy (if any) expire, then warm it with the current value.
    await new Promise((resolve) => setTimeout(resolve, SITE_SETTINGS_CACHE_MS + 100));
    expect((await visitorB.get('/api/site-settings').expect(200)).body.siteName).toBe('Before Name');

    const savedAt = Date.now();
    await put(admin, 'general', { siteName: 'After Name' }).expect(200);
    expect((await visitorA.get('/api/site-settings').expect(200)).body.siteName).toBe('After Name');
    // B still answers from its cache right after the write…
    expect((await visitorB.get('/api/site-settings').expect(200)).body.siteName).toBe('Before Name');
    // …and sees the change once its entry expires, within the window.
    let seenAt = 0;
    while (!seenAt && Date.now() - savedAt < SITE_SETTINGS_CACHE_MS + 2000) {
      if ((await visitorB.get('/api/site-settings').expect(200)).body.siteName === 'After Name') seenAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt - savedAt).toBeLessThanOrEqual(SITE_SETTINGS_CACHE_MS + 1500);
    // The name is the brand of every page: headers and the <title> suffix, from the server's HTML.
    const html = await page(newAgent(b.origin), '/login');
    expect(html).toContain('<title>Sign in — After Name</title>');
    expect(html).toMatch(/<span>After Name<\/span>/);
  }, 30_000);

  describe('registration closed', () => {
    const oidcSignIn = async (subject: string) => {
      provider.nextLogin = subject;
      const browser = new TestBrowser();
      const landing = await browser.follow(`${a.origin}/api/auth/oidc/start`, a.origin);
      return { browser, landing: landing.pathname + landing.search };
    };
    let linkedEmail: string;
    let localEmail: string;

    beforeAll(async () => {
      // While open: one person signs in through the provider (an account is created and linked),
      // another registers with a password.
      linkedEmail = uniqueEmail('linked');
      provider.accounts.set('linked-person', { email: linkedEmail, email_verified: true, name: 'Linked Person' });
      expect((await oidcSignIn('linked-person')).landing).toBe('/dashboard/lounge');
      localEmail = uniqueEmail('local');
      await signUp({ agent: newAgent(a.origin), email: localEmail, database: mongodbUri });
      await put(admin, 'registration', { open: false }).expect(200);
    });

    afterAll(async () => {
      await put(admin, 'registration', { open: true }).expect(200);
    });

    it('refuses the register API with 403 REGISTRATION_CLOSED, and creates nothing', async () => {
      const visitor = newAgent(a.origin);
      const email = uniqueEmail('refused');
      const token1 = await csrfToken(visitor);
      const response = await visitor
        .post('/api/auth/register')
        .set('x-csrf-token', token1)
        .send({ name: 'Too Late', email, password: PASSWORD })
        .expect(403);
      expect(response.body).toMatchObject({
        statusCode: 403,
        code: 'REGISTRATION_CLOSED',
        message: 'Registration is closed. If you already have an account, sign in.',
      });
      expect(await mongo.db().collection('users').countDocuments({ email })).toBe(0);
    });

    it('is enforced by the other instance too (within the cache window)', async () => {
      const visitor = newAgent(b.origin);
      await new Promise((resolve) => setTimeout(resolve, SITE_SETTINGS_CACHE_MS + 100));
      const token2 = await csrfToken(visitor);
      await visitor
        .post('/api/auth/register')
        .set('x-csrf-token', token2)
        .send({ name: 'Too Late', email: uniqueEmail('refused-b'), password: PASSWORD })
        .expect(403);
    }, 15_000);

    it('refuses a first provider sign-in that would create an account, with a reason on the login page', async () => {
      const email = uniqueEmail('newcomer');
      provider.accounts.set('newcomer', { email, email_verified: true, name: 'Newcomer' });
      const { browser, landing } = await oidcSignIn('newcomer');
      expect(landing).toBe('/login?oidc_error=registration_closed');
      expect((await browser.request(`${a.origin}/api/auth/me`)).status).toBe(401);
      expect(await mongo.db().collection('users').countDocuments({ email })).toBe(0);
      const html = await (await browser.request(`${a.origin}${landing}`)).text();
      expect(html).toContain('Registration is closed, and no account here belongs to your Test IdP account yet.');
    });

    it('still signs in existing accounts: linked to the provider, local by password, and local through the provider', async () => {
      const linked = await oidcSignIn('linked-person');
      expect(linked.landing).toBe('/dashboard/lounge');
      expect((await linked.browser.request(`${a.origin}/api/auth/me`)).status).toBe(200);

      const local = newAgent(a.origin);
      const token3 = await csrfToken(local);
      await local.post('/api/auth/login').set('x-csrf-token', token3).send({ email: localEmail, password: PASSWORD }).expect(200);

      provider.accounts.set('local-at-idp', { email: localEmail, email_verified: true, name: 'Local at IdP' });
      expect((await oidcSignIn('local-at-idp')).landing).toBe('/dashboard/lounge');
    });

    it('renders the register page as a closed notice with a way to sign in (no form)', async () => {
      const html = await page(newAgent(a.origin), '/register');
      expect(html).toContain('Registration is closed');
      expect(html).toContain('href="/login"');
      expect(html).not.toContain('autoComplete="new-password"');
      expect(html).not.toContain('autocomplete="new-password"');
    });
  });

  describe('announcement banner', () => {
    const announcement = (text: string) => ({ enabled: true, text, tone: 'warning', linkLabel: 'Details', linkUrl: '/sponsor' });

    it('renders on the server, inline Markdown only, raw HTML inert', async () => {
      await put(admin, 'announcement', announcement('**Maintenance** tonight <script>alert(1)</script>')).expect(200);
      const html = await page(newAgent(a.origin), '/');
      expect(html).toContain('aria-label="Announcement"');
      expect(html).toContain('<strong>Maintenance</strong> tonight &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).toContain('href="/sponsor"');
      // The dashboard and admin layouts carry it too.
      expect(await page(admin.agent, '/admin/settings')).toContain('aria-label="Announcement"');
      expect(await page(user.agent, '/dashboard/lounge')).toContain('aria-label="Announcement"');
    });

    it('stays dismissed for a visitor (a functional cookie read by the server) until the text changes', async () => {
      await put(admin, 'announcement', announcement('First *news*')).expect(200);
      const visitor = newAgent(a.origin);
      const { body } = await visitor.get('/api/site-settings').expect(200);
      expect(body.announcement.version).toMatch(/^[a-f0-9]{16}$/);
      const token4 = await csrfToken(visitor);
      const dismissed = await visitor
        .post('/api/site-settings/announcement/dismiss')
        .set('x-csrf-token', token4)
        .send({ version: body.announcement.version })
        .expect(204);
      const cookie = cookieNamed(dismissed.headers['set-cookie'] as unknown as string[], ANNOUNCEMENT_DISMISSED_COOKIE)!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(await page(visitor, '/')).not.toContain('aria-label="Announcement"');
      expect((await visitor.get('/api/site-settings').expect(200)).body.announcement).toBeNull();

      await put(admin, 'announcement', announcement('Second *news*')).expect(200);
      expect(await page(visitor, '/')).toContain('Second <em>news</em>');
    });

    it("keeps a signed-in person's dismissal with the account, on every device", async () => {
      await put(admin, 'announcement', announcement('Account-wide news')).expect(200);
      const { version } = (await user.agent.get('/api/site-settings').expect(200)).body.announcement;
      await user.agent.post('/api/site-settings/announcement/dismiss').set('x-csrf-token', user.token).send({ version }).expect(204);
      // Another browser of the same person, without the cookie.
      const other = newAgent(a.origin);
      const token5 = await csrfToken(other);
      await other.post('/api/auth/login').set('x-csrf-token', token5).send({ email: user.email, password: PASSWORD }).expect(200);
      expect(await page(other, '/dashboard/lounge')).not.toContain('aria-label="Announcement"');
      // Somebody else still sees it.
      expect(await page(newAgent(a.origin), '/')).toContain('Account-wide news');
      // The export names the dismissal; deleting the account takes it away.
      const exported = await other.get('/api/profile/export').expect(200);
      expect(exported.body.announcementDismissed).toMatchObject({ version });
    });

    it('refuses a malformed dismissal', async () => {
      const visitor = newAgent(a.origin);
      const token6 = await csrfToken(visitor);
      const response = await visitor
        .post('/api/site-settings/announcement/dismiss')
        .set('x-csrf-token', token6)
        .send({ version: '<script>' })
        .expect(400);
      expect(response.body.fields.version).toEqual(['Unknown announcement version']);
    });

    it('shows nothing when switched off', async () => {
      await put(admin, 'announcement', { ...announcement('Off'), enabled: false }).expect(200);
      expect(await page(newAgent(a.origin), '/')).not.toContain('aria-label="Announcement"');
    });
  });

  describe('sponsors and logos', () => {
    const upload = (who: SignedUp, bytes: Buffer, filename: string, contentType: string) =>
      who.agent
        .post('/api/admin/site-settings/sponsor-logos')
        .set('x-csrf-token', who.token)
        .attach('logo', bytes, { filename, contentType });

    it('stores PNG logos and serves them inert; refuses SVG, other types and oversized files', async () => {
      await upload(user, tinyPng(1), 'logo.png', 'image/png').expect(403);
      const svg = await upload(
        admin,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'logo.svg',
        'image/svg+xml',
      ).expect(415);
      expect(svg.body).toMatchObject({ code: 'BAD_SPONSOR_LOGO', fields: { logo: ['The logo must be a PNG, JPEG or WebP image'] } });
      // A PNG name and type on HTML bytes: the bytes decide.
      await upload(admin, Buffer.from('<html><script>alert(1)</script></html>'), 'logo.png', 'image/png').expect(415);
      const big = Buffer.concat([tinyPng(2), Buffer.alloc(SPONSOR_LOGO_MAX_BYTES)]);
      expect((await upload(admin, big, 'big.png', 'image/png')).status).toBe(413);

      const stored = await upload(admin, tinyPng(3), 'logo.png', 'image/png').expect(201);
      expect(stored.body.url).toBe(`/api/sponsor-logos/${stored.body.logoId}`);
      const served = await newAgent(a.origin).get(stored.body.url).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['content-security-policy']).toContain("default-src 'none'");
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-disposition']).toBe('inline');
      await newAgent(a.origin).get('/api/sponsor-logos/nothing-here').expect(404);
    });

    it('renders tiers and sponsors grouped by tier on /sponsor, with logos or initials, keeping the JSON-LD', async () => {
      const logo = (await upload(admin, tinyPng(4), 'acme.png', 'image/png').expect(201)).body;
      const saved = await put(admin, 'sponsors', {
        tiers: [
          { id: 'gold', name: 'Gold', monthlyAmount: 50000, currency: 'EUR', description: 'For big teams', perks: ['Logo on top'] },
          { id: 'friend', name: 'Friend', monthlyAmount: 500, currency: 'USD', description: '', perks: [] },
        ],
        sponsors: [
          { id: 'acme', name: 'Acme Analytics', url: 'https://acme.example', tierId: 'gold', logoId: logo.logoId },
          { id: 'jane', name: 'Jane Doe', url: 'https://jane.example', tierId: 'friend', logoId: null },
        ],
      }).expect(200);
      expect(saved.body.sponsors[0].logoId).toBe(logo.logoId);
      const html = await page(newAgent(a.origin), '/sponsor');
      expect(html).toContain('Acme Analytics');
      expect(html).toContain(logo.url);
      expect(html).toContain('€500');
      expect(html).toContain('US$5');
      expect(html).toContain('>JD<');
      expect(html).toContain('application/ld+json');
      expect(html.indexOf('Gold')).toBeLessThan(html.indexOf('Friend'));

      // A logo no saved sponsor names any more is removed from storage.
      await put(admin, 'sponsors', { tiers: saved.body.tiers, sponsors: [] }).expect(200);
      await newAgent(a.origin).get(logo.url).expect(404);
      expect(await page(newAgent(a.origin), '/sponsor')).toContain('No sponsors yet');
    });

    it('refuses a logo id that storage does not hold', async () => {
      const response = await put(admin, 'sponsors', {
        tiers: [{ id: 'gold', name: 'Gold', monthlyAmount: 100, currency: 'EUR', description: '', perks: [] }],
        sponsors: [{ id: 'ghost', name: 'Ghost', url: 'https://ghost.example', tierId: 'gold', logoId: 'aaaaaaaaaaaaaaaaaaaaaaaa' }],
      }).expect(400);
      expect(response.body.fields).toEqual({ 'sponsors.0.logoId': ['This logo is gone: upload it again'] });
    });
  });

  describe('terms of service', () => {
    it('a fresh install: the default terms state the catalogue (plans, prices, seats, periods, currency) and the contact addresses, with #withdrawal', async () => {
      const database = testDatabaseUri('site_settings_terms');
      const fresh = await startInstance(database, { ADMIN_EMAILS: ADMIN });
      try {
        let html = await page(newAgent(fresh.origin), '/terms');
        expect(html).not.toContain('{{');
        expect(html).not.toContain('Last updated');
        // Every plan on sale, from the catalogue; seats and billing periods in words true for them.
        expect(html).toContain(
          '<li><strong>Team (monthly)</strong>: €29 per month, 5 seats, Hitscope for Apps and Hitscope for Browsers</li>',
        );
        expect(html).toContain(
          '<li><strong>Solo lifetime</strong>: €199 one-off, 1 seat, Hitscope for Apps and Hitscope for Browsers</li>',
        );
        expect(html).toContain('(Solo 1 seat, Team 5 seats, Agency 20 seats and Solo lifetime 1 seat)');
        expect(html).toContain('billed in advance, monthly or yearly as its plan says');
        expect(html).toContain('A one-off plan is paid once');
        expect(html).toContain('with their prices in euros');
        expect(html).toContain('keeps working for 7 days after the renewal date');
        // The section Stripe Checkout's consent text links to, in the table of contents too.
        expect(html).toContain('<h2 id="withdrawal">Right of withdrawal</h2>');
        expect(html).toContain('<a href="#withdrawal">Right of withdrawal</a>');
        expect(html).toMatch(
          /Stripe Checkout asks you to agree to these terms and to confirm that you want your licence delivered straight away/,
        );
        expect(html).toContain('<a href="mailto:legal@hitscope.dev">legal@hitscope.dev</a>');
        expect(html).not.toMatch(/every plan includes|billed monthly in advance|euros per month/i);

        // The administrator changes a plan and the addresses: the terms (and the policy) follow, nothing to edit.
        const freshAdmin = await signUp({ agent: newAgent(fresh.origin), email: ADMIN, name: 'Admin', database });
        await freshAdmin.agent
          .patch('/api/admin/catalogue/plans/team-monthly')
          .set('x-csrf-token', freshAdmin.token)
          .send({ seats: 6, amountMinor: 3100 })
          .expect(200);
        await put(freshAdmin, 'contact', { legalEmail: ' Legal@Example.TEST ', privacyEmail: 'dpo@example.test' })
          .expect(200)
          .expect((response) => expect(response.body).toEqual({ legalEmail: 'legal@example.test', privacyEmail: 'dpo@example.test' }));
        html = await page(newAgent(fresh.origin), '/terms');
        expect(html).toContain('<li><strong>Team (monthly)</strong>: €31 per month, 6 seats,');
        expect(html).toContain('Team 6 seats');
        expect(html).toContain('<a href="mailto:legal@example.test">legal@example.test</a>');
        expect(html).not.toContain('legal@hitscope.dev');
        const policy = await page(newAgent(fresh.origin), '/privacy-policy');
        expect(policy).toContain('<a href="mailto:dpo@example.test">dpo@example.test</a>');
        expect(policy).not.toContain('{{');
        const audit = (await freshAdmin.agent.get('/api/admin/audit-log').expect(200)).body.items[0];
        expect(audit).toMatchObject({
          action: 'settings.contact.update',
          target: { id: 'contact', label: 'Contact addresses' },
          before: { legalEmail: 'legal@hitscope.dev' },
          after: { legalEmail: 'legal@example.test', privacyEmail: 'dpo@example.test' },
        });
      } finally {
        await fresh.running.close();
      }
    }, 60_000);

    it('saved in /admin/settings: rendered on the server with its date and placeholders, audited, seen by the other instance', async () => {
      const before = Date.now();
      const saved = await put(admin, 'terms', {
        markdown:
          '## Our terms\n\nPlans: {{seats}}.\n\n<script>document.title="pwned"</script>\n\n## Changing your mind {#withdrawal}\n\nWrite to {{ legalEmail }}.',
      }).expect(200);
      expect(Date.parse(saved.body.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect((await admin.agent.get('/api/admin/site-settings/terms').expect(200)).body.markdown).toContain('{{seats}}');

      const html = await page(newAgent(a.origin), '/terms');
      expect(html).toContain('<h2 id="our-terms">Our terms</h2>');
      expect(html).toContain('Plans: Solo 1 seat, Team 5 seats');
      expect(html).toContain('<h2 id="withdrawal">Changing your mind</h2>');
      expect(html).toMatch(/Write to <a href="mailto:[^"]+">/);
      expect(html).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
      expect(html).not.toContain('<script>document.title');
      expect(html).toMatch(/Last updated <time datetime="[^"]+">\d{1,2} \w+ \d{4}<\/time>/i);
      const api = (await newAgent(a.origin).get('/api/site-settings/terms').expect(200)).body;
      expect(api.toc).toEqual([
        { id: 'our-terms', title: 'Our terms' },
        { id: 'withdrawal', title: 'Changing your mind' },
      ]);

      const audit = (await admin.agent.get('/api/admin/audit-log').expect(200)).body.items[0];
      expect(audit).toMatchObject({
        action: 'settings.terms.update',
        actor: { email: ADMIN },
        target: { type: 'site_settings', id: 'terms', label: 'Terms of service' },
        after: { updatedAt: saved.body.updatedAt },
      });
      expect(JSON.stringify(audit)).not.toContain('pwned');

      // The other instance, within its settings cache window.
      let seen = false;
      for (const started = Date.now(); !seen && Date.now() - started < SITE_SETTINGS_CACHE_MS + 2000;) {
        seen = (await page(newAgent(b.origin), '/terms')).includes('<h2 id="withdrawal">Changing your mind</h2>');
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(seen).toBe(true);
    }, 30_000);
  });

  describe('privacy policy', () => {
    it('shows the default policy of a fresh install, honest about analytics, without a date', async () => {
      const fresh = await startInstance(testDatabaseUri('site_settings_fresh'), { ADMIN_EMAILS: ADMIN });
      try {
        const html = await page(newAgent(fresh.origin), '/privacy-policy');
        expect(html).toContain('no IP address or user agent is ever stored');
        expect(html).toContain('00:00 UTC');
        expect(html).not.toContain('Last updated');
        // A table of contents from its sections.
        expect(html).toContain('<a href="#the-short-version">The short version</a>');
        expect(html).toContain('<h2 id="the-short-version">The short version</h2>');
      } finally {
        await fresh.running.close();
      }
    }, 60_000);

    it('renders the Markdown on the server with its date, a <script> as inert text', async () => {
      const before = Date.now();
      const saved = await put(admin, 'privacy', {
        markdown: '## Our policy\n\nWe keep *little*.\n\n<script>document.title="pwned"</script>\n\n<img src=x onerror=alert(1)>',
      }).expect(200);
      expect(Date.parse(saved.body.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
      const html = await page(newAgent(a.origin), '/privacy-policy');
      expect(html).toContain('<h2 id="our-policy">Our policy</h2>');
      expect(html).toContain('We keep <em>little</em>.');
      expect(html).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
      expect(html).not.toContain('<script>document.title');
      expect(html).not.toContain('<img src=x');
      expect(html).toMatch(/Last updated <time datetime="[^"]+">\d{1,2} \w+ \d{4}<\/time>/i);
    });

    it('states the analytics retention and privacy-signal rule from the live analytics settings', async () => {
      const analytics = (body: object) =>
        admin.agent.put('/api/admin/analytics/settings').set('x-csrf-token', admin.token).send(body).expect(200);
      const base = { ignoreIps: [], ignorePaths: [], countAdmins: false };
      await analytics({ ...base, retentionDays: 400, respectPrivacySignals: false });
      let html = await page(newAgent(a.origin), '/privacy-policy');
      expect(html).toContain('<h2>How our analytics counts visits</h2>');
      expect(html).toContain('Daily totals are kept for 400 days.');
      expect(html).toContain('Global Privacy Control and Do Not Track signals do not change what is counted');

      await analytics({ ...base, retentionDays: 730, respectPrivacySignals: true });
      html = await page(newAgent(a.origin), '/privacy-policy');
      expect(html).toContain('Daily totals are kept for 730 days.');
      expect(html).toContain(
        'If your browser sends Global Privacy Control or Do Not Track, your visits are not counted at all: our pages do not even send the page view.',
      );
      const api = await newAgent(a.origin).get('/api/site-settings/privacy-policy').expect(200);
      expect(api.body.analyticsHtml).toContain('Daily totals are kept for 730 days.');
    });
  });
});
