import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { ToolUsageRow } from '../../../lib/api/tool-usage.js';
import { TOOL_ACTIONS, type ToolAction, type ToolId, usageDay } from '../../../lib/tools/tool-usage.js';
import { KeyedTurns } from '../../database/keyed-turns.js';
import { upsertWithRetry } from '../../database/upsert.js';
import { ToolUsageDay } from './tool-usage.schema.js';

/** A stored counter of a tool and action this version counts (one retired since would be skipped). */
function isKnownRun<T extends { tool: string; action: string }>(row: T): row is T & { tool: ToolId; action: ToolAction } {
  return Object.hasOwn(TOOL_ACTIONS, row.tool) && (TOOL_ACTIONS[row.tool as ToolId] as readonly string[]).includes(row.action);
}

@Injectable()
export class ToolUsageService {
  private readonly logger = new Logger(ToolUsageService.name);
  private readonly turns = new KeyedTurns();

  constructor(@InjectModel(ToolUsageDay.name) private readonly days: Model<ToolUsageDay>) {}

  /**
   * Counts one run with an `$inc` upsert of the day's document; resolves once it is written.
   * Counting never fails the run it counts: a database hiccup is logged and the tool's answer still
   * goes out.
   *
   * The runs of one counter counted by this instance take their turns (KeyedTurns): FerretDB
   * applies an update as a read and a separate write, so two increments of one document in flight
   * at once over a pool of connections can lose one; one at a time they cannot. That keeps every
   * run counted on one instance whatever its connections, and on MongoDB (atomic updates) across
   * instances too. Several instances on FerretDB over a pool may still, rarely, lose one run of the
   * same action at the same moment: these are usage statistics, not limits (those claim slots,
   * RateLimitService#take).
   */
  async record<T extends ToolId>(tool: T, action: ToolAction<T>, at = new Date()): Promise<void> {
    const filter = { day: usageDay(at), tool, action };
    try {
      // The unique (day, tool, action) index makes concurrent first runs of a day converge.
      await this.turns.run(`${filter.day}|${tool}|${action}`, () =>
        upsertWithRetry(() => this.days.updateOne(filter, { $inc: { runs: 1 } }, { upsert: true }).exec()),
      );
    } catch (error) {
      this.logger.warn(`A run of ${filter.day}|${tool}|${action} was not counted: ${(error as Error).message}`);
    }
  }

  /** Daily rows between two days inclusive (`YYYY-MM-DD`), oldest first. */
  async between(from: string, to: string): Promise<ToolUsageRow[]> {
    const rows = await this.days
      .find({ day: { $gte: from, $lte: to } }, { _id: 0, day: 1, tool: 1, action: 1, runs: 1 })
      .sort({ day: 1, tool: 1, action: 1 })
      .lean()
      .exec();
    return rows.filter(isKnownRun).map(({ day, tool, action, runs }) => ({ day, tool, action, runs }));
  }
}
