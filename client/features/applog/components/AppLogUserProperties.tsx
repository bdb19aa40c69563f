import type { AppLogUserProperty } from '../../../../lib/tools/applog/types.js';
import { clock, displayValue } from '../format.js';
import '../applog.css';

/** The user properties as they stand at the end of the log, with each one's changes. */
export function AppLogUserProperties({ properties, onSelect }: { properties: AppLogUserProperty[]; onSelect: (index: number) => void }) {
  return (
    <section className="applog-panel card" aria-labelledby="applog-user-properties">
      <h3 id="applog-user-properties">User properties ({properties.length})</h3>
      {properties.length === 0 ? (
        <p className="muted">No user property was set in this log.</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--stack">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Latest value</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {properties.map((property) => (
                <tr key={property.name}>
                  <th scope="row" data-label="Name">
                    <code>{property.name}</code>
                    {property.shortName ? <span className="muted"> ({property.shortName})</span> : null}
                  </th>
                  <td data-label="Latest value">
                    <code>{displayValue(property.value)}</code>
                  </td>
                  <td data-label="Changes">
                    <ol className="applog-history">
                      {property.history.map((change) => (
                        <li key={change.entryIndex}>
                          <button type="button" className="applog-link" onClick={() => onSelect(change.entryIndex)}>
                            {change.time ? clock(change.time) : `line ${change.line}`}
                          </button>{' '}
                          <code>{displayValue(change.value)}</code>
                        </li>
                      ))}
                    </ol>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
