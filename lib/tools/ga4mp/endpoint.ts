/**
 * Where a Measurement Protocol request goes. Only Google's documented hosts: the global collection
 * host and the EU regional one (data collected in the EU), each with the real `/mp/collect` path and
 * the validation server's `/debug/mp/collect`.
 */
export type Ga4mpRegion = 'global' | 'eu';

export const GA4MP_REGIONS: readonly Ga4mpRegion[] = ['global', 'eu'];

export const GA4MP_ORIGINS: Readonly<Record<Ga4mpRegion, string>> = Object.freeze({
  global: 'https://www.google-analytics.com',
  eu: 'https://region1.google-analytics.com',
});

export interface EndpointOptions {
  region: Ga4mpRegion;
  /** true: the validation server (`/debug/mp/collect`), which answers validationMessages and records nothing. */
  debug: boolean;
  /** Origin per region; Google's unless a test substitutes a loopback stand-in. */
  origins?: Readonly<Record<Ga4mpRegion, string>>;
}

export type EndpointQuery = Partial<Record<'measurement_id' | 'firebase_app_id' | 'api_secret', string>>;

/** The full URL, api_secret included (what the server POSTs to). */
export function buildGa4mpUrl(query: EndpointQuery, options: EndpointOptions): string {
  const origins = options.origins ?? GA4MP_ORIGINS;
  const origin = origins[options.region];
  if (!origin) throw new Error(`Unknown GA4 region: ${String(options.region)}`);
  const url = new URL(options.debug ? '/debug/mp/collect' : '/mp/collect', origin);
  // measurement_id and firebase_app_id are exclusive; the stream's id comes first, as in Google's examples.
  if (query.measurement_id !== undefined) url.searchParams.set('measurement_id', query.measurement_id);
  else if (query.firebase_app_id !== undefined) url.searchParams.set('firebase_app_id', query.firebase_app_id);
  if (query.api_secret !== undefined) url.searchParams.set('api_secret', query.api_secret);
  return url.toString();
}

export const REDACTED_SECRET = 'REDACTED';

/** The same URL with the api_secret replaced, safe to show, log and store. */
export function redactGa4mpUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('api_secret')) parsed.searchParams.set('api_secret', REDACTED_SECRET);
  return parsed.toString();
}
