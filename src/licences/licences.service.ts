import { randomBytes } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { Connection, Model } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import type {
  AdminLicence,
  AdminLicenceList,
  DeviceActivation,
  GrantLicenceRequest,
  LicenceStatus,
  LicenceSummary,
  OwnedLicence,
  OwnedLicenceList,
} from '../../lib/api/licences.js';
import { generateKey, parseKey, type ParsedKey, type ProductSlug } from '../../lib/licences/key.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { AuditService } from '../audit/audit.service.js';
import type { Entitlement, EntitlementSink, SourceLicence } from '../billing/entitlement-sink.js';
import { SIDE_CONNECTION } from '../database/database.module.js';
import { once } from '../database/once.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { ReadBatcher } from '../database/read-batcher.js';
import { UpdateBatcher } from '../database/update-batcher.js';
import { DUPLICATE_KEY, isDuplicateKey } from '../database/upsert.js';
import type { LicenceActivity } from '../overview/licence-activity.js';
import type { DownloadEntitlement } from '../releases/download-entitlement.js';
import { UsersService } from '../users/users.service.js';
import { LicenceCryptoService } from './licence-crypto.service.js';
import { LicenceReadCache } from './licence-read-cache.js';
import { licenceIdOf } from './licence-id.js';
import { licenceCode } from './licence-status.js';
import { LicencesErrorCode, LicencesException } from './licences.exception.js';
import { Licence } from './schemas/licence.schema.js';
import { LicenceKey } from './schemas/licence-key.schema.js';
import type { LicenceActivation } from './schemas/licence-activation.schema.js';
import { SeatsService } from './seats.service.js';

export const LICENCE_AUDIT_ACTIONS = {
  grant: 'licence.grant',
  revoke: 'licence.revoke',
  reset: 'licence.activations.reset',
} as const;

const PRODUCT_NAMES = Object.fromEntries(Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name])) as Record<
  ProductSlug,
  string
>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Licences read, and references written, per command by the one-time migration (onModuleInit). */
const KEY_REFERENCE_BATCH = 200;

/**
 * Licences: made and updated from entitlements (billing's sink, an administrator's grant), listed for
 * their owners and administrators, asked by downloads. Seats and devices are SeatsService's.
 */
@Injectable()
export class LicencesService implements EntitlementSink, DownloadEntitlement, LicenceActivity, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(LicencesService.name);
  /** Every licence has its key reference: the one-time migration is recorded (onModuleInit). */
  private keyReferencesComplete = false;
  private keyReferencesRun: Promise<void> = Promise.resolve();
  private stopping = false;

  /**
   * A source's licences read, updated and made by `_id`, grouped with those of the other webhook
   * events processed at the same moment (src/database/*-batcher.ts).
   */
  private readonly sourceReads: ReadBatcher<Licence>;
  private readonly writes: UpdateBatcher<Licence>;
  private readonly licenceInserts: InsertBatcher<Licence>;
  private readonly keyInserts: InsertBatcher<LicenceKey>;

  constructor(
    @InjectModel(Licence.name) private readonly licences: Model<Licence>,
    @InjectModel(LicenceKey.name) private readonly keyRefs: Model<LicenceKey>,
    @InjectConnection() private readonly connection: Connection,
    private readonly crypto: LicenceCryptoService,
    private readonly seats: SeatsService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly cache: LicenceReadCache,
    @InjectModel(Licence.name, SIDE_CONNECTION) licenceReads: Model<Licence>,
  ) {
    this.sourceReads = new ReadBatcher(licenceReads);
    this.writes = new UpdateBatcher(licences);
    this.licenceInserts = new InsertBatcher(licences);
    this.keyInserts = new InsertBatcher(keyRefs);
  }

  /**
   * Licences stored before keys had their reference document (licence_keys) get one, once per
   * database (database/once.ts): at later starts a marker read by `_id` says it is done. In the
   * background: meanwhile a key without its reference is found through the licences' own
   * `keyLookup` index (findByLookup), so a start on an older database answers at once instead of
   * after the references (13.5 s at 100 000 licences on the embedded database). Stopped between
   * batches at shutdown, unrecorded: the next start goes on (references that exist are skipped).
   */
  onModuleInit(): void {
    this.keyReferencesComplete = false;
    this.keyReferencesRun = once(this.connection, 'licence-key-references', () => this.addKeyReferences()).then(
      () => {
        this.keyReferencesComplete = true;
      },
      (error: Error) => {
        if (!this.stopping)
          this.logger.warn(
            `Licence key references not added (${error.message}): keys are found by the licences' index until a later start adds them`,
          );
      },
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.keyReferencesRun;
  }

  /** Settles once the start-up's key references are added, or known to be there (tests). */
  keyReferencesSettled(): Promise<void> {
    return this.keyReferencesRun;
  }

  /**
   * The licences are read KEY_REFERENCE_BATCH at a time in `_id` order, each page a short read:
   * through one cursor the read stayed open for the whole migration, and on the embedded database
   * an open read keeps SQLite's log from being checkpointed, so every command slowed down as the
   * references were written (sign-in from 120 to 585 ms over the 45 s it took at 100 000
   * licences). The references that exist are read by `_id` and skipped; one written meanwhile is
   * a duplicate, skipped too.
   */
  private async addKeyReferences(): Promise<void> {
    let added = 0;
    for (let after: string | undefined; ;) {
      if (this.stopping) throw new Error('stopping');
      const page = await this.licences
        .find(after === undefined ? {} : { _id: { $gt: after } }, { keyLookup: 1 })
        .sort({ _id: 1 })
        .limit(KEY_REFERENCE_BATCH)
        .lean<Array<Pick<Licence, '_id' | 'keyLookup'>>>()
        .exec();
      if (!page.length) break;
      after = page[page.length - 1]._id;
      added += await this.addKeyReferencesOf(page);
    }
    if (added) this.logger.log(`Licence keys: ${added} references added`);
  }

  private async addKeyReferencesOf(licences: Array<Pick<Licence, '_id' | 'keyLookup'>>): Promise<number> {
    const existing = new Set(
      (
        await this.keyRefs
          .find({ _id: { $in: licences.map((licence) => licence.keyLookup) } }, { _id: 1 })
          .lean<Array<{ _id: string }>>()
          .exec()
      ).map((reference) => reference._id),
    );
    const documents = licences
      .filter((licence) => !existing.has(licence.keyLookup))
      .map((licence) => ({ _id: licence.keyLookup, licenceId: licence._id }));
    if (!documents.length) return 0;
    try {
      return (await this.keyRefs.insertMany(documents, { ordered: false, rawResult: true })).insertedCount;
    } catch (error) {
      const failures = (error as { writeErrors?: unknown[] }).writeErrors;
      if (!failures || !failures.every((failure) => isDuplicateKey((failure as { err?: unknown }).err ?? failure))) throw error;
      return documents.length - failures.length;
    }
  }

  /**
   * Applies a source's complete current entitlement: one licence per product, found by its
   * deterministic id (so a replay updates, never duplicates), its key generated only on insert.
   * Products the source no longer covers are revoked.
   */
  async apply(entitlement: Entitlement, now = new Date()): Promise<void> {
    try {
      await this.applyProducts(entitlement, now);
    } finally {
      this.cache.forgetLicences();
    }
  }

  private async applyProducts(entitlement: Entitlement, now: Date): Promise<void> {
    const products = [...new Set(entitlement.products)];
    const set = {
      userId: entitlement.userId,
      planId: entitlement.planId,
      seats: entitlement.seats,
      state: entitlement.state,
      expiresAt: entitlement.expiresAt,
      graceUntil: entitlement.graceUntil,
      updatedAt: now,
    };
    // Every licence of the source usually exists already, as the entitlement says (an entitlement is
    // applied again at every event of its source, and most change nothing): read (with the reads of
    // the other events applied at the same moment), updated only where it differs, and made only for
    // a product that has none. A licence changed by another writer between the read and here is as
    // if this apply came first: the same as two applies racing before.
    const ids = products.map((product) => licenceIdOf(entitlement.source, product));
    const stored = await this.sourceReads.findByIds(ids);
    await Promise.all(
      products.map(async (product, index) => {
        const licence = stored[index];
        if (licence && holdsEntitlement(licence, set)) return;
        const updated = licence ? (await this.writes.updateOne({ _id: ids[index] }, { $set: set })).matchedCount : 0;
        if (!updated) await this.updateOrInsert(entitlement.source, product, set, now);
      }),
    );
    // The source's licences for the other products: their ids are known, so this is an update by
    // _id (a filter on `source` would be a scan of every licence on the embedded database).
    const others = Object.values(COMPANION_PRODUCTS)
      .map((item) => item.slug as ProductSlug)
      .filter((product) => !products.includes(product))
      .map((product) => licenceIdOf(entitlement.source, product));
    await Promise.all(
      others.map((id) => this.writes.updateOne({ _id: id, state: { $ne: 'revoked' } }, { $set: { state: 'revoked', updatedAt: now } })),
    );
  }

  /**
   * The source's licence for `product`, which was not found just now, made with a new key; or, when
   * another apply made it meanwhile, updated with `set`.
   */
  private async updateOrInsert(
    source: Entitlement['source'],
    product: ProductSlug,
    set: Pick<Licence, 'userId' | 'planId' | 'seats' | 'state' | 'expiresAt' | 'graceUntil' | 'updatedAt'>,
    now: Date,
  ): Promise<void> {
    const id = licenceIdOf(source, product);
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 0) {
        const { matchedCount } = await this.writes.updateOne({ _id: id }, { $set: set });
        if (matchedCount) return;
      }
      const key = generateKey(product);
      const keyLookup = this.crypto.lookup(key.normalised);
      // The key's reference first: its unique _id claims the key (in theory, with 100-bit keys, it is
      // taken already, and a new one is drawn).
      if ((await this.keyInserts.insert({ _id: keyLookup, licenceId: id })) === 'duplicate') {
        if (attempt >= 3) throw Object.assign(new Error(`Key reference ${keyLookup} is taken`), { code: DUPLICATE_KEY });
        continue;
      }
      const stored = await this.licenceInserts
        .insert({
          _id: id,
          product,
          source: { kind: source.kind, id: source.id },
          ...set,
          revokedAt: null,
          keyCiphertext: this.crypto.encrypt(key.normalised, id),
          keyLookup,
          keyHint: key.normalised.slice(-4),
          createdAt: now,
        } as Licence)
        .catch((error: unknown) => ({ error }));
      if (stored === 'inserted') return;
      // Not made (another apply inserted the licence first, and the update above then finds it; or
      // the insert failed): this key is not used. (A crash right here leaves a reference to no
      // licence: a lookup answers "not found".)
      await this.keyRefs.deleteOne({ _id: keyLookup, licenceId: id }).exec();
      if (stored !== 'duplicate') throw stored.error;
      if (attempt >= 3) throw Object.assign(new Error(`Licence ${id} could not be made`), { code: DUPLICATE_KEY });
    }
  }

  /** Reads by `_id` (the ids are derived from the source), so no query scans the collection. */
  async licencesOf(source: Entitlement['source'], now = new Date()): Promise<SourceLicence[]> {
    const products = Object.values(COMPANION_PRODUCTS).map((item) => item.slug as ProductSlug);
    const found = await this.sourceReads.findByIds(products.map((product) => licenceIdOf(source, product)));
    return found
      .filter((licence): licence is Licence => licence !== null)
      .map((licence) => ({
        product: licence.product as ProductSlug,
        key: this.decryptKey(licence),
        state: statusOf(licence, now),
        valid: licenceCode(licence, now) === 'VALID',
      }));
  }

  /** The licence of a well-formed key, found by the HMAC of the normalised key. */
  findByKey(key: ParsedKey): Promise<Licence | null> {
    return this.findByLookup(this.crypto.lookup(key.normalised));
  }

  /**
   * Two reads by `_id` (see LicenceKey for why not a query on `licences.keyLookup`); while older
   * licences may still lack their reference (onModuleInit), a key without one is looked up in the
   * licences' `keyLookup` index.
   */
  private async findByLookup(keyLookup: string): Promise<Licence | null> {
    const ref = await this.keyRefs.findById(keyLookup).lean().exec();
    if (!ref) return this.keyReferencesComplete ? null : this.licences.findOne({ keyLookup }).lean<Licence>().exec();
    const licence = await this.licences.findById(ref.licenceId).lean().exec();
    return licence?.keyLookup === keyLookup ? licence : null;
  }

  /**
   * {@link findByKey} by the key's lookup hash, through the read cache, for `validate` (what this
   * service writes, it forgets).
   */
  findByLookupCached(keyLookup: string): Promise<Licence | null> {
    return this.cache.licence(keyLookup, () => this.findByLookup(keyLookup));
  }

  async summary(licence: Licence, now: Date, seatsUsed?: number): Promise<LicenceSummary> {
    return {
      id: licence._id,
      product: licence.product as ProductSlug,
      planId: licence.planId,
      status: statusOf(licence, now),
      seats: licence.seats,
      seatsUsed: seatsUsed ?? (await this.seats.seatsUsed(licence._id, licence.seats)),
      expiresAt: iso(licence.expiresAt),
      graceUntil: iso(licence.graceUntil),
    };
  }

  /**
   * The key for its owner. Null when it cannot be decrypted: AUTH_SECRET changed since it was stored
   * (the dashboard then shows the hint and the error is logged, rather than failing the whole page).
   */
  private decryptKey(licence: Licence): string | null {
    try {
      const normalised = this.crypto.decrypt(licence.keyCiphertext, licence._id).toString('utf8');
      return parseKey(normalised)?.formatted ?? normalised;
    } catch (error) {
      this.logger.error(`The key of ${licence._id} cannot be decrypted (was AUTH_SECRET changed?): ${(error as Error).message}`);
      return null;
    }
  }

  private async describe(licences: readonly Licence[], now: Date): Promise<Array<Omit<OwnedLicence, 'key'>>> {
    const activations = await this.seats.listFor(licences.map((licence) => licence._id));
    return Promise.all(
      licences.map(async (licence) => ({
        ...(await this.summary(licence, now)),
        keyHint: licence.keyHint,
        productName: PRODUCT_NAMES[licence.product as ProductSlug] ?? licence.product,
        source: licence.source.kind,
        sourceId: licence.source.id,
        valid: licenceCode(licence, now) === 'VALID',
        activations: activations.filter((activation) => activation.licenceId === licence._id).map(toDevice),
        deactivationsLeftThisMonth: await this.seats.deactivationsLeft(licence._id, now),
      })),
    );
  }

  /** The signed-in person's licences, keys decrypted: only ever for their owner. */
  async listOwned(userId: string, now = new Date()): Promise<OwnedLicenceList> {
    const licences = await this.cache.ownedBy(userId, () => this.licences.find({ userId }).sort({ createdAt: 1, _id: 1 }).lean().exec());
    const described = await this.describe(licences, now);
    return { licences: described.map((licence, i) => ({ ...licence, key: this.decryptKey(licences[i]) })) };
  }

  /** Self-service deactivation of one of the owner's devices (a lost laptop), within the month's budget. */
  async deactivateOwn(userId: string, licenceId: string, fingerprint: string, now = new Date()): Promise<OwnedLicence> {
    const licence = await this.licences.findOne({ _id: licenceId, userId }).lean().exec();
    if (!licence) throw LicencesException.licenceNotFound();
    const outcome = await this.seats.deactivate(licence._id, fingerprint, now);
    if (outcome === 'NOT_ACTIVATED') throw LicencesException.activationNotFound();
    if (outcome === 'DEACTIVATION_LIMIT') throw LicencesException.deactivationLimit();
    const [described] = await this.describe([licence], now);
    return { ...described, key: this.decryptKey(licence) };
  }

  /* Administration (every change audited) ------------------------------------------------------ */

  async listForUser(userId: string, now = new Date()): Promise<AdminLicenceList> {
    const licences = await this.licences.find({ userId }).sort({ createdAt: 1, _id: 1 }).lean().exec();
    const described = await this.describe(licences, now);
    return { licences: described.map((licence): AdminLicence => ({ ...licence, userId })) };
  }

  private async userLabel(userId: string): Promise<string> {
    const user = await this.users.findById(userId);
    if (!user) throw new LicencesException(LicencesErrorCode.UserNotFound, 'No user with this id');
    return user.email;
  }

  /** The audit label of a licence's owner; an account deleted since is labelled so. */
  private async ownerLabel(userId: string): Promise<string> {
    return (await this.users.findById(userId))?.email ?? 'deleted account';
  }

  /** A licence given by an administrator (no payment): source kind `grant`, one licence per product. */
  async grant(actor: SessionUser, userId: string, input: GrantLicenceRequest, now = new Date()): Promise<AdminLicenceList> {
    const label = await this.userLabel(userId);
    const source = { kind: 'grant' as const, id: `gr_${randomBytes(12).toString('base64url')}` };
    await this.apply(
      {
        source,
        userId,
        planId: input.planId,
        products: input.products,
        seats: input.seats,
        state: 'active',
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        graceUntil: null,
      },
      now,
    );
    const licenceIds = [...new Set(input.products)].map((product) => licenceIdOf(source, product));
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: LICENCE_AUDIT_ACTIONS.grant,
      target: { type: 'user', id: userId, label },
      before: null,
      after: {
        licenceIds,
        planId: input.planId,
        products: input.products,
        seats: input.seats,
        expiresAt: input.expiresAt ?? null,
        note: input.note ?? null,
      },
    });
    return this.listForUser(userId, now);
  }

  private async adminLicence(licenceId: string): Promise<Licence> {
    const licence = await this.licences.findById(licenceId).lean().exec();
    if (!licence) throw LicencesException.licenceNotFound();
    return licence;
  }

  /** Revokes a licence for good: wins over whatever billing applies later. */
  async revoke(actor: SessionUser, licenceId: string, now = new Date()): Promise<AdminLicenceList> {
    const licence = await this.adminLicence(licenceId);
    await this.licences.updateOne({ _id: licenceId, revokedAt: null }, { $set: { revokedAt: now, updatedAt: now } }).exec();
    this.cache.forgetLicences();
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: LICENCE_AUDIT_ACTIONS.revoke,
      target: { type: 'user', id: licence.userId, label: await this.ownerLabel(licence.userId) },
      before: { licenceId, revokedAt: iso(licence.revokedAt) },
      after: { licenceId, revokedAt: iso(licence.revokedAt ?? now) },
    });
    return this.listForUser(licence.userId, now);
  }

  /** Frees every seat and forgets the month's deactivations ("I reinstalled and hit the limit"). */
  async resetActivations(actor: SessionUser, licenceId: string, now = new Date()): Promise<AdminLicenceList> {
    const licence = await this.adminLicence(licenceId);
    const released = await this.seats.reset(licenceId);
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: LICENCE_AUDIT_ACTIONS.reset,
      target: { type: 'user', id: licence.userId, label: await this.ownerLabel(licence.userId) },
      before: { licenceId, activations: released },
      after: { licenceId, activations: 0 },
    });
    return this.listForUser(licence.userId, now);
  }

  /* Downloads (the releases module asks through DownloadEntitlement) ---------------------------- */

  activationsSince(since: Date): Promise<number> {
    return this.seats.activationsSince(since);
  }

  async canDownload(userId: string, product: ProductSlug, now = new Date()): Promise<boolean> {
    const licences = await this.licences.find({ userId, product }).lean().exec();
    return licences.some((licence) => licenceCode(licence, now) === 'VALID');
  }

  async keyAllows(key: string, product: ProductSlug, now = new Date()): Promise<boolean> {
    const parsed = parseKey(key);
    if (!parsed || parsed.product !== product) return false;
    const licence = await this.findByKey(parsed);
    return !!licence && licence.product === product && licenceCode(licence, now) === 'VALID';
  }

  /* Account data ---------------------------------------------------------------------------------- */

  /** What "export my data" holds: the licences and devices, keys only by their last characters. */
  async exportFor(userId: string, now = new Date()): Promise<{ licences: Array<Omit<OwnedLicence, 'key'>> }> {
    const licences = await this.licences.find({ userId }).lean().exec();
    return { licences: await this.describe(licences, now) };
  }

  /** Devices and seats first, then the licences: a retry after a failure half-way finishes the job. */
  async deleteFor(userId: string): Promise<void> {
    const licences = await this.licences.find({ userId }, { _id: 1 }).lean().exec();
    const ids = licences.map((licence) => licence._id);
    await this.seats.deleteFor(ids);
    if (ids.length) await this.keyRefs.deleteMany({ licenceId: { $in: ids } }).exec();
    await this.licences.deleteMany({ userId }).exec();
    this.cache.forgetLicences();
  }
}

/** What people are told: the state billing set, or why the licence stopped being valid (an end date passed, an administrator revoked it). */
function statusOf(licence: Licence, now: Date): LicenceStatus {
  const code = licenceCode(licence, now);
  if (code === 'REVOKED') return 'revoked';
  if (code === 'EXPIRED') return 'expired';
  return licence.state;
}

function toDevice(activation: LicenceActivation): DeviceActivation {
  return {
    id: activation.fingerprint,
    name: activation.name,
    platform: activation.platform,
    appVersion: activation.appVersion,
    activatedAt: activation.activatedAt.toISOString(),
    lastSeenAt: activation.lastSeenAt.toISOString(),
    released: activation.status === 'released',
  };
}

/** Whether a stored licence already holds what an entitlement sets (its `updatedAt` aside). */
function holdsEntitlement(
  licence: Licence,
  set: Pick<Licence, 'userId' | 'planId' | 'seats' | 'state' | 'expiresAt' | 'graceUntil'>,
): boolean {
  const sameDate = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
  return (
    licence.userId === set.userId &&
    licence.planId === set.planId &&
    licence.seats === set.seats &&
    licence.state === set.state &&
    sameDate(licence.expiresAt, set.expiresAt) &&
    sameDate(licence.graceUntil, set.graceUntil)
  );
}
