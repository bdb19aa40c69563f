import type { NextFunction, Request, Response } from 'express';
import type { ApiErrorBody } from '../../lib/api/errors.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 32;

/** Finds the first key that could smuggle a MongoDB operator or poison a prototype. */
export function findForbiddenKey(value: unknown, path = '', depth = 0): string | null {
  if (depth > MAX_DEPTH) return path || '(root)';
  if (typeof value !== 'object' || value === null) return null;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.startsWith('$') || FORBIDDEN_KEYS.has(key)) return here;
    const found = findForbiddenKey((value as Record<string, unknown>)[key], here, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Refuses `$`-prefixed and prototype keys anywhere in the body or query with a 400. */
export function rejectOperatorKeys(request: Request, response: Response, next: NextFunction): void {
  const key = findForbiddenKey(request.body) ?? findForbiddenKey(request.query);
  if (!key) return next();
  const body: ApiErrorBody = {
    statusCode: 400,
    error: 'Bad Request',
    message: 'Validation failed',
    fields: { [key]: [`${key} is not allowed: keys may not start with $ or name a prototype`] },
  };
  response.status(400).json(body);
}
