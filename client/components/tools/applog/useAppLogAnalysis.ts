import { useCallback, useEffect, useRef, useState } from 'react';
import { AppLogAnalyser, detectPlatform } from '../../../../lib/tools/applog/analyser.js';
import type { AppLogPlatform, AppLogResult } from '../../../../lib/tools/applog/types.js';
import { reportToolRun } from '../../../lib/tool-usage.js';

/** What was analysed: pasted text or a chosen/dropped file (read as a stream, never held twice). */
export type AppLogInput = { kind: 'text'; text: string } | { kind: 'file'; file: File };

export type PlatformChoice = 'auto' | AppLogPlatform;

export type AnalysisState =
  | { status: 'idle' }
  | { status: 'running'; progress: number; source: string }
  | {
      status: 'done';
      result: AppLogResult;
      source: string;
      /** What auto-detection said (null: nothing recognisable, Android assumed). */
      detected: AppLogPlatform | null;
      choice: PlatformChoice;
      durationMs: number;
    }
  | { status: 'error'; message: string; source: string };

const DETECT_BYTES = 512 * 1024;
const TEXT_SLICE = 256 * 1024;
/** Work for about this long, then give the page a frame (input, paint, the progress bar). */
const BUDGET_MS = 12;

const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function inputLabel(input: AppLogInput): string {
  return input.kind === 'file' ? input.file.name : 'Pasted text';
}

/**
 * Runs the framework-free analyser in slices on the main thread, yielding every ~12 ms so a 20 MB
 * log keeps the page responsive and the progress bar moving. A newer run (or unmount) cancels the
 * one in flight. Slicing instead of a Web Worker: the analyser keeps only decoded entries, a
 * 20 MB log parses in about a second, and the module then works identically in SSR, the browser
 * and Node without a second bundle entry.
 */
export function useAppLogAnalysis() {
  const [state, setState] = useState<AnalysisState>({ status: 'idle' });
  const runId = useRef(0);

  useEffect(
    () => () => {
      runId.current++;
    },
    [],
  );

  const cancel = useCallback(() => {
    runId.current++;
    setState({ status: 'idle' });
  }, []);

  const reset = cancel;

  const analyse = useCallback(async (input: AppLogInput, choice: PlatformChoice): Promise<AnalysisState> => {
    const id = ++runId.current;
    const source = inputLabel(input);
    const stale = () => id !== runId.current;
    setState({ status: 'running', progress: 0, source });
    const started = performance.now();
    try {
      const sample = input.kind === 'text' ? input.text.slice(0, DETECT_BYTES) : await input.file.slice(0, DETECT_BYTES).text();
      const detected = detectPlatform(sample);
      const analyser = new AppLogAnalyser(choice === 'auto' ? (detected ?? 'android') : choice);
      let sliceStarted = performance.now();
      const maybeYield = async (done: number) => {
        if (performance.now() - sliceStarted < BUDGET_MS) return;
        setState({ status: 'running', progress: done, source });
        await nextFrame();
        sliceStarted = performance.now();
      };

      if (input.kind === 'text') {
        const { text } = input;
        for (let at = 0; at < text.length; at += TEXT_SLICE) {
          // Slices small enough to stay within one frame's budget on a slow machine.
          analyser.push(text.slice(at, at + TEXT_SLICE));
          await maybeYield(Math.min(1, (at + TEXT_SLICE) / Math.max(1, text.length)));
          if (stale()) return { status: 'idle' };
        }
      } else {
        const { file } = input;
        const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
        let read = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (stale()) {
            await reader.cancel();
            return { status: 'idle' };
          }
          analyser.push(value);
          // Characters approximate bytes well enough for a progress bar.
          read += value.length;
          await maybeYield(Math.min(1, read / Math.max(1, file.size)));
        }
      }
      const result = analyser.finish();
      if (stale()) return { status: 'idle' };
      const next: AnalysisState = { status: 'done', result, source, detected, choice, durationMs: performance.now() - started };
      setState(next);
      reportToolRun('applog');
      return next;
    } catch (error) {
      if (stale()) return { status: 'idle' };
      const message = error instanceof Error && error.message ? `Could not read the log: ${error.message}` : 'Could not read the log.';
      const next: AnalysisState = { status: 'error', message, source };
      setState(next);
      return next;
    }
  }, []);

  return { state, analyse, cancel, reset };
}
