import { expect, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';
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
    expect(await avatar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);

    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel('Type DELETE').fill('DELETE');
    await page.getByRole('form', { name: 'Delete account' }).getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page).toHaveURL('/');
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    expect(problems.problems).toEqual([]);
  });
});
