import { CRC32_START, crc32, crc32Final, crc32Update } from './crc32.js';

/**
 * The browser facts gtag.js mixes into the fingerprint: `navigator.userAgent`,
 * `new Date().getTimezoneOffset()` (minutes, UTC minus local: +60 in New York winter is 300,
 * Berlin summer is -120) and `navigator.language`.
 */
export interface LinkerBrowser {
  userAgent: string;
  timezoneOffset: number;
  language: string;
}

const MINUTE_MS = 60_000;

/**
 * gtag.js accepts a link whose fingerprint matches the current minute or one of the two before it
 * (it tries offsets 0, 1 and 2), so a link stays usable for 2 to 3 minutes of wall-clock time
 * depending on where in its minute it was made.
 */
export const ACCEPTED_MINUTE_OFFSETS = 3;

/** How far back `verify` looks for the minute a link was made in. */
export const SEARCH_BACK_MINUTES = 48 * 60;
/** And forward, for a generator whose clock ran ahead. */
export const SEARCH_AHEAD_MINUTES = 60;

export function minuteIndex(time: number): number {
  return Math.floor(time / MINUTE_MS);
}

/**
 * gtag's fingerprint: CRC-32 of `userAgent*timezoneOffset*language*minute*payload` in base 36,
 * where `minute` is `floor(epoch ms / 60000)` and `payload` is the part of the `_gl` value after
 * the fingerprint (`key*base64*key*base64…`).
 */
export function fingerprint(payload: string, browser: LinkerBrowser, minute: number): string {
  return crc32([browser.userAgent, browser.timezoneOffset, browser.language, minute, payload].join('*')).toString(36);
}

export type Verification =
  | {
      status: 'valid';
      /** Whole minutes between the minute the link was made in and the checked minute (0, 1 or 2). */
      minutesAgo: number;
      generatedMinute: number;
      /** Start of the minute the link was made in (ISO). */
      generatedAt: string;
      /** The first instant gtag no longer accepts it (ISO). */
      expiresAt: string;
      expiresInSeconds: number;
      message: string;
    }
  | {
      status: 'expired';
      minutesAgo: number;
      generatedMinute: number;
      generatedAt: string;
      expiresAt: string;
      expiredSecondsAgo: number;
      message: string;
    }
  | {
      status: 'future';
      minutesAhead: number;
      generatedMinute: number;
      generatedAt: string;
      message: string;
    }
  | { status: 'mismatch'; searchedHours: number; message: string };

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** "1 minute 40 s", "45 s", "37 minutes". */
export function describeSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return plural(whole, 'second');
  const minutes = Math.floor(whole / 60);
  if (minutes >= 120) return plural(Math.floor(minutes / 60), 'hour') + (minutes % 60 ? ` ${plural(minutes % 60, 'minute')}` : '');
  const rest = whole % 60;
  return minutes >= 10 || rest === 0 ? plural(minutes, 'minute') : `${plural(minutes, 'minute')} ${rest} s`;
}

function agoText(minutes: number): string {
  return minutes === 0 ? 'in this minute' : `${plural(minutes, 'minute')} ago`;
}

/**
 * Finds the minute a link was made in for this browser: checks `time`'s minute and the ones gtag
 * accepts, then searches back `SEARCH_BACK_MINUTES` (and ahead `SEARCH_AHEAD_MINUTES`) so an
 * expired link says how long ago it expired. A CRC-32 over ~3000 minutes has a chance of about
 * 1 in a million of a false match; the closest minute wins.
 */
export function verify(fingerprintValue: string, payload: string, browser: LinkerBrowser, time: number): Verification {
  const now = minuteIndex(time);
  const expected = fingerprintValue.toLowerCase();
  // The browser part comes first in the hashed text, so its CRC state is computed once for the search.
  const prefix = crc32Update(CRC32_START, `${browser.userAgent}*${browser.timezoneOffset}*${browser.language}*`);
  const at = (minute: number) => crc32Final(crc32Update(prefix, `${minute}*${payload}`)).toString(36);
  let found: number | undefined;
  for (let offset = 0; offset <= SEARCH_BACK_MINUTES; offset++) {
    if (at(now - offset) === expected) {
      found = now - offset;
      break;
    }
    if (offset >= 1 && offset <= SEARCH_AHEAD_MINUTES && at(now + offset) === expected) {
      found = now + offset;
      break;
    }
  }
  if (found === undefined) {
    return {
      status: 'mismatch',
      searchedHours: SEARCH_BACK_MINUTES / 60,
      message: `Does not match this browser at any minute in the last ${SEARCH_BACK_MINUTES / 60} hours: the user agent, timezone offset, language or one of the cookies differs from where the link was made.`,
    };
  }
  const generatedAt = new Date(found * MINUTE_MS).toISOString();
  if (found > now) {
    const minutesAhead = found - now;
    return {
      status: 'future',
      minutesAhead,
      generatedMinute: found,
      generatedAt,
      message: `Made ${plural(minutesAhead, 'minute')} after the checked time: the clock where the link was made is ahead, or the checked time is too early. gtag would not accept it yet.`,
    };
  }
  const minutesAgo = now - found;
  const expiresMs = (found + ACCEPTED_MINUTE_OFFSETS) * MINUTE_MS;
  const expiresAt = new Date(expiresMs).toISOString();
  if (minutesAgo < ACCEPTED_MINUTE_OFFSETS) {
    const expiresInSeconds = Math.round((expiresMs - time) / 1000);
    return {
      status: 'valid',
      minutesAgo,
      generatedMinute: found,
      generatedAt,
      expiresAt,
      expiresInSeconds,
      message: `Valid: generated ${agoText(minutesAgo)}, expires in ${describeSeconds(expiresInSeconds)}.`,
    };
  }
  const expiredSecondsAgo = Math.round((time - expiresMs) / 1000);
  return {
    status: 'expired',
    minutesAgo,
    generatedMinute: found,
    generatedAt,
    expiresAt,
    expiredSecondsAgo,
    message: `Expired ${expiredSecondsAgo < 60 ? 'less than a minute' : describeSeconds(Math.floor(expiredSecondsAgo / 60) * 60)} ago (generated ${plural(minutesAgo, 'minute')} ago; gtag accepts a link only in the minute it was made and the two after).`,
  };
}
