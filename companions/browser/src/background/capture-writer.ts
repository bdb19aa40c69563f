import type { CaptureRecord } from '../../../../lib/tools/live/records.js';
import {
  CAPTURE_CHANNEL,
  type CaptureNotice,
  done,
  openCaptureDb,
  RECORDS,
  request,
  type TabRow,
  TABS,
  tabRange,
} from '../shared/capture-db.js';

/**
 * Bounds of a capture. A busy page (an infinite scroll sending an event per row, a game) can send
 * thousands of hits a minute: past `hitsPerTab` hits or `recordsPerTab` records (dataLayer pushes
 * count there) the oldest tenth of the tab's records is dropped, and the tab's row counts the hits
 * dropped so the panel can say so. `hitsPerTab` is what the panel's list stays smooth with.
 */
export const CAPTURE_LIMITS = { hitsPerTab: 20_000, recordsPerTab: 60_000, dropFraction: 0.1 } as const;

const newRow = (tabId: number, firstSeq: number): TabRow => ({
  tabId,
  hits: 0,
  records: 0,
  dropped: 0,
  url: null,
  updated: Date.now(),
  firstSeq,
});

/**
 * The only writer of the capture store (shared/capture-db.ts): records are queued and written in one
 * transaction per task, then announced on the capture channel. Nothing is held only in memory longer
 * than that: a service worker stopped right after a write loses nothing.
 */
export class CaptureWriter {
  private queue: CaptureRecord[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private lastSeq = 0;
  /** Writes so far and their wall time, transaction included (read by `npm run bench`). */
  readonly stats = { transactions: 0, records: 0, ms: 0 };
  private readonly channel = new BroadcastChannel(CAPTURE_CHANNEL);

  constructor(private readonly limits: { hitsPerTab: number; recordsPerTab: number; dropFraction: number } = CAPTURE_LIMITS) {}

  /**
   * Increasing across restarts of the worker (microseconds since the epoch, or one more than the last):
   * a record's seq orders it within its tab and tells readers what they have not read yet.
   */
  nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now() * 1000);
    return this.lastSeq;
  }

  add(record: CaptureRecord): void {
    this.queue.push(record);
    if (this.scheduled) return;
    this.scheduled = true;
    // One transaction for what arrives in the same task (a batch of beacons on page hide, a burst of pushes).
    setTimeout(() => {
      this.scheduled = false;
      void this.enqueue(() => this.flush());
    }, 0);
  }

  /** Resolves once everything added so far is written. */
  settled(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work, work).catch((error: unknown) => console.error('Hitscope: the capture could not be written', error));
    return this.chain;
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return;
    const started = performance.now();
    const db = await openCaptureDb();
    const transaction = db.transaction([RECORDS, TABS], 'readwrite');
    const records = transaction.objectStore(RECORDS);
    const tabs = transaction.objectStore(TABS);
    const byTab = new Map<number, CaptureRecord[]>();
    for (const record of batch) {
      records.put(record);
      const list = byTab.get(record.tabId);
      if (list) list.push(record);
      else byTab.set(record.tabId, [record]);
    }
    const over: number[] = [];
    for (const [tabId, added] of byTab) {
      tabs.get(tabId).onsuccess = (event) => {
        const row = ((event.target as IDBRequest<TabRow | undefined>).result ?? newRow(tabId, added[0]!.seq)) as TabRow;
        for (const record of added) {
          if (record.kind === 'request') row.hits += record.hits;
          if (record.kind === 'navigation' && record.transition !== 'history') row.url = record.url;
        }
        row.records += added.length;
        row.updated = Date.now();
        tabs.put(row);
        if (row.hits > this.limits.hitsPerTab || row.records > this.limits.recordsPerTab) over.push(tabId);
      };
    }
    await done(transaction);
    this.stats.transactions++;
    this.stats.records += batch.length;
    this.stats.ms += performance.now() - started;
    for (const [tabId, added] of byTab) this.post({ type: 'records', tabId, seq: added[added.length - 1]!.seq });
    for (const tabId of over) await this.trim(tabId);
  }

  /** Drops the oldest records of a tab until it is a `dropFraction` under both limits. */
  private async trim(tabId: number): Promise<void> {
    const db = await openCaptureDb();
    const transaction = db.transaction([RECORDS, TABS], 'readwrite');
    const records = transaction.objectStore(RECORDS);
    const tabs = transaction.objectStore(TABS);
    const row = (await request(tabs.get(tabId))) as TabRow | undefined;
    if (!row) return;
    const total = (await request(records.count(tabRange(tabId)))) as number;
    const keepHits = Math.floor(this.limits.hitsPerTab * (1 - this.limits.dropFraction));
    const keepRecords = Math.floor(this.limits.recordsPerTab * (1 - this.limits.dropFraction));
    let hits = row.hits;
    let remaining = total;
    let droppedHits = 0;
    let lastDropped: number | null = null;
    await new Promise<void>((resolve, reject) => {
      const cursor = records.openCursor(tabRange(tabId));
      cursor.onerror = () => reject(cursor.error ?? new Error('cursor failed'));
      cursor.onsuccess = () => {
        const current = cursor.result;
        if (!current || (hits <= keepHits && remaining <= keepRecords)) return resolve();
        const record = current.value as CaptureRecord;
        if (record.kind === 'request') {
          hits -= record.hits;
          droppedHits += record.hits;
        }
        remaining--;
        lastDropped = record.seq;
        current.delete();
        current.continue();
      };
    });
    row.hits = hits;
    row.records = remaining;
    row.dropped += droppedHits;
    if (lastDropped !== null) row.firstSeq = lastDropped + 1;
    tabs.put(row);
    await done(transaction);
    this.post({ type: 'reset', tabId });
  }

  /** Forgets a tab's capture (the panel's Clear). */
  clear(tabId: number): Promise<void> {
    return this.enqueue(async () => {
      const db = await openCaptureDb();
      const transaction = db.transaction([RECORDS, TABS], 'readwrite');
      transaction.objectStore(RECORDS).delete(tabRange(tabId));
      transaction.objectStore(TABS).put({ ...newRow(tabId, this.nextSeq()) });
      await done(transaction);
      this.post({ type: 'reset', tabId });
    });
  }

  /**
   * Forgets the captures of earlier browser sessions (tab ids start again with each one, so
   * yesterday's records would land in today's tabs), as the writer's next task: anything added after
   * this call is written after the decision, so a tab restored at start-up keeps its first hits.
   * `session` says whether this browser session has begun its capture yet, and records that it has
   * once the earlier captures are gone (a failed clear is tried again by the next worker).
   */
  forgetEarlierSessions(session: { begun(): Promise<boolean>; begin(): Promise<void> }): Promise<void> {
    return this.enqueue(async () => {
      if (await session.begun()) return;
      const db = await openCaptureDb();
      const transaction = db.transaction([RECORDS, TABS], 'readwrite');
      transaction.objectStore(RECORDS).clear();
      transaction.objectStore(TABS).clear();
      await done(transaction);
      await session.begin();
    });
  }

  private post(notice: CaptureNotice): void {
    this.channel.postMessage(notice);
  }
}
