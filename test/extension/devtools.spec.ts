import { expect, expectHits, HOME_HIT_COUNT, openShop, SHOP, tabIdOf, test } from './fixtures.js';

test.use({ devtools: true });

test('the DevTools page runs for the inspected tab, and the DevTools panel shows that tab’s capture in DevTools’ theme', async ({
  extension,
}) => {
  const shop = await openShop(extension);
  const shopTab = await tabIdOf(extension, SHOP);

  // The extension's DevTools page, in the real DevTools of each tab (raw CDP: Playwright has no page for it).
  const cdp = await extension.context.newCDPSession(shop);
  const inspected: number[] = [];
  await expect
    .poll(async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      inspected.length = 0;
      for (const target of targetInfos.filter((info) => info.url === `chrome-extension://${extension.id}/devtools.html`)) {
        const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
        const answer = new Promise<{ result?: { result?: { value?: string } } }>((resolve) => {
          cdp.on('Target.receivedMessageFromTarget', (event) => {
            const message = JSON.parse(event.message) as { id?: number; result?: { result?: { value?: string } } };
            if (event.sessionId === sessionId && message.id === 1) resolve(message);
          });
        });
        await cdp.send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({
            id: 1,
            method: 'Runtime.evaluate',
            params: { expression: 'String(chrome.devtools.inspectedWindow.tabId)', returnByValue: true },
          }),
        });
        inspected.push(Number((await answer).result?.result?.value));
      }
      return inspected.includes(shopTab);
    })
    .toBe(true);

  // The panel page itself, as DevTools loads it, in a tab: only the DevTools host object is given
  // (a tab has none), with the tab id the real DevTools page reported and a dark DevTools theme.
  const panel = await extension.context.newPage();
  await panel.addInitScript((tabId) => {
    Object.assign(chrome, { devtools: { inspectedWindow: { tabId }, panels: { themeName: 'dark' } } });
  }, shopTab);
  await panel.goto(`chrome-extension://${extension.id}/panel.html`);
  await expectHits(panel, HOME_HIT_COUNT);
  await expect(panel.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(panel.getByRole('button', { name: 'Open in a tab' })).toHaveCount(0);
});
