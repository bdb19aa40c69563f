import type { Server } from 'node:http';

/** How long a shutdown waits for the requests under way (main.ts exits anyway at 10 s). */
export const SHUTDOWN_GRACE_MS = 8_000;
const IDLE_SWEEP_MS = 50;

/**
 * The first step of a shutdown: the server takes no new connection, each keep-alive connection is
 * closed as soon as its request is answered, and the promise settles when none is left (or, past
 * `graceMs`, once the stragglers are cut). Nest's own close runs the modules' destroy hooks (the
 * final analytics and rate-limit flushes) before it closes the server, so without this a request
 * answered between the two was counted in memory after the last flush, and lost.
 */
export function stopAcceptingRequests(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
