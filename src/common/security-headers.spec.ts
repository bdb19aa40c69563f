import type { NextFunction, Request, Response } from 'express';
import { browserSecurityHeaders, reservedPathHeaders } from './security-headers.js';

/** What a middleware sets on a response for `path`, in order, and the nonce it left in `locals`. */
function headersFor(middleware: ReturnType<typeof browserSecurityHeaders>, path: string) {
  const headers: Array<[string, string]> = [];
  const response = {
    locals: {} as Record<string, unknown>,
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
  };
  let nexted = false;
  middleware({ path, headers: {} } as Request, response as unknown as Response, (() => (nexted = true)) as NextFunction);
  return { headers, nonce: response.locals.cspNonce as string | undefined, nexted };
}

describe('browserSecurityHeaders', () => {
  for (const options of [
    { dev: false, https: false },
    { dev: false, https: true },
    { dev: true, https: false },
  ]) {
    it(`gives each page its own nonce in the CSP, and the same headers otherwise (${JSON.stringify(options)})`, () => {
      const middleware = browserSecurityHeaders(options);
      const first = headersFor(middleware, '/');
      const second = headersFor(middleware, '/pricing');
      expect(first.nexted).toBe(true);
      expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(second.nonce).not.toBe(first.nonce);
      const csp = (result: typeof first) => result.headers.find(([name]) => name === 'Content-Security-Policy')![1];
      expect(csp(first)).toContain(`script-src 'self' 'nonce-${first.nonce}';`);
      expect(csp(second)).toContain(`'nonce-${second.nonce}'`);
      expect(JSON.stringify(first.headers)).not.toContain('hitscope-nonce-mark');
      // Apart from the nonce, every page gets the same headers, in the same order, and the
      // reserved paths' set is the same with no nonce (and so no per-request work).
      const withoutNonce = (result: typeof first) => result.headers.map(([name, value]) => [name, value.replace(result.nonce!, 'N')]);
      expect(withoutNonce(second)).toEqual(withoutNonce(first));
      const api = headersFor(middleware, '/api/auth/me');
      expect(api.nonce).toBeUndefined();
      expect(api.headers).toEqual(reservedPathHeaders(options));
      expect(new Map(first.headers).get('Content-Security-Policy')!.replace(` 'nonce-${first.nonce}'`, '')).toBe(
        new Map(api.headers).get('Content-Security-Policy'),
      );
      expect(first.headers.map(([name]) => name).sort()).toEqual(api.headers.map(([name]) => name).sort());
      if (options.https) expect(new Map(first.headers).get('Strict-Transport-Security')).toMatch(/max-age=\d+/);
      else expect(new Map(first.headers).has('Strict-Transport-Security')).toBe(false);
    });
  }
});
