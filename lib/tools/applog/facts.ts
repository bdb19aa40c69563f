import type { AppLogOrigin, AppLogParam } from './types.js';

/** What one Firebase message says, before it is merged into the stream. */
export type LogFact =
  | {
      type: 'event';
      /** Order of the SDK's stages for one event: a later stage of the same name merges into the earlier entry. */
      stage: number;
      stageLabel: string;
      rawName: string;
      origin: AppLogOrigin | null;
      params: AppLogParam[];
    }
  | { type: 'user_property'; stage: number; stageLabel: string; rawName: string; value: string | null }
  /** A later note about an event already in the stream (`Saving event`, `Marking an event as real-time`). */
  | { type: 'annotate'; rawName: string; label: string }
  | { type: 'upload'; label: string }
  | { type: 'error'; label: string; subject: string | null; explanation?: string }
  | { type: 'info'; label: string; note?: string }
  /** A consent-state change; `settings` are the `ad_storage=granted`-style pairs it names. */
  | { type: 'consent'; label: string; stageLabel: string; settings: AppLogParam[] };

/** The origin as logged (`app`, `auto`, `am`, `fcm` …), or null when the line has none. */
export function originOf(raw: string | null | undefined): AppLogOrigin | null {
  if (raw === 'app' || raw === 'auto') return raw;
  const value = raw?.trim();
  return value && /^[A-Za-z][\w-]{0,15}$/.test(value) ? value : null;
}

const CONSENT_TYPES = /\b(ad_storage|analytics_storage|ad_user_data|ad_personalization|source)\s*=\s*([A-Za-z_]+)/g;

/**
 * Consent lines, as both SDKs log them: Android's FA `Setting storage consent(FE): source=API,ad_storage=granted,…`
 * and `Setting DMA consent(FE): source=API,ad_user_data=granted`, FA-SVC's `… for package` / `…, package,
 * consent` forms, and iOS's verbose `ad_storage is granted.` (Google's app consent-mode guide).
 */
export function consentFact(message: string): Extract<LogFact, { type: 'consent' }> | null {
  // Cheap test first: this runs for every message that is not an event or a user property.
  const first = message.charCodeAt(0);
  if (first !== 83 /* S */ && first !== 97 /* a */ && first !== 32 /* space */) return null;
  const android = /^Setting (storage|DMA) consent(\s*\(FE\))?/.exec(message);
  if (android) {
    const settings: AppLogParam[] = [];
    for (const match of message.matchAll(CONSENT_TYPES)) settings.push({ name: match[1], shortName: null, value: match[2] });
    const label = android[1] === 'DMA' ? 'DMA consent' : 'Storage consent';
    return { type: 'consent', label, stageLabel: android[2] ? 'set (FE)' : 'set (service)', settings };
  }
  const ios = /^(ad_storage|analytics_storage|ad_user_data|ad_personalization) is (granted|denied)\.?$/.exec(message.trim());
  if (ios) return { type: 'consent', label: 'Consent', stageLabel: 'set', settings: [{ name: ios[1], shortName: null, value: ios[2] }] };
  return null;
}

/**
 * The name a Firebase warning is about (`Name is reserved. Type, name: event, app_open` → app_open). A
 * name with spaces (`add to cart`, which is exactly why it was refused) is kept whole.
 */
export function errorSubject(message: string): string | null {
  const line = message.split('\n')[0];
  const typed =
    /(?:Type, name|name, type|Name, value|Event name|Parameter name|param name|name)\s*[:=]\s*(?:(?:event param|event|param|user property|item param),\s*)?([^,\n]+?)\s*$/i.exec(
      line,
    );
  if (typed) return subjectOf(typed[1]);
  const tail = /:\s*([^,:]+?)\s*$/.exec(line);
  return tail ? subjectOf(tail[1]) : null;
}

/** A name, not a value dump (`{`), a nil (`(nil)`) or a sentence. */
function subjectOf(raw: string): string | null {
  const subject = compactShortName(raw);
  return /^[{(<[]/.test(subject) || subject.length > 100 ? null : subject;
}

/** `ga_screen (_sn)` → `ga_screen(_sn)`; anything else unchanged. */
function compactShortName(raw: string): string {
  const match = /^(.*?)\s*(\(_\w+\))$/.exec(raw.trim());
  return match ? `${match[1]}${match[2]}` : raw.trim();
}

/**
 * Warnings whose wording names a cause more than a rule: each becomes the error it explains. Sources:
 * iOS `[I-ACS013000] Screen parameter value must be of type NSString: (nil)` and `[I-ACS031028]
 * Received invalid class for screen` (capacitor-community/firebase-analytics #130, #175),
 * `[I-ACS035001] Cannot create Value type with unsupported value` (dpa99c/cordova-plugin-firebasex
 * #197, capacitor-community/firebase-analytics #56), `Event parameter value must be of type NSString or
 * NSNumber` (the SDK's own string), `[I-ACS018014] Value parameter discarded …` (firebase-ios-sdk #9400).
 */
const EXPLANATIONS: [RegExp, string][] = [
  [
    /must be of type NSString or NSNumber|Cannot create Value type|unsupported value|has to be NSNumber/i,
    'A parameter value is neither a string nor a number (an array, a dictionary, a boolean or NSNull passed through a wrapper such as Flutter, React Native or Capacitor): Firebase drops the parameter, or the whole event.',
  ],
  [
    /Screen parameter value must be of type NSString|Received invalid class for screen/i,
    'A screen name or class was nil (a setScreenName / logScreenView call without it): the screen_view is not logged.',
  ],
  [
    /Value parameter discarded|must also supply a 3-letter ISO.?4217 currency/i,
    'value was sent without currency: Firebase discards value. Send a 3-letter ISO 4217 currency with every value.',
  ],
  [/parameter value cannot be nil/i, 'A parameter value was nil (null): Firebase drops the parameter.'],
  [/Event name is required/i, 'An event was logged with an empty name: Firebase ignores it.'],
];

/** The plain-words meaning of a known SDK warning, or undefined. */
export function explainWarning(message: string): string | undefined {
  return EXPLANATIONS.find(([pattern]) => pattern.test(message))?.[1];
}

/** Android: `Screen exposed for less than 1000 ms. Event not sent. time: 427` (firebase-android-sdk #4276). */
export const SHORT_EXPOSURE = /^Screen exposed for less than 1000 ms/;
export const SHORT_EXPOSURE_NOTE =
  'Not an error: the SDK sends user_engagement (_e) only once a screen has been shown for at least 1 second. This screen was shown for less, so no engagement event was sent; the time is not lost, it counts towards the next user_engagement.';

const ERROR_TEXT =
  /\b(?:is reserved|reserved\b.*\bname|too long|invalid|can(?:no|')t be|must (?:start|consist|contain|be of type|also supply)|cannot create|unsupported value|discarded|not allowed|exceed|is required|will not be logged|not (?:be )?logged|dropped)/i;

export function looksLikeError(message: string): boolean {
  return ERROR_TEXT.test(message);
}

/** A short label for a warning: its first sentence, without the trailing list of values. */
export function errorLabel(message: string): string {
  const first = message.split(/\.\s|:\s/)[0].trim();
  return first.length > 90 ? `${first.slice(0, 87)}…` : first;
}
