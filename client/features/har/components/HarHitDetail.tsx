import type { RefObject } from 'react';
import { GOOGLE_TAG_VENDORS } from '../../../../lib/tools/har/google-tags.js';
import type { DecodedParam, HarWarning, Hit } from '../../../../lib/tools/har/types.js';
import { formatTime } from '../format.js';
import { useVendorName } from '../vendor-names.js';
import '../har.css';

function ParamTable({ params, caption }: { params: DecodedParam[]; caption: string }) {
  return (
    <div className="har-table-wrap">
      <table className="table har-params">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {params.map((param, index) => (
            <tr key={`${param.key}-${index}`}>
              <td>{param.name}</td>
              <td>
                <code>{param.key}</code>
              </td>
              <td className="har-params__value">{param.value === '' ? <span className="muted">(empty)</span> : param.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why a hit has no consent state, in the vendor's own terms. */
function noConsentText(hit: Hit, vendorLabel: (vendor: string) => string): string {
  if (GOOGLE_TAG_VENDORS.has(hit.vendor) || hit.vendor === 'ua') return 'No consent state (no gcs or gcd parameter) on this hit.';
  if (hit.vendor === 'meta') {
    return "The Meta pixel sends no consent flag: with fbq('consent', 'revoke') it holds events back, so a request on the wire was sent with consent granted or without the consent API. No Limited Data Use (dpo) either.";
  }
  if (hit.vendor === 'microsoft') return 'No UET consent mode flag (asc) on this hit.';
  return `${vendorLabel(hit.vendor)} requests carry no consent parameter.`;
}

function Consent({ hit }: { hit: Hit }) {
  const vendorLabel = useVendorName();
  if (!hit.consent) return <p className="muted">{noConsentText(hit, vendorLabel)}</p>;
  if (hit.consent.source) {
    // Meta's Limited Data Use and UET's consent mode: one sentence says it all.
    return (
      <p className={`har-consent__note har-consent__note--${hit.consent.signals[0]?.state.replace(' ', '-') ?? 'not-set'}`}>
        {hit.consent.text}
      </p>
    );
  }
  return (
    <>
      <p className="muted">
        {hit.consent.gcs ? (
          <>
            gcs <code>{hit.consent.gcs}</code>{' '}
          </>
        ) : null}
        {hit.consent.gcd ? (
          <>
            gcd <code>{hit.consent.gcd}</code>
          </>
        ) : null}
      </p>
      <ul className="har-consent">
        {hit.consent.signals.map((signal) => (
          <li key={signal.type} className={`har-consent__signal har-consent__signal--${signal.state.replace(' ', '-')}`}>
            <span className="har-consent__type">{signal.type}</span> <strong>{signal.state}</strong>
            {signal.default !== undefined ? (
              <>
                {' '}
                <span className="muted har-consent__detail">
                  default {signal.default}, update {signal.update}
                </span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Everything decoded about one hit: warnings, parameters, items, consent and the raw request. The
 * heading takes the focus when the user opens a hit (the list moves it there through `headingRef`).
 */
export function HarHitDetail({
  hit,
  warnings,
  onClose,
  onShowHit,
  headingRef,
}: {
  hit: Hit;
  warnings: HarWarning[];
  onClose: () => void;
  /** Opens another hit (the one a secondary request follows). */
  onShowHit: (hitId: number) => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const vendorLabel = useVendorName();
  // The note above the parameters says why a request is not a valid hit: its warning is not repeated.
  const own = hit.warningIds.map((id) => warnings[id]!).filter((warning) => warning && !(hit.invalid && warning.code === 'malformed_hit'));
  return (
    <section className="card har-detail" aria-labelledby="har-detail-title">
      <div className="har-detail__header">
        <div>
          <p className="eyebrow">
            Hit #{hit.id + 1} · {vendorLabel(hit.vendor)}
            {hit.batch ? ` · event ${hit.batch.index} of ${hit.batch.size} in one request` : ''}
          </p>
          <h2 id="har-detail-title" ref={headingRef} tabIndex={-1}>
            {hit.type}
          </h2>
        </div>
        <button type="button" className="button button--small button--ghost" onClick={onClose} aria-label="Close hit details">
          ×
        </button>
      </div>
      <dl className="har-facts">
        <div>
          <dt>Account</dt>
          <dd>{hit.accountId ?? '—'}</dd>
        </div>
        <div>
          <dt>Time (UTC)</dt>
          <dd>{formatTime(hit.time)}</dd>
        </div>
        <div>
          <dt>Request</dt>
          <dd>
            {hit.method} · {hit.status || 'failed'}
          </dd>
        </div>
        <div>
          <dt>Client ID</dt>
          <dd>{hit.clientId ?? '—'}</dd>
        </div>
        <div className="har-facts__wide">
          <dt>Page</dt>
          <dd>{hit.page ?? '—'}</dd>
        </div>
        {hit.referrer ? (
          <div className="har-facts__wide">
            <dt>Referrer</dt>
            <dd>{hit.referrer}</dd>
          </div>
        ) : null}
      </dl>
      {hit.invalid ? (
        <p className={`har-detail__note har-detail__note--${hit.invalid.kind === 'malformed' ? 'error' : 'warning'}`} role="note">
          <strong>{hit.invalid.kind === 'malformed' ? 'Not a valid hit' : 'An older format this analyser does not read'}:</strong>{' '}
          {hit.invalid.reason}. The parameters below are the request&apos;s, as sent.
        </p>
      ) : null}
      {hit.formatNote ? (
        <p className="har-detail__note" role="note">
          {hit.formatNote}.
        </p>
      ) : null}
      {hit.secondary ? (
        <p className="har-detail__secondary" role="note">
          {hit.secondary}. It is not counted as a hit and is left out of the duplicate and consent checks.
          {hit.follows !== undefined ? (
            <>
              {' '}
              <button type="button" className="har-link-button" onClick={() => onShowHit(hit.follows!)}>
                Show hit #{hit.follows + 1}, the one it follows
              </button>
            </>
          ) : null}
        </p>
      ) : hit.container ? (
        <p className="har-detail__secondary" role="note">
          A {hit.type === 'container loaded' ? 'tag manager container' : 'tag'} that loaded ({hit.accountId ?? 'no id'}): not a hit. What it
          sends appears as its own rows.
        </p>
      ) : null}
      {own.length ? (
        <ul className="har-detail__warnings" aria-label="Warnings on this hit">
          {own.map((warning) => (
            <li key={warning.id} className={`har-warning har-warning--${warning.severity}`}>
              <span className={`har-badge har-badge--${warning.severity}`}>{warning.severity}</span> {warning.message}
            </li>
          ))}
        </ul>
      ) : null}
      <h3>Parameters</h3>
      <ParamTable params={hit.params} caption="Decoded parameters" />
      {hit.items.length ? (
        <>
          <h3>Items</h3>
          {hit.items.map((item) => (
            <div key={item.key} className="har-item">
              <h4>
                <code>{item.key}</code>
              </h4>
              <div className="har-table-wrap">
                <table className="table har-params">
                  <caption className="visually-hidden">Item {item.key}</caption>
                  <tbody>
                    {item.params.map((param) => (
                      <tr key={param.key}>
                        <th scope="row">{param.name}</th>
                        <td>
                          <code>{param.key}</code>
                        </td>
                        <td className="har-params__value">{param.value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ))}
        </>
      ) : null}
      <h3>Consent</h3>
      <Consent hit={hit} />
      <details className="har-raw">
        <summary>Raw request</summary>
        <p className="har-raw__label">URL</p>
        <pre>{hit.url}</pre>
        {hit.body ? (
          <>
            <p className="har-raw__label">{hit.batch ? 'Body line of this event' : 'Body'}</p>
            <pre>{hit.body}</pre>
          </>
        ) : null}
      </details>
    </section>
  );
}
