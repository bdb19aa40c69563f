import type { AnalysisProgress } from '../../../../lib/tools/har/types.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { countOf, formatCount } from '../format.js';
import '../har.css';

const STAGES = ['reading', 'parsing', 'analysing'] as const;
const LABELS = { reading: 'Reading the file', parsing: 'Parsing JSON', analysing: 'Analysing entries' };

/** The three stages of an analysis with their progress, and the Cancel button. */
export function HarProgress({ fileName, progress, onCancel }: { fileName: string; progress: AnalysisProgress; onCancel: () => void }) {
  const current = STAGES.indexOf(progress.stage as (typeof STAGES)[number]);
  return (
    <section className="card har-progress" aria-label="Analysis progress" aria-busy="true">
      <div className="har-progress__header">
        <h2>
          Analysing <span className="har-progress__file">{fileName}</span>
        </h2>
        <button type="button" className="button button--small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ol className="har-progress__stages">
        {STAGES.map((stage, index) => {
          const state = index < current ? 'done' : index === current ? 'active' : 'waiting';
          let detail = '';
          let value: number | undefined;
          let max = 1;
          if (state === 'done') value = 1;
          else if (state === 'active' && stage === 'reading') {
            value = progress.done;
            max = Math.max(progress.total, 1);
            detail = `${formatBytes(progress.done)} of ${formatBytes(progress.total)}`;
          } else if (state === 'active' && stage === 'analysing') {
            value = progress.done;
            max = Math.max(progress.total, 1);
            detail = `${formatCount(progress.done)} of ${countOf(progress.total, 'entry', 'entries')}`;
          } else if (state === 'waiting') value = 0;
          return (
            <li key={stage} className={`har-progress__stage har-progress__stage--${state}`} data-stage={stage} data-state={state}>
              <span className="har-progress__label">
                {LABELS[stage]}
                {state === 'done' ? ' — done' : detail ? ` — ${detail}` : state === 'active' ? '…' : ''}
              </span>
              <progress aria-label={LABELS[stage]} value={value} max={max} />
            </li>
          );
        })}
      </ol>
    </section>
  );
}
