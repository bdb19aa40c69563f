import type { LinkerBrowser } from '../tools/linker/fingerprint.js';
import type { DecodeResult, EncodeInput, LinkerCookies } from '../tools/linker/linker.js';

/**
 * Requests and answers of the Google tag linker's API (`/api/tools/linker/*`). The page runs the
 * same codec (`lib/tools/linker/`) itself and reports each run it starts with these requests; the
 * server runs it again and counts it.
 */

/** `POST /api/tools/linker/decode`. */
export interface LinkerDecodeRequest {
  /** A `_gl` value, `_gl=…`, or a whole URL carrying one. */
  input: string;
  /** With a browser, the fingerprint is verified against it. */
  browser?: LinkerBrowser;
  /** The instant to verify at (epoch ms or ISO 8601); the server's clock when absent. */
  time?: number | string;
}

/**
 * 200 whenever the request itself is well-formed: a `_gl` value that does not parse is a finding
 * about that value (`ok: false` with the reason), shown like any other result, not a bad request.
 */
export type LinkerDecodeResponse = DecodeResult;

/** `POST /api/tools/linker/encode`. */
export interface LinkerEncodeRequest {
  /** Cookie names and values, in link order: an object, or a list of `{ key, value }`. */
  cookies: LinkerCookies;
  browser: LinkerBrowser;
  time?: number | string;
  /** A URL to decorate. */
  url?: string;
  placement?: EncodeInput['placement'];
  /** Strip the `GA1.1.` / `GS2.1.` / `1.1.` prefixes gtag does not send (default true). */
  normalize?: boolean;
}

export interface LinkerEncodeResponse {
  /** The `_gl` value (`1*<fingerprint>*…`). */
  value: string;
  /** The decorated URL, or null when no URL was given. */
  url: string | null;
  fingerprint: string;
  /** The entries as they went into the link (after stripping page-cookie prefixes). */
  entries: { key: string; value: string }[];
}
