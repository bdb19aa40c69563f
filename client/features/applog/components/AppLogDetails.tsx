import type { AppLogEntry, AppLogParam } from '../../../../lib/tools/applog/types.js';
import { originLabel } from '../../../../lib/tools/applog/rules.js';
import { displayValue, KIND_LABELS } from '../format.js';
import '../applog.css';

function ParamsTable({ params, caption }: { params: AppLogParam[]; caption: string }) {
  if (params.length === 0) return <p className="muted">No parameters.</p>;
  return (
    <div className="table-wrap">
      <table className="table applog-params">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {params.map((param, index) => (
            <tr key={`${param.name}-${index}`}>
              {/* The short name under the name, not in a column of its own: the panel is narrow beside the stream. */}
              <th scope="row" className="applog-params__name">
                <code>{param.name}</code>
                {param.shortName ? (
                  <>
                    {' '}
                    <code className="applog-params__short" title="Short name">
                      {param.shortName}
                    </code>
                  </>
                ) : null}
              </th>
              <td className="applog-params__value">
                {param.items ? (
                  param.items.map((item, i) => <ParamsTable key={i} params={item} caption={`${param.name} ${i + 1}`} />)
                ) : (
                  <code className={param.value === null ? 'muted' : undefined}>{displayValue(param.value)}</code>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A consent change: each consent type (and the source of the setting) with its state. */
function ConsentTable({ params }: { params: AppLogParam[] }) {
  return (
    <div className="table-wrap">
      <table className="table applog-params">
        <caption className="visually-hidden">Consent state</caption>
        <thead>
          <tr>
            <th scope="col">Consent type</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {params.map((param, index) => (
            <tr key={`${param.name}-${index}`}>
              <th scope="row">
                <code>{param.name}</code>
              </th>
              <td>
                <code>{displayValue(param.value)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Everything about the selected entry: params, items, issues, stages and the source lines. */
export function AppLogDetails({ entry }: { entry: AppLogEntry | null }) {
  if (!entry) {
    return (
      <aside className="applog-details card" aria-label="Entry details">
        <p className="muted">Select an entry in the stream to see its parameters, items and issues.</p>
      </aside>
    );
  }
  return (
    <aside className="applog-details card" aria-label="Entry details" aria-live="polite">
      <p className="applog-details__kind">
        <span className={`badge applog-kind applog-kind--${entry.kind}`}>{KIND_LABELS[entry.kind]}</span>
        {entry.origin ? (
          <>
            {' '}
            <span className="badge" title={`ga_event_origin (_o) = ${entry.origin}`}>
              origin: {entry.origin} ({originLabel(entry.origin)})
            </span>
          </>
        ) : null}
      </p>
      <h3 className="applog-details__name">
        {entry.name}
        {entry.shortName ? <span className="muted"> ({entry.shortName})</span> : null}
      </h3>
      <dl className="applog-details__facts">
        <div>
          <dt>Time</dt>
          <dd>{entry.time ?? '—'}</dd>
        </div>
        <div>
          <dt>Screen</dt>
          <dd>{entry.screen ?? '—'}</dd>
        </div>
        <div>
          <dt>Source lines</dt>
          <dd>{entry.lines.length > 6 ? `${entry.lines[0]}–${entry.lines[entry.lines.length - 1]}` : entry.lines.join(', ')}</dd>
        </div>
        {entry.stages.length ? (
          <div>
            <dt>SDK stages</dt>
            <dd>{entry.stages.join(' → ')}</dd>
          </div>
        ) : null}
        {entry.kind === 'user_property' ? (
          <div>
            <dt>Value</dt>
            <dd>
              <code>{displayValue(entry.value ?? null)}</code>
            </dd>
          </div>
        ) : null}
      </dl>
      {entry.note ? (
        <p className="applog-details__note" role="note">
          {entry.note}
        </p>
      ) : null}
      {entry.issues.length ? (
        <section className="applog-details__section" aria-label="Issues of this entry">
          <h4>Issues</h4>
          <ul className="applog-issues__list">
            {entry.issues.map((issue, index) => (
              <li key={index} className={`applog-issue applog-issue--${issue.severity}`}>
                <code>{issue.code}</code> {issue.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {entry.kind === 'consent' && entry.params.length ? (
        <section className="applog-details__section" aria-label="Consent state">
          <h4>Consent state</h4>
          <ConsentTable params={entry.params} />
        </section>
      ) : null}
      {entry.kind === 'event' || entry.kind === 'screen' || (entry.kind === 'error' && entry.params.length) ? (
        <section className="applog-details__section" aria-label="Parameters">
          <h4>Parameters</h4>
          <ParamsTable params={entry.params} caption="Parameters" />
        </section>
      ) : null}
      {entry.items.length ? (
        <section className="applog-details__section" aria-label="Items">
          <h4>Items ({entry.items.length})</h4>
          {entry.items.map((item, index) => (
            <div key={index} className="applog-details__item">
              <h5>Item {index + 1}</h5>
              <ParamsTable params={item} caption={`Item ${index + 1}`} />
            </div>
          ))}
        </section>
      ) : null}
      <details className="applog-details__raw">
        <summary>Logged message</summary>
        <pre>{entry.message}</pre>
      </details>
    </aside>
  );
}
