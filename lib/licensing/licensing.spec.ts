import { generateKeyPairSync, sign, createHash, randomBytes } from 'node:crypto';
import type { LeasePayload, LicensingJwks } from '../api/licences.js';
import { check } from './check.js';
import { LicenceClient, memoryStore, fingerprintOf } from './client.js';
import { leaseKid, verifyLease } from './lease.js';
import { verifyDownloadedBuild, verifyReleaseSignature } from './release-signature.js';
import type { SignatureVerifier } from './signature.js';

const APPS = 'hitscope-for-apps';
const DAY = 86_400;
const T0 = Date.UTC(2026, 10, 1) / 1000;

function signingKey(kid = `kid-${randomBytes(4).toString('hex')}`) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  return { kid, privateKey, jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x, kid, alg: 'EdDSA' as const, use: 'sig' as const } };
}

type Key = ReturnType<typeof signingKey>;
const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function lease(key: Key, overrides: Partial<LeasePayload> = {}, header: Record<string, unknown> = {}): string {
  const payload: LeasePayload = {
    sub: 'lease',
    lic: 'lic_0123456789abcdefghijklmnop',
    prod: APPS,
    plan: 'team-monthly',
    fp: 'f'.repeat(64),
    seats: 3,
    nonce: 'n1',
    iat: T0,
    exp: T0 + 7 * DAY,
    grace: T0 + 37 * DAY,
    ...overrides,
  };
  const signingInput = `${segment({ alg: 'EdDSA', typ: 'hitscope-lease+jwt', kid: key.kid, ...header })}.${segment(payload)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), key.privateKey).toString('base64url')}`;
}

const expectation = { product: APPS, fingerprint: 'f'.repeat(64) } as const;
const at = (seconds: number) => ({ now: seconds * 1000 });

describe('verifyLease (WebCrypto Ed25519, as in the extension and the desktop webview)', () => {
  const key = signingKey();
  const jwks: LicensingJwks = { keys: [key.jwk] };

  it('accepts a lease for this product and device until its grace, and names its kid', async () => {
    const jws = lease(key);
    expect(await verifyLease(jws, jwks, expectation, at(T0 + 1))).toMatchObject({ ok: true, kid: key.kid, payload: { seats: 3 } });
    expect(await verifyLease(jws, jwks, expectation, at(T0 + 36 * DAY))).toMatchObject({ ok: true });
    expect(await verifyLease(jws, jwks, expectation, at(T0 + 37 * DAY))).toEqual({ ok: false, reason: 'lease and its grace are over' });
    expect(leaseKid(jws)).toBe(key.kid);
  });

  it('refuses a changed payload, another key, another device, product, licence or nonce', async () => {
    const jws = lease(key);
    const [h, , s] = jws.split('.');
    const more = `${h}.${segment({ ...JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()), seats: 999 })}.${s}`;
    expect(await verifyLease(more, jwks, expectation, at(T0))).toEqual({ ok: false, reason: 'bad signature' });
    const other = signingKey(key.kid);
    expect(await verifyLease(lease(other), jwks, expectation, at(T0))).toEqual({ ok: false, reason: 'bad signature' });
    expect(await verifyLease(jws, jwks, { ...expectation, fingerprint: 'e'.repeat(64) }, at(T0))).toEqual({
      ok: false,
      reason: 'lease for another device',
    });
    expect(await verifyLease(jws, jwks, { ...expectation, product: 'hitscope-for-browsers' }, at(T0))).toEqual({
      ok: false,
      reason: 'lease for another product',
    });
    expect(await verifyLease(jws, jwks, { ...expectation, licenceId: 'lic_other' }, at(T0))).toEqual({
      ok: false,
      reason: 'lease for another licence',
    });
    expect(await verifyLease(jws, jwks, { ...expectation, nonce: 'n2' }, at(T0))).toEqual({
      ok: false,
      reason: 'nonce mismatch (replayed answer)',
    });
  });

  it('says which kid it does not know, and refuses what is not a lease', async () => {
    const stranger = signingKey('rotated-in');
    expect(await verifyLease(lease(stranger), jwks, expectation, at(T0))).toEqual({
      ok: false,
      reason: 'unknown signing key rotated-in',
      kid: 'rotated-in',
    });
    expect(await verifyLease(lease(key, {}, { typ: 'JWT' }), jwks, expectation, at(T0))).toEqual({
      ok: false,
      reason: 'not a lease (alg or typ)',
    });
    expect(await verifyLease(lease(key, { sub: 'x' as 'lease' }), jwks, expectation, at(T0))).toEqual({
      ok: false,
      reason: 'not a lease (sub)',
    });
    expect(await verifyLease('a.b', jwks, expectation)).toEqual({ ok: false, reason: 'not a compact JWS' });
    expect(await verifyLease('%%.$$.!!', jwks, expectation)).toEqual({ ok: false, reason: 'unreadable lease' });
    expect(await verifyLease(null, jwks, expectation)).toEqual({ ok: false, reason: 'no lease' });
  });

  it('uses an injected verifier (a webview without WebCrypto Ed25519 hands the check to native code)', async () => {
    const calls: string[] = [];
    const native: SignatureVerifier = async (x) => {
      calls.push(x);
      return true;
    };
    expect(await verifyLease(lease(signingKey(key.kid)), jwks, expectation, { now: T0 * 1000, verifier: native })).toMatchObject({
      ok: true,
    });
    expect(calls).toEqual([key.jwk.x]);
  });
});

describe('release signatures (what the desktop updater checks before offering a build)', () => {
  const key = signingKey();
  const jwks: LicensingJwks = { keys: [key.jwk] };
  const build = randomBytes(4096);
  const digest = createHash('sha256').update(build).digest();
  const signature = { alg: 'EdDSA' as const, kid: key.kid, value: sign(null, digest, key.privateKey).toString('base64url') };

  it('accepts the announced bytes signed with a published key', async () => {
    expect(await verifyReleaseSignature(digest.toString('hex'), signature, jwks)).toEqual({ ok: true });
    expect(
      await verifyDownloadedBuild(new Uint8Array(build), { sha256: digest.toString('hex'), size: build.length, signature }, jwks),
    ).toEqual({ ok: true });
  });

  it('refuses other bytes, an unsigned build, a signature by another key and an unknown kid', async () => {
    const tampered = Buffer.from(build);
    tampered[0] ^= 1;
    expect(await verifyDownloadedBuild(new Uint8Array(tampered), { sha256: digest.toString('hex'), signature }, jwks)).toEqual({
      ok: false,
      reason: 'checksum mismatch',
    });
    expect(await verifyDownloadedBuild(new Uint8Array(build), { sha256: digest.toString('hex'), size: 1, signature }, jwks)).toMatchObject({
      ok: false,
    });
    expect(await verifyReleaseSignature(digest.toString('hex'), null, jwks)).toEqual({ ok: false, reason: 'unsigned build' });
    const forged = { ...signature, value: sign(null, digest, signingKey().privateKey).toString('base64url') };
    expect(await verifyReleaseSignature(digest.toString('hex'), forged, jwks)).toEqual({ ok: false, reason: 'bad signature' });
    expect(await verifyReleaseSignature(digest.toString('hex'), { ...signature, kid: 'gone' }, jwks)).toEqual({
      ok: false,
      reason: 'unknown signing key gone',
      unknownKid: 'gone',
    });
  });
});

describe('the licence client offline (a site that cannot be reached is simulated by a failing fetch)', () => {
  const key = signingKey();
  const unreachable: typeof fetch = async () => {
    throw new TypeError('fetch failed');
  };
  const KEY = 'HSA-00000-00000-00000-00000-0';

  async function clientAt(seconds: { value: number }, stored: Parameters<typeof memoryStore>[0]) {
    const fingerprint = await fingerprintOf('device-1');
    const store = memoryStore(stored && { ...stored, lease: stored.lease && lease(key, { fp: fingerprint, nonce: null }) });
    return {
      store,
      client: new LicenceClient({
        siteUrl: 'https://hitscope.test',
        product: APPS,
        fingerprint,
        store,
        fetch: unreachable,
        now: () => seconds.value * 1000,
      }),
    };
  }
  const stored = {
    key: KEY,
    siteUrl: 'https://hitscope.test',
    lease: 'x',
    licenceId: 'lic_0123456789abcdefghijklmnop',
    keys: { keys: [key.jwk] },
    checkedAt: T0 * 1000,
    denied: null,
  };

  it('is paid while the lease is current, in grace after exp, free after grace — and keeps the key', async () => {
    const clock = { value: T0 + DAY };
    const { client, store } = await clientAt(clock, stored);
    expect(await client.state()).toMatchObject({ tier: 'paid', mode: 'online', seats: 3 });
    clock.value = T0 + 8 * DAY;
    expect(await client.validate()).toMatchObject({ tier: 'paid', mode: 'grace', offlineReason: 'fetch failed' });
    clock.value = T0 + 38 * DAY;
    expect(await client.validate()).toMatchObject({ tier: 'free', reason: 'expired', key: KEY });
    expect(store.value?.key).toBe(KEY);
  });

  it('asks again after a day, and a key for another site is not this one', async () => {
    const clock = { value: T0 + 60 };
    const { client } = await clientAt(clock, stored);
    expect(await client.refreshDue()).toBe(false);
    clock.value = T0 + DAY + 1;
    expect(await client.refreshDue()).toBe(true);
    const elsewhere = await clientAt(clock, { ...stored, siteUrl: 'https://other.test' });
    expect(await elsewhere.client.state()).toEqual({ tier: 'free', reason: 'none' });
  });

  it('refuses a mistyped key without asking, and keeps a key it could not confirm as unverified', async () => {
    const clock = { value: T0 };
    const { client, store } = await clientAt(clock, null);
    expect(await client.activate('HSA-00000-00000-00000-00000-1')).toMatchObject({ tier: 'free', reason: 'denied', code: 'NOT_FOUND' });
    expect(await client.activate('HSB-00000-00000-00000-00000-0')).toMatchObject({ tier: 'free', reason: 'denied', code: 'WRONG_PRODUCT' });
    expect(store.value).toBeNull();
    expect(await client.activate(KEY.toLowerCase())).toMatchObject({ tier: 'free', reason: 'unverified', key: KEY });
    expect(store.value).toMatchObject({ key: KEY, lease: null });
    const { error } = await client.deactivate();
    expect(error).toMatch(/could not be reached/);
    expect(store.value).toMatchObject({ key: KEY });
  });

  it('asks the site for keys it lacks before trusting a lease (check, no keys known)', async () => {
    const result = await check('validate', {
      baseUrl: 'https://hitscope.test',
      key: KEY,
      product: APPS,
      fingerprint: 'f'.repeat(64),
      fetch: unreachable,
    });
    expect(result).toMatchObject({ status: 'offline', usable: false });
  });
});
