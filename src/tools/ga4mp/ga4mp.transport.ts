import { GA4MP_ORIGINS, type Ga4mpRegion } from '../../../lib/tools/ga4mp/endpoint.js';

/**
 * How the server talks to GA4. An injectable provider so that tests can point the origins at a
 * loopback stand-in of GA4's validation server; production always uses `GA4MP_ORIGINS` (Google's
 * documented hosts only), which no environment variable can change: the send endpoint must never
 * become a proxy to arbitrary hosts.
 */
export const GA4MP_TRANSPORT = Symbol('GA4MP_TRANSPORT');

export interface Ga4mpTransportAnswer {
  status: number;
  /** The answer's body, at most MAX_ANSWER_BYTES. */
  text: string;
  durationMs: number;
}

export type Ga4mpTransportFailure = { kind: 'timeout'; durationMs: number } | { kind: 'network'; durationMs: number; reason: string };

export class Ga4mpTransportError extends Error {
  constructor(readonly failure: Ga4mpTransportFailure) {
    super(failure.kind === 'timeout' ? 'timeout' : failure.reason);
  }
}

export interface Ga4mpTransport {
  readonly origins: Readonly<Record<Ga4mpRegion, string>>;
  readonly timeoutMs: number;
  /** POSTs the JSON text to the URL; throws Ga4mpTransportError when GA4 is not reached in time. */
  post(url: string, json: string): Promise<Ga4mpTransportAnswer>;
}

/** GA4 answers a few hundred bytes; anything beyond this is cut. */
const MAX_ANSWER_BYTES = 64 * 1024;

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? 'unknown error';
}

export class FetchGa4mpTransport implements Ga4mpTransport {
  constructor(
    readonly origins: Readonly<Record<Ga4mpRegion, string>> = GA4MP_ORIGINS,
    readonly timeoutMs = 10_000,
  ) {}

  async post(url: string, json: string): Promise<Ga4mpTransportAnswer> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json,
        // A redirect could lead off Google's hosts; GA4 never redirects these endpoints.
        redirect: 'manual',
        signal,
      });
      const text = await readCapped(response);
      return { status: response.status, text, durationMs: elapsed() };
    } catch (error) {
      if (signal.aborted || (error as Error).name === 'TimeoutError')
        throw new Ga4mpTransportError({ kind: 'timeout', durationMs: elapsed() });
      throw new Ga4mpTransportError({ kind: 'network', durationMs: elapsed(), reason: networkReason(error) });
    }
  }
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}
