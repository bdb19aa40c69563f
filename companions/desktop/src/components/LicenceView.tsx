import { useState } from 'react';
import { Field } from '../../../../client/components/FormField.js';
import { useToast } from '../../../../client/components/Toaster.js';
import type { LicenceState } from '../../../../lib/licensing/client.js';
import { FEATURES } from '../features.js';
import { useDesktop } from '../state/desktop-context.js';
import { formatDateTime } from './format.js';

function StatusCard({ state }: { state: LicenceState | null }) {
  if (!state) return <p className="muted">Reading the licence…</p>;
  if (state.tier === 'paid') {
    return (
      <div
        className={`alert ${state.mode === 'grace' ? 'alert--info' : 'desk-alert--ok'}`}
        role="status"
        data-testid="licence-status"
        data-tier="paid"
      >
        <strong>Licensed</strong> ({state.plan}, {state.seats} seat{state.seats === 1 ? '' : 's'}) with <code>{state.key}</code>.{' '}
        {state.mode === 'grace'
          ? `The site has not been reached since the lease ended: the licence keeps working until ${formatDateTime(state.graceUntil)}.`
          : state.offlineReason
            ? `The site could not be reached just now; the signed lease keeps the licence working offline until ${formatDateTime(state.graceUntil)}.`
            : `Confirmed by the site; works offline until ${formatDateTime(state.graceUntil)}.`}
        {state.checkedAt ? <span className="muted"> Last confirmed {formatDateTime(state.checkedAt)}.</span> : null}
        {state.offlineReason ? <span className="muted"> ({state.offlineReason})</span> : null}
      </div>
    );
  }
  switch (state.reason) {
    case 'none':
      return (
        <div className="alert alert--info" role="status" data-testid="licence-status" data-tier="free">
          <strong>Free tier.</strong> Everything for one device or file at a time. A licence key from your Hitscope account adds the rest.
        </div>
      );
    case 'denied':
      return (
        <div className="alert alert--error" role="alert" data-testid="licence-status" data-tier="free">
          <strong>The key was refused</strong>
          {state.code ? ` (${state.code})` : ''}: {state.detail} The free tier keeps working.
        </div>
      );
    case 'expired':
      return (
        <div className="alert alert--error" role="alert" data-testid="licence-status" data-tier="free">
          <strong>The licence could not be confirmed for too long.</strong> {state.detail}
        </div>
      );
    case 'unverified':
      return (
        <div className="alert alert--info" role="status" data-testid="licence-status" data-tier="free">
          <strong>Not confirmed yet.</strong> {state.detail} The key is kept; it is checked again when the site answers.
        </div>
      );
  }
}

export function LicenceView({ onSettings }: { onSettings: () => void }) {
  const { licence, settings } = useDesktop();
  const toast = useToast();
  const [key, setKey] = useState('');
  const state = licence.state;
  const hasKey = state !== null && !(state.tier === 'free' && state.reason === 'none');
  const paid = state?.tier === 'paid';

  return (
    <section className="desk-page" aria-labelledby="licence-heading">
      <h1 id="licence-heading">Licence</h1>
      <StatusCard state={state} />
      {licence.error ? (
        <div className="alert alert--error" role="alert">
          {licence.error}
        </div>
      ) : null}
      <div className="card desk-card">
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            void licence.activate(key).then((next) => {
              if (next?.tier === 'paid') {
                setKey('');
                toast('Licence activated on this computer.', 'success', { key: 'licence' });
              }
            });
          }}
        >
          {paid ? null : (
            <Field
              label="Licence key"
              hint={
                <>
                  From your account’s licences page on <code>{settings.siteUrl}</code> (
                  <button type="button" className="applog-link" onClick={onSettings}>
                    change the site
                  </button>
                  ). Checked with the site once, then offline; this computer takes one seat.
                </>
              }
            >
              {(control) => (
                <input
                  {...control}
                  className="input desk-key"
                  value={key}
                  onChange={(event) => setKey(event.target.value)}
                  placeholder="HSA-XXXXX-XXXXX-XXXXX-XXXXX-X"
                  autoComplete="off"
                  spellCheck={false}
                />
              )}
            </Field>
          )}
          <div className="desk-form-actions">
            {paid ? null : (
              <button type="submit" className="button button--primary" disabled={!key.trim() || licence.busy !== null}>
                {licence.busy === 'activate' ? 'Activating…' : 'Activate'}
              </button>
            )}
            {hasKey ? (
              <>
                <button type="button" className="button" disabled={licence.busy !== null} onClick={() => void licence.validate()}>
                  {licence.busy === 'validate' ? 'Checking…' : 'Check now'}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={licence.busy !== null}
                  onClick={() => void licence.deactivate()}
                >
                  {licence.busy === 'deactivate' ? 'Deactivating…' : 'Deactivate this computer'}
                </button>
              </>
            ) : null}
          </div>
        </form>
      </div>
      <h2>Free and licensed</h2>
      <div className="table-wrap">
        <table className="table desk-features">
          <thead>
            <tr>
              <th scope="col">Feature</th>
              <th scope="col">Free</th>
              <th scope="col">Licensed</th>
            </tr>
          </thead>
          <tbody>
            {FEATURES.map((feature) => (
              <tr key={feature.name}>
                <th scope="row">
                  {feature.name}
                  <br />
                  <span className="muted">{feature.why}</span>
                </th>
                <td>{feature.free ? 'Yes' : '—'}</td>
                <td>Yes</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
