import { useRef, useState } from 'react';
import type { AppLogPlatform } from '../../../../lib/tools/applog/types.js';
import { useToast } from '../../../components/Toaster.js';
import { countOf } from '../format.js';
import { type AppLogInput, type PlatformChoice, useAppLogAnalysis } from '../hooks/useAppLogAnalysis.js';
import { AppLogEmptyResult } from './AppLogEmptyResult.js';
import { AppLogProgress } from './AppLogProgress.js';
import { AppLogResults } from './AppLogResults.js';
import { AppLogSourceForm } from './AppLogSourceForm.js';
import { CaptureHelp } from './CopyCommand.js';
import '../applog.css';

const TOAST = { key: 'applog' };

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: Chromium starts the download from the click synchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The app-log analyser: the log to analyse (pasted or a file) and the platform, then the analysis
 * in a worker with its progress, then the results. Changing the platform of a finished analysis
 * analyses the same log again.
 */
export function AppLogAnalyser() {
  const toast = useToast();
  const { state, analyse, cancel, exportJson: buildExport } = useAppLogAnalysis();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [platform, setPlatform] = useState<PlatformChoice>('auto');
  const lastInput = useRef<AppLogInput | null>(null);

  const run = async (input: AppLogInput, choice: PlatformChoice) => {
    lastInput.current = input;
    const outcome = await analyse(input, choice);
    if (outcome.status === 'done') {
      const { summary, relevantLines } = outcome.result;
      if (relevantLines === 0) toast('No Firebase Analytics lines found in this log.', 'info', TOAST);
      else toast(`Decoded ${countOf(summary.events, 'event')}, ${countOf(summary.issues, 'issue')}.`, 'success', TOAST);
    } else if (outcome.status === 'error') {
      toast(outcome.message, 'error', TOAST);
    }
  };

  const analyseCurrent = () => {
    if (file) void run({ kind: 'file', file }, platform);
    else if (text.trim()) void run({ kind: 'text', text }, platform);
  };

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    if (chosen) void run({ kind: 'file', file: chosen }, platform);
    else cancel();
  };

  const changePlatform = (choice: PlatformChoice) => {
    setPlatform(choice);
    if (state.status === 'done' && lastInput.current) void run(lastInput.current, choice);
  };

  const reanalyse = (choice: AppLogPlatform) => {
    setPlatform(choice);
    if (lastInput.current) void run(lastInput.current, choice);
  };

  // Built in the worker: stringifying tens of thousands of entries here would freeze the page.
  const exportJson = async () => {
    if (state.status !== 'done') return;
    const exported = await buildExport(state.source);
    if (!exported) return toast('The export failed.', 'error', { key: 'applog-export' });
    download(exported.name, exported.blob);
    toast(`Exported ${exported.name}`, 'success', { key: 'applog-export' });
  };

  return (
    <>
      <AppLogSourceForm
        text={text}
        onTextChange={setText}
        file={file}
        onFile={chooseFile}
        platform={platform}
        onPlatformChange={changePlatform}
        onAnalyse={analyseCurrent}
        busy={state.status === 'running'}
      />

      {state.status === 'idle' ? (
        <div className="applog-idle">
          <p className="muted">
            Paste output or drop a file to see the event stream: screens, events with their parameters and items, user properties, uploads
            and every issue.
          </p>
          <CaptureHelp />
        </div>
      ) : null}
      {state.status === 'running' ? (
        <AppLogProgress progress={state.progress} lines={state.lines} source={state.source} onCancel={cancel} />
      ) : null}
      {state.status === 'error' ? (
        <div className="alert alert--error applog-error" role="alert">
          <strong>{state.source}:</strong> {state.message}
        </div>
      ) : null}
      {state.status === 'done' && state.result.relevantLines === 0 ? (
        <AppLogEmptyResult totalLines={state.result.totalLines} platform={state.result.platform} source={state.source} />
      ) : null}
      {state.status === 'done' && state.result.relevantLines > 0 ? (
        // Keyed by the run: another analysis starts with fresh filters and its own first entry selected.
        <AppLogResults
          key={state.run}
          result={state.result}
          source={state.source}
          detected={state.detected}
          choice={state.choice}
          durationMs={state.durationMs}
          onExport={() => void exportJson()}
          onReanalyse={reanalyse}
        />
      ) : null}
    </>
  );
}
