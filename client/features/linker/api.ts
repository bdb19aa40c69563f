import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import type { LinkerDecodeRequest, LinkerDecodeResponse, LinkerEncodeRequest, LinkerEncodeResponse } from '../../../lib/api/linker.js';
import { api, ApiError } from '../../app/api-client.js';
import { useToast } from '../../components/Toaster.js';

/** The linker's API calls (`/api/tools/linker/*`), typed with lib/api/linker.ts. */

export type LinkerRun = { action: 'decode'; request: LinkerDecodeRequest } | { action: 'encode'; request: LinkerEncodeRequest };

/**
 * The page runs the codec itself (instant, and the same code as the server); each run the user
 * starts is also sent to the API, which runs it again and counts it. The answer is not waited for
 * and its failures do not touch the result on screen; only a refused run (limit, signed out) is
 * worth telling, once per page.
 */
export function useReportLinkerRun(): (run: LinkerRun) => void {
  const toast = useToast();
  const told = useRef(false);
  const report = useMutation({
    mutationFn: (run: LinkerRun): Promise<LinkerDecodeResponse | LinkerEncodeResponse> =>
      run.action === 'decode'
        ? api<LinkerDecodeResponse>('/api/tools/linker/decode', { method: 'POST', body: run.request })
        : api<LinkerEncodeResponse>('/api/tools/linker/encode', { method: 'POST', body: run.request }),
    onError: (error) => {
      if (told.current || !(error instanceof ApiError) || (error.status !== 429 && error.status !== 401)) return;
      told.current = true;
      toast(
        error.status === 429
          ? 'You have used the linker a lot this hour; results still show, but runs are no longer recorded.'
          : 'Your session ended: sign in again.',
        'info',
        { key: 'linker-report' },
      );
    },
  });
  return report.mutate;
}
