import { expect, test } from '@playwright/test';
import { gotoHydrated, newsletterConfirmLinkFor, signInAsAdmin, uniqueEmail } from './fixtures.js';

test('home page sign-up → mailed link → one-button confirm page → the admin list shows the subscriber as confirmed', async ({ page }) => {
  const email = uniqueEmail('newsletter');
  await gotoHydrated(page, '/');
  const form = page.getByRole('form', { name: 'Newsletter sign-up' });
  await form.getByLabel('E-mail address').fill(email);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Almost there' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Check your inbox to confirm your subscription.'),
  ).toBeVisible();

  // Opening the link only shows the page; the button confirms.
  await gotoHydrated(page, await newsletterConfirmLinkFor(email));
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription confirmed' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Your subscription is confirmed. Thank you!');

  await signInAsAdmin(page.request);
  await gotoHydrated(page, '/admin/newsletter');
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible();
  await page.getByLabel('Search e-mail').fill(email);
  const row = page.locator('.subscribers__table tbody tr').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(row.getByText('Home page')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /subscribers\.csv\?q=/);
});

test('the home form shows the field messages of a refused sign-up', async ({ page }) => {
  await gotoHydrated(page, '/');
  const form = page.getByRole('form', { name: 'Newsletter sign-up' });
  await form.getByLabel('E-mail address').fill('not an address');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(form.getByText('Tick the box to agree to receive the newsletter')).toBeVisible();
});
