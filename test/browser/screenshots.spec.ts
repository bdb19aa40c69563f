import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signInAsAdmin, waitForHydration } from './fixtures.js';

// Full-page screenshots for manual review, not compared with anything. test-results/ is gitignored.
const OUT_DIR = join(process.cwd(), 'test-results', 'screenshots');

const SHOTS: Array<{ name: string; path: string; status: number }> = [
  { name: 'home', path: '/', status: 200 },
  { name: 'login', path: '/login', status: 200 },
  { name: '404', path: '/this-does-not-exist', status: 404 },
  { name: 'lounge', path: '/dashboard/lounge', status: 200 },
  { name: 'admin', path: '/admin', status: 200 },
];

test.describe('screenshots for review', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`full pages in ${scheme} mode`, async ({ page }) => {
      mkdirSync(OUT_DIR, { recursive: true });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      for (const shot of SHOTS) {
        // /login is for visitors only: sign in (as the admin, who can see /admin) after it.
        if (shot.name === 'lounge') await signInAsAdmin(page.request);
        const response = await page.goto(shot.path);
        expect(response?.status(), shot.path).toBe(shot.status);
        expect(new URL(page.url()).pathname, shot.path).toBe(shot.path);
        await waitForHydration(page);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(OUT_DIR, `${shot.name}-${scheme}.png`), fullPage: true, animations: 'disabled' });
      }
    });
  }
});
