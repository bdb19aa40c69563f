import type { Ga4mpRegion } from '../../../lib/tools/ga4mp/endpoint.js';
import { templateNamed } from '../../../lib/tools/ga4mp/templates.js';
import type { Ga4mpStream, ValidationMessage } from '../../../lib/tools/ga4mp/types.js';

/** The JSON body being composed: any JSON object (the raw editor may hold anything). */
export type Body = Record<string, unknown>;
export type Json = Record<string, unknown>;

/** What the workbench composes: the stream's credentials and the JSON body. */
export interface Draft {
  stream: Ga4mpStream;
  /** measurement_id (web) or firebase_app_id (app). */
  streamId: string;
  apiSecret: string;
  region: Ga4mpRegion;
  body: Body;
}

/**
 * A fixed example id: the server renders the first frame and a random one would not hydrate; the
 * page replaces it with a generated id once mounted.
 */
export const EXAMPLE_CLIENT_ID = '1000000000.1700000000';

export function initialDraft(): Draft {
  return {
    stream: 'web',
    streamId: '',
    apiSecret: '',
    region: 'global',
    body: { client_id: EXAMPLE_CLIENT_ID, events: [templateNamed('page_view')!.build()] },
  };
}

export function queryOf(draft: Pick<Draft, 'stream' | 'streamId' | 'apiSecret'>): Record<string, string> {
  return draft.stream === 'web'
    ? { measurement_id: draft.streamId, api_secret: draft.apiSecret }
    : { firebase_app_id: draft.streamId, api_secret: draft.apiSecret };
}

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `object` with `key` set to `value`, keeping key order; `undefined` removes the key. */
export function withKey<T extends Json>(object: T, key: string, value: unknown): T {
  const copy: Json = { ...object };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy as T;
}

/** Renames a key in place (same position). The caller makes sure `to` is not taken. */
export function renameKey(object: Json, from: string, to: string): Json {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key === from ? to : key, value]));
}

/** What the editors need of the validation: the messages to show under a field, and a way to say it was touched. */
export interface FieldChecks {
  /** The messages shown for a field path: those of touched fields, or all once a check was asked for. */
  messagesFor: (fieldPath: string) => ValidationMessage[];
  /** The user edited or left the field at this path: its messages (and those inside it) show from now on. */
  touch: (fieldPath: string) => void;
}

/** `events[0].params.x` is under `events[0]`, `events` and itself; not under `events[0].par`. */
export function isUnder(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
}

/** The DOM id of the control that edits `fieldPath` (message links focus it). */
export function fieldDomId(fieldPath: string): string {
  return `ga4mp:${fieldPath.replace(/\s/g, '_')}`;
}

/** `events[0].params.items[1].price` → itself, then each parent, up to `events`. */
export function pathAndParents(fieldPath: string): string[] {
  const paths = [fieldPath];
  let current = fieldPath;
  for (;;) {
    const cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
    if (cut <= 0) break;
    current = current.slice(0, cut);
    paths.push(current);
  }
  return paths;
}

/** Moves the focus to the control editing `fieldPath`, or its nearest parent, or the raw JSON editor. */
export function focusField(fieldPath: string): void {
  for (const path of pathAndParents(fieldPath)) {
    const element = document.getElementById(fieldDomId(path));
    if (element) {
      element.scrollIntoView({ block: 'center', behavior: 'smooth' });
      element.focus({ preventScroll: true });
      return;
    }
  }
  document.getElementById('ga4mp-raw-json')?.focus();
}

/** The api_secret, remembered per stream id in this tab only (sessionStorage), never sent to be stored. */
const SECRET_KEY = (streamId: string) => `hitscope.ga4mp.secret.${streamId}`;

export function rememberedSecret(streamId: string): string {
  if (!streamId || typeof sessionStorage === 'undefined') return '';
  try {
    return sessionStorage.getItem(SECRET_KEY(streamId)) ?? '';
  } catch {
    return '';
  }
}

export function rememberSecret(streamId: string, secret: string): void {
  if (!streamId || typeof sessionStorage === 'undefined') return;
  try {
    if (secret) sessionStorage.setItem(SECRET_KEY(streamId), secret);
    else sessionStorage.removeItem(SECRET_KEY(streamId));
  } catch {
    // Storage full or disabled: the secret simply is not remembered.
  }
}

/** SHA-256 (lower-case hex) of a value normalised as GA4's user-provided data guide asks. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** E-mail: trimmed, lower-case; for gmail.com/googlemail.com the dots of the local part removed. */
export function normaliseEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const [local, domain] = lower.split('@');
  if (domain === 'gmail.com' || domain === 'googlemail.com') return `${local!.replace(/\./g, '')}@${domain}`;
  return lower;
}

/** Phone: E.164, digits with a leading +, everything else removed. */
export function normalisePhone(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  return digits ? `+${digits}` : '';
}
