import { type ApiErrorBody, isApiErrorBody } from '../../lib/api/errors.js';

/** A failed API call, carrying the server's message and field errors for forms. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> = {},
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: Promise<string> | null = null;

async function fetchCsrfToken(): Promise<string> {
  const response = await fetch('/api/auth/csrf', { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new ApiError(response.status, 'Could not start a secure session. Reload the page.');
  return ((await response.json()) as { token: string }).token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls that must not trigger a silent refresh (they are the sign-in flow itself). */
const NO_REFRESH = /^\/api\/auth\/(refresh|login|register|logout|csrf)\b/;
let refreshing: Promise<boolean> | null = null;

/**
 * The access token lives 15 minutes. On a 401 the refresh cookie is exchanged once for a new
 * one; concurrent 401s share that single refresh (a second use of the same refresh token would
 * look like token theft to the server).
 */
function refreshSession(): Promise<boolean> {
  refreshing ??= api('/api/auth/refresh', { method: 'POST' })
    .then(
      () => true,
      () => false,
    )
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * JSON fetch for `/api`. Unsafe methods carry the CSRF token; a refused token (e.g. the cookie
 * expired) is fetched again and the request retried once. A `FormData` body (a file upload) is sent
 * as multipart/form-data, with the boundary the browser chooses.
 */
export async function api<T>(path: string, options: { method?: Method; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const multipart = options.body instanceof FormData;
  const send = async (): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined && !multipart) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = await (csrfToken ??= fetchCsrfToken());
    return fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      signal: options.signal,
    });
  };

  let response: Response;
  try {
    response = await send();
    if (response.status === 403 && method !== 'GET') {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null;
      if (body?.code === 'CSRF_INVALID') {
        csrfToken = null;
        response = await send();
      }
    }
    if (response.status === 401 && !NO_REFRESH.test(path) && (await refreshSession())) {
      response = await send();
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    csrfToken = null;
    throw new ApiError(0, 'Network error: check your connection and try again.');
  }

  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error: ApiErrorBody | null = isApiErrorBody(body) ? body : null;
    throw new ApiError(response.status, error?.message ?? `Request failed (${response.status})`, error?.fields, error?.code);
  }
  return body as T;
}

/**
 * The CSRF token `api()` sends as `x-csrf-token`, for requests it cannot make itself (an upload
 * through XMLHttpRequest, for its progress events). After a 403 `CSRF_INVALID`, reset it and retry.
 */
export function currentCsrfToken(): Promise<string> {
  return (csrfToken ??= fetchCsrfToken());
}

export const CSRF_HEADER = 'x-csrf-token';

export function resetCsrfToken(): void {
  csrfToken = null;
}
