import { createHash } from 'node:crypto';
import { markdownToPlainText, renderMarkdown } from '../../../lib/markdown/markdown.js';
import { escapeHtml } from '../../../lib/seo/head.js';

/** Inline styles per element: mail clients drop <style> blocks and ignore the page's stylesheet. */
const ELEMENT_STYLES: Record<string, string> = {
  h1: 'font-size:24px;line-height:1.25;margin:24px 0 12px',
  h2: 'font-size:20px;line-height:1.3;margin:22px 0 10px',
  h3: 'font-size:17px;line-height:1.35;margin:20px 0 8px',
  p: 'margin:0 0 14px',
  ul: 'margin:0 0 14px;padding-left:22px',
  ol: 'margin:0 0 14px;padding-left:22px',
  li: 'margin:0 0 4px',
  a: 'color:#0e7490',
  blockquote: 'margin:0 0 14px;padding:4px 14px;border-left:3px solid #cbd5e1;color:#475569',
  pre: 'margin:0 0 14px;padding:12px;background:#f1f5f9;border-radius:6px;overflow:auto;font-size:13px',
  code: 'font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:0.92em',
  table: 'border-collapse:collapse;margin:0 0 14px',
  th: 'border:1px solid #cbd5e1;padding:6px 10px;text-align:left',
  td: 'border:1px solid #cbd5e1;padding:6px 10px',
  hr: 'border:0;border-top:1px solid #e2e8f0;margin:24px 0',
};

/** Adds the inline styles to the renderer's output (which has no style attributes: raw HTML is escaped). */
function styleHtml(html: string, publicUrl: string): string {
  return html
    .replace(
      /<(h1|h2|h3|p|ul|ol|li|a|blockquote|pre|code|table|th|td|hr)(?=[\s>/])/g,
      (_, tag: string) => `<${tag} style="${ELEMENT_STYLES[tag]}"`,
    )
    .replace(/href="\/(?!\/)/g, `href="${escapeHtml(publicUrl)}/`);
}

/** Same-site links in the text part become absolute too ("text (/pricing)" means nothing in a mailbox). */
const absoluteText = (text: string, publicUrl: string) => text.replace(/\((\/(?!\/)[^\s)]*)\)/g, `(${publicUrl}$1)`);

export interface CampaignContent {
  subject: string;
  body: string;
}

export interface RenderedCampaign {
  subject: string;
  html: string;
  text: string;
}

export interface RecipientLinks {
  /** The page with the one "Unsubscribe" button (the visible footer link). */
  unsubscribePage: string;
}

/**
 * The message a recipient gets: the Markdown as styled HTML and as plain text, both ending with a
 * visible unsubscribe link (the RFC 8058 headers are added by the sender). Used by the preview, the
 * test send and the real send alike, so what the admin reviews is what goes out.
 */
export function renderCampaign(
  content: CampaignContent,
  links: RecipientLinks,
  site: { name: string; publicUrl: string },
): RenderedCampaign {
  const body = styleHtml(renderMarkdown(content.body), site.publicUrl);
  const footer = `You receive this because you subscribed to the ${site.name} newsletter.`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9">
<div style="max-width:640px;margin:0 auto;padding:24px 16px">
<div style="background:#ffffff;border-radius:10px;padding:28px 24px;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;line-height:1.6;color:#0f172a">
${body}</div>
<p style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;line-height:1.5;color:#475569;text-align:center;margin:16px 0 0">${escapeHtml(footer)}<br><a href="${escapeHtml(links.unsubscribePage)}" style="color:#475569">Unsubscribe</a> · <a href="${escapeHtml(site.publicUrl)}" style="color:#475569">${escapeHtml(site.name)}</a></p>
</div></body></html>`;
  const text = `${absoluteText(markdownToPlainText(content.body), site.publicUrl)}\n\n-- \n${footer}\nUnsubscribe: ${links.unsubscribePage}\n`;
  return { subject: content.subject, html, text };
}

/**
 * The Message-ID of a delivery, derived from its `_id`: a message sent again after a crash inside
 * one lease window carries the same Message-ID, so the receiving side can tell it is the same
 * message. The address is hashed, never written into the header.
 */
export function deliveryMessageId(campaignId: string, email: string, hostname: string): string {
  const recipient = createHash('sha256').update(email).digest('base64url').slice(0, 22);
  return `<campaign.${campaignId}.${recipient}@${hostname}>`;
}

/** `"Name" <address>`, with the name quoted and escaped (RFC 5322 quoted-string). */
export function formatSender(name: string, address: string): string {
  const cleaned = name.replace(/[\r\n]/g, ' ').trim();
  return cleaned ? `"${cleaned.replace(/["\\]/g, '\\$&')}" <${address}>` : address;
}
