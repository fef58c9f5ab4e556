/**
 * The error body of a failed call, read without zod: the fetch layer is on the first page, which loads
 * none. It accepts exactly what the contract's `errorBodySchema` accepts and gives what it would (unknown
 * keys left out), as `error-body.test.ts` checks against the schema on generated values.
 */
import type { ErrorBody, ErrorDetail } from '@/contract/site-api';
import { isJsonObject } from '@/contract/site-api-basics';

function readErrorDetail(value: unknown): ErrorDetail | null {
  return isJsonObject(value) && typeof value.field === 'string' && typeof value.message === 'string'
    ? { field: value.field, message: value.message }
    : null;
}

/** An error body (`{"error", "message", "code", "details"?}`), or null when it is not one. */
export function readErrorBody(value: unknown): ErrorBody | null {
  if (!isJsonObject(value)) return null;
  const { error, message, code, details } = value;
  if (typeof error !== 'string' || typeof message !== 'string' || typeof code !== 'number' || !Number.isSafeInteger(code)) return null;
  const body: ErrorBody = { error, message, code };
  if (details === undefined) return body;
  if (!Array.isArray(details)) return null;
  const read = details.map(readErrorDetail);
  return read.every((detail) => detail !== null) ? { ...body, details: read } : null;
}
