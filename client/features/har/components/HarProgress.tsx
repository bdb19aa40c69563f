import { formatBytes } from '../../../../lib/format/bytes.js';
import { countOf } from '../format.js';
import type { ReadProgress } from '../protocol.js';
import { HarDropZone } from './HarDropZone.js';
import '../har.css';

const STAGES = ['reading', 'checking'] as const;
const LABELS = { reading: 'Reading the file', checking: 'Checking the hits' };

interface Props {
  fileName: string;
  progress: ReadProgress;
  onCancel: () => void;
  /** Another file chosen meanwhile: it replaces the one being read. */
  onFile: (file: File) => void;
}

/**
 * The two stages of an analysis: reading the file (each request is decoded as it is read, so the
 * bar follows the bytes and the counts grow with it), then checking the hits; Cancel, and another
 * file to analyse instead.
 */
export function HarProgress({ fileName, progress, onCancel, onFile }: Props) {
  const current = STAGES.indexOf(progress.stage);
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
      {/* Stage changes only: the bars themselves move too often to be announced. */}
      <p className="visually-hidden" role="status">
        {LABELS[progress.stage]}
      </p>
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
          } else if (state === 'waiting') value = 0;
          return (
            <li key={stage} className={`har-progress__stage har-progress__stage--${state}`} data-stage={stage} data-state={state}>
              <span className="har-progress__label">
                {LABELS[stage]}
                {state === 'done' ? ' — done' : detail ? ` — ${detail}` : state === 'active' ? '…' : ''}
              </span>
              <progress aria-label={LABELS[stage]} value={value} max={max} />
              {stage === 'reading' ? (
                <span className="har-progress__counts muted" data-testid="har-progress-counts">
                  {countOf(progress.entries, 'request')} read · {countOf(progress.hits, 'analytics hit')} found
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <HarDropZone compact onFile={onFile} />
    </section>
  );
}
