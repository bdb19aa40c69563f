import nodemailer, { type Transporter } from 'nodemailer';
import type { MailService } from '../../mail/mail.service.js';

export interface CampaignMessage {
  from: string;
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
}

/**
 * Where campaign mail goes. A failure is thrown with the SMTP reply code when the server gave one
 * (`responseCode`, as nodemailer reports it): 5xx is permanent, everything else temporary.
 */
export interface CampaignTransport {
  send(message: CampaignMessage): Promise<void>;
  close(): void;
}

export const CAMPAIGN_TRANSPORT = Symbol('CAMPAIGN_TRANSPORT');

export type FailureKind = 'temporary' | 'permanent';

/** SMTP 5xx replies are permanent (RFC 5321 §4.2.1); 4xx, timeouts and broken connections are worth another try. */
export function classifyFailure(error: unknown): { kind: FailureKind; code: number | null; message: string } {
  const responseCode = (error as { responseCode?: unknown }).responseCode;
  const code = typeof responseCode === 'number' ? responseCode : null;
  const message = ((error as Error)?.message ?? String(error)).slice(0, 300);
  return { kind: code !== null && code >= 500 && code < 600 ? 'permanent' : 'temporary', code, message };
}

/**
 * SMTP with a small connection pool: a campaign sends thousands of messages, and a new connection
 * (greeting, EHLO) per message would cost more than the message. Separate from the transactional
 * outbox's transport so a long campaign never delays a password-reset mail.
 */
export function smtpCampaignTransport(url: string, maxConnections = 4): CampaignTransport {
  // nodemailer reads options from the URL's query (and ignores other options next to a URL).
  const pooled = new URL(url);
  pooled.searchParams.set('pool', 'true');
  pooled.searchParams.set('maxConnections', String(maxConnections));
  pooled.searchParams.set('maxMessages', '100000');
  const transporter: Transporter = nodemailer.createTransport(pooled.toString());
  return {
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        replyTo: message.replyTo ?? undefined,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        headers: message.headers,
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * No SMTP server configured: each message is kept in the outbox collection, like every other mail
 * of an unconfigured instance, once per delivery (its Message-ID is unique there).
 */
export function outboxCampaignTransport(mail: MailService): CampaignTransport {
  return {
    async send(message) {
      await mail.store({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
        messageId: message.messageId,
      });
    },
    close: () => undefined,
  };
}
