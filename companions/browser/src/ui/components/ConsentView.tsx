import type { CaptureAnalysis } from '../../../../../lib/tools/live/capture.js';
import { type ConsentStateMap, type ConsentTimelineEntry, CONSENT_TYPES } from '../../../../../lib/tools/live/consent-timeline.js';
import { formatTime, loadLabel, shortUrl } from '../format.js';

const SHORT: Record<string, [string, string]> = {
  ad_storage: ['Ad storage', 'Ads'],
  analytics_storage: ['Analytics', 'An.'],
  ad_user_data: ['Ad user data', 'Data'],
  ad_personalization: ['Ad personal.', 'Pers.'],
};
const MAIN_TYPES = ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization'];

function Cell({ entry, type }: { entry: ConsentTimelineEntry; type: string }) {
  const shown: ConsentStateMap = entry.kind === 'hit' ? entry.carried : entry.state;
  const value = shown[type];
  const changed = entry.kind !== 'hit' && entry.changed.includes(type);
  const mismatch = entry.kind === 'hit' && entry.mismatched.includes(type);
  if (!value) {
    return (
      <td className="consent-cell consent-cell--none">
        –<span className="visually-hidden">not set</span>
      </td>
    );
  }
  // Narrow panels show a mark; the word stays for assistive technology and wide panels.
  return (
    <td
      className={`consent-cell consent-cell--${value}${changed ? ' consent-cell--changed' : ''}${mismatch ? ' consent-cell--mismatch' : ''}`}
    >
      <span className="consent-cell__mark" aria-hidden="true">
        {value === 'granted' ? '✓' : '✗'}
      </span>
      <span className="consent-cell__word">{value}</span>
      {mismatch && entry.kind === 'hit' ? <span className="consent-cell__note"> (page: {entry.state[type]})</span> : null}
    </td>
  );
}

/**
 * Consent mode over time, per page load: each `gtag('consent', …)` command with the state after it
 * (what it changed in bold), and each Google hit with the state it carried (gcs/gcd), a value that
 * contradicts the page's state marked. The view Tag Assistant gives, without a debug session.
 */
export function ConsentView({ analysis, onShowHit }: { analysis: CaptureAnalysis; onShowHit: (id: number) => void }) {
  const loads = analysis.loads.filter((summary) => summary.consent.length);
  if (!loads.length) {
    return (
      <div className="empty-state view-empty">
        <h3>No consent mode seen yet</h3>
        <p>No gtag('consent', …) command ran and no Google tag hit carried gcs or gcd. Outside the EEA that can be intended.</p>
      </div>
    );
  }
  const extra = CONSENT_TYPES.filter(
    (type) =>
      !MAIN_TYPES.includes(type) && loads.some((summary) => summary.consent.some((entry) => entry.kind !== 'hit' && entry.set[type])),
  );
  const types = [...MAIN_TYPES, ...extra];
  return (
    <div className="consent-view">
      {loads.map((summary) => (
        <section key={summary.load.index} className="consent-load" aria-label={loadLabel(summary.load.index, summary.load.transition)}>
          <h3 className="consent-load__title">
            {loadLabel(summary.load.index, summary.load.transition)} <span className="muted">{shortUrl(summary.load.url)}</span>
          </h3>
          <div className="table-wrap consent-table-wrap">
            <table className="table consent-table">
              <thead>
                <tr>
                  <th scope="col" className="consent-table__time">
                    Time (UTC)
                  </th>
                  <th scope="col">What</th>
                  {types.map((type) => (
                    <th key={type} scope="col">
                      <abbr title={type}>
                        <span className="consent-cell__word">{SHORT[type]?.[0] ?? type.replace(/_/g, ' ')}</span>
                        <span className="consent-cell__mark">{SHORT[type]?.[1] ?? type.slice(0, 4)}</span>
                      </abbr>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {summary.consent.map((entry, index) => (
                  <tr key={index} className={entry.kind === 'hit' ? 'consent-row--hit' : 'consent-row--command'}>
                    <td className="consent-table__time">{formatTime(new Date(entry.time).toISOString())}</td>
                    <th scope="row">
                      <span className="consent-table__when">{formatTime(new Date(entry.time).toISOString())}</span>
                      {entry.kind === 'hit' ? (
                        <>
                          <button type="button" className="link-button" onClick={() => onShowHit(entry.hitId)}>
                            Hit #{entry.hitId + 1} {analysis.hits[entry.hitId]?.type}
                          </button>
                          {Object.keys(entry.carried).length ? null : <span className="muted"> no gcs/gcd</span>}
                        </>
                      ) : (
                        <>
                          consent {entry.kind}
                          {entry.region ? <span className="muted"> (region {entry.region.join(', ')})</span> : null}
                          {entry.waitForUpdate !== null ? <span className="muted"> wait {entry.waitForUpdate} ms</span> : null}
                        </>
                      )}
                    </th>
                    {types.map((type) => (
                      <Cell key={type} entry={entry} type={type} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </div>
  );
}
