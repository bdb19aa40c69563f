import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { AppLogEntry, AppLogPlatform, AppLogResult } from '../../../../lib/tools/applog/types.js';
import { reportAppLogAnalysis } from '../api.js';
import type { AppLogInput, FromWorker, PlatformChoice, ToWorker } from '../protocol.js';

export type { AppLogInput, PlatformChoice } from '../protocol.js';

export type AnalysisState =
  | { status: 'idle' }
  | { status: 'running'; source: string; progress: number; lines: number }
  | {
      status: 'done';
      /** Numbers the analyses of this page: a view of one result is keyed by it. */
      run: number;
      result: AppLogResult;
      source: string;
      /** What auto-detection said (null: nothing recognisable, Android assumed). */
      detected: AppLogPlatform | null;
      choice: PlatformChoice;
      durationMs: number;
    }
  | { status: 'error'; message: string; source: string };

export function inputLabel(input: AppLogInput): string {
  return input.kind === 'file' ? input.file.name : 'Pasted text';
}

/**
 * Owns the analysis worker (applog.worker.ts). The worker is created per analysis, when one starts
 * (never at import time, so server rendering never touches `Worker`), and terminated to cancel: a
 * parse in progress cannot be interrupted any other way. Why not slices on the main thread: with a
 * 20 MB log, garbage-collector pauses inside the slices and the final validation still blocked the
 * page for 100 ms to a second. A finished worker stays alive to build the export.
 */
export function useAppLogAnalysis() {
  const [state, setState] = useState<AnalysisState>({ status: 'idle' });
  const worker = useRef<Worker | null>(null);
  /** Resolves the promise of the analysis in flight (with `idle` when it is cancelled). */
  const settle = useRef<((outcome: AnalysisState) => void) | null>(null);
  /** Export requests waiting for the worker, which answers them in order. */
  const exportWaiters = useRef<((file: { blob: Blob; name: string } | null) => void)[]>([]);
  const runs = useRef(0);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
    settle.current?.({ status: 'idle' });
    settle.current = null;
    for (const waiter of exportWaiters.current.splice(0)) waiter(null);
  }, []);

  useEffect(() => stop, [stop]);

  const cancel = useCallback(() => {
    stop();
    setState({ status: 'idle' });
  }, [stop]);

  const reset = cancel;

  const analyse = useCallback(
    (input: AppLogInput, choice: PlatformChoice) =>
      new Promise<AnalysisState>((resolve) => {
        stop();
        const source = inputLabel(input);
        const started = performance.now();
        let created: Worker;
        try {
          created = new Worker(new URL('../applog.worker.ts', import.meta.url), { type: 'module', name: 'applog-analyser' });
        } catch {
          const failed: AnalysisState = {
            status: 'error',
            message: 'This browser could not start the analyser (Web Workers are needed).',
            source,
          };
          setState(failed);
          return resolve(failed);
        }
        worker.current = created;
        settle.current = resolve;
        const entries: AppLogEntry[] = [];
        const end = (outcome: AnalysisState) => {
          settle.current = null;
          resolve(outcome);
        };
        setState({ status: 'running', source, progress: 0, lines: 0 });

        created.onmessage = (event: MessageEvent<FromWorker>) => {
          if (worker.current !== created) return;
          const message = event.data;
          switch (message.type) {
            case 'progress':
              setState((current) =>
                current.status === 'running'
                  ? { ...current, progress: message.total ? message.done / message.total : 1, lines: message.lines }
                  : current,
              );
              break;
            case 'entries':
              for (const entry of message.entries) entries.push(entry);
              break;
            case 'done': {
              runs.current += 1;
              const next: AnalysisState = {
                status: 'done',
                run: runs.current,
                result: { ...message.result, entries },
                source,
                detected: message.detected,
                choice,
                durationMs: performance.now() - started,
              };
              // A transition: React renders the results in slices instead of one long task.
              startTransition(() => setState(next));
              reportAppLogAnalysis();
              end(next);
              break;
            }
            case 'error': {
              const next: AnalysisState = { status: 'error', message: message.message, source };
              end(next);
              stop();
              setState(next);
              break;
            }
            case 'export':
              exportWaiters.current.shift()?.(message.file);
              break;
          }
        };
        created.onerror = (event) => {
          event.preventDefault();
          if (worker.current !== created) return;
          const next: AnalysisState = {
            status: 'error',
            message: 'The analyser stopped unexpectedly (the log may be too large for this browser tab).',
            source,
          };
          end(next);
          stop();
          setState(next);
        };
        created.postMessage({ type: 'analyse', input, choice } satisfies ToWorker);
      }),
    [stop],
  );

  /** The finished analysis as a JSON file, built in the worker (null when there is none). */
  const exportJson = useCallback(
    (source: string) =>
      new Promise<{ blob: Blob; name: string } | null>((resolve) => {
        if (!worker.current || settle.current) return resolve(null);
        exportWaiters.current.push(resolve);
        worker.current.postMessage({ type: 'export', generatedAt: new Date().toISOString(), source } satisfies ToWorker);
      }),
    [],
  );

  return { state, analyse, cancel, reset, exportJson };
}
