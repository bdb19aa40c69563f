import { TITLES } from '../../../../../client/features/har/components/HarWarnings.js';
import type { Severity, WarningCode } from '../../../../../lib/tools/har/types.js';
import type { CaptureAnalysis } from '../../../../../lib/tools/live/capture.js';
import { LIVE_WARNING_TITLES, type LiveWarningCode } from '../../../../../lib/tools/live/live-warnings.js';
import { formatCount } from '../format.js';
import { LockedFeature } from './LockedFeature.js';

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const SHOWN_PER_CODE = 50;
const titleOf = (code: string) => TITLES[code as WarningCode] ?? LIVE_WARNING_TITLES[code as LiveWarningCode] ?? code;

/**
 * The capture's findings, grouped by kind and most severe first: the HAR analyser's checks and the
 * live ones. A licensed feature: without a licence the counts show and the list says why it is not.
 */
export function WarningsView({
  analysis,
  licensed,
  onShowHit,
}: {
  analysis: CaptureAnalysis;
  licensed: boolean;
  onShowHit: (id: number) => void;
}) {
  const { warnings } = analysis;
  const counts = analysis.summary.warnings;
  const totals = (
    <p className="warnings-view__totals">
      <span className="har-badge har-badge--error">{formatCount(counts.error)}</span> errors{' '}
      <span className="har-badge har-badge--warning">{formatCount(counts.warning)}</span> warnings{' '}
      <span className="har-badge har-badge--info">{formatCount(counts.info)}</span> notes
    </p>
  );
  if (!licensed) {
    return (
      <div className="warnings-view">
        {totals}
        <LockedFeature what="Validation">
          Each finding, the hit it is about and why it matters: the HAR analyser's checks plus the live ones (hits before the consent
          default, identifiers sent after consent was denied, duplicate page views in one page load, client ids that change).
        </LockedFeature>
      </div>
    );
  }
  if (!warnings.length) {
    return (
      <div className="empty-state view-empty">
        <h3>No problems found</h3>
        <p>Every check passed for the hits captured so far.</p>
      </div>
    );
  }
  const groups = new Map<string, typeof warnings>();
  for (const warning of warnings) groups.set(warning.code, [...(groups.get(warning.code) ?? []), warning]);
  const sorted = [...groups].sort(([, a], [, b]) => ORDER[a[0]!.severity] - ORDER[b[0]!.severity] || b.length - a.length);
  return (
    <div className="warnings-view">
      {totals}
      <ul className="warnings-view__groups">
        {sorted.map(([code, list]) => (
          <li key={code}>
            <details open={list[0]!.severity !== 'info'}>
              <summary>
                <span className={`har-badge har-badge--${list[0]!.severity}`}>{list[0]!.severity}</span> {titleOf(code)}{' '}
                <span className="muted">({formatCount(list.length)})</span>
              </summary>
              <ul className="warnings-view__list">
                {list.slice(0, SHOWN_PER_CODE).map((warning) => (
                  <li key={warning.id}>
                    {warning.hitId === null ? null : (
                      <>
                        <button type="button" className="link-button" onClick={() => onShowHit(warning.hitId!)}>
                          Hit #{warning.hitId + 1}
                        </button>
                        {' — '}
                      </>
                    )}
                    {warning.message}
                  </li>
                ))}
                {list.length > SHOWN_PER_CODE ? <li className="muted">…and {formatCount(list.length - SHOWN_PER_CODE)} more</li> : null}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
