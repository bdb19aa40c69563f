/**
 * The rule for a person's name (registration, the profile): 1 to 100 characters once surrounding
 * spaces are trimmed, and no character that changes what the name does rather than how it reads.
 *
 * Refused: control characters (C0 including CR, LF and ESC, DEL, C1), which break log lines and
 * e-mail headers, end C strings (NUL) or recolour a terminal (ANSI escapes); bidi controls (the
 * right-to-left override and its family), which make the name shown differ from the name stored
 * and can flip the text that follows it; line and paragraph separators; unpaired surrogates.
 * Zero-width joiners stay allowed: emoji sequences and several scripts need them.
 */

export const NAME_MAX_LENGTH = 100;

export const NAME_MESSAGES = {
  required: 'Enter your name',
  length: `Name must be 1 to ${NAME_MAX_LENGTH} characters`,
  hidden: 'Name cannot contain control characters (such as a line break) or text-direction marks: remove them',
} as const;

const SURROUNDING_SPACES = /^\p{Zs}+|\p{Zs}+$/gu;
/** Cc, the bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), line/paragraph separators, lone surrogates. */
const FORBIDDEN = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\p{Zl}\p{Zp}\p{Cs}]/u;

/** The name as stored: surrounding spaces trimmed. Anything that is not a string is returned as is. */
export function normalisePersonName<T>(value: T): T | string {
  return typeof value === 'string' ? value.replace(SURROUNDING_SPACES, '') : value;
}

/** What is wrong with a (normalised) name, or null: one message, the first problem that applies. */
export function personNameProblem(value: unknown): string | null {
  if (typeof value !== 'string') return NAME_MESSAGES.required;
  if (value.length < 1 || value.length > NAME_MAX_LENGTH) return NAME_MESSAGES.length;
  if (FORBIDDEN.test(value)) return NAME_MESSAGES.hidden;
  return null;
}

const ALL_FORBIDDEN = new RegExp(FORBIDDEN.source, 'gu');

/** A name from elsewhere (an OpenID provider's claims): forbidden characters become spaces rather than a refusal. */
export function cleanPersonName(value: string): string {
  return normalisePersonName(value.replace(ALL_FORBIDDEN, ' ').replace(/ {2,}/g, ' '));
}
