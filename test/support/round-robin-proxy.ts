import { createServer, request as forward, type Server } from 'node:http';

export interface Served {
  /** Which upstream answered: its index in the list. */
  instance: number;
  method: string;
  path: string;
  status: number;
}

/**
 * A load balancer in front of several app instances on loopback: each HTTP request goes to the
 * next instance in turn (round robin per request, not per connection, so a browser's keep-alive
 * connections still reach all of them). The answer carries `x-served-by: <index>`, and `served`
 * lists every request with the instance that answered it. A test may send `x-route-to: <index>` to
 * choose the instance (a browser page sets it for all its requests with setExtraHTTPHeaders).
 */
export class RoundRobinProxy {
  readonly served: Served[] = [];
  private server: Server | null = null;
  private next = 0;
  port = 0;

  constructor(private readonly upstreams: readonly number[]) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((incoming, outgoing) => {
      const chosen = Number(incoming.headers['x-route-to']);
      let instance = this.next;
      if (Number.isInteger(chosen) && chosen >= 0 && chosen < this.upstreams.length) instance = chosen;
      else this.next = (this.next + 1) % this.upstreams.length;
      const upstream = forward(
        { host: '127.0.0.1', port: this.upstreams[instance], method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          this.served.push({ instance, method: incoming.method ?? 'GET', path: incoming.url ?? '/', status: answer.statusCode ?? 0 });
          outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': String(instance) });
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      });
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
