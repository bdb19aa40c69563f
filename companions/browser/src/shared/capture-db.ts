import type { CaptureRecord } from '../../../../lib/tools/live/records.js';

/**
 * The capture store: IndexedDB of the extension's origin, shared by its service worker (the only
 * writer) and its pages (readers). IndexedDB and not an in-memory map, because Chrome stops an idle
 * service worker after 30 seconds and a capture must outlive it; and not `storage.session`, whose
 * 10 MB would hold only a few thousand hits.
 *
 * - `records`: the append-only log of every tab, keyed `[tabId, seq]`, so one tab's records are a
 *   key range (read after a seq, dropped from the front, cleared) without an index.
 * - `tabs`: one row per tab with what a reader needs besides the records (hits kept, hits dropped).
 *
 * Writers announce new records on the BroadcastChannel {@link CAPTURE_CHANNEL} after their
 * transaction commits; readers then read the records after the last seq they applied.
 */
export const DB_NAME = 'hitscope-capture';
const DB_VERSION = 1;
export const RECORDS = 'records';
export const TABS = 'tabs';
export const CAPTURE_CHANNEL = 'hitscope-capture';

export interface TabRow {
  tabId: number;
  /** Hits of the requests kept for the tab. */
  hits: number;
  /** Records kept for the tab (requests, answers, page loads, dataLayer pushes). */
  records: number;
  /** Hits of requests dropped to keep the capture bounded, since the tab was last cleared. */
  dropped: number;
  /** The page the tab last committed, and when (to list tabs with captures). */
  url: string | null;
  updated: number;
  /** The seq of the first record kept: a reader holding older ones must start again. */
  firstSeq: number;
}

/** What the channel carries: `records` (new ones up to `seq`), `reset` (records were dropped or cleared). */
export type CaptureNotice = { type: 'records'; tabId: number; seq: number } | { type: 'reset'; tabId: number };

export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}

let opening: Promise<IDBDatabase> | null = null;

export function openCaptureDb(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(RECORDS)) db.createObjectStore(RECORDS, { keyPath: ['tabId', 'seq'] });
      if (!db.objectStoreNames.contains(TABS)) db.createObjectStore(TABS, { keyPath: 'tabId' });
    };
    open.onsuccess = () => {
      const db = open.result;
      // Another context upgrading the database (a newer version of the extension) closes this one.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    open.onerror = () => {
      opening = null;
      reject(open.error ?? new Error('The capture store could not be opened'));
    };
  });
  return opening;
}

/** The key range of one tab's records after `afterSeq`. */
export const tabRange = (tabId: number, afterSeq = 0) => IDBKeyRange.bound([tabId, afterSeq], [tabId, Infinity], true, false);

/** A tab's records after `afterSeq`, in seq order. */
export async function readRecords(tabId: number, afterSeq = 0): Promise<CaptureRecord[]> {
  const db = await openCaptureDb();
  return request(db.transaction(RECORDS, 'readonly').objectStore(RECORDS).getAll(tabRange(tabId, afterSeq))) as Promise<CaptureRecord[]>;
}

export async function readTab(tabId: number): Promise<TabRow | null> {
  const db = await openCaptureDb();
  return ((await request(db.transaction(TABS, 'readonly').objectStore(TABS).get(tabId))) as TabRow | undefined) ?? null;
}

export async function readTabs(): Promise<TabRow[]> {
  const db = await openCaptureDb();
  return request(db.transaction(TABS, 'readonly').objectStore(TABS).getAll()) as Promise<TabRow[]>;
}
