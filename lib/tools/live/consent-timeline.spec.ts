import { analyseHar } from '../har/analyse.js';
import { entry, harOf } from '../../../test/fixtures/har/helpers.js';
import { consentCommands, consentTimeline, stateAt } from './consent-timeline.js';
import type { DataLayerRecord } from './records.js';

let seq = 0;
const gtag = (args: unknown[], time: number): DataLayerRecord => ({
  kind: 'datalayer',
  seq: ++seq,
  tabId: 1,
  time,
  url: 'https://www.shop.example/',
  via: 'push',
  gtag: true,
  value: args,
  script: null,
});

describe('consent commands', () => {
  it('applies default then update per type, keeps the first default, and lists a region default without applying it', () => {
    const commands = consentCommands([
      gtag(['consent', 'default', { ad_storage: 'denied', analytics_storage: 'denied', wait_for_update: 500 }], 1),
      gtag(['consent', 'default', { ad_storage: 'granted', region: ['US-CA'] }], 2),
      gtag(['consent', 'default', { ad_storage: 'granted', ad_user_data: 'denied' }], 3),
      gtag(['event', 'page_view', {}], 4),
      gtag(['consent', 'update', { analytics_storage: 'granted', ad_storage: 'denied', bogus: 'maybe' }], 5),
      { ...gtag(['consent', 'update', { ad_storage: 'granted' }], 6), gtag: false },
    ]);
    expect(commands.map(({ kind, changed, region, waitForUpdate, state }) => ({ kind, changed, region, waitForUpdate, state }))).toEqual([
      {
        kind: 'default',
        changed: ['ad_storage', 'analytics_storage'],
        region: null,
        waitForUpdate: 500,
        state: { ad_storage: 'denied', analytics_storage: 'denied' },
      },
      {
        kind: 'default',
        changed: [],
        region: ['US-CA'],
        waitForUpdate: null,
        state: { ad_storage: 'denied', analytics_storage: 'denied' },
      },
      {
        kind: 'default',
        changed: ['ad_user_data'],
        region: null,
        waitForUpdate: null,
        state: { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied' },
      },
      {
        kind: 'update',
        changed: ['analytics_storage'],
        region: null,
        waitForUpdate: null,
        state: { ad_storage: 'denied', analytics_storage: 'granted', ad_user_data: 'denied' },
      },
    ]);
    expect(commands[3]!.set).toEqual({ analytics_storage: 'granted', ad_storage: 'denied' });
    expect(stateAt(commands, 0)).toEqual({});
    expect(stateAt(commands, 4)).toEqual(commands[2]!.state);
  });

  it('puts each Google hit’s gcs/gcd beside the page’s state at that time and names the types that disagree', () => {
    const { hits } = analyseHar(
      harOf(
        entry('https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1&en=page_view&gcs=G100&gcd=13p3p3p2p5', {
          at: new Date(10).toISOString(),
        }),
        entry('https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1&en=scroll&gcs=G111', { at: new Date(30).toISOString() }),
        entry('https://www.facebook.com/tr/?id=1&ev=PageView', { at: new Date(31).toISOString() }),
        entry('https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1&en=no_state', { at: new Date(5).toISOString() }),
      ),
    );
    const timeline = consentTimeline(
      [
        gtag(['consent', 'default', { ad_storage: 'denied', analytics_storage: 'denied' }], 10),
        gtag(['consent', 'update', { analytics_storage: 'granted' }], 20),
      ],
      hits,
    );
    // The Meta hit has no Google consent state to show; the GA4 hit without one is listed (before the default).
    expect(timeline.map((item) => [item.kind, item.time])).toEqual([
      ['hit', 5],
      ['default', 10],
      ['hit', 10],
      ['update', 20],
      ['hit', 30],
    ]);
    const [none, , first, , second] = timeline;
    expect(none).toMatchObject({ hitId: 0, carried: {}, state: {}, mismatched: [] });
    expect(first).toMatchObject({
      hitId: 1,
      mismatched: [],
      carried: { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
    });
    expect(second).toMatchObject({ hitId: 2, mismatched: ['ad_storage'], state: { ad_storage: 'denied', analytics_storage: 'granted' } });
  });
});
