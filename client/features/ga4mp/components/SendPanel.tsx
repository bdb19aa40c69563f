import type { Ga4mpSendResponse } from '../../../../lib/api/ga4mp.js';
import type { Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import { plural } from '../format.js';
import type { Refusal } from '../hooks/useSending.js';
import '../ga4mp.css';

interface Props {
  region: Ga4mpRegion;
  /** Validation messages on screen. */
  invalidCount: number;
  /** Fields not filled in yet (their messages are not shown until a check). */
  pendingCount: number;
  sending: 'debug' | 'real' | null;
  onSend: (debug: boolean, force: boolean) => void;
}

/** Send to GA4's validation server or to the real collection endpoint, through Hitscope's server. */
export function SendPanel({ region, invalidCount, pendingCount, sending, onSend }: Props) {
  const host = region === 'eu' ? 'region1.google-analytics.com' : 'www.google-analytics.com';
  return (
    <section className="ga4mp-section ga4mp-send-panel" aria-labelledby="ga4mp-send-title" aria-describedby="ga4mp-send-note">
      <div className="ga4mp-send-panel__row">
        <h2 id="ga4mp-send-title">Send</h2>
        <div className="ga4mp-inline ga4mp-send">
          <button type="button" className="button button--primary" disabled={sending !== null} onClick={() => onSend(true, false)}>
            {sending === 'debug' ? 'Sending…' : 'Send to debug'}
          </button>
          <button type="button" className="button" disabled={sending !== null} onClick={() => onSend(false, false)}>
            {sending === 'real' ? 'Sending…' : 'Send for real'}
          </button>
        </div>
      </div>
      <p id="ga4mp-send-note" className="muted ga4mp-note">
        Sent by Hitscope's server to <code>{host}</code>; debug sends are only validated, never reported.
      </p>
      {invalidCount > 0 ? (
        <p className="field__hint">
          Refused while the payload has {plural(invalidCount, 'validation message')}, unless you choose to send anyway.
        </p>
      ) : pendingCount > 0 ? (
        <p className="field__hint">Fill in the {plural(pendingCount, 'field')} listed under Validation first.</p>
      ) : null}
    </section>
  );
}

interface ResponseProps {
  result: Ga4mpSendResponse | null;
  error: { message: string; status: number } | null;
  refused: Refusal | null;
  onSendAnyway: (debug: boolean) => void;
}

/** What GA4 answered to the last send (or why it could not be reached). */
export function ResponsePanel({ result, error, refused, onSendAnyway }: ResponseProps) {
  if (!result && !error && !refused) return null;
  return (
    <section className="ga4mp-section ga4mp-response" aria-labelledby="ga4mp-response-title" aria-live="polite">
      <h2 id="ga4mp-response-title">Response</h2>
      {refused ? (
        <div className="alert alert--error" role="alert">
          <p>Not sent: the payload has {plural(refused.count, 'validation message')}. GA4 silently drops what it cannot accept.</p>
          <button type="button" className="button button--small button--danger" onClick={() => onSendAnyway(refused.debug)}>
            Send anyway
          </button>
        </div>
      ) : error ? (
        <p className="alert alert--error" role="alert">
          {error.status ? <strong>{error.status}: </strong> : null}
          {error.message}
        </p>
      ) : result ? (
        <>
          <dl className="ga4mp-response__facts">
            <div>
              <dt>Status</dt>
              <dd>
                <span className={`badge ${result.ok ? 'ga4mp-badge--ok' : 'ga4mp-badge--error'}`}>{result.status}</span>
              </dd>
            </div>
            <div>
              <dt>Time</dt>
              <dd>{result.durationMs} ms</dd>
            </div>
            <div className="ga4mp-response__endpoint">
              <dt>Endpoint</dt>
              <dd>
                <code>{result.endpoint}</code>
              </dd>
            </div>
          </dl>
          {result.response !== null ? (
            <pre className="ga4mp-response__body">{JSON.stringify(result.response, null, 2)}</pre>
          ) : (
            <p className="muted">
              No response body{result.ok ? ' (the real endpoint answers 2xx without a body, even for payloads it drops).' : '.'}
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
