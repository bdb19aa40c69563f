import { useRef, useState } from 'react';
import type { AppLogPlatform } from '../../../lib/tools/applog/types.js';
import { Icon } from '../../components/Icon.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import { AppLogEmptyResult } from '../../features/applog/components/AppLogEmptyResult.js';
import { AppLogProgress } from '../../features/applog/components/AppLogProgress.js';
import { AppLogResults } from '../../features/applog/components/AppLogResults.js';
import { AppLogSourceForm } from '../../features/applog/components/AppLogSourceForm.js';
import { CaptureHelp } from '../../features/applog/components/CopyCommand.js';
import { formatCount } from '../../features/applog/format.js';
import { type AppLogInput, type PlatformChoice, useAppLogAnalysis } from '../../features/applog/hooks/useAppLogAnalysis.js';
import '../../features/applog/applog.css';

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

export default function AppLogPage() {
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
      if (relevantLines === 0) toast('No Firebase Analytics lines found in this log.', 'info');
      else toast(`Decoded ${formatCount(summary.events)} events, ${formatCount(summary.issues)} issues.`, 'success');
    } else if (outcome.status === 'error') {
      toast(outcome.message, 'error');
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
    const file = await buildExport(state.source);
    if (!file) return toast('The export failed.', 'error');
    download(file.name, file.blob);
    toast(`Exported ${file.name}`, 'success');
  };

  return (
    <>
      <PageHeader title="Hitscope for Apps">
        Analyse Firebase / GA4 debug output from Android logcat or the iOS console: every event decoded and checked against the GA4 and
        Firebase limits. The log is analysed in your browser and never uploaded.
      </PageHeader>

      <section className="applog" aria-labelledby="applog-heading">
        <h2 id="applog-heading">App-log analyser</h2>
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
          <AppLogResults
            result={state.result}
            source={state.source}
            detected={state.detected}
            choice={state.choice}
            durationMs={state.durationMs}
            onExport={() => void exportJson()}
            onReanalyse={reanalyse}
          />
        ) : null}
      </section>

      <section className="applog-downloads" aria-labelledby="apps-downloads-heading">
        <h2 id="apps-downloads-heading">Hitscope for Apps — downloads &amp; licence</h2>
        <div className="card applog-downloads__card">
          <span className="icon-chip" aria-hidden="true">
            <Icon name="key" />
          </span>
          <div>
            <p>
              <strong>Desktop app downloads and your licence key are not available here yet.</strong>
            </p>
            <p className="muted">
              They arrive with a later release of this page. The analyser above needs neither: it runs in your browser.
            </p>
          </div>
        </div>
      </section>
    </>
  );
}
