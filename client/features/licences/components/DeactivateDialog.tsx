import type { DeviceActivation, OwnedLicence } from '../../../../lib/api/licences.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useDeactivateDevice } from '../api.js';
import { deviceName, plural } from '../format.js';
import '../licences.css';

interface Props {
  licence: OwnedLicence;
  device: DeviceActivation;
  onClose: () => void;
  onDeactivated: () => void;
  returnFocus: () => HTMLElement | null;
}

/** Asks before freeing a device's seat: the device stops working until it is activated again. */
export function DeactivateDialog({ licence, device, onClose, onDeactivated, returnFocus }: Props) {
  const toast = useToast();
  const deactivate = useDeactivateDevice();
  const name = deviceName(device);
  const left = licence.deactivationsLeftThisMonth;
  const toastKey = `deactivate-${licence.id}-${device.id}`;

  const confirm = () =>
    deactivate.mutate(
      { licenceId: licence.id, deviceId: device.id },
      {
        onSuccess: () => {
          toast(`${name} deactivated; its seat is free`, 'success', { key: toastKey });
          onDeactivated();
        },
        onError: () => toast(`Could not deactivate ${name}`, 'error', { key: toastKey }),
      },
    );

  return (
    <Dialog title={`Deactivate ${name}?`} placement="centered" onClose={onClose} returnFocus={returnFocus} className="licence-dialog">
      <p>
        Deactivating frees the seat {name} holds on your {licence.productName} licence, so another device can use it. To use{' '}
        {licence.productName} on {name} again, it will need to be activated again with the key.
      </p>
      <p className="muted licence-dialog__budget">
        {left > 0
          ? `You can deactivate ${plural(left, 'more device')} on this licence this month.`
          : 'This licence has used up its deactivations for this month. Contact support to reset it.'}
      </p>
      <FormAlert error={deactivate.error} />
      <div className="licence-dialog__actions">
        <button type="button" className="button button--primary" onClick={confirm} disabled={deactivate.isPending || left <= 0}>
          {deactivate.isPending ? 'Deactivating…' : 'Deactivate device'}
        </button>
        <button type="button" className="button button--ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
