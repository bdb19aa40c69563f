import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The common-password list shipped with the app: the ~49 000 most common passwords from the
 * zxcvbn-ts corpus, lower-cased. A password is refused when it is on the list, or when it is a listed
 * word with digits and symbols tacked on (`password1234`, `Summer2024!!`), the usual way people
 * stretch a short password to a length rule.
 */
const COMMON = new Set((dictionary['passwords-common'] as string[]).map((entry) => entry.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return true;
  const stem = lower.replace(/[\d\W_]+$/u, '').replace(/^[\d\W_]+/u, '');
  if (stem.length >= 4 && COMMON.has(stem)) return true;
  return new Set(lower).size <= 2; // aaaaaaaaaaaa, abababababab
}
