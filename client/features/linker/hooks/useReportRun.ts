import { useCallback, useRef } from 'react';
import { api, ApiError } from '../../../app/api-client.js';
import { useToast } from '../../../components/Toaster.js';

/**
 * The page runs the codec itself (instant, and the same code as the server); each run the user
 * starts is also sent to the API, which runs it again and counts it. The answer is not waited for
 * and its failures do not touch the result on screen; only a refused run (limit, signed out) is
 * worth telling, once.
 */
export function useReportRun() {
  const toast = useToast();
  const told = useRef(false);
  return useCallback(
    (action: 'decode' | 'encode', body: unknown) => {
      api(`/api/tools/linker/${action}`, { method: 'POST', body }).catch((error: unknown) => {
        if (told.current || !(error instanceof ApiError)) return;
        if (error.status === 429 || error.status === 401) {
          told.current = true;
          toast(
            error.status === 429
              ? 'You have used the linker a lot this hour; results still show, but runs are no longer recorded.'
              : 'Your session ended: sign in again.',
            'info',
          );
        }
      });
    },
    [toast],
  );
}
