import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OwnedLicence, OwnedLicenceList } from '../../../lib/api/licences.js';
import { api } from '../../app/api-client.js';
import { LICENCES_KEY } from '../../app/queries.js';

export interface DeactivateDeviceInput {
  licenceId: string;
  /** The device's fingerprint (`DeviceActivation.id`). */
  deviceId: string;
}

/** Frees a device's seat; the answer is the licence as it is now, which replaces it in the list. */
export function useDeactivateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ licenceId, deviceId }: DeactivateDeviceInput) =>
      api<OwnedLicence>(`/api/licences/${encodeURIComponent(licenceId)}/activations/${encodeURIComponent(deviceId)}/deactivate`, {
        method: 'POST',
      }),
    onSuccess: (licence) => {
      queryClient.setQueryData<OwnedLicenceList>(LICENCES_KEY, (list) =>
        list ? { licences: list.licences.map((item) => (item.id === licence.id ? licence : item)) } : list,
      );
    },
  });
}
