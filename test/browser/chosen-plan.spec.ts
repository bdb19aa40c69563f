import { expect, type Page, test } from '@playwright/test';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { collectPageProblems, confirmationLinkFor, gotoHydrated, newCredentials, waitForHydration } from './fixtures.js';

const SUBSCRIPTION = '/dashboard/user/subscription';
const registerFor = (plan: string) => `/register?redirect=${encodeURIComponent(`${SUBSCRIPTION}?plan=${plan}`)}`;
const chosen = (page: Page) => page.getByRole('region', { name: 'Your chosen plan' });
const BOTH = `${COMPANION_PRODUCTS.apps.name} and ${COMPANION_PRODUCTS.browsers.name}`;

test.describe('the plan chosen on the pricing, through sign-up', () => {
  test('the register page names the plan from the catalogue, keeps it through sign-in and the e-mailed link, and lands on it', async ({
    page,
    request,
  }) => {
    // Server-rendered: the plan is named in the HTML before any script runs.
    const html = await (await request.get(registerFor('team-monthly'))).text();
    expect(html).toContain('Your chosen plan');
    expect(html).toContain('€29 per month');

    const problems = collectPageProblems(page);
    await gotoHydrated(page, '/');
    // The home page's "Choose Team" (monthly): whatever its words, it is the link to sign up with that plan.
    await page.locator(`a[href="${registerFor('team-monthly')}"]`).click();
    await expect(page).toHaveURL(registerFor('team-monthly'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    await expect(chosen(page)).toContainText('Team (monthly): €29 per month');
    await expect(chosen(page)).toContainText(`5 seats · ${BOTH}`);
    await expect(chosen(page)).toContainText('continue to checkout with this plan');

    // "Sign in" keeps the plan, and names it too.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Sign in/);
    await expect(chosen(page)).toContainText('Team (monthly): €29 per month');
    await page.goBack();
    await waitForHydration(page);

    const credentials = newCredentials('chosen-plan');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect(chosen(page)).toContainText('Team (monthly): €29 per month');

    // The link, in this browser: signed in, on the subscription page with the plan chosen (its checkout).
    await page.goto(await confirmationLinkFor(credentials.email));
    await waitForHydration(page);
    await expect(page).toHaveURL(`${SUBSCRIPTION}?plan=team-monthly`);
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('a one-off plan is named with its one-off price; a plan that is not on sale is not named', async ({ page }) => {
    await gotoHydrated(page, registerFor('solo-lifetime'));
    await expect(chosen(page)).toContainText('Solo lifetime: €199 one-off');
    await expect(chosen(page)).toContainText(`1 seat · ${BOTH}`);

    await gotoHydrated(page, registerFor('no-such-plan'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    await expect(chosen(page)).toHaveCount(0);
    await gotoHydrated(page, '/register');
    await expect(chosen(page)).toHaveCount(0);
  });
});
