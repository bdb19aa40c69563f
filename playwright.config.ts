import { defineConfig } from '@playwright/test';

/**
 * Browser suite (`npm run test:browser`): Debian's Chromium (never a downloaded browser) against the
 * production build, served by test/support/browser-server.mjs with a database of its own per run.
 */
const port = Number(process.env.HITSCOPE_BROWSER_PORT ?? 3987);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/playwright',
  // Tests are independent (own browser context, own users); spreading them evens out the workers.
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Generous upper bounds: a loaded CI machine (or a shared dev box) can be slow; passing tests
  // do not wait for them.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    headless: true,
    browserName: 'chromium',
    colorScheme: 'light',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'site', testDir: './test/browser' },
    // Hitscope for Browsers: the built extension in Chromium profiles of their own (test/extension/fixtures.ts).
    { name: 'extension', testDir: './test/extension' },
  ],
  webServer: {
    command: 'node test/support/browser-server.mjs',
    url: `${baseURL}/health/ready`,
    // The very first run may build the embedded database from Go source (about two minutes).
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { HITSCOPE_BROWSER_PORT: String(port) },
    // SIGTERM lets the app stop its database and the wrapper remove the temporary data folder.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
});
