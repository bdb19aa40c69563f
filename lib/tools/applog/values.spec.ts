import { openBrackets, parseBundle, parseDictionary } from './values.js';

describe('parseBundle (Android Bundle.toString)', () => {
  it('maps long(_short) keys to both names and known bare short keys to their long name', () => {
    expect(parseBundle('Bundle[{ga_event_origin(_o)=auto, _sc=MainActivity, level=3}]')).toEqual([
      { name: 'ga_event_origin', shortName: '_o', value: 'auto' },
      { name: 'ga_screen_class', shortName: '_sc', value: 'MainActivity' },
      { name: 'level', shortName: null, value: '3' },
    ]);
  });

  it('keeps commas, braces and equals signs that are not followed by a key inside a value', () => {
    expect(parseBundle('Bundle[{coupon=SUMMER, SALE {2024}, note=a=b, c, x=}]')).toEqual([
      { name: 'coupon', shortName: null, value: 'SUMMER, SALE {2024}' },
      { name: 'note', shortName: null, value: 'a=b, c' },
      { name: 'x', shortName: null, value: '' },
    ]);
  });

  it('reads items arrays of nested bundles and the value after them', () => {
    expect(parseBundle('Bundle[{items=[Bundle[{item_id=A, price=1.5}], Bundle[{item_name=Mug {large}, quantity=2}]], value=3.5}]')).toEqual(
      [
        {
          name: 'items',
          shortName: null,
          value: null,
          items: [
            [
              { name: 'item_id', shortName: null, value: 'A' },
              { name: 'price', shortName: null, value: '1.5' },
            ],
            [
              { name: 'item_name', shortName: null, value: 'Mug {large}' },
              { name: 'quantity', shortName: null, value: '2' },
            ],
          ],
        },
        { name: 'value', shortName: null, value: '3.5' },
      ],
    );
  });

  it('reads a single nested bundle, null values, empty bundles and unparcelled bundles', () => {
    expect(parseBundle('Bundle[{extra=Bundle[{a=1}], ga_previous_screen(_pn)=null, empty=[]}]')).toEqual([
      { name: 'extra', shortName: null, value: null, items: [[{ name: 'a', shortName: null, value: '1' }]] },
      { name: 'ga_previous_screen', shortName: '_pn', value: null },
      { name: 'empty', shortName: null, value: null, items: [] },
    ]);
    expect(parseBundle('Bundle[{}]')).toEqual([]);
    expect(parseBundle('Bundle[mParcelledData.dataSize=248]')).toEqual([]);
    expect(parseBundle('not a bundle')).toEqual([]);
  });

  it('never throws on a truncated bundle', () => {
    expect(parseBundle('Bundle[{a=1, items=[Bundle[{b=2')).toEqual([
      { name: 'a', shortName: null, value: '1' },
      { name: 'items', shortName: null, value: null, items: [[{ name: 'b', shortName: null, value: '2' }]] },
    ]);
  });
});

describe('parseDictionary (iOS NSDictionary description)', () => {
  it('reads keys with short names, quoted keys and values, escapes and nested item arrays', () => {
    const text = `{
    "ga_event_origin (_o)" = app;
    ga_screen_class (_sc) = CartViewController;
    items =     (
                {
            "item_name" = "Blue T-shirt; size M";
            price = 20;
        },
                {
            "item_name" = "Caf\\U00e9 \\"classic\\"";
        }
    );
    note = <null>;
}`;
    expect(parseDictionary(text)).toEqual([
      { name: 'ga_event_origin', shortName: '_o', value: 'app' },
      { name: 'ga_screen_class', shortName: '_sc', value: 'CartViewController' },
      {
        name: 'items',
        shortName: null,
        value: null,
        items: [
          [
            { name: 'item_name', shortName: null, value: 'Blue T-shirt; size M' },
            { name: 'price', shortName: null, value: '20' },
          ],
          [{ name: 'item_name', shortName: null, value: 'Café "classic"' }],
        ],
      },
      { name: 'note', shortName: null, value: null },
    ]);
  });

  it('reads a one-line dictionary and never throws on a truncated one', () => {
    expect(parseDictionary('{ a = 1; b = two; }')).toEqual([
      { name: 'a', shortName: null, value: '1' },
      { name: 'b', shortName: null, value: 'two' },
    ]);
    expect(parseDictionary('{ a = 1; items = ( { b = 2;')).toEqual([
      { name: 'a', shortName: null, value: '1' },
      { name: 'items', shortName: null, value: null, items: [[{ name: 'b', shortName: null, value: '2' }]] },
    ]);
  });
});

describe('openBrackets', () => {
  it('counts open brackets, ignoring quoted ones when asked', () => {
    expect(openBrackets('params: app, purchase, {', true)).toBe(1);
    expect(openBrackets('x = "a { ( [";', true)).toBe(0);
    expect(openBrackets('Bundle[{items=[Bundle[{a=1}]', false)).toBe(3);
  });
});
