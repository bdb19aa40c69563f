import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `ord_` + 26 base32 characters (130 random bits): unguessable, made before Stripe is called. */
export function newOrderId(): string {
  const bytes = randomBytes(26);
  let id = 'ord_';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}
