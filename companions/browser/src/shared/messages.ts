/**
 * Messages between the parts of the extension. Pages' content scripts are not trusted: a page can
 * dispatch the relay's event itself, so a relay message is checked for shape and bounded in size
 * (background/datalayer-records.ts) before anything is stored.
 */

/** The DOM event the MAIN-world script dispatches and the relay listens to (detail: a JSON string). */
export const DATALAYER_EVENT = 'hitscope:datalayer';
/** The relay's answer that it listens (the MAIN-world script holds its pushes until then). */
export const RELAY_READY_EVENT = 'hitscope:relay-ready';
/** The MAIN-world script's hello: whichever of the two scripts starts second completes the handshake. */
export const MAIN_READY_EVENT = 'hitscope:main-ready';

/** One push as the MAIN-world script reports it. */
export interface PushReport {
  time: number;
  via: 'initial' | 'push';
  gtag: boolean;
  value: unknown;
  script: string | null;
}

export interface RelayMessage {
  type: 'datalayer';
  pushes: PushReport[];
}

/** At most this many pushes per message; the relay sends more in several. */
export const MAX_PUSHES_PER_MESSAGE = 200;

export type PanelMessage = { type: 'clear'; tabId: number } | { type: 'settled' };
export type PanelReply = { ok: true } | { ok: false; error: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function isRelayMessage(value: unknown): value is RelayMessage {
  return isRecord(value) && value.type === 'datalayer' && Array.isArray(value.pushes) && value.pushes.length <= MAX_PUSHES_PER_MESSAGE;
}

export function isPanelMessage(value: unknown): value is PanelMessage {
  if (!isRecord(value)) return false;
  if (value.type === 'settled') return true;
  return value.type === 'clear' && Number.isInteger(value.tabId);
}
