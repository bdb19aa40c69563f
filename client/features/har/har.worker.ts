/// <reference lib="webworker" />
import { HarError } from '../../../lib/tools/har/analyse.js';
import { HarStreamAnalysis } from '../../../lib/tools/har/stream-analyse.js';
import { type HarStreamEnd, HarStreamParser } from '../../../lib/tools/har/stream-parser.js';
import { pageKey } from '../../../lib/tools/har/summary.js';
import type { HarAnalysis, Hit } from '../../../lib/tools/har/types.js';
import type { FromWorker, HitFilter, HitRow, ReadProgress, ToWorker } from './protocol.js';

/*
 * Runs the HAR analysis off the main thread. The file is read here a window at a time (File.slice,
 * Blob.arrayBuffer, a streaming TextDecoder), each entry of log.entries is parsed and decoded as soon as it has arrived
 * (lib/tools/har/stream-parser.ts), and only the decoded hits are kept: the text is never held
 * whole, nor the parsed file, so the memory needed does not grow with the size of the capture's
 * response bodies. Nothing is sent anywhere: this worker makes no network request at all. A new
 * file (or Cancel) terminates the worker (useHarWorker), which stops the reading with it.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

let analysis: HarAnalysis | null = null;
/**
 * Hit `id` with all its decoded parameters. A large file's hits are kept light (no parameters or
 * items: HarStreamAnalysis.finishLight) and decoded again here, one at a time, when they are asked for.
 */
let detail: (id: number) => Hit | null = () => null;
/** Lower-cased text of each hit the free-text search looks in, built on first search. */
let haystacks: string[] | null = null;

/** Progress reports at most this often (ms), plus one at each stage's start and end. */
const REPORT_EVERY = 50;
/** Bytes decoded and scanned at a time (see analyse). */
const PIECE = 32 * 1024;
/**
 * Files up to this size keep their hits decoded while they are read, and after. Larger ones keep
 * the requests while reading and decode them again at the end, then keep light hits whose details
 * are decoded again when asked for (a hit opened, the first search, the export): slower, but with
 * far less memory held (a 100 MB file peaks around 300 MB of renderer memory either way; a 1 GB one
 * went over 500 MB with its hits kept decoded).
 */
const DECODED_UP_TO = 256 * 1024 * 1024;
/** Bytes of the file read at a time. */
const WINDOW = 4 * 1024 * 1024;

function rowOf(hit: Hit, result: HarAnalysis): HitRow {
  let severity: HitRow['severity'] = null;
  for (const id of hit.warningIds) {
    const level = result.warnings[id]!.severity;
    if (level === 'error') severity = 'error';
    else if (level === 'warning' && severity !== 'error') severity = 'warning';
    else if (level === 'info' && severity === null) severity = 'info';
  }
  return {
    id: hit.id,
    vendor: hit.vendor,
    type: hit.type,
    accountId: hit.accountId,
    page: hit.page,
    time: hit.time,
    status: hit.status,
    method: hit.method,
    batch: hit.batch,
    warnings: hit.warningIds.length,
    severity,
    kind: hit.kind ?? 'analytics',
    secondary: hit.secondary ?? null,
    follows: hit.follows ?? null,
    container: Boolean(hit.container),
    invalid: hit.invalid?.kind ?? null,
  };
}

/** Whether a hit is one of the rows `show` asks for. */
function shown(hit: Hit, show: HitFilter['show']): boolean {
  switch (show) {
    case 'hits':
      return !hit.secondary && !hit.container;
    case 'invalid':
      return Boolean(hit.invalid);
    case 'secondary':
      return Boolean(hit.secondary);
    case 'containers':
      return Boolean(hit.container);
    default:
      return true;
  }
}

async function analyse(file: File) {
  analysis = null;
  detail = () => null;
  haystacks = null;
  // A large capture keeps only the requests of its hits while it is read, and light hits after
  // (HarStreamAnalysis).
  const large = file.size > DECODED_UP_TO;
  const streamed = new HarStreamAnalysis({ keepDecoded: large ? 0 : Infinity });
  let decodeMs = 0;
  const parser = new HarStreamParser({
    onEntry: (entry, index) => {
      const before = performance.now();
      streamed.add(entry, index);
      decodeMs += performance.now() - before;
    },
  });
  let bytes = 0;
  const report = (stage: ReadProgress['stage']) =>
    post({ type: 'progress', progress: { stage, done: bytes, total: file.size, entries: streamed.entries, hits: streamed.hits } });
  try {
    let scanMs = 0;
    let end: HarStreamEnd | null = null;
    let incomplete: string | null = null;
    const decoder = new TextDecoder();
    report('reading');
    let lastReport = performance.now();
    let readMs = 0;
    try {
      // The file is read a window at a time (File.slice, Blob.arrayBuffer), not through
      // File.stream(): the stream's own buffering held about 100 MB more of the renderer's memory on
      // a 1 GB file, and FileReaderSync was slower (scripts/bench/har-browser.mjs). The next window is
      // asked for before this one is scanned, so that the browser reads while the worker parses, and
      // at most two windows are alive at a time.
      let next: Promise<ArrayBuffer> | null = file.slice(0, WINDOW).arrayBuffer();
      while (next) {
        const beforeRead = performance.now();
        const bytesRead: Uint8Array = new Uint8Array(await next);
        const before = performance.now();
        readMs += before - beforeRead;
        bytes += bytesRead.byteLength;
        next = bytesRead.byteLength && bytes < file.size ? file.slice(bytes, bytes + WINDOW).arrayBuffer() : null;
        next?.catch(() => undefined);
        // Decoded whole, a window would be a string too large for V8's young generation, kept
        // until a full collection (the renderer grew by hundreds of MB on a 1 GB file). Pieces of
        // PIECE bytes die young.
        for (let at = 0; at < bytesRead.byteLength; at += PIECE) {
          parser.push(decoder.decode(bytesRead.subarray(at, at + PIECE), { stream: true }));
        }
        const after = performance.now();
        scanMs += after - before;
        if (after - lastReport > REPORT_EVERY) {
          lastReport = after;
          report('reading');
        }
      }
      const before = performance.now();
      parser.push(decoder.decode());
      end = parser.end();
      scanMs += performance.now() - before;
      report('reading');
    } catch (error) {
      // A capture cut short (or broken) after some complete entries: show what was read, and why
      // the rest is missing. With nothing read, it is an error as any other.
      if (!(error instanceof HarError) || error.code !== 'invalid_json' || streamed.entries === 0) throw error;
      incomplete = error.message;
    }
    const read = performance.now();
    report('checking');
    const finished = large ? streamed.finishLight(end ?? parser.log) : null;
    const result = finished?.analysis ?? streamed.finish(end ?? parser.log);
    const analysed = performance.now();
    analysis = result;
    detail = finished?.detail ?? ((id) => result.hits[id] ?? null);
    const parseMs = scanMs - decodeMs;
    post({
      type: 'done',
      fileName: file.name,
      bytes: file.size,
      summary: result.summary,
      warnings: result.warnings,
      rows: result.hits.map((hit) => rowOf(hit, result)),
      timings: { readMs, parseMs, analyseMs: decodeMs + (analysed - read) },
      incomplete,
    });
  } catch (error) {
    if (error instanceof HarError) post({ type: 'error', code: error.code, message: error.message });
    else
      post({
        type: 'error',
        code: 'failed',
        message: `The file could not be analysed: ${error instanceof Error ? error.message : String(error)}`,
      });
  }
}

function haystack(light: Hit): string {
  const hit = detail(light.id) ?? light;
  const parts = [
    hit.vendor,
    hit.type,
    hit.accountId ?? '',
    hit.url,
    hit.page ?? '',
    hit.body ?? '',
    hit.invalid?.reason ?? '',
    hit.secondary ?? '',
  ];
  for (const param of hit.params) parts.push(param.key, param.name, param.value);
  for (const item of hit.items) for (const param of item.params) parts.push(param.value);
  return parts.join('\n').toLowerCase();
}

function filter(filterBy: HitFilter): Int32Array {
  if (!analysis) return new Int32Array(0);
  const text = filterBy.text.trim().toLowerCase();
  if (text && !haystacks) haystacks = analysis.hits.map(haystack);
  const ids: number[] = [];
  for (const hit of analysis.hits) {
    if (filterBy.vendor && hit.vendor !== filterBy.vendor) continue;
    if (filterBy.kind && hit.kind !== filterBy.kind) continue;
    if (filterBy.show && !shown(hit, filterBy.show)) continue;
    if (filterBy.event && hit.type !== filterBy.event) continue;
    if (filterBy.page && pageKey(hit.page) !== filterBy.page) continue;
    if (text && !haystacks![hit.id]!.includes(text)) continue;
    ids.push(hit.id);
  }
  return Int32Array.from(ids);
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case 'analyse':
      void analyse(message.file);
      break;
    case 'filter': {
      const ids = filter(message.filter);
      post({ type: 'filtered', seq: message.seq, ids }, [ids.buffer]);
      break;
    }
    case 'hit':
      post({ type: 'hit', seq: message.seq, hit: analysis ? detail(message.id) : null });
      break;
    case 'export': {
      const whole = analysis && { ...analysis, hits: analysis.hits.map((hit) => detail(hit.id) ?? hit) };
      const blob = new Blob([JSON.stringify(whole ?? null, null, 2)], { type: 'application/json' });
      post({ type: 'export', blob });
      break;
    }
  }
};
