import { type ArgumentsHost, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AllExceptionsFilter } from './all-exceptions.filter.js';
import type { ErrorPageRenderer } from './error-page-renderer.js';

const INTERNAL_DETAIL = 'SECRET_INTERNAL_DETAIL at /srv/hitscope/src/secret.ts:42';

interface Sent {
  status: number;
  headers: Record<string, string>;
  type: string | null;
  body: unknown;
}

function exchange(method: string, path: string): { host: ArgumentsHost; sent: Sent } {
  const sent: Sent = { status: 200, headers: {}, type: null, body: undefined };
  const response = {
    headersSent: false,
    locals: {},
    status(code: number) {
      sent.status = code;
      return this;
    },
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
      return this;
    },
    type(type: string) {
      sent.type = type;
      return this;
    },
    json(body: unknown) {
      sent.type = 'json';
      sent.body = body;
    },
    send(body: unknown) {
      sent.body = body;
    },
  } as unknown as Response;
  const request = { method, path, originalUrl: path, cookies: {} } as unknown as Request;
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }) } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('AllExceptionsFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  const rendered: Array<{ status: number; path: string }> = [];
  const screens: ErrorPageRenderer = {
    async renderErrorPage(status, request) {
      rendered.push({ status, path: request.path });
      return `<h1>screen ${status}</h1>`;
    },
  };

  it('answers a page request with the screen the error-page renderer draws, not cached', async () => {
    const { host, sent } = exchange('GET', '/no/such/page');
    await new AllExceptionsFilter(screens).catch(new NotFoundException('Cannot GET /no/such/page'), host);
    expect(sent).toEqual({ status: 404, headers: { 'Cache-Control': 'no-store' }, type: 'html', body: '<h1>screen 404</h1>' });
    expect(rendered.at(-1)).toEqual({ status: 404, path: '/no/such/page' });
  });

  it('answers reserved paths and writes with the JSON error shape, never a screen', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing'],
      ['GET', '/health/unknown'],
      ['POST', '/dashboard/lounge'],
    ]) {
      const { host, sent } = exchange(method, path);
      await new AllExceptionsFilter(screens).catch(new Error(INTERNAL_DETAIL), host);
      expect(sent).toMatchObject({ status: 500, type: 'json' });
      expect(sent.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
    }
  });

  it('falls back to a bare last-resort page without internals when the screen cannot be rendered', async () => {
    const broken: ErrorPageRenderer = {
      renderErrorPage: () => Promise.reject(new Error(`renderer down: ${INTERNAL_DETAIL}`)),
    };
    for (const [exception, status, title] of [
      [new Error(INTERNAL_DETAIL), 500, 'Internal Server Error'],
      [new NotFoundException(INTERNAL_DETAIL), 404, 'Page Not Found'],
    ] as const) {
      const { host, sent } = exchange('GET', '/sponsor');
      await new AllExceptionsFilter(broken).catch(exception, host);
      expect(sent.status).toBe(status);
      expect(sent.type).toBe('html');
      expect(sent.body).toContain(`<title>${title}</title>`);
      expect(sent.body).toContain(`<h1>${title}</h1>`);
      expect(sent.body).not.toContain('SECRET_INTERNAL_DETAIL');
      expect(sent.body).not.toMatch(/\/srv\/|\.ts:\d+/);
    }
  });
});
