import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';

const PATH = '/dashboard/tools/ga4mp';

test.describe('GA4 Measurement Protocol workbench', () => {
  test('composes from a template, validates live and on the server, keeps the raw JSON in sync', async ({ page }) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'ga4mp');
    await gotoHydrated(page, PATH);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('GA4 Measurement Protocol');

    // A fresh page: a page_view with a generated client id, but no credentials yet. Nothing is an error
    // before the user has touched it: the panel lists the fields still to fill in.
    const validation = page.getByRole('region', { name: 'Validation' });
    await expect(validation.getByText('2 fields still to fill in')).toBeVisible();
    await expect(validation.getByRole('button', { name: 'query.measurement_id' })).toBeVisible();
    await expect(page.getByText('VALUE_REQUIRED')).toHaveCount(0);
    await expect(page.getByLabel('Client ID (client_id)')).toHaveValue(/^\d+\.\d{10}$/);
    await page.getByLabel('Measurement ID').fill('G-K3TQ8Y2P7L');
    await page.getByLabel('API secret', { exact: true }).fill('xVbN3kLqR2sTzW9yU1aE4d');
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();

    // Add GA4's recommended purchase event from the templates.
    await page.getByLabel('Add event from template').selectOption('purchase');
    await page.getByRole('button', { name: 'Add event', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Event 2 purchase' })).toBeVisible();
    const raw = page.getByLabel('Measurement Protocol JSON body');
    await expect(raw).toHaveValue(/"transaction_id": "T_12345"/);
    await expect(page.getByRole('textbox', { name: 'item_id value' })).toHaveValue('SKU_12345');

    // A bad event name shows GA4's message, linked to the field; fixing it clears the message.
    const secondName = page.getByLabel('Event name').nth(1);
    await secondName.fill('_purchase');
    const message = validation.getByText(
      'Event at index: [1] has invalid name [_purchase]. Names must start with an alphabetic character.',
    );
    await expect(message).toBeVisible();
    await validation.getByRole('button', { name: 'events[1].name' }).click();
    await expect(secondName).toBeFocused();
    await secondName.fill('purchase');
    await expect(message).toBeHidden();
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();

    // Raw JSON edits update the form; broken JSON is reported without losing the form.
    const body = JSON.parse(await raw.inputValue()) as { events: { name: string }[] };
    body.events[0]!.name = 'sign_up';
    await raw.fill(JSON.stringify(body, null, 2));
    await expect(page.getByLabel('Event name').first()).toHaveValue('sign_up');
    await raw.fill('{ "events": [');
    await expect(page.getByText(/^Invalid JSON: .*The form keeps the last valid payload\.$/)).toBeVisible();
    await expect(page.getByLabel('Event name').first()).toHaveValue('sign_up');
    await page.getByLabel('Event name').first().fill('login');
    await expect(page.getByText(/^Invalid JSON/)).toBeHidden();
    await expect(raw).toHaveValue(/"name": "login"/);

    // Duplicate keys in the raw JSON are GA4's NAME_DUPLICATED.
    await raw.fill(
      (await raw.inputValue()).replace('"transaction_id": "T_12345",', '"transaction_id": "T_12345", "transaction_id": "T_2",'),
    );
    await expect(validation.getByText('NAME_DUPLICATED')).toBeVisible();
    await page.getByRole('button', { name: 'Format' }).click();
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();

    await page.getByRole('button', { name: 'Validate on server' }).click();
    await expect(page.getByText('Server validation: the payload is valid')).toBeVisible();
    await expect(validation.getByText('Server validation: valid, same as the live check.')).toBeVisible();

    // History starts empty.
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.getByRole('heading', { name: 'No payloads sent yet' })).toBeVisible();

    // An invalid payload is not sent; the page says why and offers to send anyway.
    await page.getByLabel('Event name').first().fill('session_start');
    await page.getByRole('button', { name: 'Send to debug' }).click();
    await expect(page.getByRole('region', { name: 'Response' }).getByText('Not sent: the payload has 1 validation message.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send anyway' })).toBeVisible();

    // The API secret is remembered in this tab per measurement id, never in the page's HTML.
    await gotoHydrated(page, PATH);
    await page.getByLabel('Measurement ID').fill('G-K3TQ8Y2P7L');
    await expect(page.getByLabel('API secret', { exact: true })).toHaveValue('xVbN3kLqR2sTzW9yU1aE4d');

    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('switches to an app stream with an app instance id', async ({ page }) => {
    await signUp(page.request, 'ga4mp-app');
    await gotoHydrated(page, PATH);
    await page.getByText('App (Firebase)').click();
    await expect(page.getByLabel('App instance ID (app_instance_id)')).toHaveValue(/^[0-9a-f]{32}$/);
    await page.getByLabel('Firebase app ID').fill('1:582736451029:android:3f9a2c7e1b4d6a80');
    await page.getByLabel('API secret', { exact: true }).fill('secret');
    await expect(page.getByText('Valid: no validation messages.')).toBeVisible();
    await page.getByLabel('App instance ID (app_instance_id)').fill('not-hex');
    await expect(page.getByText(/app_instance_id \[not-hex\] is invalid/).first()).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`screenshot for review (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await signUp(page.request, `ga4mp-shot-${scheme}`);
      await gotoHydrated(page, PATH);
      await page.getByLabel('Measurement ID').fill('G-K3TQ8Y2P7L');
      await page.getByLabel('Add event from template').selectOption('purchase');
      await page.getByRole('button', { name: 'Add event', exact: true }).click();
      await page.getByLabel('Event name').first().fill('_page_view');
      await expect(page.getByRole('heading', { name: 'No payloads sent yet' })).toBeVisible();
      const folder = join(process.cwd(), 'test-results', 'screenshots');
      mkdirSync(folder, { recursive: true });
      const shot = (name: string) => page.screenshot({ path: join(folder, `ga4mp-${name}-${scheme}.png`), animations: 'disabled' });
      await shot('top');
      await page.getByRole('heading', { name: 'Event 2 purchase' }).scrollIntoViewIfNeeded();
      await shot('events');
      await page.getByRole('heading', { name: 'No payloads sent yet' }).scrollIntoViewIfNeeded();
      await shot('history');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot('mobile-top');
      await page.getByRole('heading', { name: 'Event 2 purchase' }).scrollIntoViewIfNeeded();
      await shot('mobile-events');
      await page.getByRole('heading', { name: 'Validation' }).scrollIntoViewIfNeeded();
      await shot('mobile-validation');
    });
  }
});
