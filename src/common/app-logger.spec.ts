import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { createAppLogger } from './app-logger.js';

/** What the logger writes to stdout and stderr while `run` runs, without ANSI colours. */
function captured(run: () => void): string {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(keep);
  try {
    run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.join('').replace(/\u001b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
}

function startUp(): void {
  new Logger('InstanceLoader').log('UsersModule dependencies initialized');
  new Logger('RoutesResolver').log('AuthController {/api/auth}:');
  new Logger('RouterExplorer').log('Mapped {/api/auth/login, POST} route');
  new Logger('Bootstrap').log('Hitscope is listening on http://localhost:3000 (production)');
  new Logger('SecretsService').warn('AUTH_SECRET is not set');
}

describe('AppLogger', () => {
  afterAll(() => Logger.overrideLogger(false));

  it('keeps the route and module lines out of the default (log) level, and everything else in', () => {
    Logger.overrideLogger(createAppLogger('log'));
    const output = captured(startUp);
    expect(output).not.toMatch(/Mapped \{|dependencies initialized|AuthController/);
    expect(output).toMatch(/LOG \[Bootstrap\] Hitscope is listening on http:\/\/localhost:3000/);
    expect(output).toMatch(/WARN \[SecretsService\] AUTH_SECRET is not set/);
  });

  it('shows them at debug level with LOG_LEVEL=debug', () => {
    Logger.overrideLogger(createAppLogger('debug'));
    const output = captured(startUp);
    expect(output).toMatch(/DEBUG \[RouterExplorer\] Mapped \{\/api\/auth\/login, POST\} route/);
    expect(output).toMatch(/DEBUG \[InstanceLoader\] UsersModule dependencies initialized/);
    expect(output).toMatch(/LOG \[Bootstrap\] Hitscope is listening/);
  });

  it('still prints warnings and errors of the demoted contexts', () => {
    Logger.overrideLogger(createAppLogger('warn'));
    const output = captured(() => {
      new Logger('RoutesResolver').warn('a route could not be mapped');
      new Logger('NestApplication').error('failed to start');
      new Logger('Bootstrap').log('not at warn level');
    });
    expect(output).toMatch(/WARN \[RoutesResolver\] a route could not be mapped/);
    expect(output).toMatch(/ERROR \[NestApplication\] failed to start/);
    expect(output).not.toContain('not at warn level');
  });
});
