import { useEffect, useRef, useState } from 'react';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { AdminLicence } from '../../../../lib/api/licences.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useResetActivations, useRevokeLicence } from '../api.js';
import { formatDate, plural, stateClass, statusLabel } from '../format.js';
import { ConfirmBox } from './ConfirmBox.js';
import '../admin-users.css';

type LicenceAction = 'revoke' | 'reset';

interface Props {
  user: AdminUserDetail;
  licences: AdminLicence[];
  planName: (planId: string) => string;
}

/** The account's licences, each with Revoke and Reset activations behind a question. */
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
            <div className="admin-users__record-actions">
              <button
                type="button"
                className="button button--small"
                disabled={busy || pending !== null || licence.seatsUsed === 0}
                onClick={(event) => {
                  setFailure(null);
                  setPending({ id: licence.id, action: 'reset', control: event.currentTarget });
                }}
              >
                Reset activations
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
                </button>
              )}
            </div>
            <FormAlert error={failure?.id === licence.id ? failure.error : null} />
            {question ? (
              <ConfirmBox
                text={
                  question === 'revoke'
                    ? `Revoke ${user.name}’s ${licence.productName} licence? Every device using it stops working at its next check.`
                    : `Reset the activations of ${user.name}’s ${licence.productName} licence? ${plural(licence.seatsUsed, 'device')} lose their seat and must activate again.`
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
