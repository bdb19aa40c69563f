import { jest } from '@jest/globals';
import type { NextFunction, Request, Response } from 'express';
import { lazyCookies, parseCookieHeader } from './lazy-cookies.js';

describe('parseCookieHeader', () => {
  it('reads names and values, the first of a repeated name winning', () => {
    expect(parseCookieHeader('a=1; b=two;c=3; a=4')).toEqual({ a: '1', b: 'two', c: '3' });
  });

  it('decodes percent-encoding as Express writes it, keeps invalid encoding and drops quotes', () => {
    expect(parseCookieHeader('x=a%20b; y=100%; z="quoted"')).toEqual({ x: 'a b', y: '100%', z: 'quoted' });
  });

  it('ignores pairs without a name or an equals sign, and an empty header', () => {
    expect(parseCookieHeader('novalue; =x; ok=1')).toEqual({ ok: '1' });
    expect(parseCookieHeader(undefined)).toEqual({});
  });

  it('keeps JavaScript object keys as plain cookie names', () => {
    const cookies = parseCookieHeader('__proto__=x; constructor=y');
    expect(cookies.constructor).toBe('y');
    expect(Object.getPrototypeOf(cookies)).toBeNull();
  });
});

describe('lazyCookies', () => {
  it('parses the header only when request.cookies is first read', () => {
    let reads = 0;
    const headers = {
      get cookie() {
        reads += 1;
        return 'hs_session=abc';
      },
    };
    const request = { headers } as unknown as Request;
    const next = jest.fn() as unknown as NextFunction;
    lazyCookies(request, {} as Response, next);
    expect(next).toHaveBeenCalled();
    expect(reads).toBe(0);
    expect(request.cookies).toEqual({ hs_session: 'abc' });
    expect(request.cookies.hs_session).toBe('abc');
    expect(reads).toBe(1);
  });
});
