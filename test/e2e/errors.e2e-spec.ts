import { jest } from '@jest/globals';
import request from 'supertest';
import { loadConfig } from '../../src/config/app-config.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import type { PageRenderer } from '../../src/ssr/page-renderer.js';
import { newAgent } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const INTERNAL_DETAIL = 'SECRET_INTERNAL_DETAIL at /srv/hitscope/src/secret.ts:42';

describe('docs/errors.md: errors against the running app', () => {
  it('answers an unmatched route with 404 and "Page not found: {path}"', async () => {
    const response = await newAgent().get('/no/such/page').expect(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('<h1 id="error-title">Page Not Found</h1>');
    expect(response.text).toContain('Page not found: /no/such/page');
  });

  it('answers a route validation failure with 404 and "Page Not Found: {path}"', async () => {
    const response = await newAgent().get('/dashboard/tools/not-a-tool').expect(404);
    expect(response.text).toContain('<h1 id="error-title">Page Not Found</h1>');
    expect(response.text).toContain('Page Not Found: /dashboard/tools/not-a-tool');
    expect(response.text).not.toContain('Page not found: /dashboard/tools/not-a-tool');
  });

  it('escapes the path shown on the 404 screen', async () => {
    const response = await newAgent().get('/%3Cscript%3Ealert(1)%3C/script%3E').expect(404);
    expect(response.text).not.toContain('<script>alert(1)</script>');
  });

  it('answers /api/<unknown> with a JSON 404, for reads and writes', async () => {
    const get = await newAgent().get('/api/does-not-exist').expect(404);
    expect(get.headers['content-type']).toMatch(/^application\/json/);
    expect(get.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /api/does-not-exist' });
    const post = await newAgent().post('/api/does-not-exist').send({}).expect(404);
    expect(post.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers unknown /health and /_app paths with JSON, not the page', async () => {
    for (const path of ['/health/unknown', '/_app/builds/other.json']) {
      const response = await newAgent().get(path).expect(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('500: any other server error', () => {
  let running: RunningApp;
  let failure: 'loader' | 'render' | null = null;

  const failingRenderer = (renderer: PageRenderer): PageRenderer => ({
    ...renderer,
    mode: renderer.mode,
    async entry() {
      const entry = await renderer.entry();
      return {
        ...entry,
        async render(input) {
          if (failure === 'render') throw new Error(INTERNAL_DETAIL);
          if (failure === 'loader') {
            return entry.render({
              ...input,
              data: {
                ...input.data,
                me: async () => {
                  throw new Error(INTERNAL_DETAIL);
                },
              },
            });
          }
          return entry.render(input);
        },
      };
    },
  });

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('errors'), LOG_LEVEL: 'error', PORT: '0' });
    running = await createApp(config, { decorateRenderer: failingRenderer });
  });
  afterAll(() => running?.close());
  afterEach(() => {
    failure = null;
  });

  it.each(['loader', 'render'] as const)('shows "Internal Server Error" without internals when the %s fails', async (kind) => {
    failure = kind;
    const errorSpy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await request(running.app.getHttpServer()).get('/sponsor').expect(500);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('<h1 id="error-title">Internal Server Error</h1>');
      expect(response.text).toContain('<title>Internal Server Error');
      expect(response.text).not.toContain('SECRET_INTERNAL_DETAIL');
      expect(response.text).not.toMatch(/\/srv\/|at .*\.ts:\d+/);
    } finally {
      errorSpy.mockRestore();
    }
  });

  it('renders normally again once the failure is gone', async () => {
    const response = await request(running.app.getHttpServer()).get('/sponsor').expect(200);
    expect(response.text).toContain('data-layout="default"');
  });
});
