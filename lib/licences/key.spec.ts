import {
  checkCharacter,
  generateKey,
  hasValidCheck,
  isWellFormedKey,
  KEY_ALPHABET,
  KEY_PREFIXES,
  KEY_RANDOM_BITS,
  normaliseKey,
  parseKey,
  PRODUCT_SLUGS,
} from './key.js';

const APPS = 'hitscope-for-apps';
const BROWSERS = 'hitscope-for-browsers';

describe('licence keys', () => {
  it('derives the prefixes from the product constants: HSA and HSB', () => {
    expect(KEY_PREFIXES).toEqual({ [APPS]: 'HSA', [BROWSERS]: 'HSB' });
    expect(PRODUCT_SLUGS).toEqual([APPS, BROWSERS]);
  });

  it('generates HSA-XXXXX-XXXXX-XXXXX-XXXXX-C keys from 100 random bits that parse back', () => {
    expect(KEY_RANDOM_BITS).toBe(100);
    const key = generateKey(APPS);
    expect(key.formatted).toMatch(/^HSA-[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}-[0-9A-HJKMNP-TV-Z]$/);
    expect(parseKey(key.formatted)).toEqual(key);
    expect(generateKey(BROWSERS).prefix).toBe('HSB');
  });

  it('uses every bit of the random bytes: all-ones gives ZZZ…, all-zeros gives 000…', () => {
    expect(generateKey(APPS, (bytes) => bytes.fill(0xff)).body).toBe('Z'.repeat(20));
    expect(generateKey(APPS, (bytes) => bytes.fill(0)).body).toBe('0'.repeat(20));
    const bodies = new Set(Array.from({ length: 2000 }, () => generateKey(APPS).body));
    expect(bodies.size).toBe(2000);
    const seen = new Set([...bodies].join(''));
    expect(seen.size).toBe(32);
  });

  it('has no ambiguous letters in its alphabet (no I, L, O, U)', () => {
    expect(KEY_ALPHABET).toHaveLength(32);
    expect(KEY_ALPHABET).not.toMatch(/[ILOU]/);
    expect(new Set(KEY_ALPHABET).size).toBe(32);
  });

  it('normalises what people type: case, spaces, dashes, I/L → 1, O → 0', () => {
    const key = generateKey(APPS, (bytes) => bytes.fill(0x84));
    const typed = key.formatted.toLowerCase().replace(/1/g, 'l').replace(/0/g, 'o').replace(/-/g, ' - ');
    expect(normaliseKey(typed)).toBe(key.normalised);
    expect(parseKey(`  ${typed}  `)?.formatted).toBe(key.formatted);
    expect(parseKey(key.normalised)?.formatted).toBe(key.formatted);
    expect(parseKey(key.formatted.replace(/-/g, '\u2013'))?.formatted).toBe(key.formatted);
  });

  it('refuses an unknown prefix, a wrong length, a foreign character and non-strings', () => {
    const key = generateKey(APPS);
    expect(isWellFormedKey(key.formatted.replace('HSA', 'HSX'))).toBe(false);
    expect(isWellFormedKey(key.formatted.slice(0, -2))).toBe(false);
    expect(isWellFormedKey(`${key.formatted}0`)).toBe(false);
    expect(isWellFormedKey(key.formatted.replace(/.$/, 'U'))).toBe(false);
    expect(isWellFormedKey(12345)).toBe(false);
    expect(isWellFormedKey('x'.repeat(1000))).toBe(false);
  });

  it('catches every single-character substitution (measured over 200 keys: 100 %)', () => {
    let typos = 0;
    let caught = 0;
    for (let k = 0; k < 200; k += 1) {
      const { body, check } = generateKey(APPS);
      const full = body + check;
      for (let i = 0; i < full.length; i += 1) {
        for (const char of KEY_ALPHABET) {
          if (char === full[i]) continue;
          typos += 1;
          if (!hasValidCheck(full.slice(0, i) + char + full.slice(i + 1))) caught += 1;
        }
      }
    }
    expect(typos).toBe(200 * 21 * 31);
    expect(caught / typos).toBe(1);
  });

  it('catches every adjacent transposition except 0Z ↔ Z0 (the one blind spot of Luhn mod N): measured 99.8 %', () => {
    let swaps = 0;
    let caught = 0;
    const missed = new Set<string>();
    const trySwap = (full: string, i: number) => {
      if (full[i] === full[i + 1]) return;
      swaps += 1;
      if (!hasValidCheck(full.slice(0, i) + full[i + 1] + full[i] + full.slice(i + 2))) caught += 1;
      else missed.add([full[i], full[i + 1]].sort().join(''));
    };
    // Every ordered pair of distinct characters at every adjacent position inside the body…
    for (const a of KEY_ALPHABET) {
      for (const b of KEY_ALPHABET) {
        for (let i = 0; i < 19; i += 1) {
          const body = `${'7'.repeat(i)}${a}${b}${'7'.repeat(18 - i)}`;
          trySwap(body + checkCharacter(body), i);
        }
      }
    }
    // …and the last body character swapped with the check character, over many keys.
    for (let k = 0; k < 3000; k += 1) {
      const { body, check } = generateKey(APPS);
      trySwap(body + check, 19);
    }
    expect([...missed]).toEqual(['0Z']);
    const rate = caught / swaps;
    expect(rate).toBeGreaterThan(0.997);
    expect(rate).toBeLessThan(1);
  });

  it('computes the check character over the body only (a key in the wrong product still parses, with that product)', () => {
    const key = generateKey(APPS);
    const moved = parseKey(key.formatted.replace('HSA', 'HSB'));
    expect(moved?.product).toBe(BROWSERS);
    expect(checkCharacter(key.body)).toBe(key.check);
  });
});
