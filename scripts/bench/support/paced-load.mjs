// An open-model load at a fixed arrival rate, for latency goals ("p99 at 2 000 events/s").
//
// autocannon's `overallRate` spends each second's budget as fast as its connections allow and then
// waits for the next second: 2 000 requests arrive as a burst, and the queue the burst builds is
// what its p99 measures (against a server that answers in microseconds it reports p99 ≈ 30 ms on
// these two cores). Here request i is due at start + i / rate, evenly spaced, over keep-alive
// connections. Latency is reported twice: from the moment the request was written (what the server
// and the loopback add) and from the moment it was due (which also counts this generator running
// late, and the requests a stalled server kept it from sending: no coordinated omission).
import http from 'node:http';

/**
 * @param {{ baseUrl: string, requests: Array<{ method: string, path: string, headers?: Record<string, string>, body?: string }>,
 *   rate: number, durationS: number, connections?: number }} options
 */
export async function pacedLoad({ baseUrl, requests, rate, durationS, connections = 32 }) {
  const target = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationS);
  const fromSend = [];
  const fromDue = [];
  let failed = 0;
  let settled = 0;
  let next = 0;
  const start = performance.now() + 50;
  const dueAt = (index) => start + (index * 1000) / rate;
  await new Promise((resolve) => {
    const settle = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const send = (index) => {
      const { method, path, headers = {}, body = '' } = requests[index % requests.length];
      const sent = performance.now();
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path,
          method,
          agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const now = performance.now();
            fromSend.push(now - sent);
            fromDue.push(now - dueAt(index));
            if (response.statusCode >= 300) failed += 1;
            settle();
          });
        },
      );
      request.on('error', () => {
        failed += 1;
        settle();
      });
      request.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && dueAt(next) <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, dueAt(next) - performance.now()));
    };
    setTimeout(tick, 50);
  });
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  const quantiles = (values) => {
    const sorted = values.sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
  };
  return { total, failed, perSecond: total / seconds, fromSend: quantiles(fromSend), fromDue: quantiles(fromDue) };
}

/** A server that answers every request 202 with no body: what the generator and the loopback alone cost. */
export function startNullServer(host) {
  return new Promise((resolve) => {
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.statusCode = 202;
        response.end();
      });
    });
    server.listen(0, host, () => resolve({ baseUrl: `http://${host}:${server.address().port}`, close: () => server.close() }));
  });
}
