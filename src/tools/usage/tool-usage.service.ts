import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { ToolUsageRow } from '../../../lib/api/tool-usage.js';
import { TOOL_ACTIONS, type ToolAction, type ToolId, usageDay } from '../../../lib/tools/tool-usage.js';
import { upsertWithRetry } from '../../database/upsert.js';
import { ToolUsageDay } from './tool-usage.schema.js';

/** A stored counter of a tool and action this version counts (one retired since would be skipped). */
function isKnownRun<T extends { tool: string; action: string }>(row: T): row is T & { tool: ToolId; action: ToolAction } {
  return Object.hasOwn(TOOL_ACTIONS, row.tool) && (TOOL_ACTIONS[row.tool as ToolId] as readonly string[]).includes(row.action);
}

@Injectable()
export class ToolUsageService {
  private readonly logger = new Logger(ToolUsageService.name);

  constructor(@InjectModel(ToolUsageDay.name) private readonly days: Model<ToolUsageDay>) {}

  /**
   * Counts one run with an atomic `$inc` upsert of the day's document; resolves once it is written.
   * Counting never fails the run it counts: a database hiccup is logged and the tool's answer still
   * goes out.
   *
   * Exact on both databases: across instances on MongoDB (its updates are atomic), and over the
   * one connection the app keeps to FerretDB (see database-server.ts). This replaced an in-process
   * queue that kept one write per counter in flight and folded the runs arriving meanwhile into the
   * next `$inc`, a workaround for FerretDB losing concurrent updates over several connections. It is
   * not the better design on MongoDB either: each request waited for the writes queued before it,
   * and a small `$inc` per run costs MongoDB nothing worth saving at these rates.
   */
  async record<T extends ToolId>(tool: T, action: ToolAction<T>, at = new Date()): Promise<void> {
    const filter = { day: usageDay(at), tool, action };
    try {
      // The unique (day, tool, action) index makes concurrent first runs of a day converge.
      await upsertWithRetry(() => this.days.updateOne(filter, { $inc: { runs: 1 } }, { upsert: true }).exec());
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
