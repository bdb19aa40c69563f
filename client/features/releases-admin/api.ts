import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiErrorBody, isApiErrorBody } from '../../../lib/api/errors.js';
import { type AdminRelease, type AdminReleaseList, RELEASE_FILE_FIELD, type UploadReleaseFields } from '../../../lib/api/releases.js';
import { ApiError, api, CSRF_HEADER, currentCsrfToken, resetCsrfToken } from '../../app/api-client.js';

const RELEASES_PATH = '/api/admin/releases';

export const adminReleasesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'releases'] as const,
    queryFn: ({ signal }) => api<AdminReleaseList>(RELEASES_PATH, { signal }),
  });

export interface UploadRequest {
  fields: Omit<UploadReleaseFields, 'size'>;
  file: File;
  signal: AbortSignal;
  onProgress: (loaded: number, total: number) => void;
}

/** Thrown when the person cancels the upload: not an error to show. */
export class UploadCancelled extends Error {
  constructor() {
    super('Upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/**
 * The text fields first, then the file: the server streams the build to storage as it arrives, so
 * it must know what it receives before the first byte (docs/releases.md).
 */
function releaseForm({ fields, file }: Pick<UploadRequest, 'fields' | 'file'>): FormData {
  const form = new FormData();
  form.append('product', fields.product);
  form.append('platform', fields.platform);
  form.append('arch', fields.arch);
  form.append('channel', fields.channel);
  form.append('version', fields.version);
  if (fields.notes) form.append('notes', fields.notes);
  form.append('size', String(file.size));
  form.append(RELEASE_FILE_FIELD, file, file.name);
  return form;
}

/** One POST through XMLHttpRequest, the only browser API that reports upload progress. */
function send(request: UploadRequest, token: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    xhr.open('POST', RELEASES_PATH);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader(CSRF_HEADER, token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      request.signal.removeEventListener('abort', abort);
      resolve({ status: xhr.status, body: xhr.response as unknown });
    };
    xhr.onerror = () => {
      request.signal.removeEventListener('abort', abort);
      reject(new ApiError(0, 'Network error: the upload did not finish. Check your connection and try again.'));
    };
    xhr.onabort = () => reject(new UploadCancelled());
    if (request.signal.aborted) return reject(new UploadCancelled());
    request.signal.addEventListener('abort', abort, { once: true });
    xhr.send(releaseForm(request));
  });
}

async function uploadRelease(request: UploadRequest): Promise<AdminRelease> {
  let answer = await send(request, await currentCsrfToken());
  if (answer.status === 403 && isApiErrorBody(answer.body) && answer.body.code === 'CSRF_INVALID') {
    resetCsrfToken();
    answer = await send(request, await currentCsrfToken());
  }
  if (answer.status >= 200 && answer.status < 300) return answer.body as AdminRelease;
  const error: ApiErrorBody | null = isApiErrorBody(answer.body) ? answer.body : null;
  throw new ApiError(answer.status, error?.message ?? `Upload failed (${answer.status})`, error?.fields, error?.code);
}

function useRefreshReleases() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminReleasesQuery().queryKey });
    // The site's latest-release listings may have changed.
    void queryClient.invalidateQueries({ queryKey: ['releases'] });
  };
}

export function useUploadRelease() {
  const refresh = useRefreshReleases();
  return useMutation({ mutationFn: uploadRelease, onSuccess: refresh });
}

export function useSetYanked() {
  const refresh = useRefreshReleases();
  return useMutation({
    mutationFn: ({ id, yanked }: { id: string; yanked: boolean }) =>
      api<AdminRelease>(`${RELEASES_PATH}/${encodeURIComponent(id)}/${yanked ? 'yank' : 'unyank'}`, { method: 'POST' }),
    onSuccess: refresh,
  });
}
