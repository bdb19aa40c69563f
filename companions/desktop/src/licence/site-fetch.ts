import { backend } from '../backend.js';

/**
 * `fetch` for the shared licence client, through the back end (src-tauri/src/site.rs): the window's
 * origin is not one the site's API answers, and the back end lets it reach only the licensing and
 * releases paths of the site set in Settings. A failure to connect rejects, as `fetch` does, which
 * the client reads as "offline".
 */
export const siteFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw new TypeError(`${method} is not used`);
  const headers = new Headers(init?.headers);
  const request = backend.siteRequest({
    method,
    path: `${url.pathname}${url.search}`,
    ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    ...(headers.get('content-type') ? { contentType: headers.get('content-type')! } : {}),
    ...(headers.get('authorization') ? { authorization: headers.get('authorization')! } : {}),
  });
  const signal = init?.signal;
  const answer = await (
    signal
      ? Promise.race([
          request,
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(new DOMException('The request timed out.', 'TimeoutError'));
            signal.addEventListener('abort', () => reject(new DOMException('The request timed out.', 'TimeoutError')), { once: true });
          }),
        ])
      : request
  ).catch((error: unknown) => {
    throw new TypeError(error instanceof Error ? error.message : String(error));
  });
  const responseHeaders = new Headers();
  if (answer.contentType) responseHeaders.set('content-type', answer.contentType);
  if (answer.retryAfter) responseHeaders.set('retry-after', answer.retryAfter);
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, {
    status: answer.status,
    headers: responseHeaders,
  });
};
