import type { Ga4mpSendResult } from '../../../../lib/tools/ga4mp/api-types.js';
import type { Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import '../ga4mp.css';

interface Props {
  region: Ga4mpRegion;
  invalidCount: number;
  sending: 'debug' | 'real' | null;
  onSend: (debug: boolean, force: boolean) => void;
}

/** Send to GA4's validation server or to the real collection endpoint, through Hitscope's server. */
export function SendPanel({ region, invalidCount, sending, onSend }: Props) {
  const host = region === 'eu' ? 'region1.google-analytics.com' : 'www.google-analytics.com';
  return (
    <section className="ga4mp-section" aria-labelledby="ga4mp-send-title">
      <h2 id="ga4mp-send-title">Send</h2>
      <p className="muted ga4mp-note">
        Through Hitscope's server to <code>{host}</code>. Debug sends are checked by GA4's validation server and never reach reports.
      </p>
      <div className="ga4mp-inline ga4mp-send">
        <button type="button" className="button button--primary" disabled={sending !== null} onClick={() => onSend(true, false)}>
          {sending === 'debug' ? 'Sending…' : 'Send to debug'}
        </button>
        <button type="button" className="button" disabled={sending !== null} onClick={() => onSend(false, false)}>
          {sending === 'real' ? 'Sending…' : 'Send for real'}
        </button>
      </div>
      {invalidCount > 0 ? (
        <p className="field__hint">
          The payload has {invalidCount} validation {invalidCount === 1 ? 'message' : 'messages'}: sending is refused unless you choose to
          send anyway.
        </p>
      ) : null}
    </section>
  );
}

interface ResponseProps {
  result: Ga4mpSendResult | null;
  error: { message: string; status: number } | null;
  refused: { debug: boolean; count: number } | null;
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
          <p>
            Not sent: the payload has {refused.count} validation {refused.count === 1 ? 'message' : 'messages'}. GA4 silently drops what it
            cannot accept.
          </p>
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
