import { countOf } from '../format.js';
import '../applog.css';

/** Progress of a running analysis (reported by the worker), with a way out. */
export function AppLogProgress({
  progress,
  lines,
  source,
  onCancel,
}: {
  progress: number;
  lines: number;
  source: string;
  onCancel: () => void;
}) {
  const percent = Math.round(progress * 100);
  return (
    <div className="applog-progress card" role="status" aria-live="polite">
      <div className="applog-progress__row">
        <span>
          Analysing {source}… {percent}%
          {lines > 0 ? <span className="muted applog-progress__lines"> · {countOf(lines, 'line')} read</span> : null}
        </span>
        <button type="button" className="button button--small button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <progress className="applog-progress__bar" max={100} value={percent} aria-label="Analysis progress" />
    </div>
  );
}
