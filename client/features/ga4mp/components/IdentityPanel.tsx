import { type ReactNode, useId } from 'react';
import { generateAppInstanceId, generateClientId } from '../../../../lib/tools/ga4mp/ids.js';
import type { Ga4mpStream } from '../../../../lib/tools/ga4mp/types.js';
import { type Body, fieldDomId, type FieldChecks, isObject, withKey } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  stream: Ga4mpStream;
  body: Body;
  onChange: (body: Body) => void;
  checks: FieldChecks;
}

function describeMicros(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'Empty: GA4 uses the time it receives the request.';
  const date = new Date(Math.floor(value / 1000));
  return Number.isNaN(date.getTime())
    ? 'Not a valid time.'
    : `${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')} (at most 72 hours ago, never in the future)`;
}

/** Who the hit is about and how it may be used: ids, timestamp, consent, non-personalised ads. */
export function IdentityPanel({ stream, body, onChange, checks }: Props) {
  const id = useId();
  const idKey = stream === 'web' ? 'client_id' : 'app_instance_id';
  const { messagesFor, touch } = checks;
  /** Every control here edits one top-level field: setting it also marks it touched. */
  const set = (key: string, value: unknown) => {
    touch(key);
    onChange(withKey(body, key, value));
  };
  const text = (key: string) =>
    typeof body[key] === 'string' ? (body[key] as string) : body[key] === undefined ? '' : JSON.stringify(body[key]);
  const consent = isObject(body.consent) ? body.consent : {};
  const setConsent = (key: string, value: string) => {
    touch(`consent.${key}`);
    const next = withKey(consent, key, value || undefined);
    onChange(withKey(body, 'consent', Object.keys(next).length ? next : undefined));
  };
  const field = (key: string, label: string, hint?: string, extra?: ReactNode) => {
    const messages = messagesFor(key);
    return (
      <div className="field">
        <label htmlFor={fieldDomId(key)}>{label}</label>
        <div className="ga4mp-inline">
          <input
            id={fieldDomId(key)}
            className="input"
            value={text(key)}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={messages.length ? true : undefined}
            aria-describedby={
              [hint ? `${id}-${key}-hint` : '', messages.length ? `${id}-${key}-messages` : ''].filter(Boolean).join(' ') || undefined
            }
            onChange={(event) => set(key, event.target.value === '' ? undefined : event.target.value)}
            onBlur={() => touch(key)}
          />
          {extra}
        </div>
        {hint ? (
          <p className="field__hint" id={`${id}-${key}-hint`}>
            {hint}
          </p>
        ) : null}
        <FieldMessages id={`${id}-${key}-messages`} messages={messages} />
      </div>
    );
  };
  const timestampMessages = messagesFor('timestamp_micros');
  return (
    <section className="ga4mp-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>User and context</h2>
      <div className="ga4mp-grid">
        {field(
          idKey,
          stream === 'web' ? 'Client ID (client_id)' : 'App instance ID (app_instance_id)',
          stream === 'web'
            ? 'The gtag.js client id, as in the _ga cookie: 1234567890.1700000000.'
            : '32 hexadecimal characters, from the Firebase SDK.',
          <button
            type="button"
            className="button button--small"
            onClick={() => set(idKey, stream === 'web' ? generateClientId() : generateAppInstanceId())}
          >
            Generate
          </button>,
        )}
        {field('user_id', 'User ID (user_id)', 'Optional: your own id for the signed-in user.')}
        <div className="field">
          <label htmlFor={fieldDomId('timestamp_micros')}>Timestamp (timestamp_micros)</label>
          <div className="ga4mp-inline">
            <input
              id={fieldDomId('timestamp_micros')}
              className="input"
              inputMode="numeric"
              value={body.timestamp_micros === undefined ? '' : String(body.timestamp_micros)}
              aria-invalid={timestampMessages.length ? true : undefined}
              aria-describedby={`${id}-ts-hint${timestampMessages.length ? ` ${id}-ts-messages` : ''}`}
              onChange={(event) => {
                const value = event.target.value.trim();
                set('timestamp_micros', value === '' ? undefined : /^\d+$/.test(value) ? Number(value) : value);
              }}
              onBlur={() => touch('timestamp_micros')}
            />
            <button type="button" className="button button--small" onClick={() => set('timestamp_micros', Date.now() * 1000)}>
              Now
            </button>
          </div>
          <p className="field__hint" id={`${id}-ts-hint`}>
            {describeMicros(body.timestamp_micros)}
          </p>
          <FieldMessages id={`${id}-ts-messages`} messages={timestampMessages} />
        </div>
        {(['ad_user_data', 'ad_personalization'] as const).map((key) => {
          const messages = messagesFor(`consent.${key}`);
          return (
            <div className="field" key={key}>
              <label htmlFor={fieldDomId(`consent.${key}`)}>Consent: {key}</label>
              <select
                id={fieldDomId(`consent.${key}`)}
                className="input"
                value={typeof consent[key] === 'string' ? (consent[key] as string) : ''}
                aria-invalid={messages.length ? true : undefined}
                onChange={(event) => setConsent(key, event.target.value)}
              >
                <option value="">Not set</option>
                <option value="GRANTED">GRANTED</option>
                <option value="DENIED">DENIED</option>
                {typeof consent[key] === 'string' && !['GRANTED', 'DENIED'].includes(consent[key] as string) ? (
                  <option value={consent[key] as string}>{consent[key] as string}</option>
                ) : null}
              </select>
              <FieldMessages id={`${id}-${key}-messages`} messages={messages} />
            </div>
          );
        })}
      </div>
      <label className="checkbox" htmlFor={fieldDomId('non_personalized_ads')}>
        <input
          id={fieldDomId('non_personalized_ads')}
          type="checkbox"
          checked={body.non_personalized_ads === true}
          onChange={(event) => set('non_personalized_ads', event.target.checked ? true : undefined)}
        />
        <span>
          non_personalized_ads <span className="muted">(this user's data must not be used for personalised ads)</span>
        </span>
      </label>
      <FieldMessages id={`${id}-npa-messages`} messages={messagesFor('non_personalized_ads')} />
    </section>
  );
}
