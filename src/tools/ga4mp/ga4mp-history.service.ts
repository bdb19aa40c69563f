import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Ga4mpHistoryEntry, Ga4mpHistoryPage } from '../../../lib/api/ga4mp.js';
import { REDACTED_SECRET } from '../../../lib/tools/ga4mp/endpoint.js';
import { GA4MP_HISTORY_LIMIT } from '../../../lib/tools/ga4mp/limits.js';
import type { ValidationMessage } from '../../../lib/tools/ga4mp/types.js';
import { Ga4mpErrorCode, Ga4mpException } from './ga4mp.exception.js';
import { Ga4mpHistory, type Ga4mpHistoryDocument } from './schemas/ga4mp-history.schema.js';

/** A send to record: the entry as listed, before it has an id and with the query and body as sent. */
export type NewHistoryEntry = Pick<
  Ga4mpHistoryEntry,
  'debug' | 'region' | 'status' | 'ok' | 'durationMs' | 'localMessages' | 'response' | 'error'
> & {
  query: Record<string, unknown>;
  body: Record<string, unknown>;
};

const parse = (json: string | null): unknown => {
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
};

/** The query as stored and shown: the stream id kept, the api_secret never. */
export function redactQuery(query: Record<string, unknown>): Record<string, string> {
  const redacted: Record<string, string> = {};
  for (const key of ['measurement_id', 'firebase_app_id'] as const) {
    if (typeof query[key] === 'string') redacted[key] = query[key];
  }
  redacted.api_secret = REDACTED_SECRET;
  return redacted;
}

function eventNamesOf(body: Record<string, unknown>): string[] {
  const events = Array.isArray(body.events) ? (body.events as unknown[]) : [];
  return events.slice(0, 25).map((event) => {
    const name = (event as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name.slice(0, 100) : '(unnamed)';
  });
}

/** Per-user history of sent payloads, newest first, capped at GA4MP_HISTORY_LIMIT entries. */
@Injectable()
export class Ga4mpHistoryService {
  constructor(@InjectModel(Ga4mpHistory.name) private readonly entries: Model<Ga4mpHistory>) {}

  async record(userId: string, entry: NewHistoryEntry, at = new Date()): Promise<Ga4mpHistoryEntry> {
    const created = await this.entries.create({
      userId,
      createdAt: at,
      stream: 'firebase_app_id' in entry.query && !('measurement_id' in entry.query) ? 'app' : 'web',
      query: redactQuery(entry.query),
      bodyJson: JSON.stringify(entry.body),
      eventNames: eventNamesOf(entry.body),
      debug: entry.debug,
      region: entry.region,
      status: entry.status,
      ok: entry.ok,
      durationMs: entry.durationMs,
      localMessagesJson: JSON.stringify(entry.localMessages),
      responseJson: entry.response === null || entry.response === undefined ? null : JSON.stringify(entry.response),
      error: entry.error,
    });
    await this.trim(userId);
    return toEntry(created);
  }

  async list(userId: string, page: number, pageSize: number): Promise<Ga4mpHistoryPage> {
    const [items, total] = await Promise.all([
      this.entries
        .find({ userId })
        .sort({ createdAt: -1, _id: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .exec(),
      this.entries.countDocuments({ userId }).exec(),
    ]);
    return { items: items.map(toEntry), page, pageSize, total };
  }

  async delete(userId: string, id: string): Promise<void> {
    // The owner is part of the filter: another user's id deletes nothing and answers 404.
    const result = await this.entries.deleteOne({ _id: id, userId }).exec();
    if (result.deletedCount === 0) throw new Ga4mpException(Ga4mpErrorCode.HistoryEntryNotFound, 'No such history entry');
  }

  /** Deletes every entry of the user; returns how many. Also used when an account is deleted. */
  async deleteAllForUser(userId: string): Promise<number> {
    const result = await this.entries.deleteMany({ userId }).exec();
    return result.deletedCount;
  }

  /** Every entry of the user, newest first, for "export my data" (secrets were never stored). */
  async exportForUser(userId: string): Promise<Ga4mpHistoryEntry[]> {
    const items = await this.entries.find({ userId }).sort({ createdAt: -1, _id: -1 }).exec();
    return items.map(toEntry);
  }

  /** Keeps the newest entries; without transactions, a concurrent send may briefly leave one extra. */
  private async trim(userId: string): Promise<void> {
    const stale = await this.entries.find({ userId }, { _id: 1 }).sort({ createdAt: -1, _id: -1 }).skip(GA4MP_HISTORY_LIMIT).lean().exec();
    if (stale.length > 0) await this.entries.deleteMany({ userId, _id: { $in: stale.map((entry) => entry._id) } }).exec();
  }
}

function toEntry(document: Ga4mpHistoryDocument): Ga4mpHistoryEntry {
  return {
    id: document._id.toString(),
    createdAt: document.createdAt.toISOString(),
    stream: document.stream,
    query: { ...document.query },
    body: parse(document.bodyJson),
    debug: document.debug,
    region: document.region,
    eventNames: [...document.eventNames],
    status: document.status,
    ok: document.ok,
    durationMs: document.durationMs,
    localMessages: parse(document.localMessagesJson) as ValidationMessage[],
    response: parse(document.responseJson),
    error: document.error,
  };
}
