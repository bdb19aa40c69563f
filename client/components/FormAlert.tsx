import type { ReactNode } from 'react';
import { ApiError } from '../app/api-client.js';

/** The per-field messages of a failed request (`{ fields }` of the API's validation errors). */
export function fieldErrors(error: unknown): Record<string, string[]> {
  return error instanceof ApiError ? error.fields : {};
}

/** A failure that no field explains (wrong credentials, a conflict, the network): its message. */
export function formErrorMessage(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError) return Object.keys(error.fields).length ? null : error.message;
  return 'Something went wrong. Try again.';
}

/**
 * The form-level error of a mutation, at the top of its form where the user is looking; field
 * errors are shown beside their fields instead (pass the mutation's error to both).
 */
export function FormAlert({ error, children }: { error: unknown; children?: ReactNode }) {
  const message = formErrorMessage(error);
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {message}
      {children ? <> {children}</> : null}
    </div>
  );
}
