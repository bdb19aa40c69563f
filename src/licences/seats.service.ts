import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { isDuplicateKey } from '../database/upsert.js';
import { LicenceReadCache } from './licence-read-cache.js';
import { LicenceActivation } from './schemas/licence-activation.schema.js';
import { activationEventId, LicenceActivationEvent } from './schemas/licence-activation-event.schema.js';
import { LicenceSeat } from './schemas/licence-seat.schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A device unseen this long gives its seat back (it may claim one again when it returns). */
export const STALE_AFTER_DAYS = 30;
/** Deactivations per licence per calendar month (UTC); an administrator's reset clears them. */
export const DEACTIVATIONS_PER_MONTH = 10;
/** `lastSeenAt` is written at most this often per device: validation stays read-mostly. */
const SEEN_RESOLUTION_MS = 60 * 60 * 1000;

export interface Device {
  name?: string;
  platform?: string;
  appVersion?: string;
}

export type DeactivateOutcome = 'DEACTIVATED' | 'NOT_ACTIVATED' | 'DEACTIVATION_LIMIT';

export const activationId = (licenceId: string, fingerprint: string) => `${licenceId}:${fingerprint}`;
const seatId = (licenceId: string, n: number) => `${licenceId}:${n}`;
const month = (now: Date) => now.toISOString().slice(0, 7);
const deactivationPrefix = (licenceId: string, now: Date) => `${licenceId}:deact:${month(now)}:`;
const newClaim = () => randomBytes(12).toString('base64url');

/**
 * Seats and device activations without transactions (FerretDB has none), from claims by unique
 * insert: seat n of licence L is the document `L:n` in `licence_seats`, and whoever inserts it holds
 * it. N devices racing for fewer seats cannot over-allocate: the unique `_id` lets one insert win per
 * seat. A device's activation is `L:<fingerprint>`, so re-activating finds the seat it already has.
 */
@Injectable()
export class SeatsService {
  constructor(
    @InjectModel(LicenceSeat.name) private readonly seats: Model<LicenceSeat>,
    @InjectModel(LicenceActivation.name) private readonly activations: Model<LicenceActivation>,
    @InjectModel(LicenceActivationEvent.name) private readonly events: Model<LicenceActivationEvent>,
    private readonly cache: LicenceReadCache,
  ) {}

  /**
   * What `validate` needs, from the read cache: the device's activation when it holds a seat within
   * the licence's seat count, and how many seats are used. Every write below forgets the licence's
   * cached devices, so this instance never answers from before its own change.
   */
  async validationView(
    licence: { _id: string; seats: number },
    fingerprint: string,
  ): Promise<{ activation: LicenceActivation | null; seatsUsed: number }> {
    const active = await this.cache.activeActivations(licence._id, () =>
      this.activations.find({ licenceId: licence._id, status: 'active' }).lean().exec(),
    );
    const seated = active.filter((activation) => activation.seat < licence.seats);
    return { activation: seated.find((activation) => activation.fingerprint === fingerprint) ?? null, seatsUsed: seated.length };
  }

  /** The device's activation if it holds a seat within the licence's current seat count. */
  async activeActivation(licenceId: string, seats: number, fingerprint: string): Promise<LicenceActivation | null> {
    const activation = await this.activations.findById(activationId(licenceId, fingerprint)).lean().exec();
    return activation?.status === 'active' && activation.seat < seats ? activation : null;
  }

  /**
   * Notes that the device was seen, at most once an hour (and its app version when it changed).
   * Answers the activation as it is now; the one passed in (maybe the cache's) is left as it was.
   */
  async touch(activation: LicenceActivation, device: Device, now: Date): Promise<LicenceActivation> {
    const versionChanged = device.appVersion !== undefined && device.appVersion !== activation.appVersion;
    if (!versionChanged && now.getTime() - activation.lastSeenAt.getTime() < SEEN_RESOLUTION_MS) return activation;
    const set: Partial<LicenceActivation> = { lastSeenAt: now };
    if (versionChanged) set.appVersion = device.appVersion;
    await this.activations.updateOne({ _id: activation._id, status: 'active', claim: activation.claim }, { $set: set }).exec();
    this.cache.forgetActivations(activation.licenceId);
    return { ...activation, ...set };
  }

  /**
   * Activates a device: its existing seat when it has one (idempotent), else the first free seat,
   * else a seat freed from a device unseen for 30 days. Null when every seat is taken.
   */
  async activate(
    licence: { _id: string; seats: number },
    fingerprint: string,
    device: Device,
    now: Date,
  ): Promise<LicenceActivation | null> {
    try {
      return await this.claimActivation(licence, fingerprint, device, now);
    } finally {
      this.cache.forgetActivations(licence._id);
    }
  }

  private async claimActivation(
    licence: { _id: string; seats: number },
    fingerprint: string,
    device: Device,
    now: Date,
  ): Promise<LicenceActivation | null> {
    const id = activationId(licence._id, fingerprint);
    const existing = await this.activations.findById(id).lean().exec();
    if (existing?.status === 'active') {
      if (existing.seat < licence.seats) {
        const set = { lastSeenAt: now, ...pickDevice(device) };
        await this.activations.updateOne({ _id: id, status: 'active', claim: existing.claim }, { $set: set }).exec();
        // Normally there already (E11000): written here too in case the first activation's request
        // failed between binding the seat and recording the event, and the app retried.
        await this.recordActivation(existing);
        return { ...existing, ...set };
      }
      // The licence has fewer seats than when this device got its seat: give it back and claim anew.
      await this.release(existing, now);
    }
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const claimed = await this.claimSeat(licence, id, now);
      if (claimed) return this.bind(licence._id, fingerprint, claimed, device, now);
      // The same device activating several times at once: its copies hold seats for a moment, and
      // the one that bound first is this device's activation.
      const sibling = await this.siblingActivation(licence, fingerprint);
      if (sibling) return sibling;
      if (attempt === 0 && (await this.releaseStale(licence._id, now)) === 0) break;
    }
    return null;
  }

  /**
   * This device's activation, made by a concurrent request of the same device. While that request
   * still holds a claimed seat but has not bound it yet, wait a little for it (a few milliseconds).
   */
  private async siblingActivation(licence: { _id: string; seats: number }, fingerprint: string): Promise<LicenceActivation | null> {
    const id = activationId(licence._id, fingerprint);
    for (let wait = 0; wait < 5; wait += 1) {
      const activation = await this.activeActivation(licence._id, licence.seats, fingerprint);
      if (activation) return activation;
      if (!(await this.seats.exists({ licenceId: licence._id, kind: 'seat', activationId: id }).exec())) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return null;
  }

  private async claimSeat(licence: { _id: string; seats: number }, id: string, now: Date): Promise<{ seat: number; claim: string } | null> {
    const taken = new Set(
      (await this.seats.find({ licenceId: licence._id, kind: 'seat' }, { _id: 1 }).lean().exec()).map((seat) => seat._id),
    );
    const claim = newClaim();
    for (let n = 0; n < licence.seats; n += 1) {
      if (taken.has(seatId(licence._id, n))) continue;
      try {
        await this.seats.create({
          _id: seatId(licence._id, n),
          licenceId: licence._id,
          activationId: id,
          claim,
          kind: 'seat',
          claimedAt: now,
        });
        return { seat: n, claim };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error; // somebody else took seat n just now: try the next
      }
    }
    return null;
  }

  /**
   * Points the device's activation at the seat just claimed. If the same device won a race against
   * itself (two activations at once), the loser's insert fails on the activation's `_id`: it gives
   * its seat back and answers the winner's activation.
   */
  private async bind(
    licenceId: string,
    fingerprint: string,
    { seat, claim }: { seat: number; claim: string },
    device: Device,
    now: Date,
  ): Promise<LicenceActivation | null> {
    const id = activationId(licenceId, fingerprint);
    let bound: LicenceActivation | null;
    try {
      bound = await this.activations
        .findOneAndUpdate(
          { _id: id, status: { $ne: 'active' } },
          {
            $set: {
              licenceId,
              fingerprint,
              status: 'active',
              seat,
              claim,
              name: device.name ?? '',
              platform: device.platform ?? '',
              appVersion: device.appVersion ?? '',
              activatedAt: now,
              lastSeenAt: now,
              releasedAt: null,
            },
          },
          { upsert: true, returnDocument: 'after' },
        )
        .lean()
        .exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.seats.deleteOne({ _id: seatId(licenceId, seat), claim }).exec();
      const winner = await this.activations.findById(id).lean().exec();
      return winner?.status === 'active' ? winner : null;
    }
    if (bound) await this.recordActivation(bound);
    return bound;
  }

  /**
   * The activation event of a binding (what "activations today" counts): inserted once, whatever
   * happens to the device afterwards; a second write of the same binding is a no-op.
   */
  private async recordActivation(activation: Pick<LicenceActivation, '_id' | 'claim' | 'activatedAt'>): Promise<void> {
    try {
      await this.events.create({ _id: activationEventId(activation._id, activation.claim), at: activation.activatedAt });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Gives back the seat of an active activation (compare-and-set on its claim), keeping it listed as released. */
  private async release(activation: LicenceActivation, now: Date, condition: Record<string, unknown> = {}): Promise<boolean> {
    const released = await this.activations
      .updateOne(
        { _id: activation._id, status: 'active', claim: activation.claim, ...condition },
        { $set: { status: 'released', releasedAt: now } },
      )
      .exec();
    if (released.modifiedCount === 0) return false;
    await this.seats.deleteOne({ _id: seatId(activation.licenceId, activation.seat), claim: activation.claim }).exec();
    return true;
  }

  /**
   * Frees the seats of devices unseen for 30 days. Compare-and-set on `lastSeenAt`: a device that
   * shows up meanwhile keeps its seat.
   */
  async releaseStale(licenceId: string, now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - STALE_AFTER_DAYS * DAY_MS);
    const stale = await this.activations
      .find({ licenceId, status: 'active', lastSeenAt: { $lt: cutoff } })
      .lean()
      .exec();
    let released = 0;
    for (const activation of stale) {
      if (await this.release(activation, now, { lastSeenAt: activation.lastSeenAt })) released += 1;
    }
    if (released) this.cache.forgetActivations(licenceId);
    return released;
  }

  /**
   * Deactivates a device, within the month's budget: deactivation k of the month is claimed by
   * inserting `L:deact:<yyyy-mm>:<k>`, k < 10, so the budget holds under concurrency as seats do.
   */
  async deactivate(licenceId: string, fingerprint: string, now: Date): Promise<DeactivateOutcome> {
    try {
      return await this.deactivateDevice(licenceId, fingerprint, now);
    } finally {
      this.cache.forgetActivations(licenceId);
    }
  }

  private async deactivateDevice(licenceId: string, fingerprint: string, now: Date): Promise<DeactivateOutcome> {
    const activation = await this.activations.findById(activationId(licenceId, fingerprint)).lean().exec();
    if (activation?.status !== 'active') return 'NOT_ACTIVATED';
    const budget = await this.claimDeactivation(licenceId, activation._id, now);
    if (!budget) return 'DEACTIVATION_LIMIT';
    const removed = await this.activations.deleteOne({ _id: activation._id, status: 'active', claim: activation.claim }).exec();
    if (removed.deletedCount === 0) {
      await this.seats.deleteOne({ _id: budget.id, claim: budget.claim }).exec(); // nothing was deactivated: not counted
      return 'NOT_ACTIVATED';
    }
    await this.seats.deleteOne({ _id: seatId(licenceId, activation.seat), claim: activation.claim }).exec();
    return 'DEACTIVATED';
  }

  private async claimDeactivation(licenceId: string, id: string, now: Date): Promise<{ id: string; claim: string } | null> {
    const prefix = deactivationPrefix(licenceId, now);
    const claim = newClaim();
    for (let k = 0; k < DEACTIVATIONS_PER_MONTH; k += 1) {
      try {
        await this.seats.create({ _id: `${prefix}${k}`, licenceId, activationId: id, claim, kind: 'deactivation', claimedAt: now });
        return { id: `${prefix}${k}`, claim };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return null;
  }

  async deactivationsLeft(licenceId: string, now: Date): Promise<number> {
    const prefix = deactivationPrefix(licenceId, now);
    const used = await this.seats.countDocuments({ licenceId, kind: 'deactivation', _id: { $gte: prefix, $lt: `${prefix}~` } }).exec();
    return Math.max(0, DEACTIVATIONS_PER_MONTH - used);
  }

  async seatsUsed(licenceId: string, seats: number): Promise<number> {
    return this.activations.countDocuments({ licenceId, status: 'active', seat: { $lt: seats } }).exec();
  }

  /**
   * Device activations since `since`, counted from the insert-only events: a device deactivated
   * (its activation deleted) or released since still counts. Indexed on `at`.
   */
  activationsSince(since: Date): Promise<number> {
    return this.events.countDocuments({ at: { $gte: since } }).exec();
  }

  async listFor(licenceIds: string[]): Promise<LicenceActivation[]> {
    if (!licenceIds.length) return [];
    return this.activations
      .find({ licenceId: { $in: licenceIds } })
      .sort({ activatedAt: 1 })
      .lean()
      .exec();
  }

  /** An administrator's reset: every device released, and this month's deactivations forgotten. */
  async reset(licenceId: string): Promise<number> {
    const { deletedCount } = await this.activations.deleteMany({ licenceId }).exec();
    this.cache.forgetActivations(licenceId);
    await this.seats.deleteMany({ licenceId }).exec();
    return deletedCount;
  }

  async deleteFor(licenceIds: string[]): Promise<void> {
    if (!licenceIds.length) return;
    await this.activations.deleteMany({ licenceId: { $in: licenceIds } }).exec();
    this.cache.forgetActivations(licenceIds);
    await this.seats.deleteMany({ licenceId: { $in: licenceIds } }).exec();
  }
}

function pickDevice(device: Device): Partial<LicenceActivation> {
  const picked: Partial<LicenceActivation> = {};
  if (device.name !== undefined) picked.name = device.name;
  if (device.platform !== undefined) picked.platform = device.platform;
  if (device.appVersion !== undefined) picked.appVersion = device.appVersion;
  return picked;
}
