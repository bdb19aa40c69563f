import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';

/**
 * Express's request getters (`ip` with the trust-proxy setting, `query`, `path`, `protocol`) over a
 * Node request, without changing that request's prototype: Express's own first middleware does
 * (`app.handle` in express/lib/application.js), and an object whose prototype changed is slower for Node's
 * HTTP and stream code to read and write. For what is answered before Express (the fast lane, the
 * analytics collector). `prototype` is the Express application's `request`.
 */
/** The path of a request's URL as sent, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function requestView(incoming: IncomingMessage, prototype: object): Request {
  const view = Object.create(prototype) as Request & { originalUrl: string };
  view.method = incoming.method!;
  view.url = incoming.url!;
  view.originalUrl = incoming.url!;
  view.headers = incoming.headers;
  (view as { socket: unknown }).socket = incoming.socket;
  return view;
}
