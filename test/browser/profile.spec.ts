import { expect, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, loginViaApi, signUp, waitForHydration } from './fixtures.js';
import { tinyPng } from '../support/png.js';

test.describe('profile screen', () => {
  test('renames the account, uploads an avatar, and deletes the account after confirmation', async ({ page }) => {
    const problems = collectPageProblems(page);
    const { password } = await signUp(page.request, 'profile');
    await gotoHydrated(page, '/dashboard/user/profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');

    await page.getByLabel('Name').fill('Renamed In Browser');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByText('Profile saved')).toBeVisible();
    await expect(page.locator('.shell__user-name')).toHaveText('Renamed In Browser');

    await page.getByLabel('Upload an image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    await expect(page.getByText('Avatar updated')).toBeVisible();
    const avatar = page.getByRole('img', { name: 'Your avatar' });
    await expect(avatar).toBeVisible();
    // The element is laid out before its bytes arrive: wait until the browser has finished with
    // the image (loaded or broken), then check that it decoded the uploaded 1×1 picture.
    await expect(avatar).toHaveJSProperty('complete', true);
    expect(await avatar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);

    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel('Type DELETE').fill('DELETE');
    await page.getByRole('form', { name: 'Delete account' }).getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page).toHaveURL('/');
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    expect(problems.problems).toEqual([]);
  });

  test('a wrong current password is shown under the "Current password" field, not only in a toast', async ({ page }) => {
    await signUp(page.request, 'wrongcurrent');
    await gotoHydrated(page, '/dashboard/user/profile');
    const form = page.getByRole('form', { name: 'Password' });
    await form.getByLabel('Current password').fill('not my password at all');
    await form.getByLabel('New password').fill('a brand new long passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();

    const current = form.getByLabel('Current password');
    await expect(current).toHaveAttribute('aria-invalid', 'true');
    await expect(current).toHaveAccessibleDescription('Your current password is not correct');
    await expect(form.getByLabel('New password')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('region', { name: 'Notifications' })).not.toContainText('Your current password is not correct');
  });

  test('changing the password says in words how many other sessions were signed out', async ({ page, request }) => {
    const account = await signUp(page.request, 'plural');
    await loginViaApi(request, account); // a second session, in another cookie jar
    await gotoHydrated(page, '/dashboard/user/profile');
    const form = page.getByRole('form', { name: 'Password' });
    await form.getByLabel('Current password').fill(account.password);
    await form.getByLabel('New password').fill(`${account.password} renewed`);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password changed; 1 other session was signed out' })).toBeVisible();
    await expect(form.getByLabel('Current password')).toHaveValue('');
  });

  test('the uploaded avatar replaces the initial in the header, on this page and after a reload', async ({ page }) => {
    await signUp(page.request, 'avatar');
    await gotoHydrated(page, '/dashboard/user/profile');
    const headerAvatar = page.locator('.shell__user img');
    await expect(headerAvatar).toHaveCount(0);

    await page.getByLabel('Upload an image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    await expect(page.getByText('Avatar updated')).toBeVisible();
    await expect(headerAvatar).toHaveAttribute('src', /^\/api\/avatars\/[0-9a-f]{24}$/);

    await page.reload();
    await waitForHydration(page);
    await expect(headerAvatar).toHaveAttribute('src', /^\/api\/avatars\/[0-9a-f]{24}$/);
    await expect.poll(() => headerAvatar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  });

  test('the avatar picker is a keyboard stop with its hint and errors linked to it', async ({ page }) => {
    await signUp(page.request, 'picker');
    await gotoHydrated(page, '/dashboard/user/profile');
    const input = page.getByLabel('Upload an image');
    await expect(input).toHaveAccessibleDescription('PNG, JPEG or WebP, up to 1 MB.');

    await page.getByRole('button', { name: 'Save details' }).focus();
    await page.keyboard.press('Tab');
    await expect(input).toBeFocused();
    const button = page.locator('label').filter({ hasText: 'Upload an image' });
    await expect(button).toHaveCSS('outline-style', 'solid');

    await input.setInputFiles({ name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<html><body>not an image</body></html>') });
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription('PNG, JPEG or WebP, up to 1 MB. The avatar must be a PNG, JPEG or WebP image');

    // Too large: refused before a megabyte is sent.
    let uploads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/profile/avatar') uploads += 1;
    });
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([tinyPng(), Buffer.alloc(1024 * 1024)]) });
    await expect(input).toHaveAccessibleDescription('PNG, JPEG or WebP, up to 1 MB. The image must be 1 MB or smaller');
    expect(uploads).toBe(0);
  });
});
