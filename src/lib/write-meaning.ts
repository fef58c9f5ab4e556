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

/** What a failed create means, by `writeMeaning`: the same words for the editor and the import. */
function createText(error: unknown, failure: ApiFailure, what: string): Pick<FailureText, 'title' | 'message'> & { details?: boolean } {
  const meaning = writeMeaning(error);
  switch (meaning.type) {
    case 'not-processed':
      return {
        title: `${whoAnswered(failure)} asked us to slow down`,
        message: `${what} The product was not created: the answer says the request was not processed.`,
      };
    case 'unknown':
      return { title: "We can't tell whether the product was created", message: `${what} The product may have been created.` };
    case 'configuration':
      return failure.type === 'configuration' && failure.by === 'server'
        ? failure.status === 401
          ? { title: 'Your sign-in has ended', message: `${what} Nothing was created.` }
          : { title: 'You may not create products on this site', message: `${what} Nothing was created.` }
        : {
            title: meaning.status === 401 ? 'The platform refused our server’s credentials' : 'Our server has no permission on this site',
            message: `${what} Nothing was created. ${CONFIGURATION}`,
          };
    case 'refused':
      return {
        title: `${whoAnswered(failure)} did not accept the product (${statusText(meaning.status)})`,
        message: `${what} Nothing was created.`,
        details: true,
      };
  }
}

/** The one translator's words for a failed write (a create, an update, an import's product). */
export function explainWriteFailure(error: unknown): FailureText {
  return explainFailure(error, { kind: 'other', textOf: (failure, what) => createText(error, failure, what) });
}
