import type { DecodeResult } from '../../../../lib/tools/linker/linker.js';

/**
 * A decode answers 200 whenever the request itself is well-formed: a `_gl` value that does not
 * parse is a finding about that value (`ok: false` with the reason), shown like any other result,
 * not a bad request.
 */
export type DecodeLinkerResponse = DecodeResult;

export interface EncodeLinkerResponse {
  /** The `_gl` value (`1*<fingerprint>*…`). */
  value: string;
  /** The decorated URL, or null when no URL was given. */
  url: string | null;
  fingerprint: string;
  /** The entries as they went into the link (after stripping page-cookie prefixes). */
  entries: { key: string; value: string }[];
}
