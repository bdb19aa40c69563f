import type { ServerResponse } from 'node:http';

/**
 * Ends `response` with `body` as JSON, as Express's `response.json()` would write it (type with
 * charset, length), in one string write; without the body for a HEAD request. For what is answered
 * before Express (src/common/before-the-framework.ts).
 */
export function endJson(response: ServerResponse, body: unknown, head = false): void {
  const json = JSON.stringify(body);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(json));
  response.end(head ? undefined : json);
}
