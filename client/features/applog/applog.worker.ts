/// <reference lib="webworker" />
import { AppLogAnalyser, detectPlatform } from '../../../lib/tools/applog/analyser.js';
import { buildExportDocument, exportFileName } from '../../../lib/tools/applog/export.js';
import type { AppLogResult } from '../../../lib/tools/applog/types.js';
import type { AppLogInput, FromWorker, PlatformChoice, ToWorker } from './protocol.js';

/*
 * Runs the app-log analysis off the main thread: a file is read here (File.stream), pasted text is
 * fed in slices, and nothing is sent anywhere (this worker makes no network request at all). The
 * page cancels by terminating the worker.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

const DETECT_BYTES = 512 * 1024;
const TEXT_SLICE = 256 * 1024;
/** Entries per message: small enough that the page deserialises each batch in a few milliseconds. */
const ENTRIES_PER_MESSAGE = 1000;
const REPORT_EVERY_MS = 50;

let result: AppLogResult | null = null;

async function analyse(input: AppLogInput, choice: PlatformChoice) {
  result = null;
  try {
    const total = input.kind === 'file' ? input.file.size : input.text.length;
    const sample = input.kind === 'text' ? input.text.slice(0, DETECT_BYTES) : await input.file.slice(0, DETECT_BYTES).text();
    const detected = detectPlatform(sample);
    const analyser = new AppLogAnalyser(choice === 'auto' ? (detected ?? 'android') : choice);
    let lastReport = -Infinity;
    const report = (done: number, force = false) => {
      const now = performance.now();
      if (!force && now - lastReport < REPORT_EVERY_MS) return;
      lastReport = now;
      post({ type: 'progress', done, total, lines: analyser.linesRead });
    };

    if (input.kind === 'text') {
      const { text } = input;
      for (let at = 0; at < text.length; at += TEXT_SLICE) {
        analyser.push(text.slice(at, at + TEXT_SLICE));
        report(Math.min(total, at + TEXT_SLICE));
      }
    } else {
      const reader = input.file.stream().getReader();
      const decoder = new TextDecoder();
      let done = 0;
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        done += chunk.value.byteLength;
        analyser.push(decoder.decode(chunk.value, { stream: true }));
        report(done);
      }
      analyser.push(decoder.decode());
    }
    report(total, true);

    const finished = analyser.finish();
    result = finished;
    const { entries, ...rest } = finished;
    for (let at = 0; at < entries.length; at += ENTRIES_PER_MESSAGE)
      post({ type: 'entries', entries: entries.slice(at, at + ENTRIES_PER_MESSAGE) });
    post({ type: 'done', result: rest, detected });
  } catch (error) {
    const message = error instanceof Error && error.message ? `Could not read the log: ${error.message}` : 'Could not read the log.';
    post({ type: 'error', message });
  }
}

function exportResult(generatedAt: string, source: string) {
  if (!result) return post({ type: 'export', file: null });
  const document = buildExportDocument(result, { generatedAt, source });
  const blob = new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' });
  post({ type: 'export', file: { blob, name: exportFileName(result, generatedAt) } });
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case 'analyse':
      void analyse(message.input, message.choice);
      break;
    case 'export':
      exportResult(message.generatedAt, message.source);
      break;
  }
};
