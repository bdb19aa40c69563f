/**
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) exactly as gtag.js computes it for the linker
 * fingerprint: over UTF-16 code units masked to their low byte (`charCodeAt(i) & 255`), not over
 * UTF-8 bytes. For ASCII input that is the standard CRC-32; for other characters it is what gtag
 * computes, which is what has to match.
 */
const TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The running (not yet finalised) CRC state after `text`, starting from `state`. */
export function crc32Update(state: number, text: string): number {
  let crc = state;
  for (let i = 0; i < text.length; i++) {
    crc = (crc >>> 8) ^ TABLE[(crc ^ text.charCodeAt(i)) & 0xff]!;
  }
  return crc;
}

export const CRC32_START = 0xffffffff;

export function crc32Final(state: number): number {
  return (state ^ 0xffffffff) >>> 0;
}

export function crc32(text: string): number {
  return crc32Final(crc32Update(CRC32_START, text));
}
