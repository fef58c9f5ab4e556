/**
 * A server's refusal of a form, field by field: the `details` of its error body (`{field, message}`), for a
 * form to show with react-hook-form's `setError` beside the fields they name.
 */
import { ApiError } from './api-error';
import { ownApiFailureText } from './own-api-failure';

/** The details of a 400 or 409 that name one of `fields`, by field; empty for any other failure. */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]): Partial<Record<F, string>> {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return {};
  const found: Partial<Record<F, string>> = {};
  for (const detail of error.details) {
    const field = fields.find((name) => name === detail.field);
    if (field) found[field] = found[field] ? `${found[field]} ${detail.message}` : detail.message;
  }
  return found;
}

/** What a failed call tells the person beside the form: the one translator's words (`own-api-failure.ts`). */
export const failureMessage = (error: unknown): string => ownApiFailureText(error);
