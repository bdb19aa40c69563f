import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import {
  type AdminSigningKey,
  type AdminSigningKeyList,
  LEASE_TYP,
  type LeasePayload,
  type LicensingJwk,
  type LicensingJwks,
  type RotateSigningKeyResponse,
  SIGNING_KEY_AUDIT_ACTIONS,
} from '../../lib/api/licences.js';
import { AuditService } from '../audit/audit.service.js';
import { isDuplicateKey } from '../database/upsert.js';
import { LicenceCryptoService } from './licence-crypto.service.js';
import { SigningKey } from './schemas/signing-key.schema.js';

const CURRENT = 'current';
/** Longer than any lease can be relied on: 7 days to exp + 30 days of grace, and a margin. */
export const RETIRED_KEY_PUBLISHED_DAYS = 40;
/**
 * Another instance may have rotated: the current key is read again this often (so an instance may
 * sign with a retired key for up to this long after a rotation; the publication period covers it).
 */
export const REFRESH_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The kids another module's long-lived signatures still need published. */
export type KidsInUse = () => Promise<string[]>;

interface CurrentKey {
  kid: string;
  privateKey: KeyObject;
  loadedAt: number;
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** RFC 7638 thumbprint of an Ed25519 public key. */
export function thumbprint(x: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
}

const toAdminKey = (key: SigningKey, now: Date, inUse: ReadonlySet<string>): AdminSigningKey => ({
  kid: key.kid,
  current: key._id === CURRENT,
  createdAt: key.createdAt.toISOString(),
  retiredAt: key.retiredAt ? key.retiredAt.toISOString() : null,
  publishedUntil: key._id === CURRENT || !key.publishUntil ? null : key.publishUntil.toISOString(),
  published: key._id === CURRENT || (key.publishUntil !== null && key.publishUntil > now) || inUse.has(key.kid),
});

const toJwk = (key: Pick<SigningKey, 'kid' | 'publicKey'>): LicensingJwk => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: key.publicKey,
  kid: key.kid,
  alg: 'EdDSA',
  use: 'sig',
});

/**
 * The Ed25519 keys that sign leases. The first start generates one and claims `_id: 'current'` by
 * insert, so two instances starting together end up with the same key (the loser reads the
 * winner's). Rotation retires the current key but keeps its public half published for 40 days, so
 * leases it signed still verify until they could no longer be used anyway, and longer while a build
 * signed with it is still offered (see {@link keepPublishedWhileUsed}).
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger(SigningKeysService.name);
  private current: CurrentKey | null = null;
  private readonly kidsInUse: KidsInUse[] = [];

  constructor(
    @InjectModel(SigningKey.name) private readonly keys: Model<SigningKey>,
    private readonly crypto: LicenceCryptoService,
    private readonly audit: AuditService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.ensureCurrent();
  }

  private generate(id: string, now: Date): SigningKey {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x!;
    const kid = thumbprint(x);
    const der = privateKey.export({ format: 'der', type: 'pkcs8' });
    return {
      _id: id,
      kid,
      publicKey: x,
      privateKeyCiphertext: this.crypto.encrypt(der, `signing-key:${kid}`),
      createdAt: now,
      retiredAt: null,
      publishUntil: null,
    };
  }

  private async ensureCurrent(): Promise<SigningKey> {
    const existing = await this.keys.findById(CURRENT).lean().exec();
    if (existing) return existing;
    try {
      await this.keys.create(this.generate(CURRENT, new Date()));
      this.logger.log('Generated the lease signing key');
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // another instance generated it first: use theirs
    }
    return (await this.keys.findById(CURRENT).lean().exec())!;
  }

  private async currentKey(now = Date.now(), healing = true): Promise<CurrentKey> {
    if (this.current && now - this.current.loadedAt < REFRESH_MS) return this.current;
    const stored = await this.ensureCurrent();
    if (this.current?.kid !== stored.kid) {
      let der: Buffer;
      try {
        der = this.crypto.decrypt(stored.privateKeyCiphertext, `signing-key:${stored.kid}`);
      } catch (error) {
        // AUTH_SECRET changed: this key can sign nothing any more. A new one keeps the apps working;
        // the old public key stays published, so the leases it signed still verify.
        if (!healing) throw error;
        this.logger.error(`The lease signing key ${stored.kid} cannot be decrypted (was AUTH_SECRET changed?): rotating`);
        await this.rotate(new Date(now), stored.kid);
        return this.currentKey(now, false);
      }
      this.current = { kid: stored.kid, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), loadedAt: now };
    } else {
      this.current.loadedAt = now;
    }
    return this.current;
  }

  /** A compact JWS: `{ alg: 'EdDSA', typ: 'hitscope-lease+jwt', kid }` over the payload. */
  async signLease(payload: LeasePayload): Promise<string> {
    const { kid, privateKey } = await this.currentKey();
    const signingInput = `${b64url(JSON.stringify({ alg: 'EdDSA', typ: LEASE_TYP, kid }))}.${b64url(JSON.stringify(payload))}`;
    return `${signingInput}.${b64url(sign(null, Buffer.from(signingInput), privateKey))}`;
  }

  /**
   * Ed25519 over `data` (the releases module signs a build's 32-byte SHA-256 digest), with the same
   * key as the leases, so the apps verify builds with the JWKS they already pin.
   */
  async signDetached(data: Buffer): Promise<{ kid: string; signature: string }> {
    const { kid, privateKey } = await this.currentKey();
    return { kid, signature: b64url(sign(null, data, privateKey)) };
  }

  /**
   * Signatures that live longer than leases (a build stays downloadable for months and is verified
   * with the kid it was signed with): the module that keeps them names the kids it still serves,
   * and those keys stay published past their 40 days, for as long as it does.
   */
  keepPublishedWhileUsed(kidsInUse: KidsInUse): void {
    this.kidsInUse.push(kidsInUse);
  }

  private async kidsStillUsed(): Promise<string[]> {
    return (await Promise.all(this.kidsInUse.map((source) => source()))).flat();
  }

  /** The current key, the retired keys still within their publication period, and retired keys still in use. */
  async jwks(now = new Date()): Promise<LicensingJwks> {
    await this.ensureCurrent();
    const inUse = await this.kidsStillUsed();
    const keys = await this.keys
      .find({ $or: [{ _id: CURRENT }, { publishUntil: { $gt: now } }, ...(inUse.length ? [{ kid: { $in: inUse } }] : [])] })
      .sort({ createdAt: -1 })
      .lean()
      .exec();
    // The current key first: clients that take the first key get the one signing now.
    keys.sort((a, b) => Number(b._id === CURRENT) - Number(a._id === CURRENT));
    return { keys: keys.map(toJwk) };
  }

  /**
   * Replaces the current key (for an administrator's action). The old key is copied to
   * `retired:<kid>` first (idempotent), then the current document is swapped only if it still holds
   * the old key, so two rotations at once retire it once and leave one new key. With `onlyKid`,
   * only that key is replaced (an undecryptable key found by several instances at once).
   */
  async rotate(now = new Date(), onlyKid?: string): Promise<{ retired: string; current: string }> {
    const old = await this.ensureCurrent();
    // Asked to replace one key that another instance has replaced already: nothing to do.
    if (onlyKid && old.kid !== onlyKid) return { retired: onlyKid, current: old.kid };
    await this.keys
      .create({
        ...old,
        _id: `retired:${old.kid}`,
        retiredAt: now,
        publishUntil: new Date(now.getTime() + RETIRED_KEY_PUBLISHED_DAYS * DAY_MS),
      })
      .catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
    const next = this.generate(CURRENT, now);
    await this.keys.replaceOne({ _id: CURRENT, kid: old.kid }, next).exec();
    this.current = null;
    const stored = await this.ensureCurrent();
    this.logger.log(`Rotated the lease signing key: ${old.kid} retired, ${stored.kid} current`);
    return { retired: old.kid, current: stored.kid };
  }

  /** Every key for the administration: public facts only (kid and dates), never the key material. */
  async list(now = new Date()): Promise<AdminSigningKeyList> {
    await this.ensureCurrent();
    const keys = await this.keys.find({}, { privateKeyCiphertext: 0 }).lean<SigningKey[]>().exec();
    keys.sort((a, b) => Number(b._id === CURRENT) - Number(a._id === CURRENT) || b.createdAt.getTime() - a.createdAt.getTime());
    const inUse = new Set(await this.kidsStillUsed());
    return { keys: keys.map((key) => toAdminKey(key, now, inUse)) };
  }

  /** An administrator's rotation (a suspected leak, a routine change): audited with both kids. */
  async rotateBy(actor: SessionUser, now = new Date()): Promise<RotateSigningKeyResponse> {
    const rotated = await this.rotate(now);
    const publishUntil = new Date(now.getTime() + RETIRED_KEY_PUBLISHED_DAYS * DAY_MS);
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: SIGNING_KEY_AUDIT_ACTIONS.rotate,
      target: { type: 'signing_key', id: rotated.current, label: `Lease signing key ${rotated.current}` },
      before: { current: rotated.retired },
      after: { current: rotated.current, retired: rotated.retired, retiredPublishedUntil: publishUntil.toISOString() },
    });
    return { ...rotated, ...(await this.list(now)) };
  }
}
