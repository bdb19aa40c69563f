import type { CountRow, HarWarning, Severity, WarningCode } from '../../../../lib/tools/har/types.js';
import { formatCount } from '../format.js';
import '../har.css';

const SHOWN_PER_CODE = 25;
const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** One title per code: typed by WarningCode so a new code cannot show up raw. */
export const TITLES: Record<WarningCode, string> = {
  duplicate_page_view: 'Duplicate page views',
  missing_consent: 'Google hits without consent state',
  no_consent_mode: 'No consent mode',
  missing_client_id: 'Missing client ID',
  cookieless_ping: 'Cookieless pings',
  event_name_invalid: 'Invalid event names',
  event_name_reserved: 'Reserved event names',
  event_name_too_long: 'Event names too long',
  param_name_too_long: 'Parameter names too long',
  param_name_reserved: 'Reserved parameter names',
  param_value_too_long: 'Parameter values too long',
  too_many_event_params: 'Too many event parameters',
  too_many_user_properties: 'Too many user properties',
  user_property_name_too_long: 'User property names too long',
  user_property_value_too_long: 'User property values too long',
  user_property_reserved: 'Reserved user property names',
  ecommerce_missing_currency: 'Value without currency',
  purchase_missing_transaction_id: 'Purchases without transaction_id',
  meta_purchase_missing_value: 'Meta Purchase without value/currency',
  meta_limited_data_use: 'Meta Limited Data Use',
  pixel_missing_id: 'Pixel requests without an ID',
  pixel_purchase_missing_value: 'Pixel purchases without value/currency',
  pixel_custom_event_unnamed: 'Unnamed custom pixel events',
  uet_consent_denied: 'UET sent with ad_storage denied',
  ua_sunset: 'Universal Analytics hits (sunset)',
  http_error: 'Failed requests',
  mixed_measurement_ids: 'Several GA4 properties on one page',
};

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
