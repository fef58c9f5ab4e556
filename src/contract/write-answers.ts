/**
 * Every answer a platform can give a write, and what each reader makes of it by the one table
 * (write-outcome.ts): the activity record's outcome, the import's status for the product, what the browser
 * receives from our server, and what the page then makes of it. Tests only: the server's test sends each
 * through the whole server to a stand-in platform (server/write-outcome.test.ts), the page's reads what the
 * browser receives as the fetch layer would (src/lib/failure-table.test.ts).
 */

/** What the stand-in platform does with a create. */
export type PlatformBehaviour =
  /** Answers `status`, with a JSON body in the spec's shape (or `html`: a page that is not JSON). */
  | { answers: number; retryAfter?: string; html?: true }
  /** Closes the connection without a word. */
  | { does: 'drop' }
  /** Never answers (the proxy's time limit ends it). */
  | { does: 'hang' }
  /** Answers 200, then breaks off midway through the body. */
  | { does: 'break-off' };

export interface WriteAnswerRow {
  name: string;
  platform: PlatformBehaviour;
  /** What the browser receives from our server: its status, `x-platform-status` (null: none) and `Retry-After`. */
  browser: { status: number; platformStatus: number | null; retryAfter: string | null };
  /** The outcome of the create's entry in the activity record. */
  record: 'created' | 'rejected' | 'not-processed' | 'unknown';
  /** The import's status for the product afterwards (`pending`: not sent, sent again in its turn). */
  import: 'created' | 'rejected' | 'pending' | 'unknown';
  /** What the page makes of it: created (the fetch layer returns the answer), or `writeMeaning`'s type. */
  page: 'created' | 'refused' | 'configuration' | 'not-processed' | 'unknown';
}

const answered = (status: number) => ({ status, platformStatus: status, retryAfter: null });
const REJECTED = { record: 'rejected', import: 'rejected', page: 'refused' } as const;
const UNKNOWN = { record: 'unknown', import: 'unknown', page: 'unknown' } as const;
const NOT_PROCESSED = { record: 'not-processed', import: 'pending', page: 'not-processed' } as const;

export const WRITE_ANSWERS: readonly WriteAnswerRow[] = [
  { name: '200', platform: { answers: 200 }, browser: answered(200), record: 'created', import: 'created', page: 'created' },
  { name: '201', platform: { answers: 201 }, browser: answered(201), record: 'created', import: 'created', page: 'created' },
  {
    name: '200 with a body that is not JSON',
    platform: { answers: 200, html: true },
    browser: { status: 502, platformStatus: 200, retryAfter: null },
    ...UNKNOWN,
  },
  {
    name: '200 broken off midway',
    platform: { does: 'break-off' },
    browser: { status: 502, platformStatus: 200, retryAfter: null },
    ...UNKNOWN,
  },
  {
    name: '302 (not an answer of Site API v2)',
    platform: { answers: 302 },
    browser: { status: 502, platformStatus: 302, retryAfter: null },
    ...UNKNOWN,
  },
  { name: '400', platform: { answers: 400 }, browser: answered(400), ...REJECTED },
  { name: '401', platform: { answers: 401 }, browser: answered(401), ...REJECTED, page: 'configuration' },
  { name: '403', platform: { answers: 403 }, browser: answered(403), ...REJECTED, page: 'configuration' },
  { name: '404', platform: { answers: 404 }, browser: answered(404), ...REJECTED },
  { name: '409', platform: { answers: 409 }, browser: answered(409), ...REJECTED },
  { name: '413', platform: { answers: 413 }, browser: answered(413), ...REJECTED },
  { name: '422', platform: { answers: 422 }, browser: answered(422), ...REJECTED },
  { name: '422 in HTML', platform: { answers: 422, html: true }, browser: answered(422), ...REJECTED },
  {
    name: '429 with Retry-After',
    platform: { answers: 429, retryAfter: '2' },
    browser: { status: 429, platformStatus: 429, retryAfter: '2' },
    ...NOT_PROCESSED,
  },
  { name: '429 without Retry-After', platform: { answers: 429 }, browser: answered(429), ...NOT_PROCESSED },
  { name: '500', platform: { answers: 500 }, browser: answered(500), ...UNKNOWN },
  { name: '500 in HTML', platform: { answers: 500, html: true }, browser: answered(500), ...UNKNOWN },
  { name: '502', platform: { answers: 502 }, browser: answered(502), ...UNKNOWN },
  {
    name: '503 with Retry-After',
    platform: { answers: 503, retryAfter: '30' },
    browser: { status: 503, platformStatus: 503, retryAfter: '30' },
    ...NOT_PROCESSED,
  },
  {
    name: '503 with Retry-After as a date',
    platform: { answers: 503, retryAfter: 'Sun, 01 Mar 2026 10:00:30 GMT' },
    browser: { status: 503, platformStatus: 503, retryAfter: 'Sun, 01 Mar 2026 10:00:30 GMT' },
    ...NOT_PROCESSED,
  },
  { name: '503 without Retry-After', platform: { answers: 503 }, browser: answered(503), ...UNKNOWN },
  {
    name: '503 with a Retry-After that does not read',
    platform: { answers: 503, retryAfter: 'soon' },
    browser: answered(503),
    ...UNKNOWN,
  },
  { name: '504', platform: { answers: 504 }, browser: answered(504), ...UNKNOWN },
  {
    name: 'no answer (the connection closed)',
    platform: { does: 'drop' },
    browser: { status: 502, platformStatus: null, retryAfter: null },
    ...UNKNOWN,
  },
  { name: 'no answer in time', platform: { does: 'hang' }, browser: { status: 504, platformStatus: null, retryAfter: null }, ...UNKNOWN },
];
