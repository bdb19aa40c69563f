import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, request, test } from '@playwright/test';
import type { SubscriptionResponse, SubscriptionView } from '../../../lib/api/billing.js';
import { ROUTE_TABLE } from '../../../lib/routes/route-table.js';
import { csrfToken, signInAsAdmin, signUp, waitForHydration } from '../fixtures.js';
import { grantAndActivate, licencesInEveryState } from '../licences-setup.js';
import { serveFakeHistory } from '../tools-ga4mp-history.js';
import {
  accessibilityViolations,
  cspViolations,
  defaultLookingControls,
  horizontalOverflow,
  overlappingText,
  recordCspViolations,
} from './layout-checks.js';

/*
 * The layout suite: every route, for every role that can see it, at desktop, tablet and phone
 * width, in light and dark mode, must not scroll sideways, must not leave a control in the
 * browser's default look, must not draw text over text, and must have no serious or critical
 * axe-core violation. A few screens are also checked in the state a user reaches with one action
 * (a decoded link, an analysed HAR…), because that is where most of a tool's markup lives.
 * Set LAYOUT_SCREENSHOTS=1 to keep a full-page screenshot of every combination for review.
 */

type Role = 'anonymous' | 'user' | 'admin';

interface Screen {
  id: string;
  path: string;
  roles: readonly Role[];
  status?: number;
  /** Brings the page into the state to check, after it has loaded. */
  act?: (page: Page) => Promise<void>;
}

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const FIXTURES = join(process.cwd(), 'test/fixtures');
const SCREENSHOTS = join(process.cwd(), 'test-results', 'layout');

function rolesOf(middleware: readonly string[]): Role[] {
  if (middleware.includes('guest')) return ['anonymous'];
  if (middleware.includes('admin')) return ['admin'];
  if (middleware.includes('auth')) return ['user', 'admin'];
  return ['anonymous', 'user', 'admin'];
}

const routeScreens: Screen[] = ROUTE_TABLE.filter((route) => !route.path.endsWith('/*')).map((route) => ({
  id: route.id,
  path: route.path,
  // Signing out ends the session the other checks need: /logout is checked as the visitor sees it.
  roles: route.path === '/logout' ? ['anonymous'] : rolesOf(route.middleware),
}));

const pathOf = (id: string) => ROUTE_TABLE.find((route) => route.id === id)!.path;

const RUNNING: SubscriptionView = {
  id: 'sub_layout',
  planId: 'team-monthly',
  products: ['hitscope-for-apps', 'hitscope-for-browsers'],
  quantity: 1,
  seats: 5,
  status: 'active',
  cancelAtPeriodEnd: false,
  cancelAt: null,
  currentPeriodEnd: '2030-01-15T12:00:00.000Z',
  trialEnd: null,
};
const RUNNING_SUBSCRIPTION: SubscriptionResponse = { subscription: RUNNING, subscriptions: [RUNNING], purchases: [] };

const SCREENS: Screen[] = [
  ...routeScreens,
  { id: 'not-found', path: '/this-page-does-not-exist', roles: ['anonymous', 'user', 'admin'], status: 404 },
  { id: 'tool-unknown', path: '/dashboard/tools/not-a-tool', roles: ['user'], status: 404 },
  {
    id: 'tool-ga4mp+messages',
    path: pathOf('tool-ga4mp'),
    roles: ['user'],
    act: async (page) => {
      await page.getByLabel('Measurement ID').fill('not-a-measurement-id');
      await page.getByLabel('API secret', { exact: true }).fill('secret');
      await page.getByLabel('Add event from template').selectOption('purchase');
      await page.getByRole('button', { name: 'Add event', exact: true }).click();
      await expect(page.getByRole('region', { name: 'Validation' }).getByText('measurement_id').first()).toBeVisible();
    },
  },
  {
    // Twelve sends (two pages, the shared Pager), served in place of the API: the suite cannot reach GA4.
    id: 'tool-ga4mp+history',
    path: pathOf('tool-ga4mp'),
    roles: ['user'],
    act: async (page) => {
      await serveFakeHistory(page, 12);
      await page.reload();
      await waitForHydration(page);
      await expect(page.getByRole('navigation', { name: 'History pages' })).toBeVisible();
    },
  },
  {
    id: 'tool-linker+decoded',
    path: pathOf('tool-linker'),
    roles: ['user'],
    act: async (page) => {
      await page.getByRole('button', { name: 'Fill in an example' }).click();
      await page.getByRole('button', { name: 'Decode', exact: true }).click();
      await expect(page.getByRole('table').first()).toBeVisible();
    },
  },
  {
    id: 'tool-linker+encoded',
    path: pathOf('tool-linker'),
    roles: ['user'],
    act: async (page) => {
      await page.getByRole('tab', { name: 'Encode' }).click();
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect(page.getByRole('region', { name: 'Generated link' })).toBeVisible();
    },
  },
  {
    id: 'tool-browsers+analysed',
    path: pathOf('tool-browsers'),
    roles: ['user'],
    act: async (page) => {
      await page.getByLabel('HAR file').setInputFiles(join(FIXTURES, 'har/shop-session.har'));
      const hits = page.getByRole('list', { name: 'Analytics hits' });
      // The first row is the Google tag that loaded: open the first hit.
      await hits
        .getByRole('button', { name: /page_view/ })
        .first()
        .click();
      await expect(page.getByRole('region', { name: 'page_view' })).toBeVisible();
    },
  },
  {
    // Many vendors grouped by kind, secondary and container rows, a request that is not a valid hit open.
    id: 'tool-browsers+many-vendors',
    path: pathOf('tool-browsers'),
    roles: ['user'],
    act: async (page) => {
      await page.getByLabel('HAR file').setInputFiles(join(FIXTURES, 'har/multi-vendor.har'));
      await page
        .getByRole('list', { name: 'Analytics hits' })
        .getByRole('button', { name: /malformed/ })
        .click();
      await expect(page.getByRole('region', { name: 'page view' }).getByRole('note')).toBeVisible();
    },
  },
  {
    id: 'tool-apps+analysed',
    path: pathOf('tool-apps'),
    roles: ['user'],
    act: async (page) => {
      await page.getByLabel('Log file').setInputFiles(join(FIXTURES, 'applog/android-logcat-threadtime.txt'));
      await expect(page.getByRole('table', { name: 'Event stream' })).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    // With runs to show (a fresh database has none): the chart and the table by tool and action.
    id: 'admin-analytics+usage',
    path: pathOf('admin-analytics'),
    roles: ['admin'],
    act: async (page) => {
      const token = await csrfToken(page.request);
      for (const tool of ['har', 'applog', 'har']) {
        expect((await page.request.post('/api/tools/usage', { data: { tool }, headers: { 'x-csrf-token': token } })).status()).toBe(204);
      }
      await page.reload();
      await waitForHydration(page);
      await expect(page.getByRole('region', { name: 'Tool usage' }).getByRole('table')).toBeVisible();
    },
  },
  {
    id: 'admin-users+panel',
    path: pathOf('admin-users'),
    roles: ['admin'],
    act: async (page) => {
      await page
        .getByRole('button', { name: /^Manage / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expect(page.getByRole('dialog').getByRole('heading', { name: 'Recent activity' })).toBeVisible();
    },
  },
  {
    id: 'admin-users+confirm',
    path: pathOf('admin-users'),
    roles: ['admin'],
    act: async (page) => {
      await page
        .getByRole('button', { name: /^Manage / })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(dialog.getByRole('group')).toBeVisible();
    },
  },
  {
    id: 'admin-users+refusal',
    path: pathOf('admin-users'),
    roles: ['admin'],
    act: async (page) => {
      // The refusal itself comes from a stand-in: the layout only depends on how it is shown.
      await page.route('**/api/admin/users/*/role', (route) =>
        route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            statusCode: 409,
            error: 'Conflict',
            message: 'Hitscope needs at least one active admin. Make another user an admin first.',
          }),
        }),
      );
      await page
        .getByRole('button', { name: /^Manage / })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      const role = dialog.getByLabel('Role', { exact: true });
      await role.selectOption((await role.inputValue()) === 'admin' ? 'user' : 'admin');
      await dialog.getByRole('button', { name: 'Change role' }).click();
      await dialog.getByRole('group').getByRole('button').first().click();
      await expect(dialog.getByRole('region', { name: 'Access' }).getByRole('alert')).toBeVisible();
      await page.unroute('**/api/admin/users/*/role');
    },
  },
  {
    // A release in the list (its table once pushed the page sideways at tablet width).
    id: 'admin-settings+releases',
    path: pathOf('admin-settings'),
    roles: ['admin'],
    act: async (page) => {
      const body = Buffer.from('layout release build '.repeat(200));
      const uploaded = await page.request.post('/api/admin/releases', {
        headers: { 'x-csrf-token': await csrfToken(page.request) },
        multipart: {
          product: 'hitscope-for-apps',
          platform: 'windows',
          arch: 'x64',
          channel: 'beta',
          version: `9.${Date.now()}.0`,
          size: String(body.length),
          notes: 'Layout check',
          file: { name: 'hitscope-setup.exe', mimeType: 'application/octet-stream', buffer: body },
        },
      });
      expect(uploaded.status()).toBe(201);
      await page.reload();
      await expect(page.getByRole('button', { name: /^Yank / }).first()).toBeVisible();
    },
  },
  {
    id: 'admin-settings+rule-error',
    path: pathOf('admin-settings'),
    roles: ['admin'],
    act: async (page) => {
      await page.getByRole('button', { name: 'Add rule' }).click();
      const source = page.getByRole('textbox', { name: /^Source of rule/ }).last();
      await source.fill('no-slash');
      await page
        .getByRole('textbox', { name: /^Target of rule/ })
        .last()
        .fill('javascript:alert(1)');
      await page.getByRole('button', { name: 'Save rules' }).click();
      await expect(source).toHaveAttribute('aria-invalid', 'true');
    },
  },
  {
    // A licence with two devices (a fresh account has none); granted once, on the first width.
    id: 'user-licenses+data',
    path: pathOf('user-licenses'),
    roles: ['user'],
    act: async (page) => {
      await withLicence(page);
      await expect(page.getByRole('article').getByRole('table')).toBeVisible();
    },
  },
  {
    // Past due with grace, revoked, a key that cannot be shown, a released device: served in place of the API.
    // Stubbed answers reach the page through a client-side navigation: a server render reads the
    // services directly, so the states start from a page that does not load the same data.
    id: 'user-licenses+states',
    path: pathOf('user-profile'),
    roles: ['user'],
    act: async (page) => {
      await page.route('**/api/licences', (route) => route.fulfill({ json: licencesInEveryState() }));
      await viaSidebar(page, 'Licences');
      await expect(page.getByRole('article')).toHaveCount(2);
    },
  },
  {
    id: 'user-licenses+deactivate',
    path: pathOf('user-licenses'),
    roles: ['user'],
    act: async (page) => {
      await withLicence(page);
      await page
        .getByRole('button', { name: /^Deactivate / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    // Orders recorded by an admin (the one way to have orders without Stripe): the table with receipts.
    id: 'user-orders+orders',
    path: pathOf('user-orders'),
    roles: ['user'],
    act: async (page) => {
      if (!(await page.getByRole('region', { name: 'No orders yet' }).count())) return;
      const me = (await (await page.request.get('/api/auth/me')).json()) as { id: string };
      const admin = await request.newContext({ baseURL: new URL(page.url()).origin });
      await signInAsAdmin(admin);
      for (const planId of ['team-yearly', 'solo-lifetime']) {
        const recorded = await admin.post('/api/admin/billing/orders', {
          data: { userId: me.id, planId, note: 'Paid by bank transfer' },
          headers: { 'x-csrf-token': await csrfToken(admin) },
        });
        expect(recorded.status()).toBe(201);
      }
      await admin.dispose();
      await page.reload();
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    // The browser server has no Stripe: billing configured and a running subscription are stand-ins.
    // "Choose Team" on the home page, a client-side link to the subscription page with the plan chosen.
    id: 'user-subscription+picker',
    path: pathOf('home'),
    roles: ['user'],
    act: async (page) => {
      await page.route('**/api/billing/status', (route) => route.fulfill({ json: { configured: true } }));
      await page.getByRole('link', { name: 'Choose Team', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Continue to checkout' })).toBeVisible();
    },
  },
  {
    id: 'user-subscription+active',
    path: pathOf('user-profile'),
    roles: ['user'],
    act: async (page) => {
      await page.route('**/api/billing/status', (route) => route.fulfill({ json: { configured: true } }));
      await page.route('**/api/billing/subscription', (route) => route.fulfill({ json: RUNNING_SUBSCRIPTION }));
      await viaSidebar(page, 'Subscription');
      await page.getByRole('button', { name: 'Change plan' }).click();
      await expect(page.getByRole('dialog', { name: 'Change plan' })).toBeVisible();
    },
  },
  {
    id: 'lounge+admin-only-notice',
    path: pathOf('lounge'),
    roles: ['user'],
    act: async (page) => {
      await page.goto(pathOf('admin'));
      await expect(page.getByRole('status').filter({ hasText: 'The admin area is for admins only' })).toBeVisible();
    },
  },
];

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'parallel' });

/** A client-side navigation through the dashboard's sidebar (behind "Menu" on narrow screens). */
async function viaSidebar(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await waitForHydration(page);
}

/** Gives the signed-in user a licence with two active devices unless they have one, and shows it. */
async function withLicence(page: Page): Promise<void> {
  const { licences } = (await (await page.request.get('/api/licences')).json()) as { licences: unknown[] };
  if (licences.length === 0) await grantAndActivate(page.request, new URL(page.url()).origin);
  await page.reload();
  await waitForHydration(page);
}

async function signIn(page: Page, role: Role): Promise<void> {
  if (role === 'user') await signUp(page.request, 'layout');
  if (role === 'admin') await signInAsAdmin(page.request);
}

/** Loaded, hydrated, data fetched, no skeleton or busy region left. */
async function settle(page: Page): Promise<void> {
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"], .skeleton').filter({ visible: true })).toHaveCount(0);
}

test.describe('layout: every screen, role, width and colour mode (and no CSP violation)', () => {
  for (const screen of SCREENS) {
    for (const role of screen.roles) {
      test(`${screen.id} (${role})`, async ({ page }) => {
        test.setTimeout(120_000);
        await signIn(page, role);
        await recordCspViolations(page);
        const problems: string[] = [];
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          await page.emulateMedia({ colorScheme: 'light' });
          const response = await page.goto(screen.path);
          expect(response?.status(), `${screen.path} as ${role}`).toBe(screen.status ?? 200);
          const url = new URL(page.url());
          expect(url.pathname + url.search, `${screen.path} as ${role} is not redirected`).toBe(screen.path);
          await settle(page);
          await screen.act?.(page);
          await settle(page);
          problems.push(...(await cspViolations(page)).map((violation) => `${viewport.name} ${viewport.width}px: ${violation}`));
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
            const found = [
              ...(await horizontalOverflow(page)),
              ...(await defaultLookingControls(page)),
              ...(await overlappingText(page)),
              // Structure does not change with the colour scheme; contrast does.
              ...(await accessibilityViolations(page, { contrastOnly: scheme === 'dark' })),
            ];
            problems.push(...found.map((problem) => `${viewport.name} ${viewport.width}px, ${scheme}: ${problem}`));
            if (found.length || process.env.LAYOUT_SCREENSHOTS) {
              mkdirSync(SCREENSHOTS, { recursive: true });
              await page.screenshot({
                path: join(SCREENSHOTS, `${screen.id}-${role}-${viewport.name}-${scheme}.png`),
                fullPage: true,
                animations: 'disabled',
              });
            }
          }
        }
        expect(problems, `layout problems on ${screen.path} as ${role}`).toEqual([]);
      });
    }
  }
});
