#!/usr/bin/env node
// The server render alone, in process: dist/server/entry-server.js's render() for `/` and, signed in,
// `/dashboard/lounge`, with a data source answering at once (an empty catalogue, no licences), so
// only the render's own CPU is counted. `NODE_ENV=production node scripts/bench/render-entry.mjs`.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { serverEntry } = await import(pathToFileURL(join(root, 'dist/server/entry-server.js')).href);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3000);

const dataSource = (me) => ({
  me: async () => me,
  routeRule: async () => null,
  authProviders: async () => ({ oidc: null }),
  catalogue: async () => ({ products: [], plans: [] }),
  billingStatus: async () => ({ enabled: false }),
  subscription: async () => ({ subscription: null }),
  orders: async () => ({ orders: [], total: 0 }),
  licences: async () => ({ licences: [] }),
  adminOverview: async () => {
    throw new Error('not in this benchmark');
  },
  siteSettings: async () => ({ siteName: 'Hitscope', registrationOpen: true, announcement: null }),
  sponsors: async () => ({ tiers: [], sponsors: [] }),
  privacyPolicy: async () => ({ html: '' }),
});
const user = { id: '665f1c2e9b1e8a0012345678', name: 'Bench', email: 'bench@example.com', role: 'user', avatarUrl: null };

for (const [url, me] of [
  ['/', null],
  ['/dashboard/lounge', user],
]) {
  const input = { url, publicUrl: 'http://127.0.0.1', nonce: 'bench', colorMode: 'system', data: dataSource(me) };
  const first = await serverEntry.render(input);
  if (first.type !== 'page' || first.status !== 200) throw new Error(`${url}: ${JSON.stringify(first).slice(0, 200)}`);
  for (let i = 0; i < ITERATIONS / 3; i += 1) await serverEntry.render(input);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i += 1) await serverEntry.render(input);
  const used = process.cpuUsage(cpu);
  console.log(
    `${url.padEnd(20)} ${ITERATIONS} renders, CPU ${((used.user + used.system) / ITERATIONS).toFixed(0)} µs/render, ` +
      `wall ${(((performance.now() - started) * 1000) / ITERATIONS).toFixed(0)} µs/render, html ${first.html.length} chars`,
  );
}
