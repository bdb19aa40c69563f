import { Validate, ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from '../../lib/api/auth.js';
import { isCommonPassword } from './common-passwords.js';

/**
 * What is wrong with a new password, or null when the policy accepts it (12 to 128 characters, no
 * composition rules, not on the common-password list). One message, the first problem that applies:
 * an empty field is "Enter a password", not a length rule and a "too common" verdict run together.
 */
export function passwordProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return PASSWORD_MESSAGES.required;
  if (value.length < PASSWORD_MIN_LENGTH || value.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.length;
  if (isCommonPassword(value)) return PASSWORD_MESSAGES.common;
  return null;
}

@ValidatorConstraint({ name: 'passwordPolicy' })
export class PasswordPolicy implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return passwordProblem(value) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return passwordProblem(args.value) ?? PASSWORD_MESSAGES.length;
  }
}

/** A password the owner chooses (registration, reset, change): one constraint, so at most one message. */
export const NewPassword = () => Validate(PasswordPolicy);
