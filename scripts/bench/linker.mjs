// Google tag linker codec (lib/tools/linker, compiled into dist): operations per second, the median of
// five timed rounds after a warm-up. A realistic link: _ga, _ga_<stream> (GS2), _gcl_au and _gcl_aw.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const title = 'Google tag linker';

const ROUNDS = 5;
const ROUND_MS = 400;

function rate(run) {
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    for (let i = 0; i < 100; i++) run();
    count += 100;
    elapsed = performance.now() - started;
  }
  return (count / elapsed) * 1000;
}

export default async function linkerBench({ dist, median }) {
  const load = (file) => import(pathToFileURL(join(dist, 'lib/tools/linker', file)).href);
  const { decode, encode } = await load('linker.js');
  const { verify } = await load('fingerprint.js');

  const browser = {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    timezoneOffset: -60,
    language: 'de-DE',
  };
  const time = Date.parse('2025-11-20T14:03:27.512Z');
  const cookies = {
    _ga: 'GA1.1.1480923751.1763647200',
    _ga_ABC123XYZ: 'GS2.1.s1763647100$o3$g1$t1763647405$j55$l0$h0',
    _gcl_au: '1.1.918273645.1763640000',
    _gcl_aw: 'GCL.1763647300.Cj0KCQiAz5-EXAMPLEgclid_BwE',
  };
  const made = encode({ cookies, browser, time, url: 'https://shop.example.com/cart?step=2#summary' });
  if (!made.ok) throw new Error(made.error);
  const payload = made.value.split('*').slice(2).join('*');
  const later = time + 60_000;

  const cases = [
    ['decodes/s (URL with 4 cookies)', () => decode(made.url)],
    ['encodes/s (4 cookies, decorated URL)', () => encode({ cookies, browser, time, url: 'https://shop.example.com/cart?step=2#summary' })],
    ['fingerprint verifications/s (valid link, 1 minute old)', () => verify(made.fingerprint, payload, browser, later)],
    ['fingerprint verifications/s (mismatch: 48 h searched)', () => verify('zzzzzz', payload, browser, later)],
  ];
  for (const [, run] of cases) rate(run);
  for (const [label, run] of cases) {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(rate(run));
    console.log(`  ${label.padEnd(58)} ${Math.round(median(rounds)).toLocaleString('en-US')}`);
  }
}
