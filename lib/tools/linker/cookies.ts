/**
 * What each linker key carries and the cookie gtag.js writes from it on the receiving site.
 *
 * gtag does not put whole cookie values into the link for every key:
 * - `_ga` (`GA1.1.1234567890.1700000000` on the page) carries only the client id
 *   `1234567890.1700000000`; the receiver writes `GA1.<level>.` in front, where level counts the
 *   labels of the cookie domain (`1` for the usual `.example.com`), which is not in the link.
 * - `_ga_<stream>` (`GS1.1.…` or `GS2.1.…`) carries the part after `GS1.1.` / `GS2.1.`.
 * - `_gcl_au` (`1.1.<random>.<timestamp>`) carries `<random>.<timestamp>`.
 * - the click cookies `_gcl_aw`, `_gcl_dc`, `_gcl_gb`, `_gcl_gf`, `_gcl_ha`, `_gcl_gp`, `_gcl_ag`
 *   (`GCL.<timestamp>.<click id>`), `_gac_*` and FPLC travel whole.
 * - server-side Google Ads' `FPAU` (the first-party copy of `_gcl_au` a server container writes,
 *   `1.1.<random>.<timestamp>` on the page) carries `<random>.<timestamp>` like `_gcl_au`; the
 *   server-side click cookies `FPGCLAW`, `FPGCLDC`, `FPGCLGB` … are read like their `_gcl_*` twins.
 * - `_up` and `_gs` are one-character flags (`MQ..`, i.e. `1`) that gtag adds on its own; Google
 *   does not document them, so they are shown as flags with their value and nothing is rebuilt.
 * The reconstructed cookie value below is therefore exact for everything except the level digit
 * of `_ga` / `_gcl_au` and the `GS1.1` / `GS2.1` prefix (chosen from the value's shape).
 */

export type LinkerKind = 'ga-client-id' | 'ga-session' | 'gcl-au' | 'gclid' | 'gac' | 'fplc' | 'flag' | 'unknown';

export interface LinkerDetail {
  label: string;
  value: string;
}

export interface CookieInterpretation {
  kind: LinkerKind;
  /** What the value is, for people: "GA4 client id", "Google Ads click (gclid)" … */
  label: string;
  cookieName: string;
  cookieValue: string;
  details: LinkerDetail[];
  warnings: string[];
}

/** Known `_gcl_<suffix>` click cookies; the custom prefix (`_gcl` by default) may differ. */
const CLICK_COOKIES: Record<string, string> = {
  aw: 'Google Ads click (gclid)',
  dc: 'Campaign Manager / Display & Video 360 click (dclid or gclid)',
  gb: 'Google Ads app-to-web click (gbraid / wbraid)',
  gf: 'Google Flights / Floodlight click',
  ha: 'Google Hotel Ads click',
  gp: 'Google Merchant Center click',
  ag: 'Google Ads click (ag)',
  gs: 'Google Ads click (gs)',
};

const GA_CLIENT = /^(\w*?)_ga$/;
const GA_SESSION = /^(\w*?)_ga_([A-Za-z0-9]+)$/;
const GCL_AU = /^(\w*?)_au$/;
const GCL_CLICK = /^(\w*?)_(aw|dc|gb|gf|ha|gp|ag|gs)$/;
const GAC = /^_gac_(.+)$/;
/** Server-side Google Ads (server GTM): `FPAU` mirrors `_gcl_au`, `FPGCL<XX>` the click cookies. */
const FPAU = /^FPAU$/;
const FP_CLICK = /^FPGCL(AW|DC|GB|GF|HA|GP|AG|GS)$/;
/** Flags gtag adds to the link by itself (observed value `1`). */
const FLAGS: Record<string, string> = {
  _up: 'Google tag flag (_up)',
  _gs: 'Google tag flag (_gs)',
};

/** `2025-11-20 14:00:00 UTC` for epoch seconds that look like a timestamp. */
function utcFromSeconds(value: string | undefined): string | undefined {
  if (!value || !/^\d{9,11}$/.test(value)) return undefined;
  return new Date(Number(value) * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

function timestampDetail(label: string, seconds: string | undefined): LinkerDetail[] {
  if (seconds === undefined || seconds === '') return [];
  const utc = utcFromSeconds(seconds);
  return [{ label, value: utc ? `${utc} (${seconds})` : seconds }];
}

function clientId(name: string, value: string): CookieInterpretation {
  const warnings: string[] = [];
  let id = value;
  const full = /^GA1\.(\d+)\.(.*)$/.exec(value);
  if (full) {
    id = full[2]!;
    warnings.push('The value is a whole _ga cookie; gtag puts only the client id (without "GA1.n.") into the link.');
  }
  const parts = id.split('.');
  const details: LinkerDetail[] = [{ label: 'Client id', value: id }];
  if (parts.length === 2 && /^\d+$/.test(parts[0]!) && /^\d+$/.test(parts[1]!)) {
    details.push({ label: 'Random number', value: parts[0]! });
    details.push(...timestampDetail('First visit', parts[1]));
  } else {
    warnings.push('A gtag client id is two numbers joined by a dot (random.timestamp).');
  }
  return {
    kind: 'ga-client-id',
    label: 'GA4 client id',
    cookieName: name,
    cookieValue: full ? value : `GA1.1.${id}`,
    details,
    warnings,
  };
}

const GS1_FIELDS = ['Session id', 'Session number', 'Engaged', 'Last hit', 'Join timer', 'Logged in', 'User id hash'];
const GS2_FIELDS: Record<string, string> = {
  s: 'Session id',
  o: 'Session number',
  g: 'Engaged',
  t: 'Last hit',
  j: 'Join timer',
  l: 'Logged in',
  h: 'User id hash',
  d: 'Join id',
};

function session(name: string, streamId: string, value: string): CookieInterpretation {
  const warnings: string[] = [];
  let body = value;
  let format: 'GS1' | 'GS2' | undefined;
  const full = /^(GS[12])\.\d+\.(.*)$/.exec(value);
  if (full) {
    format = full[1] as 'GS1' | 'GS2';
    body = full[2]!;
    warnings.push(`The value is a whole ${format} cookie; gtag puts only what follows "${format}.1." into the link.`);
  }
  const details: LinkerDetail[] = [{ label: 'Measurement id', value: `G-${streamId}` }];
  if (/^s\d/.test(body) || body.includes('$')) {
    format ??= 'GS2';
    for (const field of body.split('$')) {
      if (!field) continue;
      const label = GS2_FIELDS[field[0]!] ?? `Field ${field[0]}`;
      const fieldValue = field.slice(1);
      if (label === 'Last hit' || label === 'Session id') details.push(...timestampDetail(label, fieldValue));
      else details.push({ label, value: fieldValue });
    }
  } else {
    format ??= 'GS1';
    body.split('.').forEach((fieldValue, index) => {
      const label = GS1_FIELDS[index] ?? `Field ${index + 1}`;
      if (label === 'Last hit' || label === 'Session id') details.push(...timestampDetail(label, fieldValue));
      else details.push({ label, value: fieldValue });
    });
    if (body.split('.').length < 4) warnings.push('A GS1 session value has at least four dot-separated fields.');
  }
  details.splice(1, 0, {
    label: 'Format',
    value: format === 'GS2' ? 'GS2 (prefixed fields, $-separated)' : 'GS1 (positional, dot-separated)',
  });
  return {
    kind: 'ga-session',
    label: 'GA4 session',
    cookieName: name,
    cookieValue: full ? value : `${format}.1.${body}`,
    details,
    warnings,
  };
}

function conversionLinker(name: string, value: string, serverSide = false): CookieInterpretation {
  const warnings: string[] = [];
  const full = /^1\.(\d+)\.(.*)$/.exec(value);
  const id = full && full[2]!.includes('.') ? full[2]! : value;
  if (id !== value) warnings.push(`The value is a whole ${name} cookie; gtag puts only what follows "1.1." into the link.`);
  const parts = id.split('.');
  // Newer gtag builds append more numbers to `<random>.<timestamp>`: the id is the first two.
  const details: LinkerDetail[] = [{ label: 'Conversion linker id', value: parts.length > 2 ? parts.slice(0, 2).join('.') : id }];
  if (parts.length >= 2) {
    details.push({ label: 'Random number', value: parts[0]! });
    details.push(...timestampDetail('Created', parts[1]));
  }
  if (parts.length > 2) details.push({ label: 'Further fields (join data gtag appends)', value: parts.slice(2).join(' · ') });
  return {
    kind: 'gcl-au',
    label: serverSide ? 'Conversion linker (server-side Google Ads, FPAU)' : 'Conversion linker (Google Ads)',
    cookieName: name,
    cookieValue: id === value ? `1.1.${id}` : value,
    details,
    warnings,
  };
}

function click(name: string, suffix: string, value: string): CookieInterpretation {
  const warnings: string[] = [];
  const details: LinkerDetail[] = [];
  const parts = /^GCL\.(\d+)\.(.+)$/.exec(value);
  if (parts) {
    details.push(...timestampDetail('Clicked', parts[1]));
    details.push({ label: suffix === 'gb' ? 'gbraid / wbraid' : suffix === 'dc' ? 'dclid / gclid' : 'gclid', value: parts[2]! });
  } else {
    warnings.push('A click cookie usually reads GCL.<timestamp>.<click id>.');
  }
  return { kind: 'gclid', label: CLICK_COOKIES[suffix]!, cookieName: name, cookieValue: value, details, warnings };
}

function flag(name: string, value: string): CookieInterpretation {
  return {
    kind: 'flag',
    label: FLAGS[name]!,
    cookieName: name,
    cookieValue: value,
    details: [{ label: 'Value', value }],
    warnings: /^\d$/.test(value) ? [] : [`gtag sets ${name} to a single digit (1); this value is unusual.`],
  };
}

function gac(name: string, property: string, value: string): CookieInterpretation {
  const details: LinkerDetail[] = [{ label: 'Property', value: property }];
  const parts = /^1\.(\d+)\.(.+)$/.exec(value);
  if (parts) {
    details.push(...timestampDetail('Clicked', parts[1]));
    details.push({ label: 'gclid', value: parts[2]! });
  }
  return { kind: 'gac', label: 'Google Ads click linked to Analytics', cookieName: name, cookieValue: value, details, warnings: [] };
}

/** Interprets one decoded linker entry. */
export function interpret(key: string, value: string): CookieInterpretation {
  if (key === '_fplc' || key === 'FPLC') {
    return {
      kind: 'fplc',
      label: 'First-party linker cookie (server-side Google Tag Manager)',
      cookieName: 'FPLC',
      cookieValue: value,
      details: [{ label: 'Value', value }],
      warnings: [],
    };
  }
  const gacMatch = GAC.exec(key);
  if (gacMatch) return gac(key, gacMatch[1]!, value);
  const sessionMatch = GA_SESSION.exec(key);
  if (sessionMatch) return session(key, sessionMatch[2]!, value);
  if (GA_CLIENT.test(key)) return clientId(key, value);
  if (GCL_AU.test(key)) return conversionLinker(key, value);
  // Before the click cookies: `_gs` would otherwise read as an unprefixed `_gcl_gs`.
  if (key.length === 3 && Object.hasOwn(FLAGS, key)) return flag(key, value);
  const clickMatch = GCL_CLICK.exec(key);
  if (clickMatch) return click(key, clickMatch[2]!, value);
  // The server-side (server GTM) copies, after the keys every link carries.
  if (key === 'FPAU') return conversionLinker(key, value, true);
  const fpClick = FP_CLICK.exec(key);
  if (fpClick) {
    const result = click(key, fpClick[1]!.toLowerCase(), value);
    return { ...result, label: `${result.label}, server-side copy (${key})` };
  }
  return { kind: 'unknown', label: 'Other value', cookieName: key, cookieValue: value, details: [], warnings: [] };
}

/**
 * The value gtag would put into a link for a cookie as it reads on the page: strips the
 * `GA1.n.` / `GS1.n.` / `GS2.n.` / `1.n.` prefixes that the link does not carry. Other values are
 * returned unchanged.
 */
export function toLinkerValue(key: string, cookieValue: string): string {
  if (GA_SESSION.test(key)) return /^GS[12]\.\d+\.(.*)$/.exec(cookieValue)?.[1] ?? cookieValue;
  if (GA_CLIENT.test(key)) return /^GA1\.\d+\.(.*)$/.exec(cookieValue)?.[1] ?? cookieValue;
  if ((GCL_AU.test(key) || FPAU.test(key)) && !GAC.test(key)) {
    const match = /^1\.\d+\.(.*\..*)$/.exec(cookieValue);
    return match ? match[1]! : cookieValue;
  }
  return cookieValue;
}

/** The link key for a cookie name: server-side GTM's FPLC travels as `_fplc`. */
export function toLinkerKey(cookieName: string): string {
  return cookieName === 'FPLC' ? '_fplc' : cookieName;
}
