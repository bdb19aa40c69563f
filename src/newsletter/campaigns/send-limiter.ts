import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SendLimits } from '../../../lib/api/newsletter-campaigns.js';
import { SendWindow } from './schemas/newsletter-settings.schema.js';
import { KeyedTurns } from '../../database/keyed-turns.js';
import { upsertWithRetry } from '../../database/upsert.js';

export interface SlotGrant {
  /** How many messages may go now (0..wanted). */
  granted: number;
  /** When nothing was granted: the epoch ms at which the fullest window ends. */
  retryAt: number | null;
}

const WINDOWS = [
  { prefix: 'd', seconds: 86_400, limit: (limits: SendLimits) => limits.maxPerDay },
  { prefix: 'h', seconds: 3600, limit: (limits: SendLimits) => limits.maxPerHour },
  { prefix: 's', seconds: 1, limit: (limits: SendLimits) => limits.maxPerSecond },
] as const;

/**
 * The transport's limits (per second / hour / day), shared by every instance: each window is a
 * document counting what was sent in it. A claim adds what it wants with `$inc` (exact over the
 * app's one connection to FerretDB, and on MongoDB) and hands back what went over the limit, so
 * the counter never stays above it; the claim is the smallest grant over all windows, and the
 * windows that granted more get the difference back. No transaction needed: every step is an
 * increment that a later step corrects.
 *
 * The claims and releases of one instance take their turns (KeyedTurns): over a pool of connections
 * FerretDB can lose one of two increments of a window in flight at once, and one at a time it loses
 * none. Several instances on FerretDB over a pool may, at the same moment, still overshoot a window
 * by a batch (docs/database.md, "Several connections").
 */
@Injectable()
export class SendLimiter {
  private readonly turns = new KeyedTurns();

  constructor(@InjectModel(SendWindow.name) private readonly windows: Model<SendWindow>) {}

  claim(wanted: number, limits: SendLimits, now = Date.now()): Promise<SlotGrant> {
    return this.turns.run('windows', () => this.claimNow(wanted, limits, now));
  }

  private async claimNow(wanted: number, limits: SendLimits, now: number): Promise<SlotGrant> {
    const active = WINDOWS.filter((window) => window.limit(limits));
    if (active.length === 0 || wanted <= 0) return { granted: wanted, retryAt: null };
    const taken: { id: string; amount: number }[] = [];
    let granted = wanted;
    let retryAt: number | null = null;
    for (const window of active) {
      const limit = window.limit(limits)!;
      const index = Math.floor(now / 1000 / window.seconds);
      const id = `${window.prefix}:${index}`;
      const endsAt = (index + 1) * window.seconds * 1000;
      // Every instance opens the same window at the same moment: the upsert that loses the insert race
      // is run again and increments the winner's document.
      const after = await upsertWithRetry(() =>
        this.windows
          .findOneAndUpdate(
            { _id: id },
            { $inc: { n: granted }, $setOnInsert: { endsAt: new Date(endsAt) } },
            { upsert: true, returnDocument: 'after' },
          )
          .lean<SendWindow>()
          .exec(),
      );
      const over = Math.max(0, Math.min(granted, after!.n - limit));
      if (over > 0) await this.windows.updateOne({ _id: id }, { $inc: { n: -over } }).exec();
      taken.push({ id, amount: granted - over });
      granted -= over;
      if (granted === 0) {
        retryAt = endsAt;
        break;
      }
    }
    // Windows before the tightest one granted more than was finally granted: give the rest back.
    for (const { id, amount } of taken) {
      if (amount > granted) await this.windows.updateOne({ _id: id }, { $inc: { n: granted - amount } }).exec();
    }
    return { granted, retryAt };
  }

  /** Slots claimed and then not used (fewer recipients were due than slots claimed). */
  release(count: number, limits: SendLimits, claimedAt: number): Promise<void> {
    return this.turns.run('windows', () => this.releaseNow(count, limits, claimedAt));
  }

  private async releaseNow(count: number, limits: SendLimits, claimedAt: number): Promise<void> {
    if (count <= 0) return;
    for (const window of WINDOWS) {
      if (!window.limit(limits)) continue;
      const id = `${window.prefix}:${Math.floor(claimedAt / 1000 / window.seconds)}`;
      await this.windows.updateOne({ _id: id, n: { $gte: count } }, { $inc: { n: -count } }).exec();
    }
  }

  /** Past windows are of no use: deleted now and then. */
  async sweep(now = Date.now()): Promise<void> {
    await this.windows.deleteMany({ endsAt: { $lt: new Date(now - 60_000) } }).exec();
  }
}
