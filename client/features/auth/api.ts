import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ForgotPasswordRequest,
  LoginRequest,
  MessageResponse,
  RegisterRequest,
  RegisterResponse,
  ResetPasswordRequest,
  SessionUser,
} from '../../../lib/api/auth.js';
import { api, ApiError, resetCsrfToken } from '../../app/api-client.js';
import { useDataSource } from '../../app/data-source.js';
import { meQuery } from '../../app/queries.js';
import { registrationProblems, type RegistrationForm } from './registration.js';

/**
 * The signed-in user changed: the header and the route guards know at once, without asking the
 * server again. The server replaced the CSRF cookie with the session, so the token goes too.
 */
function useSetSessionUser() {
  const queryClient = useQueryClient();
  const data = useDataSource();
  return (user: SessionUser | null) => {
    resetCsrfToken();
    queryClient.setQueryData(meQuery(data).queryKey, user);
  };
}

export function useLogin() {
  const setSessionUser = useSetSessionUser();
  return useMutation({
    mutationFn: (body: LoginRequest) => api<SessionUser>('/api/auth/login', { method: 'POST', body }),
    onSuccess: setSessionUser,
  });
}

/**
 * Registration. What the form can see for itself (empty fields, the terms) is checked first and
 * reported all at once, in the shape of the server's validation answer, so the form shows both the
 * same way; the terms are never sent, so nothing leaves the browser until they are accepted. The
 * answer never says whether the address had an account: the link sent to it finishes the sign-up
 * (and, in this browser, signs in and continues to `redirect`).
 */
export function useRegister(redirect: string | null) {
  return useMutation({
    mutationFn: async (form: RegistrationForm) => {
      const problems = registrationProblems(form);
      if (problems) throw new ApiError(400, 'Validation failed', problems);
      const { acceptedTerms: _accepted, ...fields } = form;
      const body: RegisterRequest = { ...fields, ...(redirect ? { redirect } : {}) };
      return api<RegisterResponse>('/api/auth/register', { method: 'POST', body });
    },
  });
}

/** The answer is the same whether or not the account exists. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordRequest) => api<MessageResponse>('/api/auth/forgot-password', { method: 'POST', body }),
  });
}

/** A successful reset signs the account out everywhere, this browser included. */
export function useResetPassword() {
  const setSessionUser = useSetSessionUser();
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api<void>('/api/auth/reset-password', { method: 'POST', body }),
    onSuccess: () => setSessionUser(null),
  });
}

/** Ends the session on the server; what the pages cached for the user goes with it. */
export function useLogout() {
  const queryClient = useQueryClient();
  const setSessionUser = useSetSessionUser();
  return useMutation({
    mutationFn: () => api<void>('/api/auth/logout', { method: 'POST' }),
    onSuccess: () => {
      setSessionUser(null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    },
  });
}
