import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { ToolUsageRow } from '../../../lib/api/tool-usage.js';
import { TOOL_ACTIONS, type ToolAction, type ToolId, usageDay } from '../../../lib/tools/tool-usage.js';
import { ToolUsageDay } from './tool-usage.schema.js';

/** A stored counter of a tool and action this version counts (one retired since would be skipped). */
function isKnownRun<T extends { tool: string; action: string }>(row: T): row is T & { tool: ToolId; action: ToolAction } {
  return Object.hasOwn(TOOL_ACTIONS, row.tool) && (TOOL_ACTIONS[row.tool as ToolId] as readonly string[]).includes(row.action);
}

const DUPLICATE_KEY = 11000;

interface PendingCount {
  filter: { day: string; tool: string; action: string };
  runs: number;
  waiters: Array<() => void>;
}

@Injectable()
export class ToolUsageService {
  private readonly logger = new Logger(ToolUsageService.name);

  /** Counters with a write in flight, and the runs that arrived meanwhile (written next, as one `$inc`). */
  private readonly inFlight = new Map<string, PendingCount | null>();

  constructor(@InjectModel(ToolUsageDay.name) private readonly days: Model<ToolUsageDay>) {}

  /**
   * Counts one run; resolves once it is written. Counting never fails the run it counts: a database
   * hiccup is logged and the tool's answer still goes out.
   *
   * `$inc` is atomic on MongoDB, across instances. FerretDB 1.24 (the embedded database) does not
   * isolate concurrent updates of one document — 50 simultaneous `$inc`s left 8 — so within this
   * process one write per counter is in flight at a time, and the runs that arrive meanwhile are
   * coalesced into the next `$inc`. That keeps the embedded, single-instance setup exact and turns a
   * burst into a couple of writes on any backend.
   */
  record<T extends ToolId>(tool: T, action: ToolAction<T>, at = new Date()): Promise<void> {
    const filter = { day: usageDay(at), tool, action };
    const key = `${filter.day}|${tool}|${action}`;
    return new Promise<void>((resolve) => {
      if (this.inFlight.has(key)) {
        const next = this.inFlight.get(key) ?? { filter, runs: 0, waiters: [] };
        next.runs += 1;
        next.waiters.push(resolve);
        this.inFlight.set(key, next);
        return;
      }
      this.inFlight.set(key, null);
      void this.write(key, { filter, runs: 1, waiters: [resolve] });
    });
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

  /** Writes `count`, then whatever accumulated for the same counter meanwhile, until none is left. */
  private async write(key: string, count: PendingCount): Promise<void> {
    try {
      await this.increment(count.filter, count.runs);
    } catch (error) {
      this.logger.warn(`${count.runs} run(s) of ${key} not counted: ${(error as Error).message}`);
    }
    for (const resolve of count.waiters) resolve();
    const next = this.inFlight.get(key);
    if (next) {
      this.inFlight.set(key, null);
      await this.write(key, next);
    } else {
      this.inFlight.delete(key);
    }
  }

  private async increment(filter: PendingCount['filter'], runs: number): Promise<void> {
    try {
      await this.days.updateOne(filter, { $inc: { runs } }, { upsert: true }).exec();
    } catch (error) {
      // Two instances' first runs of a day can race to insert the day's document; the loser increments it.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      await this.days.updateOne(filter, { $inc: { runs } }).exec();
    }
  }
}
