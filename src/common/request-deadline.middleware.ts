import { ServiceUnavailableException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export type ErrorResponder = (exception: unknown, request: Request, response: Response) => void | Promise<void>;

/**
 * Every request answers within `timeoutMs`, whatever it is waiting for: guards (session lookup,
 * rate limits), pipes, the handler or a page render. An interceptor would only time the handler,
 * and a guard waiting on a stalled database would hold the request for as long as the driver
 * waits. When the deadline passes, the request is answered 503 with Retry-After (through the same
 * responder as every other error, so pages get the error screen); the work still in flight
 * finishes or fails on its own, and anything it tries to send later is dropped.
 */
export function requestDeadline(
  timeoutMs: number | ((request: Request) => number),
  respond: () => ErrorResponder,
  options: RequestDeadlineOptions = {},
): RequestHandler {
  const deadlineOf = typeof timeoutMs === 'number' ? () => timeoutMs : timeoutMs;
  return (request: Request, response: Response, next: NextFunction) => {
    const fail = (exception: unknown) => {
      if (response.headersSent) return;
      response.locals.deadlineExceeded = true;
      void respond()(exception, request, response);
    };
    const timer = setTimeout(
      () => fail(new ServiceUnavailableException('The request took too long. Try again in a moment.')),
      deadlineOf(request),
    );
    const unsubscribe = options.breaksWhen?.(fail);
    const clear = () => {
      clearTimeout(timer);
      unsubscribe?.();
    };
    response.once('finish', clear);
    response.once('close', clear);
    next();
  };
}

export interface RequestDeadlineOptions {
  /**
   * Subscribes a request in flight to an event that ends it at once with the given error (answered
   * as any other), and answers the unsubscribe: the database going down
   * (database/database-availability.ts), whose driver would otherwise keep a read waiting 2.5 s for a
   * server before failing.
   */
  breaksWhen?: (fail: (exception: unknown) => void) => () => void;
}
