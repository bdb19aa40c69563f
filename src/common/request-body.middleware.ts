import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';

/** A route that reads something other than a JSON body (a file upload), with its own size limit. */
export interface UploadRoute {
  method: string;
  path: string;
  /** Media types accepted, without parameters (`multipart/form-data`). */
  types: readonly string[];
  limitBytes: number;
  /** A request deadline of its own (a large file takes longer than REQUEST_TIMEOUT_MS to arrive). */
  timeoutMs?: number;
}

export interface RequestBodyRules {
  /** The limit for JSON bodies, in bytes (the JSON parser is given the same number). */
  jsonLimitBytes: number;
  uploads: readonly UploadRoute[];
}

type Respond = (exception: unknown, request: Request, response: Response) => Promise<void>;

const JSON_TYPE = 'application/json';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The request carries a body (RFC 9112 §6.3: a Transfer-Encoding, or a Content-Length above zero). */
export function hasBody(request: Pick<Request, 'headers'>): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** The request's media type, lower-cased, without parameters (`text/plain; charset=utf-8` → `text/plain`). */
export function mediaType(request: Request): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Decides from the headers alone, before a byte of the body is read, whether a body can be
 * accepted: a declared `Content-Length` over the route's limit is answered 413 at once (the JSON
 * parser would only say so after draining the whole body, so a client sending 1 GB waited for
 * it), and a write whose body is neither JSON nor the upload type its route takes is 415 (it
 * would otherwise reach the handler as an empty object). Bodiless requests pass untouched.
 */
export function checkRequestBody(rules: RequestBodyRules, respond: () => Respond): RequestHandler {
  const uploads = new Map(rules.uploads.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]));
  return (request: Request, response: Response, next: NextFunction) => {
    if (!WRITES.has(request.method) || !hasBody(request)) return next();
    const upload = uploads.get(`${request.method} ${request.path}`);
    const limit = upload?.limitBytes ?? rules.jsonLimitBytes;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      // The rest of the body is not read: close the connection once the answer is out, rather
      // than let Node drain it to keep the connection alive.
      response.setHeader('Connection', 'close');
      void respond()(new PayloadTooLargeException(), request, response);
      return;
    }
    const type = mediaType(request);
    if (type !== JSON_TYPE && !upload?.types.includes(type)) {
      void respond()(new UnsupportedMediaTypeException('Unsupported content type'), request, response);
      return;
    }
    next();
  };
}
