import type { Page, Route } from '@playwright/test';
import type { Ga4mpHistoryEntry, Ga4mpHistoryPage } from '../../lib/api/ga4mp.js';

/**
 * A GA4 MP history of `total` sends, served in place of the API (the browser suite's server cannot
 * reach GA4, so no real send can fill it): varied entries — debug and real, both regions, a send
 * refused by GA4, one that never reached it, one sent with local validation messages.
 */
export function fakeHistoryEntry(index: number): Ga4mpHistoryEntry {
  const failed = index % 5 === 3;
  return {
    id: `64a0f${String(index).padStart(19, '0')}`,
    createdAt: new Date(Date.UTC(2026, 0, 31, 12, 0, 0) - index * 3_600_000).toISOString(),
    stream: 'web',
    query: { measurement_id: 'G-K3TQ8Y2P7L', api_secret: 'REDACTED' },
    body: {
      client_id: '1234567890.1700000000',
      events: [{ name: index % 2 ? 'purchase' : 'page_view', params: { page_location: `https://shop.example.com/products/${index}` } }],
    },
    debug: index % 2 === 0,
    region: index % 3 === 0 ? 'eu' : 'global',
    eventNames: index % 2 ? ['purchase'] : ['page_view', 'scroll', 'view_item_list_with_a_rather_long_event_name'],
    status: failed ? null : index % 4 === 1 ? 400 : 200,
    ok: !failed && index % 4 !== 1,
    durationMs: 180 + index * 7,
    localMessages:
      index % 7 === 3 ? [{ fieldPath: 'events[0].name', validationCode: 'NAME_INVALID', description: 'Event name is invalid.' }] : [],
    response: null,
    error: failed
      ? 'GA4 did not answer within 4 s (www.google-analytics.com). It may or may not have received the payload; try again in a moment.'
      : null,
  };
}

export async function serveFakeHistory(page: Page, total: number): Promise<void> {
  await page.unroute('**/api/tools/ga4mp/history?*');
  await page.route('**/api/tools/ga4mp/history?*', (route: Route) => {
    const url = new URL(route.request().url());
    const pageNumber = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 10);
    const from = (pageNumber - 1) * pageSize;
    const answer: Ga4mpHistoryPage = {
      items: Array.from({ length: Math.max(0, Math.min(pageSize, total - from)) }, (_, at) => fakeHistoryEntry(from + at)),
      page: pageNumber,
      pageSize,
      total,
    };
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
  });
}
