import { expect, type Page, test } from '@playwright/test';
import { gotoHydrated, signUp } from './fixtures.js';

async function expectPageBasics(page: Page): Promise<void> {
  await expect(page.locator('h1'), 'exactly one h1').toHaveCount(1);
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toHaveCount(1);
  await expect(skip).toHaveAttribute('href', '#main');
  await expect(page.locator('#main'), 'the skip link target').toHaveCount(1);
  await expect(page.locator('html')).toHaveAttribute('lang', /^en/);
  expect((await page.title()).length).toBeGreaterThan(0);
}

test.describe('accessibility basics', () => {
  for (const path of ['/', '/login', '/register', '/sponsor', '/privacy-policy', '/terms']) {
    test(`${path}: one h1, a working skip link, a language and a title`, async ({ page }) => {
      await gotoHydrated(page, path);
      await expectPageBasics(page);
    });
  }

  test('/dashboard/lounge (signed in): one h1, a working skip link, a language and a title', async ({ page }) => {
    await signUp(page.request, 'a11y');
    await gotoHydrated(page, '/dashboard/lounge');
    await expectPageBasics(page);
  });

  test('the skip link is the first stop of the keyboard and moves focus to the content', async ({ page }) => {
    await gotoHydrated(page, '/sponsor');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible(); // visible when focused
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });

  test('every input of /login and /register has a label', async ({ page }) => {
    await gotoHydrated(page, '/login');
    await expect(page.getByLabel('E-mail')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
    await expectEveryInputLabelled(page);

    await gotoHydrated(page, '/register');
    await expect(page.getByLabel('Name')).toHaveAttribute('name', 'name');
    await expect(page.getByLabel('E-mail')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
    await expect(page.getByRole('checkbox', { name: /I accept the terms/ })).toHaveCount(1);
    await expect(page.getByRole('checkbox', { name: /newsletter/ })).toHaveCount(1);
    await expectEveryInputLabelled(page);
  });

  test("the keyboard reaches the sign-in form's submit button with Tab", async ({ page }) => {
    await gotoHydrated(page, '/login');
    const submit = page.getByRole('button', { name: 'Sign in' });
    let reached = false;
    for (let presses = 0; presses < 25 && !reached; presses += 1) {
      await page.keyboard.press('Tab');
      reached = await submit.evaluate((button) => button === document.activeElement);
    }
    expect(reached, 'Tab reaches the submit button within 25 presses').toBe(true);
    await expect(submit).toBeFocused();
  });
});

/** Every visible form control has an accessible name (label, aria-label or aria-labelledby). */
async function expectEveryInputLabelled(page: Page): Promise<void> {
  const controls = page.locator('main input:not([type=hidden]), main select, main textarea');
  const count = await controls.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const control = controls.nth(index);
    const name = await control.getAttribute('name');
    await expect(control, `input "${name}" has an accessible name`).toHaveAccessibleName(/\S/);
  }
}
