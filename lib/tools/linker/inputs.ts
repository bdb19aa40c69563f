import { LINKER_KEY, MAX_COOKIES, MAX_VALUE_LENGTH } from './linker.js';

/**
 * Checks shared by the API's DTOs and the page's forms, so both refuse the same input with the same
 * words.
 */

/** The earliest and latest instants `Date` can hold. */
const MAX_TIME = 8.64e15;

/** A time as epoch milliseconds or an ISO 8601 date-time; undefined when it is neither. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= MAX_TIME ? value : undefined;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : time;
  }
  return undefined;
}

export const TIME_MESSAGE = 'time must be epoch milliseconds or an ISO 8601 date-time such as 2026-01-31T12:00:00Z';

/** The first problem with a cookie list, or undefined when it is fine. */
export function cookiesProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'cookies must be an object of cookie names and values';
  const entries = Array.isArray(value)
    ? value.map((entry: unknown) => [(entry as { key?: unknown })?.key, (entry as { value?: unknown })?.value] as const)
    : Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_COOKIES) return `At most ${MAX_COOKIES} cookies`;
  const seen = new Set<unknown>();
  for (const [key, cookieValue] of entries) {
    if (typeof key !== 'string' || !LINKER_KEY.test(key)) {
      return `Cookie name "${String(key).slice(0, 60)}" must be 1 to 100 letters, digits, "_", "-" or "."`;
    }
    if (seen.has(key)) return `Cookie "${key}" appears more than once`;
    seen.add(key);
    if (typeof cookieValue !== 'string') return `The value of "${key}" must be text`;
    if (cookieValue.length > MAX_VALUE_LENGTH) return `The value of "${key}" is longer than ${MAX_VALUE_LENGTH} characters`;
  }
  return undefined;
}

/** Only web links are decorated: gtag.js decorates http(s) links and forms. */
export function urlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 4000) return 'Enter a URL of at most 4000 characters';
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must start with http:// or https://';
  } catch {
    return 'Enter an absolute URL such as https://shop.example.com/cart';
  }
  return undefined;
}

export const MIN_TIMEZONE_OFFSET = -840;
export const MAX_TIMEZONE_OFFSET = 840;
export const MAX_USER_AGENT = 2000;
export const MAX_LANGUAGE = 100;
