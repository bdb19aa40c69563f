import { HttpException, HttpStatus } from '@nestjs/common';
import type { ApiErrorBody } from '../../lib/api/errors.js';
import { DomainException } from './domain.exception.js';

export interface ErrorResponse {
  status: number;
  body: ApiErrorBody & { code?: string };
  headers?: Record<string, string>;
  /** Unexpected: log the stack (never send it). */
  unexpected: boolean;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const reasonPhrase = (status: number) => REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error');

/**
 * Driver and mongoose errors that mean "the database cannot be reached right now" (refused,
 * stalled, timed out, the pool cleared after a network error, no server selectable, mongoose's
 * command buffer timing out). Matched by name along the `cause` chain: the driver wraps errors, and
 * a second copy of the driver in node_modules would defeat `instanceof`. A bulk write (insertMany)
 * that could not be sent keeps the network error as its `errorResponse`, not its `cause`.
 */
const UNAVAILABLE_NAMES =
  /^(Mongo(ose)?(ServerSelection|Network|NetworkTimeout|NotConnected|TopologyClosed|ClientClosed|ServerClosed|OperationTimeout)Error|PoolCleared(OnNetwork)?Error|(Mongo)?WaitQueueTimeoutError|DatabaseUnavailableError)$/;

/** The database is unreachable (or too slow): answer 503 quickly instead of hanging or failing with 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = causeOf(current), depth += 1) {
    if (UNAVAILABLE_NAMES.test(current.name)) return true;
    const labels = (current as { errorLabels?: unknown }).errorLabels;
    if (Array.isArray(labels) && (labels.includes('NetworkError') || labels.includes('ResetPool'))) return true;
    if (/buffering timed out|Client must be connected|connection .* closed|Connection pool .* was cleared/i.test(current.message))
      return true;
  }
  return false;
}

function causeOf(error: Error): unknown {
  const { errorResponse } = error as { errorResponse?: unknown };
  return error.cause ?? (errorResponse instanceof Error ? errorResponse : undefined);
}

/** What the client is told when a request's body could not be read (never the parser's own words, which echo the body). */
const UNREADABLE_BODY_MESSAGES: Record<number, string> = {
  400: 'Malformed request body',
  413: 'Request body is too large',
  415: 'Unsupported content type',
};

/**
 * An error raised while reading the request (body-parser, raw-body, Express' URI decoding): an
 * http-errors instance that Express middleware passed on, possibly wrapped by Nest's adapter into
 * an HttpException whose message is the parser's (e.g. "Unexpected token h in JSON at position 3").
 */
function unreadableRequest(exception: unknown): number | null {
  const source = exception instanceof HttpException ? exception.cause : exception;
  if (source === undefined || source === null || typeof source !== 'object') return null;
  const { status, statusCode, expose, type } = source as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code >= 500) return null;
  const fromParser = typeof type === 'string' || expose === true || source instanceof SyntaxError || source instanceof URIError;
  return fromParser ? code : null;
}

export function toErrorResponse(exception: unknown): ErrorResponse {
  const unreadable = unreadableRequest(exception);
  if (unreadable !== null) {
    return {
      status: unreadable,
      body: {
        statusCode: unreadable,
        error: reasonPhrase(unreadable),
        message: UNREADABLE_BODY_MESSAGES[unreadable] ?? reasonPhrase(unreadable),
      },
      unexpected: false,
    };
  }
  if (exception instanceof DomainException) {
    return {
      status: exception.status,
      body: {
        statusCode: exception.status,
        error: reasonPhrase(exception.status),
        message: exception.message,
        code: exception.code,
        ...(exception.fields ? { fields: exception.fields } : {}),
      },
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const body: ApiErrorBody =
      typeof response === 'object' && response !== null && 'fields' in response
        ? (response as ApiErrorBody)
        : {
            statusCode: status,
            error: reasonPhrase(status),
            message:
              typeof response === 'string'
                ? response
                : Array.isArray((response as { message?: unknown }).message)
                  ? (response as { message: string[] }).message.join('; ')
                  : String((response as { message?: unknown }).message ?? exception.message),
          };
    // Multer's wording ("File too large") is replaced by ours.
    if (status === 413) body.message = UNREADABLE_BODY_MESSAGES[413];
    const retryAfter = (exception as { retryAfterSeconds?: number }).retryAfterSeconds;
    const headers = status === 503 ? { 'Retry-After': '5' } : retryAfter ? { 'Retry-After': String(retryAfter) } : undefined;
    return { status, body: { ...body, statusCode: status }, headers, unexpected: status >= 500 && status !== 503 };
  }
  if (isDatabaseUnavailable(exception)) {
    return {
      status: 503,
      body: { statusCode: 503, error: reasonPhrase(503), message: 'The service is temporarily unavailable. Try again in a moment.' },
      headers: { 'Retry-After': '5' },
      unexpected: false,
    };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' },
    unexpected: true,
  };
}
