import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './config/app-config.js';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const running = await createApp(config);
  await running.app.listen(config.port, config.host);
  const address = running.app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  const shown = everywhere ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  new Logger('Bootstrap').log(
    `Hitscope is listening on http://${shown}:${port} (${config.nodeEnv})${everywhere ? `, on every interface (HOST=${config.host})` : ''}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    new Logger('Bootstrap').log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // SIGHUP: the terminal that ran it closed (or `npm start` forwarded it); stop as cleanly as for the others.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Hitscope failed to start:', error instanceof Error ? error.message : error);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) console.error(error.stack);
  process.exit(1);
});
