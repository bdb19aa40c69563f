import { CONFIRM_LINK_DAYS } from '../../lib/api/newsletter.js';
import { PRODUCT } from '../../lib/product.js';
import { escapeHtml } from '../../lib/seo/head.js';
import type { MailInput } from '../mail/mail.service.js';

/** The address part of MAIL_FROM (`Name <a@b>` or `a@b`). */
export function mailFromAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
}

/**
 * RFC 8058 one-click unsubscribe: both headers, the HTTPS URL first (the one mailbox providers
 * POST `List-Unsubscribe=One-Click` to), a mailto as the RFC 2369 fallback for older clients.
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string, mailFrom: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeUrl}>, <mailto:${mailFromAddress(mailFrom)}?subject=unsubscribe>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export function confirmationMail(to: string, confirmUrl: string, unsubscribePageUrl: string, headers: Record<string, string>): MailInput {
  const title = `Confirm your ${PRODUCT.name} newsletter subscription`;
  const intro = `Somebody (hopefully you) asked to receive the ${PRODUCT.name} newsletter at ${to}. Nothing is sent until you confirm.`;
  const outro = `The link works for ${CONFIRM_LINK_DAYS} days. If you did not ask for this, ignore this message: you will not hear from us again.`;
  const text = `${intro}\n\nConfirm subscription: ${confirmUrl}\n\n${outro}\n\nDo not want these messages? ${unsubscribePageUrl}\n\n— ${PRODUCT.name}`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 16px;background:#0e7490;color:#fff;border-radius:8px;text-decoration:none">Confirm subscription</a></p>
<p style="color:#475569">${escapeHtml(outro)}</p>
<p style="color:#475569;font-size:13px"><a href="${escapeHtml(unsubscribePageUrl)}" style="color:#475569">Never e-mail this address again</a> — ${escapeHtml(PRODUCT.name)}</p></body></html>`;
  return { to, subject: title, text, html, headers };
}
