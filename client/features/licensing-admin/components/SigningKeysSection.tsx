import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminSigningKey } from '../../../../lib/api/licences.js';
import { formErrorMessage } from '../../../components/FormAlert.js';
import { adminDate, keyState, shortKid } from '../format.js';
import { signingKeysQuery } from '../api.js';
import { RotateKeyDialog } from './RotateKeyDialog.js';
import '../licensing-admin.css';

function When({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{adminDate(iso)}</time> : <span className="muted">—</span>;
}

function KeyRow({ signingKey }: { signingKey: AdminSigningKey }) {
  const state = keyState(signingKey);
  return (
    <tr className={signingKey.published ? undefined : 'licensing-admin__row--gone'}>
      <th scope="row">
        <code className="licensing-admin__kid" title={signingKey.kid} aria-hidden="true">
          {shortKid(signingKey.kid)}
        </code>
        <span className="visually-hidden">{signingKey.kid}</span>
      </th>
      <td data-label="State">
        <span className={state.tone === 'accent' ? 'badge badge--accent' : 'badge'}>{state.label}</span>
      </td>
      <td data-label="Created">
        <When iso={signingKey.createdAt} />
      </td>
      <td data-label="Retired">
        <When iso={signingKey.retiredAt} />
      </td>
      <td data-label="Published until">
        {signingKey.current ? <span className="muted">while current</span> : <When iso={signingKey.publishedUntil} />}
      </td>
    </tr>
  );
}

/**
 * The "Licence signing keys" card of /admin/settings: the Ed25519 keys that sign leases and builds,
 * and the rotation (asked first). Retired keys stay in the JWKS until every lease they signed is over.
 */
export function SigningKeysSection() {
  const keys = useQuery(signingKeysQuery());
  const [asking, setAsking] = useState(false);

  let body;
  if (keys.isPending) {
    body = (
      <div role="status" aria-busy="true" aria-label="Loading signing keys" className="licensing-admin__loading">
        <div className="skeleton licensing-admin__skeleton" />
        <div className="skeleton licensing-admin__skeleton" />
      </div>
    );
  } else if (keys.isError) {
    body = (
      <div className="alert alert--error licensing-admin__load-error" role="alert">
        <span>{formErrorMessage(keys.error) ?? 'Could not load the signing keys.'}</span>
        <button type="button" className="button button--small" onClick={() => void keys.refetch()}>
          Retry
        </button>
      </div>
    );
  } else {
    body = (
      <div className="table-wrap licensing-admin__table-wrap">
        <table className="table table--stack licensing-admin__table">
          <caption className="visually-hidden">Licence signing keys, the current one first</caption>
          <thead>
            <tr>
              <th scope="col">Key id</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Retired</th>
              <th scope="col">Published until</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.keys.map((key) => (
              <KeyRow key={key.kid} signingKey={key} />
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  const current = keys.data?.keys.find((key) => key.current);
  return (
    <section className="card licensing-admin" aria-labelledby="signing-keys-title">
      <div className="licensing-admin__header">
        <div>
          <h2 id="signing-keys-title">Licence signing keys</h2>
          <p className="muted">
            Leases and builds are signed with the current key; the apps verify them with the published keys. A retired key stays published
            until every lease it signed is over, grace included, so rotating never locks a device out.
          </p>
        </div>
        <button type="button" className="button" disabled={!current} onClick={() => setAsking(true)}>
          Rotate signing key
        </button>
      </div>
      {body}
      {asking && current ? <RotateKeyDialog current={current} onClose={() => setAsking(false)} /> : null}
    </section>
  );
}
