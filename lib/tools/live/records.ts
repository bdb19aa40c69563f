/**
 * What a live capture keeps (Hitscope for Browsers): an append-only log of records per browser tab.
 * The extension's service worker writes them (from `webRequest`, `webNavigation` and its content
 * scripts), its panels read them back and decode them with the HAR analyser's own decoders, and the
 * HAR export writes the requests as HAR 1.2 entries, so the web analyser decodes the same hits.
 *
 * Plain data only: records are stored in IndexedDB and cross extension contexts by structured clone.
 */

/** The body of a captured request, as the HAR writes it (`postData`). */
export interface RecordBody {
  mimeType: string;
  text: string;
  /** A form body the browser parsed for us (`webRequest` gives no raw bytes for forms). */
  params?: Array<{ name: string; value: string }>;
  /** True when the body was longer than {@link MAX_BODY_CHARS} and cut there. */
  truncated?: boolean;
}

interface RecordBase {
  /** Position in the tab's log: unique, increasing (see `nextSeq` in the service worker). */
  seq: number;
  tabId: number;
  /** Milliseconds since the epoch. */
  time: number;
  /**
   * The document it belongs to (Chrome's `documentId`: the one that committed, sent the request or
   * pushed), which ties a record to its page load exactly; absent where the browser gives none
   * (Firefox), and then times decide.
   */
  documentId?: string;
}

/** An analytics request (only requests the HAR analyser decodes into at least one hit are kept). */
export interface RequestRecord extends RecordBase {
  kind: 'request';
  requestId: string;
  frameId: number;
  method: string;
  url: string;
  body: RecordBody | null;
  /** `webRequest`'s resource type: `ping` (sendBeacon), `xmlhttprequest` (fetch/XHR), `image`… */
  resourceType: string;
  /** The origin that sent it, when the browser says. */
  initiator: string | null;
  /** Hits decoded from it when it was captured. */
  hits: number;
}

/** The answer to a request (or why there was none), logged when it arrives. */
export interface StatusRecord extends RecordBase {
  kind: 'status';
  requestId: string;
  /** HTTP status; 0 when the request failed or was blocked. */
  status: number;
  /** The browser's error (`net::ERR_BLOCKED_BY_CLIENT` when an ad blocker stopped it), or null. */
  error: string | null;
}

/** A document committed in the tab's top frame: a page load (`history` for a single-page app's route change). */
export interface NavigationRecord extends RecordBase {
  kind: 'navigation';
  url: string;
  /** `link`, `typed`, `reload`, `auto_bookmark`… (webNavigation's transition type), or `history`. */
  transition: string;
}

/** One `dataLayer.push` (a `gtag()` call pushes its arguments), seen by the MAIN-world script. */
export interface DataLayerRecord extends RecordBase {
  kind: 'datalayer';
  /** The document that pushed it. */
  url: string;
  /** `initial` for what the array held when it was assigned, `push` afterwards. */
  via: 'initial' | 'push';
  /** A `gtag()` call (an `arguments` object), as its argument list; else the pushed value. */
  gtag: boolean;
  /** The pushed value as plain data ({@link toPlainValue}). */
  value: unknown;
  /** The script that pushed it, from the call stack, when it could be told. */
  script: string | null;
}

export type CaptureRecord = RequestRecord | StatusRecord | NavigationRecord | DataLayerRecord;

/** Longer bodies are cut: a capture is bounded, and no analytics body comes near this. */
export const MAX_BODY_CHARS = 256 * 1024;

/** What `chrome.webRequest.onBeforeRequest` passes (with `requestBody`), in the parts read here. */
export interface WebRequestDetails {
  requestId: string;
  url: string;
  method: string;
  timeStamp: number;
  tabId: number;
  frameId: number;
  type: string;
  initiator?: string;
  documentId?: string;
  requestBody?: {
    error?: string;
    formData?: Record<string, Array<string | ArrayBuffer>>;
    raw?: Array<{ bytes?: ArrayBuffer; file?: string }>;
  } | null;
}

const utf8 = new TextDecoder('utf-8');

function cut(text: string): { text: string; truncated?: boolean } {
  return text.length > MAX_BODY_CHARS ? { text: text.slice(0, MAX_BODY_CHARS), truncated: true } : { text };
}

/**
 * The body of a request as the HAR writes it. Raw bytes (sendBeacon, fetch, XHR) are read as UTF-8;
 * a form body arrives parsed (`formData`, name → values), so it is written as HAR exporters write a
 * URL-encoded form: the pairs, and the same pairs URL-encoded as the text.
 */
export function bodyOf(requestBody: WebRequestDetails['requestBody']): RecordBody | null {
  if (!requestBody) return null;
  if (requestBody.raw?.length) {
    const parts = requestBody.raw.flatMap((part) => (part.bytes ? [new Uint8Array(part.bytes)] : []));
    if (!parts.length) return null;
    const size = parts.reduce((sum, part) => sum + part.length, 0);
    const joined = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return { mimeType: 'text/plain;charset=UTF-8', ...cut(utf8.decode(joined)) };
  }
  if (requestBody.formData) {
    const params: Array<{ name: string; value: string }> = [];
    for (const [name, values] of Object.entries(requestBody.formData)) {
      for (const value of values) params.push({ name, value: typeof value === 'string' ? value : utf8.decode(value) });
    }
    const text = params.map(({ name, value }) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
    return { mimeType: 'application/x-www-form-urlencoded', ...cut(text), params };
  }
  return null;
}

/** A request record from `onBeforeRequest`'s details (`hits` is filled in once it is decoded). */
export function requestRecord(details: WebRequestDetails, seq: number): RequestRecord {
  return {
    kind: 'request',
    seq,
    tabId: details.tabId,
    time: details.timeStamp,
    requestId: details.requestId,
    frameId: details.frameId,
    method: details.method.toUpperCase(),
    url: details.url,
    body: bodyOf(details.requestBody),
    resourceType: details.type,
    initiator: details.initiator ?? null,
    hits: 0,
    ...(details.documentId ? { documentId: details.documentId } : {}),
  };
}
