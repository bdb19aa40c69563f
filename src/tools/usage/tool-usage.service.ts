import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type ToolAction, type ToolId, usageDay } from '../../../lib/tools/tool-usage.js';
import { ToolUsageDay } from './tool-usage.schema.js';

export interface ToolUsageRow {
  day: string;
  tool: string;
  action: string;
  runs: number;
}

const DUPLICATE_KEY = 11000;

@Injectable()
export class ToolUsageService {
  private readonly logger = new Logger(ToolUsageService.name);

  constructor(@InjectModel(ToolUsageDay.name) private readonly days: Model<ToolUsageDay>) {}

  /**
   * Counts one run. Counting never fails the run it counts: a database hiccup is logged and the
   * tool's answer still goes out.
   */
  async record<T extends ToolId>(tool: T, action: ToolAction<T>, at = new Date()): Promise<void> {
    const filter = { day: usageDay(at), tool, action };
    try {
      await this.increment(filter);
    } catch (error) {
      // Two first runs of a day can race to insert the day's document; the loser increments it.
      if ((error as { code?: number }).code === DUPLICATE_KEY) {
        await this.increment(filter).catch((retry: Error) => this.logger.warn(`Usage not counted: ${retry.message}`));
        return;
      }
      this.logger.warn(`Usage not counted: ${(error as Error).message}`);
    }
  }

  /** Daily rows between two days inclusive (`YYYY-MM-DD`), oldest first. */
  async between(from: string, to: string): Promise<ToolUsageRow[]> {
    const rows = await this.days
      .find({ day: { $gte: from, $lte: to } }, { _id: 0, day: 1, tool: 1, action: 1, runs: 1 })
      .sort({ day: 1, tool: 1, action: 1 })
      .lean()
      .exec();
    return rows.map(({ day, tool, action, runs }) => ({ day, tool, action, runs }));
  }

  private async increment(filter: { day: string; tool: string; action: string }): Promise<void> {
    await this.days.updateOne(filter, { $inc: { runs: 1 } }, { upsert: true }).exec();
  }
}
