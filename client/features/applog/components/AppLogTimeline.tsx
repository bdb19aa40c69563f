import type { AppLogEntry } from '../../../../lib/tools/applog/types.js';
import { clock, countOf, formatCount, KIND_LABELS, keyParams } from '../format.js';
import '../applog.css';

interface Props {
  entries: AppLogEntry[];
  total: number;
  shown: number;
  selected: number | null;
  onSelect: (index: number) => void;
  onShowMore: () => void;
}

/** The decoded stream as a table; a row's name button selects it for the details panel. */
export function AppLogTimeline({ entries, total, shown, selected, onSelect, onShowMore }: Props) {
  if (total === 0) {
    return (
      <div className="empty-state applog-timeline__empty">
        <h3>No entries match</h3>
        <p>Change or clear the filters to see more of the stream.</p>
      </div>
    );
  }
  return (
    <div className="applog-timeline">
      <div className="applog-timeline__wrap">
        <table className="table applog-timeline__table" aria-label="Event stream">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Screen</th>
              <th scope="col">Entry</th>
              <th scope="col">Key parameters</th>
            </tr>
          </thead>
          <tbody>
            {entries.slice(0, shown).map((entry) => (
              <tr
                key={entry.index}
                className={`applog-row applog-row--${entry.kind}${selected === entry.index ? ' applog-row--selected' : ''}`}
                onClick={() => onSelect(entry.index)}
              >
                <td className="applog-row__time" title={entry.time ?? undefined}>
                  {clock(entry.time)}
                </td>
                <td className="applog-row__screen">{entry.screen ?? '—'}</td>
                <td>
                  <span className={`badge applog-kind applog-kind--${entry.kind}`}>{KIND_LABELS[entry.kind]}</span>{' '}
                  <button
                    type="button"
                    className="applog-row__name"
                    onClick={(event) => {
                      event.stopPropagation();
                      onSelect(entry.index);
                    }}
                    aria-pressed={selected === entry.index}
                  >
                    {entry.name}
                  </button>
                  {entry.issues.length > 0 ? (
                    <>
                      {' '}
                      <span className="applog-issue-count" title={entry.issues.map((issue) => issue.message).join('\n')}>
                        {countOf(entry.issues.length, 'issue')}
                      </span>
                    </>
                  ) : null}
                </td>
                <td className="applog-row__params">{keyParams(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="applog-timeline__footer">
        <span className="muted">
          Showing {formatCount(Math.min(shown, total))} of {formatCount(total)}
        </span>
        {shown < total ? (
          <button type="button" className="button button--small" onClick={onShowMore}>
            Show more
          </button>
        ) : null}
      </div>
    </div>
  );
}
