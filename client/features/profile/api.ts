import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForgotPasswordRequest, MessageResponse } from '../../../lib/api/auth.js';
import {
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type DeleteAccountRequest,
  type ProfileResponse,
  type UpdateProfileRequest,
} from '../../../lib/api/profile.js';
import { api, ApiError } from '../../app/api-client.js';
import { useDataSource } from '../../app/data-source.js';
import { meQuery } from '../../app/queries.js';

export const profileQuery = queryOptions({
  queryKey: ['profile'] as const,
  queryFn: () => api<ProfileResponse>('/api/profile'),
});

/** A changed profile shows at once; the session user (the header's name and avatar) is asked for again. */
function useProfileChanged() {
  const queryClient = useQueryClient();
  const data = useDataSource();
  return (profile: ProfileResponse) => {
    queryClient.setQueryData(profileQuery.queryKey, profile);
    void queryClient.invalidateQueries({ queryKey: meQuery(data).queryKey });
  };
}

export function useUpdateProfile() {
  const changed = useProfileChanged();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => api<ProfileResponse>('/api/profile', { method: 'PATCH', body }),
    onSuccess: changed,
  });
}

/** The address changes only once the link sent to the new one is followed (`pendingEmail` until then). */
export function useChangeEmail() {
  const changed = useProfileChanged();
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) => api<ProfileResponse>('/api/profile/email', { method: 'POST', body }),
    onSuccess: changed,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => api<ChangePasswordResponse>('/api/profile/password', { method: 'POST', body }),
  });
}

export const AVATAR_TOO_LARGE = 'The image must be 1 MB or smaller';

/**
 * Uploads an avatar through the API client (multipart, with its CSRF token). A file over the limit
 * is refused here, with the server's own message, rather than after sending a megabyte for nothing.
 */
export function useUploadAvatar() {
  const changed = useProfileChanged();
  return useMutation({
    mutationFn: async (file: File) => {
      if (file.size > AVATAR_MAX_BYTES) throw new ApiError(413, AVATAR_TOO_LARGE, { [AVATAR_FIELD]: [AVATAR_TOO_LARGE] });
      const body = new FormData();
      body.append(AVATAR_FIELD, file);
      return api<ProfileResponse>('/api/profile/avatar', { method: 'PUT', body });
    },
    onSuccess: changed,
  });
}

export function useRemoveAvatar() {
  const changed = useProfileChanged();
  return useMutation({
    mutationFn: () => api<ProfileResponse>('/api/profile/avatar', { method: 'DELETE' }),
    onSuccess: changed,
  });
}

/** Deleting the account ends the session: nothing cached for the user is kept. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const data = useDataSource();
  return useMutation({
    mutationFn: (body: DeleteAccountRequest) => api<void>('/api/profile', { method: 'DELETE', body }),
    onSuccess: () => {
      queryClient.setQueryData(meQuery(data).queryKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    },
  });
}

/** Sends the link that confirms the account's address again. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api<MessageResponse>('/api/auth/verify-email/resend', { method: 'POST' }),
  });
}

/** An account without a password sets one through the reset link, which also proves it owns the address. */
export function useSendPasswordLink() {
  return useMutation({
    mutationFn: (body: ForgotPasswordRequest) => api<MessageResponse>('/api/auth/forgot-password', { method: 'POST', body }),
  });
}
