/**
 * What a failed call was, classified once, where the fetch layer sees it: every `ApiError` carries its
 * `failure`, and everything else (the words a person reads, whether a create may be sent again, whether
 * the query client asks again) follows from that one classification (`api-error-class.ts`).
 *
 * A call goes browser → our server → the platform, so "no answer" can fail at either hop. Our server says
 * which: it adds the platform's status (`x-platform-status`) to every answer the platform gave, so a 502
 * without it means the platform could not be reached, and a 502 with it means the platform answered
 * something that is not JSON.
 *
 * What an answer to a write means is not decided here but by the one table of the contract
 * (`src/contract/write-outcome.ts`), which the server reads too: `writeAnswerOf` gives it what the browser saw.
 */
import type { ErrorDetail } from '@/contract/site-api';
import type { WriteAnswer } from '@/contract/write-outcome';
import { isConfigurationStatus } from '@/contract/write-status';

/** Which hop got no answer: the browser from our server, or our server from the platform. */
export type Hop = 'server' | 'platform';

export type ApiFailure =
  /** No answer at all, before anything arrived. */
  | { type: 'network'; hop: Hop }
  /** No complete answer in time: the browser's own limit (`hop: 'server'`) or our server's 504. */
  | { type: 'timeout'; hop: Hop }
  /** 401 or 403: whoever runs the server must fix credentials or permissions; nothing typed here helps. */
  | { type: 'configuration'; status: 401 | 403; by: Hop }
  /** An answer with an error status: 404, 422, 429, 500, ... `status` is the status of whoever answered. */
  | { type: 'answered'; status: number; by: Hop }
  /** An answer that could not be read: not JSON, not the expected shape, or broken off midway. */
  | { type: 'unreadable'; status: number; by: Hop; cutOff: boolean }
  /** Not a failure of the call at all: a fault in this page. */
  | { type: 'unexpected' };

/** The failures of a call (an `ApiError`'s); `unexpected` is a fault of the page's own. */
export type CallFailure = Exclude<ApiFailure, { type: 'unexpected' }>;

/** What the fetch layer got back, before it is classified. */
export type Received = 'error-body' | 'not-json' | 'cut-off';

/**
 * The classification of an answer: our server's `status`, the platform's status as our server reports it
 * (`platformStatus`, null when the platform gave no answer), and what arrived.
 */
export function classifyAnswer(status: number, platformStatus: number | null, received: Received): CallFailure {
  const by: Hop = platformStatus === null ? 'server' : 'platform';
  const answered = platformStatus ?? status;
  if (received === 'cut-off') return { type: 'unreadable', status: answered, by, cutOff: true };
  if (received === 'error-body' && platformStatus === null) {
    // Our server's own answers about the platform: it could not reach it, or gave up waiting.
    if (status === 502) return { type: 'network', hop: 'platform' };
    if (status === 504) return { type: 'timeout', hop: 'platform' };
  }
  // A success status with a body that is not the JSON expected (our server turns the platform's into a
  // 502, with the platform's 200 beside it). With an error status, the status says more than the body.
  if (answered < 400) return { type: 'unreadable', status: answered, by, cutOff: false };
  if (isConfigurationStatus(answered)) return { type: 'configuration', status: answered, by };
  return { type: 'answered', status: answered, by };
}

export class ApiError extends Error {
  /** What the failure was: the one classification every feature reads. */
  readonly failure: CallFailure;
  /** HTTP status of our server's answer; 0 when there was no answer. */
  readonly status: number;
  /** The words a server sent in its error body (its `message`), where one did; never our own wording. */
  readonly said: string | null;
  readonly details: readonly ErrorDetail[];
  /** The answer's `Retry-After` header as sent (seconds or an HTTP date); null without one. */
  readonly retryAfter: string | null;

  constructor(init: {
    failure: CallFailure;
    status: number;
    message: string;
    said?: string | null;
    details?: readonly ErrorDetail[];
    retryAfter?: string | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.failure = init.failure;
    this.status = init.status;
    this.said = init.said ?? null;
    this.details = init.details ?? [];
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** The failures the fetch layer throws, one constructor each; tests build theirs the same way. */
export const apiErrors = {
  noAnswer: (message = 'The server could not be reached.') =>
    new ApiError({ failure: { type: 'network', hop: 'server' }, status: 0, message }),
  noAnswerInTime: (seconds: number) =>
    new ApiError({ failure: { type: 'timeout', hop: 'server' }, status: 0, message: `No complete answer within ${seconds} seconds.` }),
  cutOff: (status: number, platformStatus: number | null) =>
    new ApiError({
      failure: classifyAnswer(status, platformStatus, 'cut-off'),
      status,
      message: `The server answered ${status}, but the answer broke off before it was complete.`,
    }),
  /** A body that is not JSON, or not the JSON expected (`message` says which). */
  notJson: (
    status: number,
    platformStatus: number | null,
    retryAfter: string | null = null,
    message = `The server answered ${status} with something that is not JSON.`,
  ) => new ApiError({ failure: classifyAnswer(status, platformStatus, 'not-json'), status, message, retryAfter }),
  /** An error status with an error body (`body` null when the body was JSON but not the spec's shape). */
  answered: (
    status: number,
    platformStatus: number | null,
    body: { message: string; details?: readonly ErrorDetail[] } | null,
    retryAfter: string | null = null,
  ) =>
    new ApiError({
      failure: classifyAnswer(status, platformStatus, 'error-body'),
      status,
      message: body ? body.message : `The server answered ${status}.`,
      said: body?.message || null,
      details: body?.details,
      retryAfter,
    }),
};

/** The failure of any error: an `ApiError`'s own, else a fault in this page. */
export function classifyApiError(error: unknown): ApiFailure {
  return error instanceof ApiError ? error.failure : { type: 'unexpected' };
}

/**
 * What the browser saw of a write's answer, for the contract's table: an answer's status (the platform's
 * when it answered) with what it said; none for no answer at either hop, none in time, one broken off, or
 * a fault of the page's own (nothing says what happened to the write).
 */
export function writeAnswerOf(error: unknown): WriteAnswer {
  const failure = classifyApiError(error);
  const said = error instanceof ApiError ? { retryAfter: error.retryAfter, message: error.said, details: error.details } : null;
  switch (failure.type) {
    case 'network':
    case 'timeout':
    case 'unexpected':
      return { kind: 'none' };
    case 'unreadable':
      return failure.cutOff
        ? { kind: 'none' }
        : { kind: 'answer', status: failure.status, readable: false, retryAfter: said?.retryAfter ?? null };
    case 'configuration':
    case 'answered':
      return { kind: 'answer', status: failure.status, readable: true, retryAfter: null, ...said };
  }
}
