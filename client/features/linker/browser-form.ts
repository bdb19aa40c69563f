import type { LinkerBrowser } from '../../../lib/tools/linker/fingerprint.js';
import { MAX_LANGUAGE, MAX_TIMEZONE_OFFSET, MAX_USER_AGENT, MIN_TIMEZONE_OFFSET } from '../../../lib/tools/linker/inputs.js';

/**
 * The browser facts gtag.js puts into the linker fingerprint, as the verify and encode forms hold
 * them, and how they are read and checked.
 */

/** The browser facts as the form holds them (text, so a half-typed number is not lost). */
export interface BrowserForm {
  userAgent: string;
  timezoneOffset: string;
  language: string;
  /** `YYYY-MM-DDTHH:MM:SS` in the viewer's local time, as a datetime-local input holds it. */
  time: string;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A datetime-local value for an instant, in this browser's time zone. */
export function toLocalInput(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The current browser, as gtag.js would see it on this page. */
export function currentBrowser(now = Date.now()): BrowserForm {
  return {
    userAgent: navigator.userAgent,
    timezoneOffset: String(new Date(now).getTimezoneOffset()),
    language: navigator.language ?? '',
    time: toLocalInput(now),
  };
}

export type BrowserErrors = Partial<Record<keyof BrowserForm, string>>;

/** Reads the form; errors name the field that is wrong. */
export function parseBrowserForm(
  form: BrowserForm,
): { ok: true; browser: LinkerBrowser; time: number } | { ok: false; errors: BrowserErrors } {
  const errors: BrowserErrors = {};
  const offset = Number(form.timezoneOffset.trim());
  if (form.timezoneOffset.trim() === '' || !Number.isInteger(offset) || offset < MIN_TIMEZONE_OFFSET || offset > MAX_TIMEZONE_OFFSET) {
    errors.timezoneOffset = `Whole minutes between ${MIN_TIMEZONE_OFFSET} and ${MAX_TIMEZONE_OFFSET}, as Date.getTimezoneOffset() gives (Berlin in winter: -60).`;
  }
  if (form.userAgent.length > MAX_USER_AGENT) errors.userAgent = `At most ${MAX_USER_AGENT} characters.`;
  if (form.language.length > MAX_LANGUAGE) errors.language = `At most ${MAX_LANGUAGE} characters.`;
  const time = Date.parse(form.time);
  if (!form.time || Number.isNaN(time)) errors.time = 'Enter a date and time.';
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, browser: { userAgent: form.userAgent, timezoneOffset: offset, language: form.language }, time };
}
