import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { createHash } from 'node:crypto';
import type { OwnedLicenceList } from '../../lib/api/licences.js';
import { analyseHar, parseHar } from '../../lib/tools/har/analyse.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { csrfToken, gotoHydrated, signInAsAdmin, signUp } from '../browser/fixtures.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import {
  expect,
  expectHits,
  type Extension,
  HOME_CONTAINERS,
  HOME_HIT_COUNT,
  HOME_ROWS,
  HOME_SECONDARY,
  openPanel,
  openShop,
  SHOP,
  tabIdOf,
  test,
} from './fixtures.js';

const BROWSERS = COMPANION_PRODUCTS.browsers.slug;
const DAY = 24 * 3600 * 1000;

/** A licence for Hitscope for Browsers, granted by the admin to a new user; returns its key and id. */
async function grantLicence(baseURL: string, seats: number): Promise<{ key: string; id: string; user: APIRequestContext }> {
  const user = await playwrightRequest.newContext({ baseURL });
  const { user: me } = await signUp(user, 'extension-licence');
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await signInAsAdmin(admin);
    const granted = await admin.post(`/api/admin/users/${me.id}/licences`, {
      data: { planId: 'team', products: [BROWSERS], seats, note: 'extension suite' },
      headers: { 'x-csrf-token': await csrfToken(admin) },
    });
    expect(granted.status(), 'grant a licence').toBe(201);
  } finally {
    await admin.dispose();
  }
  const { licences } = (await (await user.get('/api/licences')).json()) as OwnedLicenceList;
  const licence = licences.find((each) => each.product === BROWSERS)!;
  return { key: licence.key!, id: licence.id, user };
}

async function revoke(baseURL: string, licenceId: string) {
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await signInAsAdmin(admin);
    const response = await admin.post(`/api/admin/licences/${licenceId}/revoke`, { headers: { 'x-csrf-token': await csrfToken(admin) } });
    expect(response.status(), await response.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
}

async function openOptions(extension: Extension, clock?: number): Promise<Page> {
  const page = await extension.context.newPage();
  if (clock !== undefined) await page.clock.install({ time: clock });
  await page.goto(`chrome-extension://${extension.id}/options.html`);
  await expect(page.getByRole('heading', { name: 'Licence' })).toBeVisible();
  return page;
}

async function setSite(options: Page, siteUrl: string) {
  await options.getByLabel('Hitscope site').fill(siteUrl);
  await options.getByRole('button', { name: 'Save site' }).click();
  await expect(options.getByText(`Licences are checked against ${siteUrl}`)).toBeVisible();
}

const status = (options: Page) => options.getByTestId('licence-status');

test.describe('licence', () => {
  let proxy: TcpProxy;
  test.beforeEach(async ({ baseURL }) => {
    // The site as the extension reaches it: a proxy that can be cut, as when the site is down.
    const { port } = new URL(baseURL!);
    proxy = new TcpProxy('127.0.0.1', Number(port));
    await proxy.start();
  });
  test.afterEach(async () => {
    await proxy.cut();
  });

  test('a key unlocks validation and export; the HAR opens in the web analyser with the same hits; offline within grace, then the free tier; revoked, free at once', async ({
    extension,
    baseURL,
  }) => {
    const site = `http://127.0.0.1:${proxy.port}`;
    const { key, id } = await grantLicence(baseURL!, 2);
    const shop = await openShop(extension);
    await shop.click('#accept');
    const tabId = await tabIdOf(extension, SHOP);

    const options = await openOptions(extension);
    await expect(status(options)).toHaveCount(0);
    await setSite(options, site);
    await expect(status(options)).toContainText('Free');
    await options.getByLabel('Licence key').fill(key.toLowerCase().replace(/-/g, ' '));
    await options.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect(status(options)).toContainText('Licensed');
    await expect(status(options)).toContainText('Plan team, 2 seats');

    const panel = await openPanel(extension, tabId);
    await expectHits(panel, HOME_HIT_COUNT + 1);
    await expect(panel.getByRole('button', { name: 'Licensed' })).toBeVisible();
    await panel.getByRole('radio', { name: /^Warnings/ }).click();
    const groups = panel.locator('.warnings-view__groups > li');
    await expect(groups.filter({ hasText: 'Hits before the consent default' })).toContainText('Hit #1');
    await expect(groups.filter({ hasText: 'Identifiers sent after consent was denied' })).toContainText(
      'client id fb.1.1764320000000.111222333',
    );
    await expect(groups.filter({ hasText: 'Universal Analytics hits (sunset)' })).toBeVisible();

    // Export HAR: the web analyser (the site's real page) decodes the same hits from it.
    const harDownload = panel.waitForEvent('download');
    await panel.getByRole('button', { name: 'HAR' }).click();
    const harFile = await (await harDownload).path();
    await expect(
      panel.getByText(`Exported ${HOME_HIT_COUNT + 1} hits and ${HOME_SECONDARY + HOME_CONTAINERS} other requests as HAR`),
    ).toBeVisible();
    const har = parseHar(await readFile(harFile!, 'utf8'));
    const { hits: rows, summary } = analyseHar(har);
    expect(rows).toHaveLength(HOME_ROWS + 1);
    expect({ hits: summary.hits, secondary: summary.secondary, containers: summary.containers }).toEqual({
      hits: HOME_HIT_COUNT + 1,
      secondary: HOME_SECONDARY,
      containers: HOME_CONTAINERS,
    });
    const csvDownload = panel.waitForEvent('download');
    await panel.getByRole('button', { name: 'CSV' }).click();
    const csv = await readFile((await (await csvDownload).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      '\ufeff"Hit","Time (UTC)","Page load","Page","Vendor","Event","Account","Client ID","Status","Consent","Warnings","Parameter","Key","Value"',
    );
    expect(csv).toContain('"Google Analytics 4","view_item","G-SHOP0001"');

    const web = await extension.context.newPage();
    await signUp(web.request, 'extension-har');
    await gotoHydrated(web, '/dashboard/tools/hitscope-for-browsers');
    await web.getByLabel('HAR file').setInputFiles(harFile!);
    // The site and the extension count alike (issue 25): hits apart from secondary requests and container loads.
    await expect(web.getByTestId('har-hit-count')).toHaveText(`${HOME_HIT_COUNT + 1} analytics hits`);
    await expect(web.getByTestId('har-secondary-count')).toHaveText(`${HOME_SECONDARY} secondary requests`);
    await expect(web.getByTestId('har-container-count')).toHaveCount(HOME_CONTAINERS ? 1 : 0);
    const counts = panel.getByTestId('capture-counts');
    await expect(counts).toContainText(new RegExp(`^${HOME_HIT_COUNT + 1} hits · ${HOME_SECONDARY + HOME_CONTAINERS} other requests · `));
    await expect(counts.getByText('other requests')).toHaveAttribute(
      'title',
      `${HOME_SECONDARY} secondary requests: decoded and listed, not counted as hits`,
    );
    await panel.getByRole('radio', { name: 'Timeline' }).click();
    const optionsOf = (page: Page, label: string) =>
      page.getByRole('combobox', { name: label, exact: true }).locator('option').allTextContents();
    expect(await optionsOf(web, 'Vendor')).toEqual(await optionsOf(panel, 'Vendor'));
    const panelEvents = new Set(await optionsOf(panel, 'Event'));
    for (const event of (await optionsOf(web, 'Event')).slice(1)) expect(panelEvents, event).toContain(event);

    // The site stops: the stored lease keeps the licence (it lasts 7 days), and says the site was not reached.
    await proxy.cut();
    await options.getByRole('button', { name: 'Check now' }).click();
    await expect(status(options)).toContainText('Licensed (offline)');
    await expect(status(options)).toContainText('The site could not be reached');
    // Eight days on (past the lease, inside its 7 days of grace): still licensed, with a notice.
    const inGrace = await openOptions(extension, Date.now() + 8 * DAY);
    await expect(status(inGrace)).toContainText('Licensed (offline)');
    const panelInGrace = await extension.context.newPage();
    await panelInGrace.clock.install({ time: Date.now() + 8 * DAY });
    await panelInGrace.goto(`chrome-extension://${extension.id}/sidepanel.html?tab=${tabId}`);
    await expect(panelInGrace.getByText(/The licence could not be confirmed with the site since .* it keeps working until/)).toBeVisible();
    await expect(panelInGrace.getByRole('button', { name: 'HAR' })).toBeEnabled();
    // Fifteen days on: past the grace, the free tier (capture and decoding go on).
    const pastGrace = await extension.context.newPage();
    await pastGrace.clock.install({ time: Date.now() + 15 * DAY });
    await pastGrace.goto(`chrome-extension://${extension.id}/sidepanel.html?tab=${tabId}`);
    await expectHits(pastGrace, HOME_HIT_COUNT + 1);
    await expect(pastGrace.getByTestId('licence-problem')).toContainText('could not be confirmed for too long');
    await expect(pastGrace.getByRole('button', { name: 'HAR' })).toBeDisabled();

    // Back online, the licence is revoked: the next check says so and the free tier takes over at once.
    await proxy.restore();
    await revoke(baseURL!, id);
    await options.getByRole('button', { name: 'Check now' }).click();
    await expect(status(options)).toContainText('Not active');
    await expect(status(options)).toContainText('REVOKED');
    await panel.reload();
    await expect(panel.getByRole('button', { name: 'Free' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'HAR' })).toBeDisabled();
    await expectHits(panel, HOME_HIT_COUNT + 1);
  });

  test('the seat limit: a licence whose seats are taken refuses this browser; deactivating gives a seat back', async ({
    extension,
    baseURL,
  }) => {
    const site = `http://127.0.0.1:${proxy.port}`;
    const { key, user } = await grantLicence(baseURL!, 1);
    // Another device holds the only seat.
    const other = createHash('sha256').update('extension suite: another laptop').digest('hex');
    const taken = await user.post('/api/v1/licenses/activate', {
      data: { key, product: BROWSERS, fingerprint: other, name: 'Another laptop' },
    });
    expect(((await taken.json()) as { code: string }).code).toBe('VALID');

    const options = await openOptions(extension);
    await setSite(options, site);
    await options.getByLabel('Licence key').fill(key);
    await options.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect(status(options)).toContainText('Not active');
    await expect(status(options)).toContainText('NO_SEATS_LEFT');

    // The other device lets its seat go; this browser takes it, then gives it back from the extension.
    const released = await user.post('/api/v1/licenses/deactivate', { data: { key, product: BROWSERS, fingerprint: other } });
    expect(((await released.json()) as { code: string }).code).toBe('DEACTIVATED');
    await options.getByLabel('Licence key').fill(key);
    await options.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect(status(options)).toContainText('Licensed');
    const seatsUsed = async () => ((await (await user.get('/api/licences')).json()) as OwnedLicenceList).licences[0]!.seatsUsed;
    expect(await seatsUsed()).toBe(1);
    await options.getByRole('button', { name: 'Deactivate this browser' }).click();
    await expect(options.getByText('This browser’s seat is free again')).toBeVisible();
    await expect(status(options)).toContainText('Free');
    expect(await seatsUsed()).toBe(0);
    await user.dispose();
  });
});
