/// <reference lib="webworker" />
import { analyseHar, HarError, parseHar } from '../../../lib/tools/har/analyse.js';
import { pageKey } from '../../../lib/tools/har/summary.js';
import type { HarAnalysis, Hit } from '../../../lib/tools/har/types.js';
import type { FromWorker, HitFilter, HitRow, ToWorker } from './protocol.js';

/*
 * Runs the HAR analysis off the main thread. The file is read here (File.stream), parsed and
 * analysed here, and never sent anywhere: this worker makes no network request at all.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

let analysis: HarAnalysis | null = null;
/** Lower-cased text of each hit the free-text search looks in, built on first search. */
let haystacks: string[] | null = null;

/** Reads the whole file as text, reporting bytes read (throttled to about 20 reports a second). */
async function readText(file: File): Promise<string> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let done = 0;
  let lastReport = 0;
  post({ type: 'progress', progress: { stage: 'reading', done: 0, total: file.size } });
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    done += chunk.value.byteLength;
    parts.push(decoder.decode(chunk.value, { stream: true }));
    const now = performance.now();
    if (now - lastReport > 50) {
      lastReport = now;
      post({ type: 'progress', progress: { stage: 'reading', done, total: file.size } });
    }
  }
  parts.push(decoder.decode());
  post({ type: 'progress', progress: { stage: 'reading', done: file.size, total: file.size } });
  return parts.join('');
}

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
  };
}

async function analyse(file: File) {
  analysis = null;
  haystacks = null;
  try {
    const started = performance.now();
    let text: string | null = await readText(file);
    const read = performance.now();
    post({ type: 'progress', progress: { stage: 'parsing', done: 0, total: 1 } });
    let har: ReturnType<typeof parseHar> | null = parseHar(text);
    text = null;
    const parsed = performance.now();
    let lastReport = 0;
    const result = analyseHar(har, {
      progressEvery: 250,
      onProgress: (progress) => {
        const now = performance.now();
        if (now - lastReport > 50 || progress.done === progress.total) {
          lastReport = now;
          post({ type: 'progress', progress });
        }
      },
    });
    // Drop the parsed file (response bodies included) as soon as the hits are decoded.
    har = null;
    const analysed = performance.now();
    analysis = result;
    post({
      type: 'done',
      fileName: file.name,
      bytes: file.size,
      summary: result.summary,
      warnings: result.warnings,
      rows: result.hits.map((hit) => rowOf(hit, result)),
      timings: { readMs: read - started, parseMs: parsed - read, analyseMs: analysed - parsed },
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

function haystack(hit: Hit): string {
  const parts = [hit.vendor, hit.type, hit.accountId ?? '', hit.url, hit.page ?? '', hit.body ?? ''];
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
      post({ type: 'hit', seq: message.seq, hit: analysis?.hits[message.id] ?? null });
      break;
    case 'export': {
      const blob = new Blob([JSON.stringify(analysis ?? null, null, 2)], { type: 'application/json' });
      post({ type: 'export', blob });
      break;
    }
  }
};
