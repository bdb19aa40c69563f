import { dataLayerName, gtagCommand, isArguments, PLAIN_LIMITS, pushingScript, toPlainValue } from './datalayer.js';

function args(..._values: unknown[]) {
  // eslint-disable-next-line prefer-rest-params
  return arguments;
}

describe('toPlainValue', () => {
  it('copies plain data and turns gtag’s arguments object into a list', () => {
    const pushed = args('consent', 'default', { ad_storage: 'denied' });
    expect(isArguments(pushed)).toBe(true);
    expect(toPlainValue(pushed)).toEqual(['consent', 'default', { ad_storage: 'denied' }]);
    expect(toPlainValue({ event: 'purchase', ecommerce: { value: 9.99, items: [{ id: 'A' }] }, ok: true, none: null })).toEqual({
      event: 'purchase',
      ecommerce: { value: 9.99, items: [{ id: 'A' }] },
      ok: true,
      none: null,
    });
  });

  it('describes what JSON cannot hold: functions, DOM nodes, cycles, dates, NaN, undefined, throwing getters', () => {
    const cyclic: Record<string, unknown> = { event: 'x' };
    cyclic.self = cyclic;
    const element = { nodeType: 1, nodeName: 'A', id: 'buy', className: 'btn primary' };
    const throwing = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(
      toPlainValue({
        eventCallback: function done() {},
        'gtm.element': element,
        cyclic,
        at: new Date(0),
        nan: Number.NaN,
        missing: undefined,
        throwing,
      }),
    ).toEqual({
      eventCallback: '[function done]',
      'gtm.element': '[a#buy.btn.primary]',
      cyclic: { event: 'x', self: '[circular]' },
      at: '1970-01-01T00:00:00.000Z',
      nan: 'NaN',
      missing: '[undefined]',
      throwing: { boom: '[unreadable]' },
    });
  });

  it('bounds strings, keys, depth and the total, so a page cannot make a push expensive', () => {
    const long = 'x'.repeat(PLAIN_LIMITS.string + 10);
    expect(toPlainValue(long)).toBe(`${'x'.repeat(PLAIN_LIMITS.string)}…`);
    const wide = toPlainValue(Array.from({ length: 500 }, (_, index) => index)) as unknown[];
    expect(wide).toHaveLength(PLAIN_LIMITS.keys + 1);
    expect(wide.at(-1)).toBe('[…300 more]');
    let deep: unknown = 'bottom';
    for (let level = 0; level < 20; level++) deep = { level: deep };
    expect(JSON.stringify(toPlainValue(deep))).toContain('"[object]"');
    const huge = toPlainValue(Array.from({ length: 100 }, () => Array.from({ length: 100 }, () => 1)));
    expect(JSON.stringify(huge)).toContain('[…]');
  });
});

describe('pushingScript', () => {
  it('finds the first page script in Chromium’s and Firefox’s stacks, skipping the extension’s own frames', () => {
    const chromium = [
      'Error',
      '    at report (chrome-extension://abcdefghijklmnop/content/main-world.js:1:900)',
      '    at Array.wrapped [as push] (chrome-extension://abcdefghijklmnop/content/main-world.js:1:1200)',
      '    at gtag (https://www.shop.example/checkout:12:30)',
      '    at https://www.googletagmanager.com/gtag/js?id=G-1:200:10',
    ].join('\n');
    expect(pushingScript(chromium)).toBe('https://www.shop.example/checkout');
    const firefox = 'report@moz-extension://uuid/content/main-world.js:1:900\n@https://cdn.example/tags.js?v=2:3:40\n';
    expect(pushingScript(firefox)).toBe('https://cdn.example/tags.js?v=2');
    expect(pushingScript(undefined)).toBeNull();
    expect(pushingScript('Error\n    at <anonymous>:1:1')).toBeNull();
  });
});

describe('dataLayer names', () => {
  it('names a push by its event, a gtag call by its command', () => {
    expect(dataLayerName({ gtag: false, value: { event: 'add_to_cart' } })).toBe('add_to_cart');
    expect(dataLayerName({ gtag: false, value: { ecommerce: null } })).toBe('push (no event)');
    expect(dataLayerName({ gtag: true, value: ['consent', 'update', { ad_storage: 'granted' }] })).toBe('gtag consent update');
    expect(dataLayerName({ gtag: true, value: ['js', '2026-01-01'] })).toBe('gtag js');
    expect(dataLayerName({ gtag: true, value: [] })).toBe('gtag()');
    expect(gtagCommand(['config', 'G-1', { send_page_view: false }])).toEqual({
      command: 'config',
      target: 'G-1',
      params: { send_page_view: false },
    });
  });
});
