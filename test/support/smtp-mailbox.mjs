// A real SMTP server on loopback for the browser suite's billing instance: every message it takes is
// appended to a file (one JSON line each: envelope recipients and the raw message), which the tests
// read (test/browser/billing-fixtures.ts). The Jest suites use test/support/smtp-sink.ts in-process
// instead; a plain .mjs here because the browser server runs without a TypeScript loader.
import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** Where the browser server on `port` keeps the mail its billing instance sent. */
export const smtpMailboxPath = (port) => join(tmpdir(), `hitscope-browser-mail-${port}.jsonl`);

export async function startSmtpMailbox(file) {
  writeFileSync(file, '');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        appendFileSync(file, `${JSON.stringify({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, at: Date.now() })}\n`);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, stop: () => new Promise((resolve) => server.close(resolve)) };
}
