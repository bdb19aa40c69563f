import { escapeHtml } from '../../lib/seo/head.js';
import { PRODUCT } from '../../lib/product.js';
import type { MailInput } from '../mail/mail.service.js';

function layout(to: string, title: string, intro: string, action: string, url: string): MailInput {
  return {
    to,
    subject: title,
    text: `${intro}\n\n${action}: ${url}\n\n— ${PRODUCT.name}`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#0e7490;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#475569">— ${escapeHtml(PRODUCT.name)}</p></body></html>`,
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Stripe sends customer.subscription.trial_will_end three days before the trial ends. */
export function trialEndingMail(to: string, name: string, trialEnd: Date, url: string): MailInput {
  return layout(
    to,
    `Your ${PRODUCT.name} trial ends on ${day(trialEnd)}`,
    `Hello ${name}, your trial ends on ${day(trialEnd)}. Your subscription then continues with the payment method on file; you can change or cancel it before then.`,
    'Manage subscription',
    url,
  );
}

/** A renewal payment failed: the licence stays valid during the grace period; the link opens the card update. */
export function paymentFailedMail(to: string, name: string, graceUntil: Date | null, url: string): MailInput {
  const grace = graceUntil ? ` Your licence stays valid until ${day(graceUntil)}.` : '';
  return layout(
    to,
    `Your ${PRODUCT.name} payment did not go through`,
    `Hello ${name}, we could not take the payment for your subscription.${grace} Please update your payment method.`,
    'Update payment method',
    url,
  );
}
