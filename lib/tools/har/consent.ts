import type { ConsentSignal, ConsentState, ConsentValue } from './types.js';

/*
 * Google consent mode as it appears on Google tag requests.
 *
 * gcs = "G1" + ad_storage + analytics_storage, each 1 (granted) or 0 (denied): the consent mode v1
 * state the hit was sent under. Some requests carry a trailing "-" for a signal that is not set.
 *
 * gcd (consent mode v2) = "1" + digit, then one letter per signal separated by digits, then a final
 * digit: "11p1p1p1p5". The letters are, in order, ad_storage, analytics_storage, ad_user_data and
 * ad_personalization. Google does not document the format; the letter table below is the one the
 * analytics community reverse-engineered from gtag.js and cross-checked (Simo Ahava, "Consent Mode
 * V2 For Google Tags"; Markus Baersch; IIH Nordic "Consent Mode v2 – a comprehensive technical
 * guide"; Pietro Mingotti "Consent mode parameters"). Each letter says what `consent default` and
 * `consent update` set: l = neither; p/t = default denied/granted, no update; m/n = no default,
 * update denied/granted; q/r = default denied, update denied/granted; u/v = default granted, update
 * denied/granted. The separator digits and the final digit carry other flags (ads_data_redaction,
 * url_passthrough, the DMA/TCF source) whose meaning is not settled publicly: they are shown raw.
 */

export const GCD_SIGNALS = ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization'] as const;

const GCD_LETTERS: Record<string, { default: ConsentValue; update: ConsentValue }> = {
  l: { default: 'not set', update: 'not set' },
  p: { default: 'denied', update: 'not set' },
  t: { default: 'granted', update: 'not set' },
  m: { default: 'not set', update: 'denied' },
  n: { default: 'not set', update: 'granted' },
  q: { default: 'denied', update: 'denied' },
  r: { default: 'denied', update: 'granted' },
  u: { default: 'granted', update: 'denied' },
  v: { default: 'granted', update: 'granted' },
};

function effective(entry: { default: ConsentValue; update: ConsentValue }): ConsentValue {
  return entry.update !== 'not set' ? entry.update : entry.default;
}

/** Decodes gcs ("G111"): null when it is not in the G1xy shape. */
export function decodeGcs(gcs: string): ConsentSignal[] | null {
  const match = /^G1([01-])([01-])/.exec(gcs);
  if (!match) return null;
  const value = (digit: string): ConsentValue => (digit === '1' ? 'granted' : digit === '0' ? 'denied' : 'not set');
  return [
    { type: 'ad_storage', state: value(match[1]!) },
    { type: 'analytics_storage', state: value(match[2]!) },
  ];
}

/** Decodes gcd ("13r3r3r3r5"): null when it has no recognisable consent letters. */
export function decodeGcd(gcd: string): ConsentSignal[] | null {
  if (!/^\d/.test(gcd)) return null;
  const letters = gcd
    .slice(2)
    .replace(/[^a-z]/gi, '')
    .toLowerCase();
  if (letters.length < 2) return null;
  const signals: ConsentSignal[] = [];
  GCD_SIGNALS.forEach((type, index) => {
    const code = letters[index];
    const entry = code ? GCD_LETTERS[code] : undefined;
    if (!code) return;
    if (!entry) {
      signals.push({ type, state: 'not set', code });
      return;
    }
    signals.push({ type, state: effective(entry), default: entry.default, update: entry.update, code });
  });
  return signals;
}

function describe(signal: ConsentSignal): string {
  if (signal.default === undefined) return `${signal.type} ${signal.state}`;
  if (signal.default === 'not set' && signal.update === 'not set') return `${signal.type} not set`;
  const parts: string[] = [];
  if (signal.default !== 'not set') parts.push(`default ${signal.default}`);
  if (signal.update !== 'not set') parts.push(`update ${signal.update}`);
  return `${signal.type} ${signal.state} (${parts.join(', ')})`;
}

/**
 * The consent state of a Google hit from its gcs and/or gcd. gcd is richer (four signals, default
 * and update); gcs fills in ad_storage/analytics_storage when gcd is absent. Null when neither.
 */
export function decodeConsent(gcs: string | undefined, gcd: string | undefined): ConsentState | null {
  if (!gcs && !gcd) return null;
  // A capture repeats the same few consent strings thousands of times: decode each pair once.
  // The decoded state is never mutated, so hits can share it.
  const cacheKey = `${gcs ?? ''}|${gcd ?? ''}`;
  const cached = consentCache.get(cacheKey);
  if (cached) return cached;
  const state = decodeConsentUncached(gcs, gcd);
  if (consentCache.size < 1_000) consentCache.set(cacheKey, state);
  return state;
}

const consentCache = new Map<string, ConsentState>();

function decodeConsentUncached(gcs: string | undefined, gcd: string | undefined): ConsentState {
  const fromGcd = gcd ? decodeGcd(gcd) : null;
  const fromGcs = gcs ? decodeGcs(gcs) : null;
  const signals: ConsentSignal[] = fromGcd ? [...fromGcd] : [];
  for (const signal of fromGcs ?? []) {
    if (!signals.some((each) => each.type === signal.type)) signals.push(signal);
  }
  const text = signals.length ? signals.map(describe).join('; ') : 'unrecognised consent string';
  return { ...(gcs ? { gcs } : {}), ...(gcd ? { gcd } : {}), signals, text };
}

/** True when analytics_storage was denied for this hit (a cookieless ping in advanced consent mode). */
export function analyticsDenied(consent: ConsentState | null): boolean {
  return consent?.signals.some((signal) => signal.type === 'analytics_storage' && signal.state === 'denied') ?? false;
}
