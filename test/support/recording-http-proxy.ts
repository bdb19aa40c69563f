import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The form-encoded body Stripe's client sends, decoded (`line_items[0][quantity]` → '2'). */
  params: Record<string, string>;
}

/**
 * A loopback HTTP proxy that forwards every request to `target` (stripe-mock) and keeps what was
 * asked, so a test can check the calls themselves (parameters, idempotency keys), not only answers.
 */
export class RecordingHttpProxy {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const target = new URL(this.target);
    this.server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        const url = new URL(incoming.url ?? '/', 'http://proxy');
        const params = Object.fromEntries(new URLSearchParams(incoming.method === 'GET' ? url.search : body.toString('utf8')));
        this.requests.push({
          method: incoming.method ?? 'GET',
          path: url.pathname,
          idempotencyKey: (incoming.headers['idempotency-key'] as string | undefined) ?? null,
          params,
        });
        const forward = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...incoming.headers, host: target.host },
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forward.on('error', () => outgoing.writeHead(502).end());
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests to `path` (and method), in order. */
  calls(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (entry) => entry.method === method && (typeof path === 'string' ? entry.path === path : path.test(entry.path)),
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
