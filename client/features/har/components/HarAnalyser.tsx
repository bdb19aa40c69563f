import { useEffect } from 'react';
import { useToast } from '../../../components/Toaster.js';
import { reportHarAnalysis } from '../api.js';
import { countOf } from '../format.js';
import { useHarWorker } from '../hooks/useHarWorker.js';
import { HarDropZone } from './HarDropZone.js';
import { HarProgress } from './HarProgress.js';
import { HarResults } from './HarResults.js';
import '../har.css';

const TOAST = { key: 'har-analysis' };

/** The HAR analyser: choose a file, follow the analysis, then browse, filter and export the hits. */
export function HarAnalyser() {
  const toast = useToast();
  const { state, start, cancel, filter, hit, exportJson } = useHarWorker();

  // A file dropped next to the drop zone would make the browser open it in place of the page.
  useEffect(() => {
    const keep = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  const analyse = async (file: File) => {
    const outcome = await start(file);
    if (outcome.status === 'done') {
      reportHarAnalysis();
      const { summary, incomplete } = outcome.result;
      const counts = `${countOf(summary.entries, 'request')}: ${countOf(summary.hits, 'analytics hit')}`;
      if (incomplete) toast(`The file is incomplete: analysed the first ${counts}`, 'error', TOAST);
      else toast(`Analysed ${counts}`, 'success', TOAST);
    } else if (outcome.status === 'error') {
      toast(outcome.message, 'error', TOAST);
    }
  };

  if (state.status === 'loading') {
    return (
      <HarProgress
        fileName={state.fileName}
        progress={state.progress}
        onFile={(file) => void analyse(file)}
        onCancel={() => {
          cancel();
          toast('Analysis cancelled', 'info', TOAST);
        }}
      />
    );
  }

  if (state.status === 'idle') return <HarDropZone onFile={(file) => void analyse(file)} />;

  if (state.status === 'error') {
    return (
      <div className="har-error">
        <div className="alert alert--error" role="alert">
          <strong>{state.fileName} could not be analysed.</strong> {state.message}
        </div>
        <HarDropZone onFile={(file) => void analyse(file)} />
      </div>
    );
  }

  // Keyed by the run: another file starts with fresh filters, page and selection.
  const results = (
    <HarResults
      key={state.run}
      result={state.result}
      onFile={(file) => void analyse(file)}
      askFilter={filter}
      askHit={hit}
      exportJson={exportJson}
    />
  );
  if (!state.result.incomplete) return results;
  // A file cut short: what it held up to the break, under the reason the rest is missing.
  return (
    <div className="har-error">
      <div className="alert alert--error" role="alert">
        <strong>{state.result.fileName} is incomplete.</strong> {state.result.incomplete} The results below are those of the{' '}
        {countOf(state.result.summary.entries, 'request')} read before the break.
      </div>
      {results}
    </div>
  );
}
