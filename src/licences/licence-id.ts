import { createHash } from 'node:crypto';
import type { ProductSlug } from '../../lib/licences/key.js';
import type { Entitlement } from '../billing/entitlement-sink.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const LICENCE_ID = /^lic_[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * `lic_` + 26 base32 characters (130 bits) of SHA-256(`kind:id:product`): the same source and product
 * always name the same licence, so an entitlement applied twice (a replayed webhook) touches one
 * document.
 */
export function licenceIdOf(source: Entitlement['source'], product: ProductSlug): string {
  const digest = createHash('sha256').update(`${source.kind}:${source.id}:${product}`).digest();
  let bits = 0;
  let buffer = 0;
  let out = '';
  for (const byte of digest) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (out.length === 26) break;
  }
  return `lic_${out}`;
}
