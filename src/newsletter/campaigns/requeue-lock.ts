import { Injectable } from '@nestjs/common';
import { InjectModel, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { isDuplicateKey } from '../../database/upsert.js';

/**
 * The requeue lock of one campaign (`_id` its id): held by a retry-failed while it writes recipients
 * before their slices, and by the sender while it ends the campaign, so neither cuts the other
 * short. A document of its own, taken by a unique insert, rather than a lease field on the
 * campaign: the campaign is written all the time by the sender, and on FerretDB over a pool of
 * connections a write of the whole document from an older read can bring a released lease back.
 */
@Schema({ collection: 'newsletter_campaign_locks', versionKey: false })
export class CampaignLock {
  @Prop({ type: String, required: true })
  _id!: string;

  /** A holder that died leaves the lock; past this, it may be taken over. */
  @Prop({ type: Date, required: true })
  until!: Date;
}

export const CampaignLockSchema = SchemaFactory.createForClass(CampaignLock);

@Injectable()
export class CampaignRequeueLock {
  constructor(@InjectModel(CampaignLock.name) private readonly locks: Model<CampaignLock>) {}

  /** Takes the lock for `ms`; false while someone else holds it. */
  async take(campaignId: string, ms: number, now = new Date()): Promise<boolean> {
    if (await this.insert(campaignId, ms, now)) return true;
    const held = await this.locks.findById(campaignId).lean<CampaignLock>().exec();
    if (!held) return this.insert(campaignId, ms, now);
    if (held.until > now) return false;
    // Ran out: whoever deletes this very lock (its `until`) may take it; a delete counts exactly once.
    const { deletedCount } = await this.locks.deleteOne({ _id: campaignId, until: held.until }).exec();
    return deletedCount === 1 && this.insert(campaignId, ms, now);
  }

  async release(campaignId: string): Promise<void> {
    await this.locks.deleteOne({ _id: campaignId }).exec();
  }

  private async insert(campaignId: string, ms: number, now: Date): Promise<boolean> {
    try {
      await this.locks.create({ _id: campaignId, until: new Date(now.getTime() + ms) });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
