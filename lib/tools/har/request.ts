import type { Pairs } from './query.js';
import type { Hit } from './types.js';

/** What the decoders need from one HAR entry: the request only (responses are never kept). */
export interface CapturedRequest {
  entryIndex: number;
  method: string;
  url: string;
  host: string;
  path: string;
  query: string;
  /** postData.text, or postData.params re-joined when the exporter only kept the parsed form. */
  body: string | null;
  /** postData.params when the HAR exporter parsed a form body for us. */
  bodyParams: Pairs | null;
  status: number;
  time: string;
  timeMs: number;
  referer: string | null;
}

/** A decoded hit before ids and warnings are assigned. */
export type HitDraft = Omit<Hit, 'id' | 'warningIds'>;

/** Fields every draft copies from its request. */
export function baseOf(request: CapturedRequest) {
  return {
    entryIndex: request.entryIndex,
    method: request.method,
    url: request.url,
    host: request.host,
    path: request.path,
    status: request.status,
    time: request.time,
    timeMs: request.timeMs,
  };
}
