import type { ApiErrorBody } from './errors.js';
import type { Ga4mpRegion } from '../tools/ga4mp/endpoint.js';
import type { Ga4mpStream, ValidationMessage, ValidationResponse } from '../tools/ga4mp/types.js';

/**
 * Requests and answers of the GA4 Measurement Protocol workbench's API (`/api/tools/ga4mp/*`): the
 * server's DTOs implement the requests and its services return the answers; the page's
 * `features/ga4mp/api.ts` sends and reads the same types. The payload itself (query and body) is
 * the domain's business (`lib/tools/ga4mp/types.ts`): here it is any JSON object, because checking
 * it is the validator's job and a bad payload is an answer, not a refused request.
 */

/** `POST /api/tools/ga4mp/validate`. */
export interface Ga4mpValidateRequest {
  /** `{ measurement_id, api_secret }` (web) or `{ firebase_app_id, api_secret }` (app). */
  query: Record<string, unknown>;
  /** The Measurement Protocol JSON body. */
  body: Record<string, unknown>;
}

/** 200, also when it lists problems: GA4's validation server shape, `{ validationMessages }`. */
export type Ga4mpValidateResponse = ValidationResponse;

/** `POST /api/tools/ga4mp/send`. */
export interface Ga4mpSendRequest extends Ga4mpValidateRequest {
  /** true: GA4's validation server (`/debug/mp/collect`), nothing is recorded in reports. */
  debug: boolean;
  region: Ga4mpRegion;
  /** Send even when local validation reports problems (to see what GA4 itself says). */
  force?: boolean;
}

/** `POST /api/tools/ga4mp/send` answer: what GA4 (or its validation server) said. */
export interface Ga4mpSendResponse {
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

/**
 * 422 answer of `POST /api/tools/ga4mp/send` without `force` when the payload has validation
 * messages: the usual error body, each message under its field path, and GA4's messages as they are.
 */
export interface Ga4mpSendRefusedBody extends ApiErrorBody {
  fields: Record<string, string[]>;
  validationMessages: ValidationMessage[];
}

/** `GET /api/tools/ga4mp/history?page=&pageSize=`: 1-based page, newest first. */
export interface Ga4mpHistoryQuery {
  page?: number;
  pageSize?: number;
}

/** One sent payload, as kept for replay (never with its api_secret). */
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
