import { expect, type Page, test } from '@playwright/test';
import { tinyPng } from '../support/png.js';
import { collectPageProblems, waitForHydration } from './fixtures.js';
import { putSection, type SettingsServer, signInSettingsAdmin, startSettingsServer } from './site-settings-server.js';

/** Global settings: one server of this suite's own (site-settings-server.ts), tests in order. */
test.describe.configure({ mode: 'serial' });

let server: SettingsServer;
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const banner = (page: Page) => page.getByRole('region', { name: 'Announcement', exact: true });
const open = async (page: Page, path: string) => {
  const response = await page.goto(`${server.origin}${path}`);
  await waitForHydration(page);
  return response;
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startSettingsServer();
});

test.afterAll(async () => {
  await server?.stop();
});

test('the settings page lists its sections and saves the site name, with field errors and toasts', async ({ page }) => {
  await signInSettingsAdmin(page.request, server);
  await open(page, '/admin/settings');
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  for (const label of [
    'Site name',
    'Registration',
    'Announcement',
    'Redirect rules',
    'Sponsors',
    'Privacy policy',
    'Catalogue',
    'Releases',
  ]) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await nav.getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/#privacy$/);

  const form = page.getByRole('form', { name: 'Site name' });
  const name = form.getByLabel('Site name');
  await expect(name).toHaveValue('Hitscope');
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await name.fill(' ');
  await expect(form.getByText('Unsaved changes')).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/Enter a site name/);
  await expect(name).toBeFocused();
  await expect(notifications(page).getByText('Site name not saved', { exact: false })).toBeVisible();

  await name.fill('Acme Debug');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Site name saved', { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  // The brand follows at once in this tab (header and title), and on the server's next page.
  await expect(page.getByRole('link', { name: 'Acme Debug home' })).toBeVisible();
  await expect(page).toHaveTitle('Settings — Acme Debug admin');
  const response = await page.goto(`${server.origin}/`);
  expect(await response!.text()).toContain('Acme Debug');
  await putSection(page.request, server, 'general', { siteName: 'Hitscope' });
});

test('the announcement banner: shown in every layout, dismissed, stays dismissed after a reload, back for a new text', async ({
  page,
  browser,
}) => {
  await signInSettingsAdmin(page.request, server);
  await open(page, '/admin/settings#announcement');
  const form = page.getByRole('form', { name: 'Announcement banner' });
  await form.getByLabel('Show the announcement').check();
  await form.getByLabel('Text', { exact: true }).fill('**Scheduled maintenance** on Sunday <script>window.__pwned = 1</script>');
  await expect(form.getByRole('group', { name: 'Preview of the banner' }).locator('strong')).toHaveText('Scheduled maintenance');
  await form.getByRole('radio', { name: 'Warning' }).check();
  await form.getByLabel('Link label (optional)').fill('Status');
  await form.getByLabel('Link URL (optional)').fill('/sponsor');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Announcement saved', { exact: true })).toBeVisible();
  // This admin sees it at once in the admin layout.
  await expect(banner(page)).toContainText('Scheduled maintenance on Sunday <script>window.__pwned = 1</script>');

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    await visitor.goto(`${server.origin}/`);
    await waitForHydration(visitor);
    await expect(banner(visitor)).toBeVisible();
    await expect(banner(visitor).locator('strong')).toHaveText('Scheduled maintenance');
    await expect(banner(visitor).getByRole('link', { name: 'Status' })).toHaveAttribute('href', '/sponsor');
    expect(await visitor.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    const dismissed = visitor.waitForResponse((response) => response.url().endsWith('/api/site-settings/announcement/dismiss'));
    await banner(visitor).getByRole('button', { name: 'Dismiss announcement' }).click();
    await expect(banner(visitor)).toHaveCount(0);
    expect((await dismissed).status()).toBe(204);

    // Reloaded: the server leaves it out (never a flash), the hydrated page too.
    const reloaded = await visitor.reload();
    expect(await reloaded!.text()).not.toContain('aria-label="Announcement"');
    await waitForHydration(visitor);
    await expect(banner(visitor)).toHaveCount(0);

    // A new text shows again.
    await putSection(page.request, server, 'announcement', {
      enabled: true,
      text: 'Something *new*',
      tone: 'info',
      linkLabel: '',
      linkUrl: '',
    });
    await expect
      .poll(async () => (await (await visitor.request.get(`${server.origin}/api/site-settings`)).json()).announcement?.html ?? null)
      .toBe('Something <em>new</em>');
    await visitor.reload();
    await waitForHydration(visitor);
    await expect(banner(visitor)).toContainText('Something new');
  } finally {
    await visitorContext.close();
  }
});

test('registration closed: the register page says so and offers sign-in; reopening restores the form', async ({ page, browser }) => {
  await signInSettingsAdmin(page.request, server);
  await open(page, '/admin/settings#registration');
  const form = page.getByRole('form', { name: 'Registration' });
  await form.getByLabel('Registration is open').uncheck();
  await expect(form.getByText(/Closed: the register page says so/)).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Registration saved', { exact: true })).toBeVisible();

  const context = await browser.newContext();
  const visitor = await context.newPage();
  try {
    await visitor.goto(`${server.origin}/`);
    await waitForHydration(visitor);
    // The home page's call to action lands on the notice.
    await visitor.getByRole('banner').getByRole('link', { name: 'Get started' }).click();
    await expect(visitor).toHaveURL(`${server.origin}/register`);
    await expect(visitor.getByRole('heading', { name: 'Registration is closed' })).toBeVisible();
    await expect(visitor.getByLabel('Password')).toHaveCount(0);
    await visitor.getByRole('link', { name: 'Sign in' }).last().click();
    await expect(visitor).toHaveURL(`${server.origin}/login`);
  } finally {
    await context.close();
  }
  await putSection(page.request, server, 'registration', { open: true });
});

test('sponsors: tiers and a sponsor with an uploaded logo, rendered on /sponsor', async ({ page }) => {
  await signInSettingsAdmin(page.request, server);
  await putSection(page.request, server, 'sponsors', { tiers: [], sponsors: [] });
  await open(page, '/admin/settings#sponsors');
  const form = page.getByRole('form', { name: 'Sponsors' });
  await expect(form.getByText(/No tiers/)).toBeVisible();
  await expect(form.getByRole('button', { name: 'Add sponsor' })).toBeDisabled();

  await form.getByRole('button', { name: 'Add tier' }).click();
  const tier = form.getByRole('listitem', { name: 'Tier 1' });
  await expect(tier.getByLabel('Name', { exact: true })).toBeFocused();
  await tier.getByLabel('Name', { exact: true }).fill('Gold');
  await tier.getByLabel('Per month').fill('abc');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(tier.getByLabel('Per month')).toHaveAttribute('aria-invalid', 'true');
  await tier.getByLabel('Per month').fill('99.50');
  await tier.getByLabel('Perks').fill('Logo on the sponsor page\nA call every quarter');

  await form.getByRole('button', { name: 'Add sponsor' }).click();
  const sponsor = form.getByRole('listitem', { name: 'Sponsor 1' });
  await sponsor.getByLabel('Name', { exact: true }).fill('Acme Analytics');
  await sponsor.getByLabel('Website').fill('https://acme.example');
  await sponsor.getByLabel(/Logo of/).setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: tinyPng(7) });
  await expect(sponsor.getByRole('img', { name: 'Logo of Acme Analytics' })).toBeVisible();
  await sponsor.getByLabel(/Logo of/).setInputFiles({ name: 'evil.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
  await expect(sponsor.getByText('Choose a PNG, JPEG or WebP image (SVG is not accepted).')).toBeVisible();

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Sponsors saved', { exact: true })).toBeVisible();

  await open(page, '/sponsor');
  await expect(page.getByRole('heading', { name: 'Gold', level: 3 }).first()).toBeVisible();
  await expect(page.getByText('€99.50')).toBeVisible();
  await expect(page.getByText('A call every quarter')).toBeVisible();
  const card = page.getByRole('link', { name: 'Acme Analytics' });
  await expect(card).toHaveAttribute('href', 'https://acme.example');
  const logo = card.locator('img');
  await expect(logo).toHaveJSProperty('complete', true);
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
});

test('privacy policy: edited with a live preview, saved with its date, a <script> shown as text and never run', async ({ page }) => {
  await signInSettingsAdmin(page.request, server);
  await open(page, '/admin/settings#privacy');
  const form = page.getByRole('form', { name: 'Privacy policy' });
  await expect(form.getByText('The default policy of a fresh install')).toBeVisible();
  const source = '## What we keep\n\nAlmost *nothing*.\n\n<script>window.__pwned = 1; document.title = "pwned"</script>';
  await form.getByLabel('Policy (Markdown)').fill(source);
  const preview = form.getByRole('group', { name: 'Preview of the policy' });
  await expect(preview.getByRole('heading', { name: 'What we keep' })).toBeVisible();
  await expect(preview).toContainText('<script>window.__pwned = 1;');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Privacy policy saved', { exact: true })).toBeVisible();
  await expect(form.getByText(/^Last updated/)).toBeVisible();

  await open(page, '/privacy-policy');
  await expect(page.getByRole('heading', { name: 'What we keep' })).toBeVisible();
  await expect(page.getByText(/^Last updated \d{1,2} \w+ \d{4}$/)).toBeVisible();
  await expect(page.getByText('<script>window.__pwned = 1; document.title = "pwned"</script>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page).not.toHaveTitle('pwned');
});

test('with a renamed site, a banner, sponsors and a saved policy, the public pages and the settings page hydrate without warnings', async ({
  page,
  browser,
}) => {
  await signInSettingsAdmin(page.request, server);
  await putSection(page.request, server, 'general', { siteName: 'Acme Debug' });
  await putSection(page.request, server, 'announcement', {
    enabled: true,
    text: 'Hydration *check*',
    tone: 'info',
    linkLabel: 'More',
    linkUrl: 'https://example.com',
  });
  const watch = collectPageProblems(page);
  await open(page, '/admin/settings');
  await expect(page.getByRole('form', { name: 'Sponsors' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(watch.problems).toEqual([]);

  const context = await browser.newContext();
  const visitor = await context.newPage();
  try {
    for (const path of ['/', '/sponsor', '/privacy-policy', '/register', '/login']) {
      const problems = collectPageProblems(visitor);
      const response = await visitor.goto(`${server.origin}${path}`);
      expect(response?.status()).toBe(200);
      await waitForHydration(visitor);
      await visitor.waitForLoadState('networkidle');
      expect({ path, problems: problems.problems }).toEqual({ path, problems: [] });
      problems.stop();
      await expect(visitor).toHaveTitle(/Acme Debug/);
    }
  } finally {
    await context.close();
    await putSection(page.request, server, 'general', { siteName: 'Hitscope' });
    await putSection(page.request, server, 'announcement', { enabled: false, text: '', tone: 'info', linkLabel: '', linkUrl: '' });
  }
});
