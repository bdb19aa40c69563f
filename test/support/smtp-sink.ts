import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  messageId: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  body: string;
  /** When the sink took it (epoch ms). */
  at: number;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';

/**
 * A real SMTP server on loopback that keeps what it receives. `rejectNext` makes the next N
 * deliveries fail with a temporary 451 after the data was sent (to test retries); `failShare`
 * answers that share of all messages (at random) with a temporary 451 after the data;
 * `refuseRecipients` answers RCPT TO for those addresses with the given code (e.g. 550, permanent);
 * `holdReplies` keeps the message (it is in `received`) but answers nothing until `releaseHeld()`:
 * a client that dies meanwhile never learns it was delivered.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  readonly attempts: string[] = [];
  rejectNext = 0;
  failShare = 0;
  readonly refuseRecipients = new Map<string, number>();
  holdReplies = false;
  private held: (() => void)[] = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // Many concurrent pooled connections from a campaign: no artificial limit here.
      maxClients: 1000,
      onRcptTo: (address, _session, callback) => {
        const code = this.refuseRecipients.get(address.address.toLowerCase());
        if (code) return callback(Object.assign(new Error(`Mailbox refused (${code})`), { responseCode: code }));
        callback();
      },
      onData: (stream, session, callback) => {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (raw += chunk));
        stream.on('end', () => {
          const messageId = header(raw, 'Message-ID');
          this.attempts.push(messageId);
          if (this.rejectNext > 0 || (this.failShare > 0 && Math.random() < this.failShare)) {
            if (this.rejectNext > 0) this.rejectNext -= 1;
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            return callback(error);
          }
          this.received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            subject: header(raw, 'Subject'),
            messageId,
            body: decodeQuotedPrintable(raw),
            at: Date.now(),
          });
          if (this.holdReplies) this.held.push(() => callback());
          else callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  async waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`No matching mail within ${timeoutMs} ms (received: ${this.received.map((m) => m.subject).join(', ')})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Answers every held message (250). */
  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const reply of held) reply();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function linkIn(mail: ReceivedMail, pattern: RegExp): string {
  const match = pattern.exec(mail.body);
  if (!match) throw new Error(`No link matching ${pattern} in mail "${mail.subject}"`);
  return match[0];
}
