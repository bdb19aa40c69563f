import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSigningKeyList, RotateSigningKeyResponse } from '../../../lib/api/licences.js';
import { api } from '../../app/api-client.js';

const KEYS_PATH = '/api/admin/licensing/signing-keys';

/** The lease signing keys: kids and dates only (the server never sends key material). */
export const signingKeysQuery = () =>
  queryOptions({
    queryKey: ['admin', 'licensing', 'signing-keys'] as const,
    queryFn: ({ signal }) => api<AdminSigningKeyList>(KEYS_PATH, { signal }),
    staleTime: 0,
  });

/** The answer carries the list after the rotation: it replaces the cached one. */
export function useRotateSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<RotateSigningKeyResponse>(`${KEYS_PATH}/rotate`, { method: 'POST' }),
    onSuccess: ({ keys }) => {
      queryClient.setQueryData(signingKeysQuery().queryKey, { keys });
      void queryClient.invalidateQueries({ queryKey: signingKeysQuery().queryKey });
    },
  });
}
