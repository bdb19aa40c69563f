import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';
import { serveFakeHistory } from './tools-ga4mp-history.js';
import { LIVE_RUN_SETTLE_MS } from '../../lib/tools/tool-usage.js';

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

  test("the validation behaviour choice writes validation_behavior and applies GA4's strict checks live", async ({ page }) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'ga4mp-strict');
    await gotoHydrated(page, PATH);
    await page.getByLabel('Measurement ID').fill('G-K3TQ8Y2P7L');
    await page.getByLabel('API secret', { exact: true }).fill('xVbN3kLqR2sTzW9yU1aE4d');
    const validation = page.getByRole('region', { name: 'Validation' });
    const raw = page.getByLabel('Measurement Protocol JSON body');
    const behaviour = page.getByLabel('Validation behaviour');
    await expect(behaviour).toHaveValue('RELAXED');
    await page.getByLabel('Client ID (client_id)').fill('18');
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();

    await behaviour.selectOption('ENFORCE_RECOMMENDATIONS');
    await expect(raw).toHaveValue(/"validation_behavior": "ENFORCE_RECOMMENDATIONS"/);
    await expect(validation.getByText('client_id [18] has invalid format. It should be in <number>.<number> format.')).toBeVisible();
    await expect(page.getByText('Also checks the client_id format', { exact: false })).toBeVisible();
    await page.getByLabel('Client ID (client_id)').fill('1719384726.1795390000');
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();
    // A purchase without its required parameters is refused in strict mode only.
    const body = JSON.parse(await raw.inputValue()) as { events: unknown[] };
    body.events.push({ name: 'purchase', params: { value: 23 } });
    await raw.fill(JSON.stringify(body, null, 2));
    await expect(validation.getByText('3 validation messages')).toBeVisible();
    await expect(validation.getByRole('button', { name: 'events[1].params.transaction_id' })).toBeVisible();

    await behaviour.selectOption('RELAXED');
    await expect(raw).not.toHaveValue(/validation_behavior/);
    await expect(validation.getByText('Valid: no validation messages.')).toBeVisible();
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('a fresh payload lists the fields still to fill in; a field shows its messages once touched, all of them on a check or a send', async ({
    page,
  }) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'ga4mp-touched');
    await gotoHydrated(page, PATH);
    const validation = page.getByRole('region', { name: 'Validation' });
    await expect(validation.getByText('2 fields still to fill in')).toBeVisible();
    await expect(page.getByText('VALUE_REQUIRED')).toHaveCount(0);
    await expect(page.getByLabel('Measurement ID')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Fill in the 2 fields listed under Validation first.')).toBeVisible();

    // Leaving an empty field touches it: its message shows, the other field is still pending.
    await page.getByLabel('Measurement ID').focus();
    await page.getByLabel('API secret', { exact: true }).focus();
    await expect(page.getByLabel('Measurement ID')).toHaveAttribute('aria-invalid', 'true');
    await expect(validation.getByText('1 validation message')).toBeVisible();
    await expect(validation.getByText('Measurement ID is required for a web stream.', { exact: false })).toBeVisible();
    await expect(validation.getByText('Also 1 field still to fill in')).toBeVisible();

    // An empty event is pending too, not an error, until it is checked (leaving the secret touched it).
    await page.getByRole('button', { name: 'Add empty event' }).click();
    await expect(validation.getByText('2 validation messages')).toBeVisible();
    await expect(validation.getByText('Also 1 field still to fill in')).toBeVisible();
    await expect(validation.getByRole('button', { name: 'events[1].name' })).toBeVisible();
    await expect(page.getByText('Event at index: [1] has no name.')).toHaveCount(0);
    await validation.getByRole('button', { name: 'Check now' }).click();
    await expect(validation.getByText('3 validation messages')).toBeVisible();
    await expect(page.getByText('Event at index: [1] has no name.').first()).toBeVisible();
    await expect(validation.getByText(/still to fill in/)).toHaveCount(0);

    // Sending checks everything as well.
    await gotoHydrated(page, PATH);
    await page.getByRole('button', { name: 'Send to debug' }).click();
    await expect(
      page.getByRole('region', { name: 'Response' }).getByText('Not sent: the payload has 2 validation messages.'),
    ).toBeVisible();
    await expect(validation.getByText('2 validation messages')).toBeVisible();
    await expect(page.getByLabel('API secret', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('on a phone, a status bar stays in view above the form and jumps to the validation panel', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page.request, 'ga4mp-phone');
    await gotoHydrated(page, PATH);
    const show = page.getByRole('button', { name: 'Show the fields to fill in' });
    await expect(show).toBeInViewport();
    await page.getByRole('heading', { name: 'Event 1 page_view' }).scrollIntoViewIfNeeded();
    await expect(show).toBeInViewport();
    await page.getByLabel('Event name').first().fill('_page_view');
    const showMessages = page.getByRole('button', { name: 'Show the validation messages' });
    await expect(showMessages).toBeInViewport();
    await expect(page.getByText('1 validation message').first()).toBeInViewport();
    await showMessages.click();
    const heading = page.getByRole('heading', { name: 'Validation', exact: true });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(page.getByRole('region', { name: 'Validation' }).getByRole('button', { name: 'events[0].name' })).toBeInViewport();
  });

  test('parameter values get the width of the event, and long text values wrap instead of scrolling out of sight', async ({ page }) => {
    await signUp(page.request, 'ga4mp-values');
    await gotoHydrated(page, PATH);
    const location = page.getByRole('textbox', { name: 'page_location value' });
    const name = page.getByRole('textbox', { name: 'parameter name' }).first();
    const event = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Event 1 page_view' }) });
    const [valueBox, eventBox] = [await location.boundingBox(), await event.boundingBox()];
    expect(valueBox!.width).toBeGreaterThan(eventBox!.width * 0.85);
    await expect(name).toHaveValue('page_location');
    const long = `https://shop.example.com/collections/summer/products/stan-and-friends-tee?utm_source=newsletter&utm_medium=email&utm_campaign=${'x'.repeat(60)}`;
    const oneLine = valueBox!.height;
    await location.fill(long);
    await expect(location).toHaveValue(long);
    const grown = await location.boundingBox();
    expect(grown!.height).toBeGreaterThan(oneLine * 1.8);
    expect(await location.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });

  test('the side column fits the viewport: the raw JSON editor ends on screen and scrolls inside itself', async ({ page }) => {
    await signUp(page.request, 'ga4mp-side');
    await gotoHydrated(page, PATH);
    await page.getByLabel('Add event from template').selectOption('purchase');
    await page.getByRole('button', { name: 'Add event', exact: true }).click();
    await page.evaluate(() => window.scrollTo(0, 600));
    const raw = page.getByLabel('Measurement Protocol JSON body');
    await expect(raw).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('button', { name: 'Format' })).toBeInViewport({ ratio: 1 });
    expect(await raw.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await expect(page.getByRole('complementary', { name: 'Validation, sending and raw JSON' }).getByText(/^\d+ lines$/)).toBeVisible();
  });

  test('the history pages through sent payloads with the shared pager, and a replay checks the whole payload', async ({ page }) => {
    await signUp(page.request, 'ga4mp-history');
    await serveFakeHistory(page, 12);
    await gotoHydrated(page, PATH);
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.getByText('12 payloads sent, newest first')).toBeVisible();
    await expect(history.getByRole('button', { name: /^Replay / })).toHaveCount(10);
    const pager = history.getByRole('navigation', { name: 'History pages' });
    await expect(pager).toContainText('Page 1 of 2');
    await expect(pager.getByRole('button', { name: 'Newer' })).toBeDisabled();
    await pager.getByRole('button', { name: 'Older' }).click();
    await expect(pager).toContainText('Page 2 of 2');
    await expect(history.getByRole('button', { name: /^Replay / })).toHaveCount(2);
    await expect(history.getByText(/sent with 1 validation message\b/).first()).toBeVisible();

    await history
      .getByRole('button', { name: /^Replay purchase/ })
      .first()
      .click();
    await expect(page.getByText('Payload loaded from history: type the API secret to send it')).toBeVisible();
    await expect(page.getByLabel('Measurement ID')).toHaveValue('G-K3TQ8Y2P7L');
    await expect(page.getByLabel('Event name').first()).toHaveValue('purchase');
    // A replayed payload is complete: what is missing (the secret) is an error at once, not pending.
    const validation = page.getByRole('region', { name: 'Validation' });
    await expect(validation.getByText('1 validation message')).toBeVisible();
    await expect(validation.getByRole('button', { name: 'query.api_secret' })).toBeVisible();
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

  test('at 1280x800 the validation list of a payload with many messages keeps a readable window in view', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUp(page.request, 'ga4mp-layout');
    await gotoHydrated(page, PATH);
    const events = Array.from({ length: 8 }, (_, index) => ({ name: `_bad${index}`, params: { [`_x${index}`]: 1 } }));
    await page.getByLabel('Measurement Protocol JSON body').fill(JSON.stringify({ client_id: '1.2', events }, null, 2));
    const validation = page.getByRole('region', { name: 'Validation' });
    await expect(validation.getByText(/^\d+ validation messages$/)).toBeVisible();
    const list = validation.locator('.ga4mp-validation__body');
    const box = (await list.boundingBox())!;
    // Four times the 40 px slit it was, wholly inside the window, with two whole messages in it.
    expect(box.height).toBeGreaterThanOrEqual(160);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    const visible = await list
      .locator('.ga4mp-message')
      .evaluateAll((items, bottom) => items.filter((item) => item.getBoundingClientRect().bottom <= bottom).length, box.y + box.height);
    expect(visible).toBeGreaterThanOrEqual(2);
    // The list scrolls to its last message; the send buttons are still in view.
    expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await expect(page.getByRole('button', { name: 'Send to debug' })).toBeInViewport();
  });

  test('counts the live validation as one run per settled payload, not per keystroke, and none for an untouched page', async ({ page }) => {
    const reports: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/tools/usage') && request.method() === 'POST') reports.push(request.postDataJSON());
    });
    await signUp(page.request, 'ga4mp-usage');
    await gotoHydrated(page, PATH);
    await page.waitForTimeout(LIVE_RUN_SETTLE_MS + 500);
    expect(reports).toEqual([]);

    // Typing a measurement id letter by letter is one run, counted once the payload stays still.
    await page.getByLabel('Measurement ID').pressSequentially('G-K3TQ8Y2P7L', { delay: 60 });
    expect(reports).toEqual([]);
    await expect.poll(() => reports.length, { timeout: LIVE_RUN_SETTLE_MS + 3000 }).toBe(1);
    expect(reports[0]).toEqual({ tool: 'ga4mp' });
    await page.waitForTimeout(LIVE_RUN_SETTLE_MS + 500);
    expect(reports).toHaveLength(1);

    // A change back and forth to the payload already counted is not another run; a new payload is.
    const name = page.getByLabel('Event name').first();
    await name.fill('page_viewx');
    await name.fill('page_view');
    await page.waitForTimeout(LIVE_RUN_SETTLE_MS + 500);
    expect(reports).toHaveLength(1);
    await name.fill('login');
    await expect.poll(() => reports.length, { timeout: LIVE_RUN_SETTLE_MS + 3000 }).toBe(2);
  });
});
