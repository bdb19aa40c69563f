import { expect, type Page, test } from '@playwright/test';
import type { CatalogueResponse } from '../../lib/api/catalogue.js';
import { planLabel, planPriceText, seatsText } from '../../lib/catalogue/plan-text.js';
import { formatDate } from '../../lib/format/date.js';
import { collectPageProblems, waitForHydration } from './fixtures.js';
import { type SettingsServer, signInSettingsAdmin, startSettingsServer } from './site-settings-server.js';

/** The terms are global: a server of this suite's own (site-settings-server.ts), tests in order. */
test.describe.configure({ mode: 'serial' });

let server: SettingsServer;
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const open = async (page: Page, path: string) => {
  const response = await page.goto(`${server.origin}${path}`);
  await waitForHydration(page);
  return response;
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startSettingsServer();
});

test.afterAll(async () => {
  await server?.stop();
});

test('/terms states the plans on sale from the catalogue and explains the right of withdrawal at #withdrawal', async ({
  page,
  request,
}) => {
  const problems = collectPageProblems(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, '/terms#withdrawal');
    // The section Checkout's consent text links to: its heading is where the page opens.
    const heading = page.getByRole('heading', { level: 2, name: 'Right of withdrawal' });
    await expect(heading).toHaveAttribute('id', 'withdrawal');
    await expect(heading).toBeInViewport();
  }
  const article = page.getByRole('article', { name: 'Terms of service' });
  await expect(article).toContainText(
    'Stripe Checkout asks you to agree to these terms and to confirm that you want your licence delivered straight away',
  );
  await expect(page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Right of withdrawal' })).toHaveAttribute(
    'href',
    '#withdrawal',
  );

  // Every plan on sale, as the catalogue has it: price and period, seats.
  const { plans } = (await (await request.get(`${server.origin}/api/catalogue`)).json()) as CatalogueResponse;
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    await expect(
      article.getByRole('listitem').filter({ hasText: `${planLabel(plan)}: ${planPriceText(plan)}, ${seatsText(plan.seats)}` }),
    ).toHaveCount(1);
  }
  await expect(article).not.toContainText('{{');
  await expect(article.getByRole('link', { name: 'legal@hitscope.dev' }).first()).toHaveAttribute('href', 'mailto:legal@hitscope.dev');
  problems.stop();
  expect(problems.problems).toEqual([]);
});

test('/admin/settings edits the terms (placeholders previewed, #withdrawal kept) and the contact addresses; /terms shows them with the date', async ({
  page,
}) => {
  await signInSettingsAdmin(page.request, server);

  // The contact addresses: what {{legalEmail}} becomes.
  await open(page, '/admin/settings#contact');
  const contact = page.getByRole('form', { name: 'Contact addresses' });
  await contact.getByLabel('Legal questions').fill('not an address');
  await contact.getByRole('button', { name: 'Save' }).click();
  await expect(contact.getByLabel('Legal questions')).toHaveAttribute('aria-invalid', 'true');
  await contact.getByLabel('Legal questions').fill('contracts@acme.example');
  await contact.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Contact addresses saved', { exact: true })).toBeVisible();

  const form = page.getByRole('form', { name: 'Terms of service' });
  await form.scrollIntoViewIfNeeded();
  await expect(form.getByText('The default terms of a fresh install')).toBeVisible();
  const markdown = form.getByLabel('Terms (Markdown)');
  await expect(markdown).toHaveValue(/## Right of withdrawal \{#withdrawal\}/);

  // Without the withdrawal section: refused, said beside the field.
  await markdown.fill('## Our terms\n\nSeats: {{seats}}. Write to {{legalEmail}}.');
  const preview = form.getByRole('group', { name: 'Preview of the terms' });
  await expect(preview).toContainText('Seats: Solo 1 seat, Team 5 seats');
  await expect(preview.getByRole('link', { name: 'contracts@acme.example' })).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(markdown).toHaveAccessibleDescription(/Keep the section on the right of withdrawal/);
  await expect(notifications(page).getByText('Terms of service not saved', { exact: false })).toBeVisible();

  await markdown.fill(
    '## Our terms\n\nSeats: {{seats}}. Write to {{legalEmail}}.\n\n## Changing your mind {#withdrawal}\n\nYou may withdraw.',
  );
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(notifications(page).getByText('Terms of service saved', { exact: true })).toBeVisible();
  await expect(form.getByText(`Last updated ${formatDate(new Date())}`)).toBeVisible();

  const problems = collectPageProblems(page);
  await open(page, '/terms#withdrawal');
  await expect(page.getByText(`Last updated ${formatDate(new Date())}`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Changing your mind' })).toHaveAttribute('id', 'withdrawal');
  await expect(page.getByText('Seats: Solo 1 seat, Team 5 seats')).toBeVisible();
  await expect(page.getByRole('link', { name: 'contracts@acme.example' })).toHaveAttribute('href', 'mailto:contracts@acme.example');
  problems.stop();
  expect(problems.problems).toEqual([]);
});
