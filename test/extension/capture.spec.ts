import { expect, expectHits, HOME_HIT_COUNT, openPanel, openShop, tabIdOf, test, SHOP } from './fixtures.js';

test.describe('capture', () => {
  test('smoke: the shop’s hits reach the panel', async ({ extension }) => {
    await openShop(extension);
    const tabId = await tabIdOf(extension, SHOP);
    const panel = await openPanel(extension, tabId);
    await expectHits(panel, HOME_HIT_COUNT);
  });
});
