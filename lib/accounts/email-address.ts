/**
 * The one rule for e-mail addresses, and the one form they are stored, looked up and compared in.
 * Every address the app takes goes through it: registration, sign-in, password reset, the e-mail
 * change, ADMIN_EMAILS, an OpenID provider's claim, the `promote` command.
 *
 * Refused, because no mail system should accept them or because they smuggle a second address past
 * whoever reads it: control characters (C0, DEL, C1: header injection, truncation at a NUL),
 * invisible and bidi-control characters (zero-width spaces, text-direction overrides: the address
 * shown is not the one used), `@` look-alikes (U+FF20, U+FE6B), quoted local parts and a second `@`
 * (`"a@b"@c.test`), characters outside RFC 5322's dot-atom in ASCII, and IP-literal domains.
 * Non-ASCII local parts (RFC 6531) and internationalised domains are accepted.
 *
 * The normal form:
 * - surrounding spaces (Unicode space separators, as pasted from a document) are trimmed; control
 *   characters are never trimmed but refused, wherever they are;
 * - the domain is converted to ASCII with the WHATWG URL Standard's domain-to-ASCII (UTS #46, the
 *   algorithm behind Node's `url.domainToASCII`, which the unit test checks against), so
 *   `user@münchen.de` and `user@xn--mnchen-3ya.de` are one address, stored as the latter;
 * - the whole address is lower-cased, the local part included. RFC 5321 lets a server treat local
 *   parts as case-sensitive, but no mainstream provider does, and two accounts that differ only in
 *   case would be look-alikes of each other. The local part is also put in Unicode NFC, so an accent
 *   typed as one character or as a letter and a combining mark is one address.
 *
 * Framework-free, and free of Node-only APIs (the URL parser exists in browsers too), so a form may
 * use it as well.
 */

/** RFC 5321: a path is at most 256 octets including the angle brackets. */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_OCTETS = 64;
const DOMAIN_MAX_LENGTH = 253;
/** Beyond this, nothing is worth parsing (a 60 000-character "address" is answered at once). */
const INPUT_MAX_LENGTH = 1024;

export const EMAIL_MESSAGES = {
  invalid: 'Enter a valid e-mail address',
  tooLong: 'E-mail address is too long',
  hidden: 'The e-mail address contains an invisible or control character (such as a line break or a zero-width space): type it again',
  atLookAlike: 'The e-mail address contains a character that looks like @ but is not one: type the @ from your keyboard',
  oneAddress: 'Enter one e-mail address: a single @, and no quotes',
} as const;

export type EmailAddressCheck = { ok: true; address: string } | { ok: false; message: string };

/** Unicode space separators around the address (space, no-break space, ideographic space…). */
const SURROUNDING_SPACES = /^\p{Zs}+|\p{Zs}+$/gu;
/**
 * Control (Cc: C0, DEL, C1), format (Cf: zero-width and bidi controls, soft hyphen, BOM, tags),
 * line and paragraph separators, surrogates, private use, unassigned code points, and whatever
 * else Unicode says renders as nothing (Default_Ignorable_Code_Point: variation selectors, Hangul
 * fillers, the combining grapheme joiner…).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
const SPACE = /\p{Zs}/u;
/** FULLWIDTH COMMERCIAL AT and SMALL COMMERCIAL AT: rendered as @, but not the separator. */
const AT_LOOK_ALIKES = /[\uFF20\uFE6B]/u;
/** RFC 5322 dot-atom, with any other (visible) character allowed as in RFC 6531. */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\u{10FFFF}]+";
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
/** Before conversion: letters, digits, hyphens and dots in ASCII, anything visible beyond. */
const DOMAIN_INPUT = /^[A-Za-z0-9.\-\u0080-\u{10FFFF}]+$/u;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A top-level domain is alphabetic or an IDN (`xn--…`): never numeric, so IP addresses are refused. */
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

const octets = (text: string) => new TextEncoder().encode(text).length;

/**
 * The ASCII form of a domain (lower case, IDN labels in punycode), or null when it is not a valid
 * domain name. The input is checked first to hold no character the URL parser reads as a delimiter
 * or decodes (`/ ? # @ : % [ ]`), so only the host is ever parsed.
 */
export function domainToAscii(domain: string): string | null {
  if (!DOMAIN_INPUT.test(domain)) return null;
  let host: string;
  try {
    host = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  if (host.length > DOMAIN_MAX_LENGTH) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return TOP_LEVEL.test(labels[labels.length - 1]) ? host : null;
}

/** Checks an address and answers its normal form, or the one message that says what is wrong. */
export function checkEmailAddress(input: unknown): EmailAddressCheck {
  if (typeof input !== 'string') return { ok: false, message: EMAIL_MESSAGES.invalid };
  if (input.length > INPUT_MAX_LENGTH) return { ok: false, message: EMAIL_MESSAGES.tooLong };
  const value = input.replace(SURROUNDING_SPACES, '');
  if (!value) return { ok: false, message: EMAIL_MESSAGES.invalid };
  if (HIDDEN.test(value)) return { ok: false, message: EMAIL_MESSAGES.hidden };
  if (AT_LOOK_ALIKES.test(value)) return { ok: false, message: EMAIL_MESSAGES.atLookAlike };
  if (SPACE.test(value)) return { ok: false, message: EMAIL_MESSAGES.invalid };
  const at = value.indexOf('@');
  if (value.includes('"') || at !== value.lastIndexOf('@')) return { ok: false, message: EMAIL_MESSAGES.oneAddress };
  if (at < 0) return { ok: false, message: EMAIL_MESSAGES.invalid };

  const local = value.slice(0, at).normalize('NFC').toLowerCase();
  if (!DOT_ATOM.test(local)) return { ok: false, message: EMAIL_MESSAGES.invalid };
  if (octets(local) > LOCAL_PART_MAX_OCTETS) return { ok: false, message: EMAIL_MESSAGES.tooLong };
  const domain = domainToAscii(value.slice(at + 1));
  if (!domain) return { ok: false, message: EMAIL_MESSAGES.invalid };
  const address = `${local}@${domain}`;
  if (octets(address) > EMAIL_MAX_LENGTH) return { ok: false, message: EMAIL_MESSAGES.tooLong };
  return { ok: true, address };
}

/** The normal form of a valid address, or null. */
export function normaliseEmailAddress(input: unknown): string | null {
  const checked = checkEmailAddress(input);
  return checked.ok ? checked.address : null;
}
