import { useId, useState } from 'react';
import type { Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import type { Ga4mpStream } from '../../../../lib/tools/ga4mp/types.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import { type Draft, fieldDomId, type FieldChecks } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  draft: Draft;
  onStream: (stream: Ga4mpStream) => void;
  onStreamId: (streamId: string) => void;
  onSecret: (secret: string) => void;
  onRegion: (region: Ga4mpRegion) => void;
  checks: FieldChecks;
}

/** Stream type, its id and API secret, and the collection region. */
export function CredentialsPanel({ draft, onStream, onStreamId, onSecret, onRegion, checks }: Props) {
  const id = useId();
  const [showSecret, setShowSecret] = useState(false);
  const idPath = draft.stream === 'web' ? 'query.measurement_id' : 'query.firebase_app_id';
  const idMessages = checks.messagesFor(idPath);
  const secretMessages = checks.messagesFor('query.api_secret');
  return (
    <section className="ga4mp-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Stream</h2>
      <div className="ga4mp-row">
        <SegmentedControl
          showLabel
          name={`${id}-stream`}
          label="Stream type"
          value={draft.stream}
          options={[
            { value: 'web', label: 'Web (gtag.js)' },
            { value: 'app', label: 'App (Firebase)' },
          ]}
          onChange={onStream}
        />
        <SegmentedControl
          showLabel
          name={`${id}-region`}
          label="Collection region"
          value={draft.region}
          options={[
            { value: 'global', label: 'Global' },
            { value: 'eu', label: 'EU' },
          ]}
          onChange={onRegion}
        />
      </div>
      <div className="ga4mp-grid">
        <div className="field">
          <label htmlFor={fieldDomId(idPath)}>{draft.stream === 'web' ? 'Measurement ID' : 'Firebase app ID'}</label>
          <input
            id={fieldDomId(idPath)}
            className="input"
            value={draft.streamId}
            placeholder={draft.stream === 'web' ? 'G-XXXXXXXXXX' : '1:1234567890:android:0123456789abcdef'}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={idMessages.length ? true : undefined}
            aria-describedby={idMessages.length ? `${id}-id-messages` : undefined}
            onChange={(event) => {
              checks.touch(idPath);
              onStreamId(event.target.value.trim());
            }}
            onBlur={() => checks.touch(idPath)}
          />
          <FieldMessages id={`${id}-id-messages`} messages={idMessages} />
        </div>
        <div className="field">
          <label htmlFor={fieldDomId('query.api_secret')}>API secret</label>
          <div className="ga4mp-inline">
            <input
              id={fieldDomId('query.api_secret')}
              className="input"
              type={showSecret ? 'text' : 'password'}
              value={draft.apiSecret}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={secretMessages.length ? true : undefined}
              aria-describedby={`${id}-secret-hint${secretMessages.length ? ` ${id}-secret-messages` : ''}`}
              onChange={(event) => {
                checks.touch('query.api_secret');
                onSecret(event.target.value.trim());
              }}
              onBlur={() => checks.touch('query.api_secret')}
            />
            <button
              type="button"
              className="button button--small"
              aria-pressed={showSecret}
              onClick={() => setShowSecret((shown) => !shown)}
            >
              {showSecret ? 'Hide' : 'Show'}
            </button>
          </div>
          <p className="field__hint" id={`${id}-secret-hint`}>
            Kept in this tab only; the history stores it as REDACTED.
          </p>
          <FieldMessages id={`${id}-secret-messages`} messages={secretMessages} />
        </div>
      </div>
    </section>
  );
}
