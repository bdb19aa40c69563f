import { expect, type Page, test } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { insertConfirmedSubscribers } from '../../scripts/fixtures/confirmed-subscribers.mjs';
import type { NewsletterSettings, NewsletterSettingsAnswer } from '../../lib/api/newsletter-campaigns.js';
import { browserServerDatabaseUri, csrfToken, gotoHydrated, signInAsAdmin } from './fixtures.js';

/** Confirmed subscribers written straight into the browser server's list. */
async function seedConfirmed(prefix: string, count: number): Promise<void> {
  const client = await MongoClient.connect(browserServerDatabaseUri(), { maxPoolSize: 1 });
  try {
    await insertConfirmedSubscribers(
      client.db(),
      Array.from({ length: count }, (_, index) => `${prefix}-${index}@hitscope.test`),
    );
  } finally {
    await client.close();
  }
}

/**
 * Sets the transport's per-second limit (null: none) and answers the settings it replaced. With no
 * limit a hundred recipients can go out between two progress updates, so the tests that watch the
 * numbers move pace the sending, as an admin would for a mail server with a limit.
 */
async function setPerSecondLimit(page: Page, maxPerSecond: number | null): Promise<NewsletterSettings> {
  const current = (await (await page.request.get('/api/admin/newsletter/settings')).json()) as NewsletterSettingsAnswer;
  const response = await page.request.put('/api/admin/newsletter/settings', {
    data: { ...current.settings, maxPerSecond },
    headers: { 'x-csrf-token': await csrfToken(page.request) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return current.settings;
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const count = async (page: Page, label: string) =>
  Number(
    (await page.locator('.campaign-detail__counts > div').filter({ hasText: label }).locator('dd').first().innerText()).replace(/\D/g, ''),
  );

// One after the other: each campaign goes to every confirmed subscriber, the other's included.
test.describe.configure({ mode: 'serial' });

for (const colorScheme of ['light', 'dark'] as const) {
  test(`compose → preview → test → send, with the progress moving to the end (${colorScheme})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme });
    const prefix = `campaign-${colorScheme}-${Date.now().toString(36)}`;
    await seedConfirmed(prefix, 100);
    await signInAsAdmin(page.request);
    const before = await setPerSecondLimit(page, 20);
    try {
      await composeAndSend(page, prefix);
    } finally {
      await setPerSecondLimit(page, before.maxPerSecond);
    }
  });
}

/** The whole path of one campaign, from the empty editor to "Sent" in the list. */
async function composeAndSend(page: Page, prefix: string): Promise<void> {
  await gotoHydrated(page, '/admin/newsletter');
  const campaigns = page.getByRole('region', { name: 'Campaigns' });
  await expect(campaigns).toBeVisible();
  await campaigns.getByRole('button', { name: 'New campaign' }).click();

  const subject = `Release notes ${prefix}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message (Markdown)').fill('# What is new\n\n- Faster **HAR** analysis\n- See [pricing](/pricing)');
  // The live preview, beside the editor on a wide screen.
  const preview = page.getByRole('article', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'What is new' })).toBeVisible();
  await expect(preview.getByText('Faster', { exact: false })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'pricing' })).toHaveAttribute('href', '/pricing');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(toasts(page).getByText('Draft saved')).toBeVisible();
  await expect(page).toHaveURL(/[?&]campaign=[\w-]{12}/);
  await expect(page.getByText('All changes saved')).toBeVisible();

  await page.getByLabel('Send a test to').fill('proof-reader@hitscope.test');
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(toasts(page).getByText('Test message sent to proof-reader@hitscope.test')).toBeVisible();

  const send = page.getByRole('button', { name: /^Send to [\d,]+ confirmed subscribers$/ });
  await expect(send).toBeEnabled();
  const recipients = Number((await send.innerText()).replace(/\D/g, ''));
  expect(recipients).toBeGreaterThanOrEqual(100);
  await send.click();
  const dialog = page.getByRole('dialog', { name: 'Send this campaign?' });
  await expect(dialog).toContainText(subject);
  await dialog.getByRole('button', { name: 'Send now' }).click();
  await expect(toasts(page).getByText('Sending started')).toBeVisible();

  // The progress view: numbers that move while it sends, then settle at "sent".
  await expect(page.getByRole('heading', { level: 2, name: subject })).toBeVisible();
  const bar = page.getByRole('progressbar', { name: 'Recipients done' });
  await expect(bar).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        seen.add(await count(page, 'Sent'));
        return seen.size;
      },
      { timeout: 60_000, intervals: [200] },
    )
    .toBeGreaterThanOrEqual(3);
  await expect(page.locator('.campaign-detail .campaign-state')).toHaveText('Sent', { timeout: 90_000 });
  // The snapshot is taken at "Send now": a subscriber confirmed meanwhile by another test is in it too.
  const sent = await count(page, 'Sent');
  expect(sent).toBeGreaterThanOrEqual(recipients);
  expect(await count(page, 'Queued')).toBe(0);
  await expect(bar).toHaveAttribute(
    'aria-valuetext',
    new RegExp(`^${sent.toLocaleString('en-GB')} of ${sent.toLocaleString('en-GB')} recipients done \\(100%\\)$`),
  );
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);

  // Back to the list: the campaign with its state and counts.
  await page.getByRole('button', { name: '← Campaigns' }).click();
  const row = page.locator('.campaigns__table tbody tr').filter({ hasText: subject });
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();
  await expect(row).toContainText(`${sent.toLocaleString('en-GB')} / ${sent.toLocaleString('en-GB')}`);
}

test('on a phone the editor has Write and Preview tabs and nothing overflows', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInAsAdmin(page.request);
  await gotoHydrated(page, '/admin/newsletter?campaign=new');
  await page.getByLabel('Subject').fill('Phone draft');
  await page.getByLabel('Message (Markdown)').fill('## Small screens\n\nStill readable.');
  const preview = page.getByRole('article', { name: 'Preview' });
  await expect(preview).toBeHidden();
  await page.getByText('Preview', { exact: true }).first().click();
  await expect(preview.getByRole('heading', { name: 'Small screens' })).toBeVisible();
  await expect(page.getByLabel('Message (Markdown)')).toBeHidden();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});
