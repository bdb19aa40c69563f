/** A content coding the server can send, in the spelling of `Accept-Encoding` and `Content-Encoding`. */
export type ContentCoding = 'br' | 'gzip';

/**
 * The coding to send among `available` (in the server's order of preference) for an
 * `Accept-Encoding` header (RFC 9110 §12.5.3): the highest q-value wins, the server's order breaks
 * ties, `q=0` refuses a coding, `*` stands for every coding the header does not name. Null when
 * none is acceptable (or there is no header): the body goes out as it is (identity).
 */
export function chooseEncoding(header: string | string[] | undefined, available: readonly ContentCoding[]): ContentCoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const entry of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [rawName, ...parameters] = entry.split(';');
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value = ''] = parameter.split('=');
      // A weight that is not one (RFC 9110: 0 to 1, three decimals at most) refuses the coding.
      if (key.trim().toLowerCase() === 'q') q = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(value) ? Number(value) : 0;
    }
    // A coding named twice keeps its best weight (clients do not send that; being lenient is harmless).
    weights.set(name, Math.max(weights.get(name) ?? 0, q));
  }
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of available) {
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
