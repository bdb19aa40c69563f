/** The JSON error body every `/api` endpoint answers with (docs/errors.md). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /**
   * Field-level details: present on validation failures, and on refusals that concern one field of
   * the request (a wrong current password, an e-mail address that is taken), so a form can show
   * each message beside the field it is about.
   */
  fields?: Record<string, string[]>;
  /** A domain error's code (`EMAIL_TAKEN`, `WRONG_PASSWORD`, `CSRF_INVALID` …), for clients that branch on it. */
  code?: string;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorBody).statusCode === 'number' &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}
