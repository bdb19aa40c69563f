import { PASSWORD_MESSAGES, type RegisterRequest } from '../../../lib/api/auth.js';

export interface RegistrationForm extends RegisterRequest {
  /** The terms checkbox: required here, never sent (accepting them is the act of registering). */
  acceptedTerms: boolean;
}

export const TERMS_REQUIRED = 'Accept the terms to create an account.';

export function readRegistrationForm(form: HTMLFormElement): RegistrationForm {
  const values = new FormData(form);
  return {
    name: String(values.get('name') ?? ''),
    email: String(values.get('email') ?? ''),
    password: String(values.get('password') ?? ''),
    newsletter: values.get('newsletter') === 'on',
    acceptedTerms: values.get('terms') === 'on',
  };
}

/**
 * The problems the form can see without the server, every one of them at once: empty fields and
 * the terms. Everything else (the e-mail's shape, the password policy, a taken address) is the
 * server's answer, so the rules live in one place.
 */
export function registrationProblems(form: RegistrationForm): Record<string, string[]> | null {
  const fields: Record<string, string[]> = {};
  if (!form.name.trim()) fields.name = ['Enter your name'];
  if (!form.email.trim()) fields.email = ['Enter your e-mail address'];
  if (!form.password) fields.password = [PASSWORD_MESSAGES.required];
  if (!form.acceptedTerms) fields.terms = [TERMS_REQUIRED];
  return Object.keys(fields).length ? fields : null;
}
