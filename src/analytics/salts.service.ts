import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { addDays } from '../../lib/time/utc-day.js';
import { isDuplicateKey } from '../database/upsert.js';
import { AnalyticsSalt } from './schemas/analytics-salt.schema.js';

/** A stored salt as a Buffer: lean reads answer BSON Binary objects, which hold their bytes in `buffer`. */
function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  const bytes = (value as { buffer?: unknown }).buffer;
  if (bytes instanceof Uint8Array) return Buffer.from(bytes);
  throw new Error('A stored analytics salt is not binary');
}

/**
 * The daily salts of the visitor hash. Each instance keeps the salts it has read in memory (a salt
 * never changes once created), so hashing costs no database read after the first event of a day.
 */
@Injectable()
export class AnalyticsSaltsService {
  private readonly known = new Map<string, Promise<Buffer>>();

  constructor(@InjectModel(AnalyticsSalt.name) private readonly salts: Model<AnalyticsSalt>) {}

  /** The salt of `day`, already known here, or null (the caller then awaits {@link saltOf}). */
  cached(day: string): Buffer | null {
    return this.ready.get(day) ?? null;
  }

  private readonly ready = new Map<string, Buffer>();

  /**
   * The salt of `day`: created by a unique insert when missing, so that several instances agree
   * (the loser of the race reads the winner's).
   */
  saltOf(day: string, now: Date): Promise<Buffer> {
    let pending = this.known.get(day);
    if (!pending) {
      pending = this.load(day, now).then(
        (salt) => {
          this.ready.set(day, salt);
          return salt;
        },
        (error: unknown) => {
          this.known.delete(day);
          throw error;
        },
      );
      this.known.set(day, pending);
    }
    return pending;
  }

  private async load(day: string, now: Date): Promise<Buffer> {
    const existing = await this.salts.findById(day).lean().exec();
    if (existing) return toBuffer(existing.salt);
    try {
      const salt = randomBytes(16);
      await this.salts.create({ _id: day, salt, createdAt: now });
      return salt;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const winner = await this.salts.findById(day).lean().exec();
      if (!winner) throw error;
      return toBuffer(winner.salt);
    }
  }

  /** Deletes every salt but today's and yesterday's, here and in the database. */
  async sweep(today: string): Promise<number> {
    const keepFrom = addDays(today, -1);
    for (const day of [...this.known.keys()]) {
      if (day < keepFrom) {
        this.known.delete(day);
        this.ready.delete(day);
      }
    }
    const { deletedCount } = await this.salts.deleteMany({ _id: { $lt: keepFrom } }).exec();
    return deletedCount;
  }
}
