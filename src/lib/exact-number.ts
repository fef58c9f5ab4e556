/**
 * A number of a case as the platform wrote it, where a JavaScript number would change it (see
 * `exact-json.ts`, which reads them). Apart from the parser so that code which only asks "is this an exact
 * number?" (the lookup page's title) does not load lossless-json's parser with the first page.
 */
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';

/** A JSON number that a JavaScript number would not print back as written; `toString()` is its text. */
export type ExactNumber = LosslessNumber;

export function isExactNumber(value: unknown): value is ExactNumber {
  return isLosslessNumber(value);
}
