import type { AdminSigningKey } from '../../../../lib/api/licences.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useRotateSigningKey } from '../api.js';
import { shortKid } from '../format.js';
import '../licensing-admin.css';

/** The question before a rotation; the answer is a toast naming the new key. */
export function RotateKeyDialog({ current, onClose }: { current: AdminSigningKey; onClose: () => void }) {
  const toast = useToast();
  const rotate = useRotateSigningKey();
  const key = 'licensing:signing-key:rotate';

  const confirm = () =>
    rotate.mutate(undefined, {
      onSuccess: (result) => {
        toast(`Signing key rotated: new leases are signed with ${shortKid(result.current)}`, 'success', { key });
        onClose();
      },
      onError: () => toast('Signing key not rotated', 'error', { key }),
    });

  return (
    <Dialog title="Rotate the licence signing key?" placement="centered" closeLabel="signing key rotation" onClose={onClose}>
      <FormAlert error={rotate.error} />
      <p>
        A new key signs every lease and build from now on. The current key <code>{shortKid(current.kid)}</code> is retired but stays
        published for 40 days, so the leases it signed keep working offline until they end.
      </p>
      <p className="muted">Rotate when a key may have leaked, or as routine. It cannot be undone.</p>
      <div className="licensing-admin__actions">
        <button type="button" className="button button--primary" disabled={rotate.isPending} onClick={confirm}>
          {rotate.isPending ? 'Working…' : 'Rotate signing key'}
        </button>
        <button type="button" className="button button--ghost" disabled={rotate.isPending} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
