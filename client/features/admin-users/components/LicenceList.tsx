import { useEffect, useRef, useState } from 'react';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { AdminLicence, DeviceActivation } from '../../../../lib/api/licences.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useResetActivations, useRevokeLicence } from '../api.js';
import { formatDate, formatDateTime, plural, stateClass, statusLabel } from '../format.js';
import { ConfirmBox } from './ConfirmBox.js';
import '../admin-users.css';

type LicenceAction = 'revoke' | 'reset';

interface Props {
  user: AdminUserDetail;
  licences: AdminLicence[];
  planName: (planId: string) => string;
}

/** One licence's activated devices: what the app sent when activating, and when it last checked in. */
function DeviceList({ licence }: { licence: AdminLicence }) {
  if (licence.activations.length === 0) return <p className="admin-users__devices-none muted">No devices activated.</p>;
  return (
    <ul className="admin-users__devices" aria-label={`Devices of the ${licence.productName} licence (…${licence.keyHint})`}>
      {licence.activations.map((device: DeviceActivation) => (
        <li key={device.id} className="admin-users__device">
          <span className="admin-users__device-name">{device.name || 'Unnamed device'}</span>
          <span className="admin-users__device-facts">
            <span>{device.platform || 'Unknown platform'}</span>
            <span>{device.appVersion ? `v${device.appVersion}` : 'Unknown version'}</span>
            <span>
              Last seen <time dateTime={device.lastSeenAt}>{formatDateTime(device.lastSeenAt)}</time>
            </span>
            {device.released ? <span className="badge">Seat released (unseen 30 days)</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The account's licences, each with its devices, and Revoke and Reset activations behind a question. */
export function LicenceList({ user, licences, planName }: Props) {
  const toast = useToast();
  const revoke = useRevokeLicence();
  const reset = useResetActivations();
  const busy = revoke.isPending || reset.isPending;
  const [pending, setPending] = useState<{ id: string; action: LicenceAction; control: HTMLElement } | null>(null);
  const [failure, setFailure] = useState<{ id: string; error: unknown } | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusNext = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const target = focusNext.current;
    if (!target || busy || pending || !target.isConnected) return;
    focusNext.current = null;
    target.focus();
  });

  const send = (licence: AdminLicence, action: LicenceAction) => {
    const mutation = action === 'revoke' ? revoke : reset;
    const name = `${licence.productName} licence (…${licence.keyHint})`;
    mutation.mutate(
      { userId: user.id, id: licence.id },
      {
        onSuccess: () => {
          toast(action === 'revoke' ? `${name} revoked` : `Activations of the ${name} reset`, 'success', {
            key: `admin-user:${user.id}:licence:${licence.id}`,
          });
          setPending(null);
          focusNext.current = listRef.current?.querySelector<HTMLElement>(`[data-licence="${licence.id}"]`) ?? null;
        },
        onError: (error) => {
          setFailure({ id: licence.id, error });
          setPending(null);
          focusNext.current = pending?.control ?? null;
        },
      },
    );
  };

  return (
    <ul ref={listRef} className="admin-users__records" aria-label="Licences">
      {licences.map((licence) => {
        const question = pending?.id === licence.id ? pending.action : null;
        const revoked = licence.status === 'revoked';
        return (
          <li key={licence.id} className="admin-users__record">
            <div className="admin-users__record-head">
              <strong data-licence={licence.id} tabIndex={-1} className="admin-users__record-title">
                {licence.productName}
              </strong>
              <span className={stateClass(licence.status)}>{statusLabel(licence.status)}</span>
            </div>
            <p className="admin-users__meta">
              <span>{planName(licence.planId)}</span>
              <span>
                {licence.seatsUsed} of {plural(licence.seats, 'seat')} used
              </span>
              <span>
                Key <code>…{licence.keyHint}</code>
              </span>
              <span>{licence.expiresAt ? `Expires ${formatDate(licence.expiresAt)}` : 'No expiry'}</span>
            </p>
            <DeviceList licence={licence} />
            <div className="admin-users__record-actions">
              <button
                type="button"
                className="button button--small"
                disabled={busy || pending !== null || (licence.seatsUsed === 0 && licence.activations.length === 0)}
                onClick={(event) => {
                  setFailure(null);
                  setPending({ id: licence.id, action: 'reset', control: event.currentTarget });
                }}
              >
                Reset activations
                <span className="visually-hidden">{` of the ${licence.productName} licence (…${licence.keyHint})`}</span>
              </button>
              {revoked ? null : (
                <button
                  type="button"
                  className="button button--small button--danger"
                  disabled={busy || pending !== null}
                  onClick={(event) => {
                    setFailure(null);
                    setPending({ id: licence.id, action: 'revoke', control: event.currentTarget });
                  }}
                >
                  Revoke
                  <span className="visually-hidden">{` the ${licence.productName} licence (…${licence.keyHint})`}</span>
                </button>
              )}
            </div>
            <FormAlert error={failure?.id === licence.id ? failure.error : null} />
            {question ? (
              <ConfirmBox
                text={
                  question === 'revoke'
                    ? `Revoke ${user.name}’s ${licence.productName} licence? Every device using it stops working at its next check.`
                    : `Reset the activations of ${user.name}’s ${licence.productName} licence? ${plural(licence.activations.length, 'device')} ${licence.activations.length === 1 ? 'loses its' : 'lose their'} seat and must activate again.`
                }
                button={question === 'revoke' ? 'Revoke licence' : 'Reset activations'}
                danger={question === 'revoke'}
                busy={busy}
                onConfirm={() => send(licence, question)}
                onCancel={() => {
                  focusNext.current = pending?.control ?? null;
                  setPending(null);
                }}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
