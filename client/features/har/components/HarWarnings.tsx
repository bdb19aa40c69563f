import type { CountRow, HarWarning, Severity, WarningCode } from '../../../../lib/tools/har/types.js';
import { WARNING_TITLES } from '../../../../lib/tools/har/warning-titles.js';
import { formatCount } from '../format.js';
import '../har.css';

const SHOWN_PER_CODE = 25;
const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** One title per code (lib/tools/har/warning-titles.ts): typed by WarningCode so a new code cannot show up raw. */
export const TITLES = WARNING_TITLES;

/** Warnings grouped by kind, most severe first, each linking to the hit it is about. */
export function HarWarnings({
  warnings,
  byCode,
  onShowHit,
}: {
  warnings: HarWarning[];
  byCode: CountRow[];
  onShowHit: (hitId: number) => void;
}) {
  if (warnings.length === 0) {
    return (
      <section className="card har-warnings" aria-labelledby="har-warnings-title">
        <h2 id="har-warnings-title">Warnings</h2>
        <p className="muted">No problems found.</p>
      </section>
    );
  }
  const groups = byCode
    .map((row) => {
      const list = warnings.filter((warning) => warning.code === row.key);
      return { code: row.key, count: row.count, severity: list[0]!.severity, list };
    })
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || b.count - a.count);
  return (
    <section className="card har-warnings" aria-labelledby="har-warnings-title">
      <h2 id="har-warnings-title">
        Warnings <span className="har-chip__value">({formatCount(warnings.length)})</span>
      </h2>
      <ul className="har-warnings__groups">
        {groups.map((group) => (
          <li key={group.code}>
            <details open={group.severity !== 'info' && groups.length <= 6}>
              <summary>
                <span className={`har-badge har-badge--${group.severity}`}>{group.severity}</span>{' '}
                {TITLES[group.code as WarningCode] ?? group.code} <span className="muted">({formatCount(group.count)})</span>
              </summary>
              <ul className="har-warnings__list">
                {group.list.slice(0, SHOWN_PER_CODE).map((warning) => (
                  <li key={warning.id}>
                    {warning.hitId === null ? (
                      warning.message
                    ) : (
                      <button type="button" className="har-link-button" onClick={() => onShowHit(warning.hitId!)}>
                        Hit #{warning.hitId + 1}
                      </button>
                    )}
                    {warning.hitId === null ? null : <span> — {warning.message}</span>}
                  </li>
                ))}
                {group.list.length > SHOWN_PER_CODE ? (
                  <li className="muted">…and {formatCount(group.list.length - SHOWN_PER_CODE)} more (filter the hits to find them)</li>
                ) : null}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
