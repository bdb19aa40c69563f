import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The form-encoded body Stripe's client sends, decoded (`line_items[0][quantity]` → '2'). */
  params: Record<string, string>;
}

/** Changes stripe-mock's answer to one kind of request (see {@link RecordingHttpProxy.answer}). */
interface AnswerOverride {
  method: string;
  path: RegExp;
  transform: (fixture: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A loopback HTTP proxy that forwards every request to `target` (stripe-mock) and keeps what was
 * asked, so a test can check the calls themselves (parameters, idempotency keys), not only answers.
 */
export class RecordingHttpProxy {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private overrides: AnswerOverride[] = [];

  /**
   * stripe-mock is stateless: it answers a retrieve with a fixture that knows nothing of what was
   * made before (a Checkout Session is always `open` and `unpaid`). For the one thing a test needs
   * Stripe to remember, its answer is stripe-mock's own (schema-shaped) fixture with `transform`
   * applied; the request still reaches stripe-mock, which checks its shape. Until `clearAnswers()`.
   */
  answer(method: string, path: RegExp, transform: AnswerOverride['transform']): void {
    this.overrides.push({ method, path, transform });
  }

  clearAnswers(): void {
    this.overrides = [];
  }

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
            const override = this.overrides.find((entry) => entry.method === incoming.method && entry.path.test(url.pathname));
            if (!override || answer.statusCode !== 200) {
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(outgoing);
              return;
            }
            const parts: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => parts.push(chunk));
            answer.on('end', () => {
              const body = JSON.stringify(override.transform(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>));
              const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
              delete headers['transfer-encoding'];
              outgoing.writeHead(200, headers);
              outgoing.end(body);
            });
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
