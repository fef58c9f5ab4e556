/**
 * Rules that need no schema library, kept apart so the case lookup (the first page) loads none:
 * what a form or case identifier can look like, and the latest date a shop means.
 */
import type { ErrorDetail } from './site-api';

/** Identifiers of forms and cases: what a platform identifier can look like. */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** 9999-12-31T23:59:59Z: beyond it a date is not a date a shop means. */
export const MAX_EPOCH_SECONDS = 253402300799;

/** The case lookup's identifiers; empty list when both can be identifiers. */
export function caseIdentifierViolations(form: string, id: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const describe = (value: string, what: string) => {
    if (value === '') return `${what} is empty`;
    if (value.length > 64) return `${what} is longer than 64 characters`;
    return `${what} may contain only letters, digits, "_" and "-"`;
  };
  if (!IDENTIFIER_PATTERN.test(form)) details.push({ field: 'form', message: describe(form, 'The form identifier') });
  if (!IDENTIFIER_PATTERN.test(id)) details.push({ field: 'id', message: describe(id, 'The case identifier') });
  return details;
}
