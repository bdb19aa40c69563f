import type { AppLogEntry } from '../../../../lib/tools/applog/types.js';
import '../applog.css';

const SHOWN = 200;

/** Every issue in the stream, grouped by entry; choosing one selects its entry. */
export function AppLogIssues({ entries, onSelect }: { entries: AppLogEntry[]; onSelect: (index: number) => void }) {
  const withIssues = entries.filter((entry) => entry.issues.length > 0);
  return (
    <section className="applog-panel card" aria-labelledby="applog-issues">
      <h3 id="applog-issues">Issues ({withIssues.reduce((sum, entry) => sum + entry.issues.length, 0)})</h3>
      {withIssues.length === 0 ? (
        <p className="muted">No issue found against the GA4 / Firebase limits, and Firebase logged no error.</p>
      ) : (
        <ul className="applog-issues__list">
          {withIssues.slice(0, SHOWN).flatMap((entry) =>
            entry.issues.map((issue, index) => (
              <li key={`${entry.index}-${index}`} className={`applog-issue applog-issue--${issue.severity}`}>
                <button type="button" className="applog-link" onClick={() => onSelect(entry.index)}>
                  {entry.name}
                </button>
                <span className="muted"> · line {entry.lines[0]}</span>
                <br />
                <code>{issue.code}</code> {issue.message}
              </li>
            )),
          )}
        </ul>
      )}
      {withIssues.length > SHOWN ? <p className="muted">First {SHOWN} entries with issues shown; the export has them all.</p> : null}
    </section>
  );
}
