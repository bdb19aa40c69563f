import type { Ga4mpRegion } from './endpoint.js';
import type { Ga4mpStream, ValidationMessage } from './types.js';

/** Shapes of the workbench's API (`/api/tools/ga4mp/*`), shared by the server and the page. */

/** `POST /api/tools/ga4mp/send` answer: what GA4 (or its validation server) said. */
export interface Ga4mpSendResult {
  /** GA4's HTTP status (the real endpoint answers 2xx even for malformed payloads). */
  status: number;
  ok: boolean;
  durationMs: number;
  /** The URL posted to, with the api_secret redacted. */
  endpoint: string;
  /** The validation server's JSON (`{ validationMessages }`) for debug sends; null otherwise or when not JSON. */
  response: unknown;
  /** The history entry this send was recorded as. */
  historyId: string;
}

export interface Ga4mpHistoryEntry {
  id: string;
  createdAt: string;
  stream: Ga4mpStream;
  /** The query as sent, api_secret replaced by REDACTED. */
  query: Record<string, string>;
  body: unknown;
  debug: boolean;
  region: Ga4mpRegion;
  /** Events in the payload, for the list. */
  eventNames: string[];
  /** Outcome: GA4's status, or null when GA4 was not reached (timeout, network). */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** Messages from the local validation at send time (the user may send anyway). */
  localMessages: ValidationMessage[];
  /** GA4's debug answer, or the error when GA4 was not reached. */
  response: unknown;
  error: string | null;
}

export interface Ga4mpHistoryPage {
  items: Ga4mpHistoryEntry[];
  page: number;
  pageSize: number;
  total: number;
}

/** Latest entries kept per user; older ones are deleted on each new send. */
export const GA4MP_HISTORY_LIMIT = 50;
