import type { Currency, PlanInterval } from '../../lib/api/catalogue.js';
import { formatMoney } from '../../lib/money.js';
import { productName, productsText } from '../../lib/billing/plan-copy.js';
import { PRODUCT, type ProductSlug } from '../../lib/product.js';
import { escapeHtml } from '../../lib/seo/head.js';
import type { MailInput } from '../mail/mail.service.js';

/** A mail of this module: a title, paragraphs, optional labelled lines (facts, keys, links) and one button. */
interface MailParts {
  to: string;
  subject: string;
  paragraphs: string[];
  /** Shown as a two-column list (what was bought, the amount…). */
  facts?: Array<[string, string]>;
  /** Licence keys: monospaced, one per product. */
  keys?: Array<[string, string]>;
  links?: Array<[string, string]>;
  action: { label: string; url: string };
}

function compose({ to, subject, paragraphs, facts = [], keys = [], links = [], action }: MailParts): MailInput {
  const block = (title: string, rows: Array<[string, string]>) =>
    rows.length ? [`${title}`, ...rows.map(([label, value]) => `  ${label}: ${value}`), ''] : [];
  const text = [
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...block('What you bought', facts),
    ...block(keys.length === 1 ? 'Your licence key' : 'Your licence keys', keys),
    ...block('Downloads and links', links),
    `${action.label}: ${action.url}`,
    '',
    `— ${PRODUCT.name}`,
  ].join('\n');
  const rows = (items: Array<[string, string]>, mono = false) =>
    items
      .map(
        ([label, value]) =>
          `<tr><th style="text-align:left;padding:4px 12px 4px 0;font-weight:600;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0${mono ? ';font-family:ui-monospace,monospace;font-size:15px' : ''}">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
  const table = (title: string, items: Array<[string, string]>, mono = false) =>
    items.length ? `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(title)}</h2><table>${rows(items, mono)}</table>` : '';
  const linkList = links.length
    ? `<h2 style="font-size:16px;margin:20px 0 4px">Downloads and links</h2><ul>${links
        .map(([label, url]) => `<li><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></li>`)
        .join('')}</ul>`
    : '';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')}
${table('What you bought', facts)}${table(keys.length === 1 ? 'Your licence key' : 'Your licence keys', keys, true)}${linkList}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#0e7490;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#475569">— ${escapeHtml(PRODUCT.name)}</p></body></html>`;
  return { to, subject, text, html };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Where the pages live, from the site's public URL. */
export interface BillingLinks {
  publicUrl: string;
}

const licencesUrl = ({ publicUrl }: BillingLinks) => `${publicUrl}/dashboard/user/licenses`;
const subscriptionUrl = ({ publicUrl }: BillingLinks) => `${publicUrl}/dashboard/user/subscription`;
/** Each companion product's tool page offers its downloads (per platform, with checksums). */
const downloadLinks = (links: BillingLinks, products: readonly ProductSlug[]): Array<[string, string]> =>
  products.map((product) => [`Download ${productName(product)}`, `${links.publicUrl}/dashboard/tools/${product}`]);

/** Stripe sends customer.subscription.trial_will_end three days before the trial ends. */
export function trialEndingMail(to: string, name: string, trialEnd: Date, url: string): MailInput {
  return compose({
    to,
    subject: `Your ${PRODUCT.name} trial ends on ${day(trialEnd)}`,
    paragraphs: [
      `Hello ${name}, your trial ends on ${day(trialEnd)}. Your subscription then continues with the payment method on file; you can change or cancel it before then.`,
    ],
    action: { label: 'Manage subscription', url },
  });
}

/** A renewal payment failed: the licence stays valid during the grace period; the link opens the card update. */
export function paymentFailedMail(to: string, name: string, graceUntil: Date | null, url: string): MailInput {
  const grace = graceUntil ? ` Your licence stays valid until ${day(graceUntil)}.` : '';
  return compose({
    to,
    subject: `Your ${PRODUCT.name} payment did not go through`,
    paragraphs: [`Hello ${name}, we could not take the payment for your subscription.${grace} Please update your payment method.`],
    action: { label: 'Update payment method', url },
  });
}

export interface ConfirmationFacts {
  orderId: string;
  planName: string;
  interval: PlanInterval;
  products: readonly ProductSlug[];
  seats: number;
  amountMinor: number;
  currency: Currency;
  /** Subscriptions: when it renews (the end of the paid period). */
  renewsAt: Date | null;
  /** Stripe's receipt of the payment, when there is one. */
  receiptUrl: string | null;
  keys: Array<{ product: ProductSlug; key: string | null }>;
}

/** After the first payment of a purchase: what was bought, what it cost, the keys and where to download. */
export function orderConfirmationMail(to: string, name: string, order: ConfirmationFacts, links: BillingLinks): MailInput {
  const period =
    order.interval === 'lifetime'
      ? 'one-off payment, never expires'
      : `billed every ${order.interval}${order.renewsAt ? `, renews on ${day(order.renewsAt)}` : ''}`;
  const facts: Array<[string, string]> = [
    ['Plan', `${order.planName} (${period})`],
    ['Products', productsText(order.products)],
    ['Seats', String(order.seats)],
    ['Amount paid', formatMoney(order.amountMinor, order.currency)],
    ['Order', order.orderId],
    ...(order.receiptUrl ? ([['Receipt', order.receiptUrl]] as Array<[string, string]>) : []),
  ];
  return compose({
    to,
    subject: `Your ${PRODUCT.name} order: ${order.planName}`,
    paragraphs: [
      `Hello ${name}, thank you for your order. Your payment of ${formatMoney(order.amountMinor, order.currency)} is confirmed and your licence${order.keys.length === 1 ? ' is' : 's are'} active.`,
      'Enter a key in the app or the extension to activate it on a device; your dashboard lists the keys and the devices using them.',
    ],
    facts,
    keys: order.keys.map(({ product, key }) => [productName(product), key ?? 'shown in your dashboard']),
    links: [
      ...downloadLinks(links, order.products),
      ...(order.interval === 'lifetime' ? [] : ([['Manage your subscription', subscriptionUrl(links)]] as Array<[string, string]>)),
    ],
    action: { label: 'Your licences', url: licencesUrl(links) },
  });
}

export interface RenewalFacts {
  planName: string;
  products: readonly ProductSlug[];
  amountMinor: number;
  currency: Currency;
  paidAt: Date;
  /** The new end of the paid period, when known. */
  periodEnd: Date | null;
  invoiceUrl: string | null;
  invoiceId: string;
}

/** Each paid renewal (or plan change) invoice of a subscription: a receipt. */
export function renewalReceiptMail(to: string, name: string, renewal: RenewalFacts, links: BillingLinks): MailInput {
  return compose({
    to,
    subject: `Receipt for your ${PRODUCT.name} subscription (${renewal.planName})`,
    paragraphs: [
      `Hello ${name}, we received ${formatMoney(renewal.amountMinor, renewal.currency)} for your ${renewal.planName} subscription on ${day(renewal.paidAt)}.${renewal.periodEnd ? ` Your licences are valid until ${day(renewal.periodEnd)}.` : ''}`,
    ],
    facts: [
      ['Plan', renewal.planName],
      ['Products', productsText(renewal.products)],
      ['Amount paid', formatMoney(renewal.amountMinor, renewal.currency)],
      ['Invoice', renewal.invoiceUrl ?? renewal.invoiceId],
    ],
    action: { label: 'Manage subscription', url: subscriptionUrl(links) },
  });
}

/** Why a licence changed state after a payment problem. */
export type LicenceChange = 'revoked-refund' | 'revoked-dispute' | 'suspended-dispute' | 'restored-dispute';

const CHANGE_WORDS: Record<LicenceChange, { subject: string; body: string }> = {
  'revoked-refund': {
    subject: 'revoked after a refund',
    body: 'The payment was refunded in full, so the licence for it is revoked: the app and the extension stop accepting its key at their next check.',
  },
  'revoked-dispute': {
    subject: 'revoked after a payment dispute',
    body: 'The payment dispute was decided against the payment, so the licence for it is revoked: the app and the extension stop accepting its key at their next check.',
  },
  'suspended-dispute': {
    subject: 'suspended during a payment dispute',
    body: 'Your bank opened a dispute about the payment, so the licence for it is suspended until the dispute is decided. If the dispute is a mistake, ask your bank to withdraw it.',
  },
  'restored-dispute': {
    subject: 'active again',
    body: 'The payment dispute is closed in favour of the payment, so the licence for it is active again.',
  },
};

/** A refund in full or a dispute changed what a purchase gives: say so plainly, with the products. */
export function licenceChangeMail(
  to: string,
  name: string,
  change: LicenceChange,
  purchase: { planName: string; products: readonly ProductSlug[]; orderId: string },
  links: BillingLinks,
): MailInput {
  const words = CHANGE_WORDS[change];
  return compose({
    to,
    subject: `Your ${PRODUCT.name} licence is ${words.subject}`,
    paragraphs: [
      `Hello ${name}, this is about your ${purchase.planName} purchase (${productsText(purchase.products)}, order ${purchase.orderId}).`,
      words.body,
    ],
    action: { label: 'Your licences', url: licencesUrl(links) },
  });
}
