import { expectHits, HOME_HIT_COUNT, openPanel, openShop, tabIdOf, test, SHOP } from './fixtures.js';

test('look', async ({ extension }) => {
  test.setTimeout(120_000);
  const shop = await openShop(extension);
  await shop.click('#accept');
  const tabId = await tabIdOf(extension, SHOP);
  for (const [w, scheme] of [
    [1280, 'light'],
    [360, 'dark'],
  ] as const) {
    const panel = await openPanel(extension, tabId, { width: w, height: 800, colorScheme: scheme });
    await expectHits(panel, HOME_HIT_COUNT + 1);
    await panel.screenshot({ path: `/work/shots/browser/look-${w}-${scheme}.png` });
    await panel.getByLabel('Event').selectOption('view_item');
    await panel
      .getByRole('button', { name: /view_item/ })
      .first()
      .click();
    await panel.screenshot({ path: `/work/shots/browser/look-${w}-${scheme}-detail.png` });
    await panel.getByRole('button', { name: 'Close hit details' }).click();
    await panel.getByText('Consent', { exact: true }).click();
    await panel.screenshot({ path: `/work/shots/browser/look-${w}-${scheme}-consent.png` });
    await panel.getByText(/^Warnings/).click();
    await panel.screenshot({ path: `/work/shots/browser/look-${w}-${scheme}-warnings.png` });
  }
});
