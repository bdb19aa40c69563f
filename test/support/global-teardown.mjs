export default async function globalTeardown() {
  const app = globalThis.__HITSCOPE_APP__;
  if (app && app.exitCode === null) {
    await new Promise((resolve) => {
      app.once('exit', resolve);
      app.kill('SIGTERM');
      setTimeout(() => app.kill('SIGKILL'), 10_000).unref();
    });
  }
  await globalThis.__HITSCOPE_STRIPE_MOCK__?.stop();
  await globalThis.__HITSCOPE_DB__?.stop();
  await globalThis.__HITSCOPE_POSTGRESQL__?.stop();
}
