import { escapeHtml } from '../../lib/seo/head.js';
import { PRODUCT } from '../../lib/product.js';
import type { MailInput } from '../mail/mail.service.js';

function layout(title: string, intro: string, action: string, url: string, outro: string) {
  const text = `${intro}\n\n${action}: ${url}\n\n${outro}\n\n— ${PRODUCT.name}`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#0e7490;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#475569">${escapeHtml(outro)}</p><p style="color:#475569">— ${escapeHtml(PRODUCT.name)}</p></body></html>`;
  return { subject: title, text, html };
}

export function verificationMail(to: string, name: string, url: string): MailInput {
  return {
    to,
    ...layout(
      `Confirm your e-mail address for ${PRODUCT.name}`,
      `Hello ${name}, please confirm that ${to} is your address.`,
      'Confirm e-mail address',
      url,
      'The link works for 48 hours. If you did not create an account, ignore this message.',
    ),
  };
}

/** The link that finishes a registration: it confirms the address (and signs in, in the browser that registered). */
export function registrationMail(to: string, name: string, url: string): MailInput {
  return {
    to,
    ...layout(
      `Finish creating your ${PRODUCT.name} account`,
      `Hello ${name}, confirm that ${to} is your address to finish creating your account.`,
      'Confirm and continue',
      url,
      'The link works for 48 hours. If you did not create an account, ignore this message: nothing happens without it.',
    ),
  };
}

/**
 * What the owner of an address hears when somebody registers it again: the registration itself
 * answers exactly as for a new address, so that it never tells a stranger who has an account.
 */
export function accountExistsMail(to: string, signInUrl: string, resetUrl: string): MailInput {
  return {
    to,
    ...layout(
      `You already have a ${PRODUCT.name} account`,
      `Somebody (hopefully you) tried to create a ${PRODUCT.name} account with ${to}, which already has one. Nothing was changed.`,
      'Sign in',
      signInUrl,
      `Forgot your password? Choose a new one here: ${resetUrl}. If it was not you, ignore this message.`,
    ),
  };
}

export function passwordResetMail(to: string, url: string): MailInput {
  return {
    to,
    ...layout(
      `Reset your ${PRODUCT.name} password`,
      'Somebody (hopefully you) asked to reset the password of this account.',
      'Choose a new password',
      url,
      'The link works once, for 30 minutes. If you did not ask for it, ignore this message: your password stays as it is.',
    ),
  };
}
