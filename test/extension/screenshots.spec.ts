import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { accessibilityViolations } from '../browser/layout/layout-checks.js';
import { expect, expectHits, HOME_HIT_COUNT, openPanel, openShop, SHOP, tabIdOf, test } from './fixtures.js';

const OUT = join(process.cwd(), 'test-results/screenshots/extension');
/** HITSCOPE_UPDATE_SCREENSHOTS=1 also writes the tool page's pictures (client/public/images), which are committed. */
const TOOL_PAGE_IMAGES = process.env.HITSCOPE_UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'client/public/images') : null;

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'nothing wider than the panel').toBeLessThanOrEqual(clientWidth);
}

test.describe('panel in both colour modes and both widths', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme}: wide and 360 px side panel, with a real capture, pass axe and fit their width`, async ({ extension }) => {
      mkdirSync(OUT, { recursive: true });
      const shop = await openShop(extension);
      await shop.click('#accept');
      const tabId = await tabIdOf(extension, SHOP);

      const wide = await openPanel(extension, tabId, { width: 1280, height: 800, colorScheme: scheme });
      await expectHits(wide, HOME_HIT_COUNT + 1);
      await wide.getByLabel('Event').selectOption('view_item');
      await wide.getByRole('button', { name: /view_item · batch 1\/2/ }).click();
      await wide.getByLabel('Event').selectOption('');
      await expect(wide.locator('.panel__detail').getByRole('heading', { name: 'view_item' })).toBeVisible();
      await wide.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
      expect(await accessibilityViolations(wide)).toEqual([]);
      const widePath = join(OUT, `panel-wide-${scheme}.png`);
      await wide.screenshot({ path: widePath });
      if (TOOL_PAGE_IMAGES) {
        mkdirSync(TOOL_PAGE_IMAGES, { recursive: true });
        copyFileSync(widePath, join(TOOL_PAGE_IMAGES, `hitscope-for-browsers-panel-${scheme}.png`));
      }
      await wide.getByRole('radio', { name: 'Consent' }).click();
      expect(await accessibilityViolations(wide)).toEqual([]);
      await wide.screenshot({ path: join(OUT, `panel-wide-consent-${scheme}.png`) });

      const narrow = await openPanel(extension, tabId, { width: 360, height: 720, colorScheme: scheme });
      await expectHits(narrow, HOME_HIT_COUNT + 1);
      await expectNoSidewaysScroll(narrow);
      expect(await accessibilityViolations(narrow)).toEqual([]);
      await narrow.screenshot({ path: join(OUT, `sidepanel-360-${scheme}.png`) });
      await narrow.getByLabel('Search').fill('view_item');
      await narrow.getByRole('button', { name: /view_item · batch 1\/2/ }).click();
      await expectNoSidewaysScroll(narrow);
      await narrow.screenshot({ path: join(OUT, `sidepanel-360-detail-${scheme}.png`) });
      await narrow.getByRole('button', { name: 'Close hit details' }).click();
      await narrow.getByRole('radio', { name: 'Consent' }).click();
      await expectNoSidewaysScroll(narrow);
      expect(await accessibilityViolations(narrow)).toEqual([]);
      await narrow.screenshot({ path: join(OUT, `sidepanel-360-consent-${scheme}.png`) });

      const options = await extension.context.newPage();
      await options.emulateMedia({ colorScheme: scheme });
      await options.setViewportSize({ width: 900, height: 900 });
      await options.goto(`chrome-extension://${extension.id}/options.html`);
      await expect(options.getByRole('heading', { name: 'Licence' })).toBeVisible();
      expect(await accessibilityViolations(options)).toEqual([]);
      await options.screenshot({ path: join(OUT, `options-${scheme}.png`), fullPage: true });
    });
  }
});
