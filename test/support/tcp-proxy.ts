import { connect, createServer, type Server, type Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

/**
 * A loopback TCP proxy in front of the database. `cut()` makes the database unreachable (refused
 * connections); `stall()` simulates a network partition: connections stay open and new ones are
 * accepted, but no byte is forwarded either way until `resume()`, when everything held flows on.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<Pair>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => {
      const pair: Pair = { client, upstream: null };
      this.pairs.add(pair);
      client.on('error', () => client.destroy());
      client.on('close', () => {
        pair.upstream?.destroy();
        this.pairs.delete(pair);
      });
      if (this.stalled) client.pause();
      else this.connectUpstream(pair);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  private connectUpstream(pair: Pair): void {
    const upstream = connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', () => pair.client.destroy());
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
    pair.client.resume();
  }

  /** Refuses connections and drops the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream?.destroy();
    }
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.start(this.port);
  }

  /** Keeps every connection open but forwards nothing, in either direction. */
  stall(): void {
    this.stalled = true;
    for (const pair of this.pairs) {
      pair.client.unpipe();
      pair.upstream?.unpipe();
      pair.client.pause();
      pair.upstream?.pause();
    }
  }

  /** Forwards again: what was sent during the stall is delivered, held connections reach the database. */
  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) {
      if (!pair.upstream) {
        this.connectUpstream(pair);
        continue;
      }
      pair.client.pipe(pair.upstream);
      pair.upstream.pipe(pair.client);
      pair.client.resume();
      pair.upstream.resume();
    }
  }
}
