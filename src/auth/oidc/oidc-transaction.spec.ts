import { OIDC_TRANSACTION_TTL_MS, openTransaction, type OidcTransaction, sealTransaction } from './oidc-transaction.js';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Flips the highest bit of one base64url character: never only padding bits, always a changed byte. */
const flipAt = (text: string, index: number) =>
  `${text.slice(0, index)}${ALPHABET[ALPHABET.indexOf(text[index]) ^ 32]}${text.slice(index + 1)}`;
const transaction = (): OidcTransaction => ({
  state: 'state-value',
  nonce: 'nonce-value',
  codeVerifier: 'verifier-value-verifier-value-verifier-value',
  redirect: '/dashboard/lounge',
  expiresAt: Date.now() + OIDC_TRANSACTION_TTL_MS,
});

describe('OIDC transaction cookie', () => {
  it('opens what it sealed, and the sealed text reveals neither state nor verifier', () => {
    const original = transaction();
    const sealed = sealTransaction(original, SECRET);
    expect(sealed).not.toContain('state-value');
    expect(Buffer.from(sealed.split('.')[1], 'base64url').toString('latin1')).not.toContain('verifier');
    expect(openTransaction(sealed, SECRET)).toEqual(original);
  });

  it('refuses a flipped bit anywhere, another secret, garbage and nothing', () => {
    const sealed = sealTransaction(transaction(), SECRET);
    for (let index = 0; index < sealed.length; index += 1) {
      if (sealed[index] !== '.') expect(openTransaction(flipAt(sealed, index), SECRET)).toBeNull();
    }
    expect(openTransaction(sealed, `${SECRET}-rotated`)).toBeNull();
    expect(openTransaction('not.a.transaction', SECRET)).toBeNull();
    expect(openTransaction(undefined, SECRET)).toBeNull();
  });

  it('expires', () => {
    const sealed = sealTransaction(transaction(), SECRET);
    expect(openTransaction(sealed, SECRET, Date.now() + OIDC_TRANSACTION_TTL_MS + 1)).toBeNull();
  });
});
