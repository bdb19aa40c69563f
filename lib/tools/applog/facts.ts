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
  | { type: 'error'; label: string; subject: string | null }
  | { type: 'info'; label: string };

export function originOf(raw: string | null | undefined): AppLogOrigin | null {
  if (raw === 'app' || raw === 'auto') return raw;
  return null;
}

/** The name a Firebase warning is about (`Name is reserved. Type, name: event, app_open` → app_open). */
export function errorSubject(message: string): string | null {
  const typed =
    /(?:Type, name|name, type|Name, value|Event name|Parameter name|param name|name)\s*[:=]\s*(?:[a-z ]+,\s*)?([A-Za-z0-9_]+(?:\s*\(_\w+\))?)/i.exec(
      message,
    );
  if (typed) return typed[1].replace(/\s+/g, '');
  const tail = /:\s*([^\s,:]+)\s*$/.exec(message);
  return tail ? tail[1] : null;
}

const ERROR_TEXT =
  /\b(?:is reserved|reserved\b.*\bname|too long|invalid|can(?:no|')t be|must (?:start|consist|contain)|discarded|not allowed|exceed|is required|will not be logged|not (?:be )?logged|dropped)/i;

export function looksLikeError(message: string): boolean {
  return ERROR_TEXT.test(message);
}

/** A short label for a warning: its first sentence, without the trailing list of values. */
export function errorLabel(message: string): string {
  const first = message.split(/\.\s|:\s/)[0].trim();
  return first.length > 90 ? `${first.slice(0, 87)}…` : first;
}
