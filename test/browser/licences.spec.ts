import { expect, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';
import { APPS, DEVICES, grantAndActivate } from './licences-setup.js';

const PATH = '/dashboard/user/licenses';

test.describe('licences screen', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('shows a granted licence, copies its key, and frees a seat by deactivating a device after confirmation', async ({
    page,
    baseURL,
  }) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'licences');
    const before = await grantAndActivate(page.request, baseURL!);
    const key = before.licences[0].key!;

    await gotoHydrated(page, PATH);
    const card = page.getByRole('article', { name: APPS.name });
    await expect(card).toBeVisible();
    await expect(card.getByText('Team plan')).toBeVisible();
    await expect(card.locator('.licence__status')).toHaveText('Active');
    await expect(card.getByLabel(`Licence key for ${APPS.name}`)).toHaveValue(key);
    await expect(card.getByText('2 of 3 seats in use')).toBeVisible();
    await expect(card.getByRole('progressbar', { name: 'Seats' })).toHaveAttribute('aria-valuetext', '2 of 3 seats in use');

    // From the keyboard: the button is reachable and works with Enter.
    await card.getByRole('button', { name: `Copy the licence key for ${APPS.name}` }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Licence key copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const devices = card.getByRole('table');
    for (const device of DEVICES) {
      const row = devices.getByRole('row').filter({ hasText: device.name });
      await expect(row).toContainText(device.platform);
      await expect(row).toContainText(device.appVersion);
      await expect(row).toContainText('Active');
    }

    const [laptop] = DEVICES;
    await card.getByRole('button', { name: `Deactivate ${laptop.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate ${laptop.name}?` });
    await expect(dialog).toContainText('will need to be activated again');
    await expect(dialog).toContainText('You can deactivate 10 more devices on this licence this month.');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `${laptop.name} deactivated` })).toBeVisible();
    const laptopRow = devices.getByRole('row').filter({ hasText: laptop.name });
    await expect(laptopRow).toContainText('Deactivated');
    await expect(laptopRow.getByRole('button')).toHaveCount(0);
    await expect(card.getByText('1 of 3 seats in use')).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Devices' })).toBeFocused();

    const after = (await (await page.request.get('/api/licences')).json()) as typeof before;
    expect(after.licences[0].seatsUsed).toBe(1);
    expect(after.licences[0].deactivationsLeftThisMonth).toBe(9);
    expect(problems.problems).toEqual([]);
  });

  test('cancelling the confirmation keeps the device and its seat', async ({ page, baseURL }) => {
    await signUp(page.request, 'licences-cancel');
    await grantAndActivate(page.request, baseURL!, { devices: DEVICES.slice(0, 1) });
    await gotoHydrated(page, PATH);
    const opener = page.getByRole('button', { name: `Deactivate ${DEVICES[0].name}` });
    await opener.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByText('1 of 3 seats in use')).toBeVisible();
  });

  test('a refused deactivation is explained in the confirmation and in a toast, and the device keeps its seat', async ({
    page,
    baseURL,
  }) => {
    await signUp(page.request, 'licences-refused');
    await grantAndActivate(page.request, baseURL!, { devices: DEVICES.slice(0, 1) });
    const message = 'This licence has used up its deactivations for this month. Contact support to reset it.';
    await page.route('**/api/licences/*/activations/*/deactivate', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 409, error: 'Conflict', message, code: 'DEACTIVATION_LIMIT' }),
      }),
    );
    await gotoHydrated(page, PATH);
    await page.getByRole('button', { name: `Deactivate ${DEVICES[0].name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(message);
    await expect(page.getByRole('alert').filter({ hasText: `Could not deactivate ${DEVICES[0].name}` })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('row').filter({ hasText: DEVICES[0].name })).toContainText('Active');
    await expect(page.getByText('1 of 3 seats in use')).toBeVisible();
  });

  test('the first load is rendered with the licences on the server: key and devices in the HTML, no skeleton', async ({
    page,
    baseURL,
  }) => {
    await signUp(page.request, 'licences-ssr');
    const granted = await grantAndActivate(page.request, baseURL!);
    const html = await (await page.request.get(PATH)).text();
    expect(html).toContain(granted.licences[0].key!);
    for (const device of DEVICES) expect(html).toContain(device.name);
    expect(html).not.toContain('aria-busy="true"');
    // And the orders page likewise shows its empty state straight away.
    const orders = await (await page.request.get('/dashboard/user/orders')).text();
    expect(orders).toContain('No orders yet');
  });

  test('a user without licences sees the empty state with a way to the pricing', async ({ page }) => {
    await signUp(page.request, 'licences-empty');
    await gotoHydrated(page, PATH);
    await expect(page.getByRole('heading', { name: 'No licences yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/#pricing-title');
  });

  test('a failed load says so and retries', async ({ page }) => {
    await signUp(page.request, 'licences-error');
    let fail = true;
    await page.route('**/api/licences', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The database is not reachable' }),
          })
        : route.continue(),
    );
    // The server render reads the licences without HTTP, so the failure is met on a client-side
    // navigation: the route loader's prefetch and then the page's own request both get the 503.
    await gotoHydrated(page, '/dashboard/user/profile');
    await page.getByRole('navigation').getByRole('link', { name: 'Licences' }).click();
    await expect(page).toHaveURL(new RegExp(`${PATH}$`));
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load your licences' });
    await expect(alert).toBeVisible({ timeout: 20_000 });
    fail = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'No licences yet' })).toBeVisible();
  });

  test('the lounge glances at the licences', async ({ page, baseURL }) => {
    await signUp(page.request, 'licences-lounge');
    await gotoHydrated(page, '/dashboard/lounge');
    const glance = page.getByRole('region', { name: 'Licences' });
    await expect(glance).toContainText('No licence yet');
    await grantAndActivate(page.request, baseURL!, { devices: [] });
    await gotoHydrated(page, '/dashboard/lounge');
    await expect(glance).toContainText('1 active licence');
    await glance.getByRole('link').click();
    await expect(page).toHaveURL(PATH);
    await expect(page.getByRole('article', { name: APPS.name })).toBeVisible();
  });
});
