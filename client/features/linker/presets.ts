import { encode } from '../../../lib/tools/linker/linker.js';
import { type BrowserForm, parseBrowserForm } from './browser-form.js';

/** The gtag cookies the encoder offers as one-click rows. */
export type CookiePreset = 'ga' | 'ga-session' | 'gcl-au';

function randomDigits(length: number): string {
  let digits = String(1 + Math.floor(Math.random() * 9));
  while (digits.length < length) digits += String(Math.floor(Math.random() * 10));
  return digits;
}

/** A cookie as gtag writes it right now, with a random client id. */
export function preset(kind: CookiePreset): { key: string; value: string } {
  const now = Math.floor(Date.now() / 1000);
  if (kind === 'ga') return { key: '_ga', value: `GA1.1.${randomDigits(10)}.${now}` };
  if (kind === 'ga-session') return { key: '_ga_ABC123XYZ', value: `GS2.1.s${now}$o1$g1$t${now}$j60$l0$h0` };
  return { key: '_gcl_au', value: `1.1.${randomDigits(9)}.${now}` };
}

/** A link made right now for this browser, so the example also verifies as valid. */
export function exampleUrl(browser: BrowserForm): string {
  const parsed = parseBrowserForm({ ...browser, time: browser.time || new Date().toISOString() });
  const made = encode({
    cookies: [preset('ga'), preset('ga-session'), preset('gcl-au')],
    browser: parsed.ok ? parsed.browser : { userAgent: '', timezoneOffset: 0, language: '' },
    time: Date.now(),
    url: 'https://shop.example.com/checkout?step=2',
  });
  return made.ok ? made.url! : '';
}
