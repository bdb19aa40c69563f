import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string;
  /** Extra headers (List-Unsubscribe …); only names the caller chose, never user input as a name. */
  headers?: Record<string, string>;
}

/** What the outbox worker needs from a mail server; SMTP in production, replaceable in failure tests. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');

export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url, {});
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        messageId: mail.messageId,
        headers: mail.headers,
      });
    },
    close: () => transporter.close(),
  };
}
