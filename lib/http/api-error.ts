/** The JSON error body every `/api` endpoint answers with (docs/errors.md). */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Field-level details, present on validation failures. */
  fields?: Record<string, string[]>;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorBody).statusCode === 'number' &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}
