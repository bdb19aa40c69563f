/// <reference lib="webworker" />
import { LiveAppLog } from '../../../../lib/tools/applog/live.js';
import type { AppLogPlatform } from '../../../../lib/tools/applog/types.js';
import { appName, lineLabel } from './labels.js';
import type { DesktopEntry, FromWorker, ToWorker } from './protocol.js';

/*
 * Decodes every source off the window's thread, with the web analyser's decoder (lib/tools/applog):
 * lines in, changed entries out, at most every 100 ms per source so a busy phone never floods the
 * view with messages.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);
const FLUSH_EVERY_MS = 100;
/** Labels kept for the latest lines only: an entry's first line is always recent when it is first sent. */
const LABELS_KEPT = 20_000;

interface Decoder {
  live: LiveAppLog;
  choice: AppLogPlatform | 'auto';
  lines: number;
  /** Line number → label, for the latest lines with one. */
  labels: Map<number, string>;
  /** Entry index → app, fixed when the entry is first sent. */
  apps: Map<number, string | null>;
  pids: Record<string, string>;
  dirty: boolean;
  ended: boolean;
}

const decoders = new Map<string, Decoder>();
/** `source:index` → seq */
const sequence = new Map<string, number>();
let nextSeq = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(source: string, decoder: Decoder, end: boolean) {
  decoder.dirty = false;
  const update = decoder.live.take(end);
  if (!update) return;
  const entries: DesktopEntry[] = update.entries.map((entry) => {
    const key = `${source}:${entry.index}`;
    let seq = sequence.get(key);
    if (seq === undefined) {
      seq = nextSeq++;
      sequence.set(key, seq);
    }
    let app = decoder.apps.get(entry.index);
    if (app === undefined || app?.startsWith('pid ')) {
      app = appName(decoder.labels.get(entry.lines[0]) ?? null, decoder.pids);
      decoder.apps.set(entry.index, app);
    }
    return { ...entry, source, app, seq };
  });
  post({ type: 'update', source, ...update, entries, ended: end });
}

function schedule() {
  timer ??= setTimeout(() => {
    timer = null;
    for (const [source, decoder] of decoders) if (decoder.dirty && !decoder.ended) flush(source, decoder, false);
  }, FLUSH_EVERY_MS);
}

function receive(message: ToWorker) {
  switch (message.type) {
    case 'reset':
      decoders.clear();
      sequence.clear();
      nextSeq = 0;
      return;
    case 'add':
      decoders.set(message.source, {
        live: new LiveAppLog(message.platform),
        choice: message.platform,
        lines: 0,
        labels: new Map(),
        apps: new Map(),
        pids: {},
        dirty: false,
        ended: false,
      });
      return;
  }
  const decoder = decoders.get(message.source);
  if (!decoder || decoder.ended) return;
  switch (message.type) {
    case 'lines': {
      const platform = decoder.live.platform ?? (decoder.choice === 'auto' ? null : decoder.choice);
      for (const line of message.lines) {
        decoder.lines++;
        const label = lineLabel(line, platform);
        if (label) decoder.labels.set(decoder.lines, label);
      }
      if (decoder.labels.size > LABELS_KEPT * 2) {
        for (const line of decoder.labels.keys()) {
          if (line > decoder.lines - LABELS_KEPT) break;
          decoder.labels.delete(line);
        }
      }
      decoder.live.push(`${message.lines.join('\n')}\n`);
      decoder.dirty = true;
      schedule();
      return;
    }
    case 'apps':
      decoder.pids = message.apps;
      return;
    case 'end':
      decoder.ended = true;
      flush(message.source, decoder, true);
      return;
  }
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  try {
    receive(event.data);
  } catch (error) {
    const source = 'source' in event.data ? event.data.source : '';
    post({ type: 'error', source, message: error instanceof Error ? error.message : String(error) });
  }
};
