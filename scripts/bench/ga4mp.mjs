import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

export const title = 'GA4 Measurement Protocol validator';

const NOW = new Date('2026-11-23T02:00:00Z');
const QUERY = { measurement_id: 'G-K3TQ8Y2P7L', api_secret: 'xVbN3kLqR2sTzW9yU1aE4d' };

/** One page_view, as a tag would send it. */
function smallPayload() {
  return {
    client_id: '1719384726.1795390000',
    events: [
      {
        name: 'page_view',
        params: { page_location: 'https://www.example.com/', page_title: 'Home', session_id: '1795390000', engagement_time_msec: 100 },
      },
    ],
  };
}

/** The largest request GA4 accepts by count: 25 events × 25 params, 25 user properties. */
function maximalPayload() {
  const params = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`param_${index}`, index % 2 ? `value ${index}` : index]));
  return {
    client_id: '1719384726.1795390000',
    user_id: 'customer-8812',
    timestamp_micros: NOW.getTime() * 1000 - 3_600_000_000,
    user_properties: Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`property_${index}`, { value: `v${index}` }])),
    consent: { ad_user_data: 'GRANTED', ad_personalization: 'DENIED' },
    events: Array.from({ length: 25 }, (_, index) => ({ name: `custom_event_${index}`, params })),
  };
}

/** Validations per second over `ms` milliseconds (after a warm-up), median of five runs. */
function rate(validate, body, median, ms = 400) {
  for (let index = 0; index < 200; index += 1) validate(QUERY, body, { now: NOW });
  const runs = [];
  for (let run = 0; run < 5; run += 1) {
    let count = 0;
    const started = process.hrtime.bigint();
    const until = started + BigInt(ms) * 1_000_000n;
    let now = started;
    while (now < until) {
      for (let index = 0; index < 20; index += 1) validate(QUERY, body, { now: NOW });
      count += 20;
      now = process.hrtime.bigint();
    }
    runs.push(count / (Number(now - started) / 1e9));
  }
  return median(runs);
}

export default async function ({ dist, median }) {
  const { validateGa4mpRequest } = await import(pathToFileURL(join(dist, 'lib/tools/ga4mp/validate.js')).href);
  for (const [label, body] of [
    ['small (1 event, 4 params)', smallPayload()],
    ['maximal (25 events × 25 params, 25 user properties)', maximalPayload()],
  ]) {
    const messages = validateGa4mpRequest(QUERY, body, { now: NOW }).validationMessages.length;
    const bytes = Buffer.byteLength(JSON.stringify(body));
    const perSecond = rate(validateGa4mpRequest, body, median);
    console.log(
      `${label}: ${bytes} B, ${messages} messages — ${Math.round(perSecond).toLocaleString('en-US')} payloads/s (${(1e6 / perSecond).toFixed(1)} µs each)`,
    );
  }
}
