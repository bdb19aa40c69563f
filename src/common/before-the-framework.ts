import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Answers a request and says true, or says false and leaves it to the next (finally Express). */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Makes `answers` the HTTP server's first listeners, in order, ahead of Express: the analytics
 * collector (src/analytics/collector.ts), the fast lane (src/fast-lane/fast-lane.ts) and the page
 * cache (src/ssr/page-cache.ts). A request none of them takes goes to the listeners the server
 * had, untouched.
 */
export function answerBeforeTheFramework(server: Server, answers: readonly EarlyAnswer[]): void {
  if (!answers.length) return;
  const handlers = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    for (const answer of answers) if (answer(request, response)) return;
    for (const handler of handlers) handler.call(server, request, response);
  });
}
