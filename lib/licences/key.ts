import { COMPANION_PRODUCTS, PRODUCT, PRODUCT_SLUGS, type ProductSlug } from '../product.js';

/**
 * Licence keys: `<PREFIX>-XXXXX-XXXXX-XXXXX-XXXXX-C`. Framework-free, so the server, the apps'
 * reference client and the browser all parse keys with this one codec.
 *
 * - The body is 20 Crockford base32 characters: 100 random bits, so guessing a key is pointless.
 * - `C` is a Luhn mod 32 check character over the body: a typo is caught offline, before any
 *   request (the API answers `NOT_FOUND` to a bad check character without reading the database).
 *   Luhn mod N catches every single-character substitution and every adjacent transposition
 *   except the swap of the alphabet's first and last characters (`0Z` ↔ `Z0`): measured in the spec.
 * - The prefix names the product (`HSA`, `HSB`), so a key pasted into the wrong product is told
 *   apart from a mistyped one. It is outside the checksum for that reason.
 */

/** Crockford's base32: no I, L, O (read as 1, 1, 0) and no U. */
export const KEY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const KEY_BODY_LENGTH = 20;
export const KEY_RANDOM_BITS = KEY_BODY_LENGTH * 5;

export type ProductKey = keyof typeof COMPANION_PRODUCTS;
export { PRODUCT_SLUGS, type ProductSlug };

/**
 * The product's initials, "Hit-Scope": `PRODUCT.slug`'s first letter and the first letter of its
 * second part. (The design note's "first two letters" would give `HI`; its examples, the apps and
 * the research all say `HSA`/`HSB`, and keys already printed must keep their prefix.)
 */
const KEY_STEM = `${PRODUCT.slug[0]}${PRODUCT.slug[3]}`.toUpperCase();

/** The stem + the product's initial: `HSA` (Hitscope for Apps), `HSB` (Hitscope for Browsers). */
export const KEY_PREFIXES = Object.fromEntries(
  (Object.keys(COMPANION_PRODUCTS) as ProductKey[]).map((key) => [COMPANION_PRODUCTS[key].slug, `${KEY_STEM}${key[0].toUpperCase()}`]),
) as Record<ProductSlug, string>;

const PREFIX_LENGTH = 3;

export function isProductSlug(value: unknown): value is ProductSlug {
  return typeof value === 'string' && (PRODUCT_SLUGS as readonly string[]).includes(value);
}

export function productOfPrefix(prefix: string): ProductSlug | null {
  return PRODUCT_SLUGS.find((slug) => KEY_PREFIXES[slug] === prefix) ?? null;
}

const VALUE = new Map([...KEY_ALPHABET].map((char, index) => [char, index]));

/** Luhn mod N: the check character for `body` (characters of {@link KEY_ALPHABET}). */
export function checkCharacter(body: string): string {
  const n = KEY_ALPHABET.length;
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i -= 1) {
    let addend = factor * VALUE.get(body[i])!;
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / n) + (addend % n);
    sum += addend;
  }
  return KEY_ALPHABET[(n - (sum % n)) % n];
}

/** True when the last character of `bodyWithCheck` is the right check character for the rest. */
export function hasValidCheck(bodyWithCheck: string): boolean {
  if (bodyWithCheck.length < 2 || [...bodyWithCheck].some((char) => !VALUE.has(char))) return false;
  return checkCharacter(bodyWithCheck.slice(0, -1)) === bodyWithCheck.slice(-1);
}

/**
 * Upper case, separators dropped (spaces, dashes of any kind), and in the body the letters people
 * read as digits mapped to them: `I`/`L` → `1`, `O` → `0`. The prefix is kept as typed (upper-cased),
 * so a product slug with those letters would still give a recognisable prefix.
 */
export function normaliseKey(input: string): string {
  const compact = input.toUpperCase().replace(/[\s\-\u2010-\u2015\u2212_]/g, '');
  const prefix = compact.slice(0, PREFIX_LENGTH);
  const body = compact.slice(PREFIX_LENGTH).replace(/[IL]/g, '1').replace(/O/g, '0');
  return prefix + body;
}

export interface ParsedKey {
  product: ProductSlug;
  prefix: string;
  /** The 20 random characters. */
  body: string;
  check: string;
  /** Prefix, body and check character without separators: what the server hashes for its lookup. */
  normalised: string;
  /** The display form, `HSA-XXXXX-XXXXX-XXXXX-XXXXX-C`. */
  formatted: string;
}

/** Parses a key as a person may type it; null when it cannot be a key (unknown prefix, length, bad check character). */
export function parseKey(input: unknown): ParsedKey | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const normalised = normaliseKey(input);
  if (normalised.length !== PREFIX_LENGTH + KEY_BODY_LENGTH + 1) return null;
  const prefix = normalised.slice(0, PREFIX_LENGTH);
  const product = productOfPrefix(prefix);
  const rest = normalised.slice(PREFIX_LENGTH);
  if (!product || !hasValidCheck(rest)) return null;
  const body = rest.slice(0, KEY_BODY_LENGTH);
  const check = rest.slice(KEY_BODY_LENGTH);
  return { product, prefix, body, check, normalised, formatted: formatKey(prefix, body, check) };
}

/** Offline check: prefix, length and check character (no database, no network). */
export function isWellFormedKey(input: unknown): boolean {
  return parseKey(input) !== null;
}

function formatKey(prefix: string, body: string, check: string): string {
  const groups = body.match(/.{5}/g)!;
  return [prefix, ...groups, check].join('-');
}

/** Fills `bytes` with random values: Web Crypto, present in Node 20 and in browsers. */
const defaultRandom = (bytes: Uint8Array): Uint8Array => globalThis.crypto.getRandomValues(bytes);

/** A new key for `product`: 100 bits from a cryptographic random source. */
export function generateKey(product: ProductSlug, random: (bytes: Uint8Array) => Uint8Array = defaultRandom): ParsedKey {
  const bytes = random(new Uint8Array(Math.ceil(KEY_RANDOM_BITS / 8)));
  let body = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && body.length < KEY_BODY_LENGTH) {
      body += KEY_ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  const prefix = KEY_PREFIXES[product];
  const check = checkCharacter(body);
  return { product, prefix, body, check, normalised: prefix + body + check, formatted: formatKey(prefix, body, check) };
}
