/**
 * What an answer to a write means for the person who sent it: whether it may be sent again
 * (`writeMeaning`, by the contract's one table) and its words (`explainWriteFailure`, through the one
 * translator). Apart from `api-error-class.ts` so that the first page, which writes nothing, loads none of it.
 */
import { isConfigurationStatus, writeOutcome } from '@/contract/write-outcome';
import { writeAnswerOf, type ApiFailure } from './api-error';
import { CONFIGURATION, explainFailure, statusText, whoAnswered, type FailureText } from './api-error-class';

/**
 * What an answer to a write (a product create) means, the same for the editor and the import: the
 * contract's one table (`src/contract/write-outcome.ts`, which the server reads too), read from what the
 * browser saw of the answer:
 * - `not-processed`: the answer itself says the request was not handled (429, or 503 with `Retry-After`),
 *   so sending it again cannot create a second product. `afterMs` is how long to wait first (null: the
 *   caller's own back-off).
 * - `refused`: a 4xx other than 401, 403 and 429: the request was refused; nothing was written.
 * - `configuration`: 401 or 403: nothing can succeed until whoever runs the server fixes a key or a right.
 * - `unknown`: no answer, none in time, an answer that could not be read, or a server error (a 503
 *   without `Retry-After` among them): the product may exist, so it is never sent again without a person
 *   deciding.
 */
export type WriteMeaning =
  | { type: 'not-processed'; status: number; afterMs: number | null }
  | { type: 'refused'; status: number }
  | { type: 'configuration'; status: 401 | 403 }
  | { type: 'unknown' };

export function writeMeaning(error: unknown, now: number = Date.now()): WriteMeaning {
  const outcome = writeOutcome(writeAnswerOf(error), now);
  switch (outcome.kind) {
    case 'not-processed':
      return { type: 'not-processed', status: outcome.status, afterMs: outcome.afterMs };
    case 'rejected':
      return isConfigurationStatus(outcome.status)
        ? { type: 'configuration', status: outcome.status }
        : { type: 'refused', status: outcome.status };
    // A success is not an error: the fetch layer returned it, and nothing here is asked about it.
    case 'done':
    case 'unknown':
      return { type: 'unknown' };
  }
}

/** For a write: true when the platform may have done it although no clear answer says so (see `writeMeaning`). */
export function isOutcomeUnknown(error: unknown): boolean {
  return writeMeaning(error).type === 'unknown';
}

/** The words that differ between a create and an update; the rest of a failed write's words are the same. */
const WRITE_WORDS = {
  create: {
    nothing: 'Nothing was created.',
    notProcessed: 'The product was not created: the answer says the request was not processed.',
    unknownTitle: "We can't tell whether the product was created",
    unknown: 'The product may have been created.',
    mayNot: 'You may not create products on this site',
    notAccepted: 'did not accept the product',
  },
  update: {
    nothing: 'Nothing was saved.',
    notProcessed: 'Nothing was saved: the answer says the request was not processed.',
    unknownTitle: "We can't tell whether your changes were saved",
    unknown: 'The changes may have been saved.',
    mayNot: 'You may not change products on this site',
    notAccepted: 'did not accept the changes',
  },
} as const;

export type WriteKindWords = keyof typeof WRITE_WORDS;

/** What a failed write means, by `writeMeaning`: the same words for the editor, a correction and the import. */
function writeText(
  error: unknown,
  failure: ApiFailure,
  what: string,
  write: WriteKindWords,
): Pick<FailureText, 'title' | 'message'> & { details?: boolean } {
  const words = WRITE_WORDS[write];
  const meaning = writeMeaning(error);
  switch (meaning.type) {
    case 'not-processed':
      return { title: `${whoAnswered(failure)} asked us to slow down`, message: `${what} ${words.notProcessed}` };
    case 'unknown':
      return { title: words.unknownTitle, message: `${what} ${words.unknown}` };
    case 'configuration':
      return failure.type === 'configuration' && failure.by === 'server'
        ? failure.status === 401
          ? { title: 'Your sign-in has ended', message: `${what} ${words.nothing}` }
          : { title: words.mayNot, message: `${what} ${words.nothing}` }
        : {
            title: meaning.status === 401 ? 'The platform refused our server’s credentials' : 'Our server has no permission on this site',
            message: `${what} ${words.nothing} ${CONFIGURATION}`,
          };
    case 'refused':
      if (write === 'update' && meaning.status === 404) {
        return { title: 'The product is no longer on the platform', message: `${what} ${words.nothing}` };
      }
      return {
        title: `${whoAnswered(failure)} ${words.notAccepted} (${statusText(meaning.status)})`,
        message: `${what} ${words.nothing}`,
        details: true,
      };
  }
}

/** The one translator's words for a failed write: a create (the editor, an import's product) or an update. */
export function explainWriteFailure(error: unknown, write: WriteKindWords = 'create'): FailureText {
  return explainFailure(error, { kind: 'other', textOf: (failure, what) => writeText(error, failure, what, write) });
}
