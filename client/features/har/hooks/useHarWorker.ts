import { useCallback, useEffect, useRef, useState } from 'react';
import type { Hit } from '../../../../lib/tools/har/types.js';
import type { FromWorker, HitFilter, ReadProgress, ToWorker } from '../protocol.js';

export type DoneResult = Extract<FromWorker, { type: 'done' }>;

export type AnalyserState =
  | { status: 'idle' }
  | { status: 'loading'; fileName: string; bytes: number; progress: ReadProgress }
  | { status: 'error'; fileName: string; message: string }
  /** `run` numbers the analyses of this page: a view of one result is keyed by it. */
  | { status: 'done'; run: number; result: DoneResult };

type Pending = Map<number, (message: FromWorker) => void>;

/**
 * Owns the analysis worker. The worker is created when a file is chosen (never at import time, so
 * server rendering never touches `Worker`), and terminated to cancel — by Cancel or by another file
 * chosen while one is being read: that stops its reading at once, wherever it is, and frees all it
 * held. `start` resolves with how the analysis ended (`idle` when it
 * was cancelled or replaced), so the caller reacts to the outcome of the file it chose.
 */
export function useHarWorker() {
  const [state, setState] = useState<AnalyserState>({ status: 'idle' });
  const worker = useRef<Worker | null>(null);
  const pending = useRef<Pending>(new Map());
  const exportWaiter = useRef<((blob: Blob) => void) | null>(null);
  /** Resolves the promise of the analysis in flight. */
  const settle = useRef<((outcome: AnalyserState) => void) | null>(null);
  const seq = useRef(0);
  const runs = useRef(0);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
    pending.current.clear();
    exportWaiter.current = null;
    settle.current?.({ status: 'idle' });
    settle.current = null;
  }, []);

  useEffect(() => stop, [stop]);

  const start = useCallback(
    (file: File) =>
      new Promise<AnalyserState>((resolve) => {
        stop();
        const created = new Worker(new URL('../har.worker.ts', import.meta.url), { type: 'module', name: 'har-analyser' });
        worker.current = created;
        settle.current = resolve;
        const end = (outcome: AnalyserState) => {
          setState(outcome);
          settle.current = null;
          resolve(outcome);
        };
        setState({
          status: 'loading',
          fileName: file.name,
          bytes: file.size,
          progress: { stage: 'reading', done: 0, total: file.size, entries: 0, hits: 0 },
        });
        created.onmessage = (event: MessageEvent<FromWorker>) => {
          if (worker.current !== created) return;
          const message = event.data;
          switch (message.type) {
            case 'progress':
              setState((current) => (current.status === 'loading' ? { ...current, progress: message.progress } : current));
              break;
            case 'done':
              runs.current += 1;
              end({ status: 'done', run: runs.current, result: message });
              break;
            case 'error':
              end({ status: 'error', fileName: file.name, message: message.message });
              break;
            case 'filtered':
            case 'hit':
              pending.current.get(message.seq)?.(message);
              pending.current.delete(message.seq);
              break;
            case 'export':
              exportWaiter.current?.(message.blob);
              exportWaiter.current = null;
              break;
          }
        };
        created.onerror = (event) => {
          event.preventDefault();
          end({
            status: 'error',
            fileName: file.name,
            message: 'The analyser stopped unexpectedly (the file may be too large for this browser tab).',
          });
          stop();
        };
        created.postMessage({ type: 'analyse', file } satisfies ToWorker);
      }),
    [stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState({ status: 'idle' });
  }, [stop]);

  const reset = cancel;

  const ask = useCallback(<T extends FromWorker>(message: (seq: number) => ToWorker) => {
    return new Promise<T | null>((resolve) => {
      if (!worker.current) return resolve(null);
      const id = ++seq.current;
      pending.current.set(id, (answer) => resolve(answer as T));
      worker.current.postMessage(message(id));
    });
  }, []);

  const filter = useCallback(
    async (by: HitFilter) =>
      (await ask<Extract<FromWorker, { type: 'filtered' }>>((id) => ({ type: 'filter', seq: id, filter: by })))?.ids ?? null,
    [ask],
  );

  const hit = useCallback(
    async (id: number): Promise<Hit | null> =>
      (await ask<Extract<FromWorker, { type: 'hit' }>>((seqId) => ({ type: 'hit', seq: seqId, id })))?.hit ?? null,
    [ask],
  );

  const exportJson = useCallback(
    () =>
      new Promise<Blob | null>((resolve) => {
        if (!worker.current) return resolve(null);
        exportWaiter.current = resolve;
        worker.current.postMessage({ type: 'export' } satisfies ToWorker);
      }),
    [],
  );

  return { state, start, cancel, reset, filter, hit, exportJson };
}
