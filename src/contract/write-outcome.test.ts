import { describe, expect, it } from 'vitest';
import { recordedOutcome, retryAfterMs, WRITE_KINDS, writeOutcome, type WriteAnswer, type WriteOutcome } from './write-outcome';

const now = Date.parse('2026-03-01T10:00:00Z');
const answer = (status: number, more: Partial<Extract<WriteAnswer, { kind: 'answer' }>> = {}): WriteAnswer => ({
  kind: 'answer',
  status,
  readable: true,
  retryAfter: null,
  ...more,
});
const rejected = (status: number, configuration = false): WriteOutcome => ({
  kind: 'rejected',
  status,
  configuration,
  message: null,
  details: [],
});

describe('writeOutcome: the one table of what an answer to a write means', () => {
  const table: [string, WriteAnswer, WriteOutcome][] = [
    ['no answer, none in time, or one broken off', { kind: 'none' }, { kind: 'unknown' }],
    ['200', answer(200), { kind: 'done', status: 200 }],
    ['201', answer(201), { kind: 'done', status: 201 }],
    ['200 that is not the JSON promised', answer(200, { readable: false }), { kind: 'unknown' }],
    ['204 that is not the JSON promised', answer(204, { readable: false }), { kind: 'unknown' }],
    ['101 (no answer of Site API v2)', answer(101), { kind: 'unknown' }],
    ['302 (no answer of Site API v2)', answer(302), { kind: 'unknown' }],
    ['400', answer(400), rejected(400)],
    ['401', answer(401), rejected(401, true)],
    ['403', answer(403), rejected(403, true)],
    ['404', answer(404), rejected(404)],
    ['409', answer(409), rejected(409)],
    ['413', answer(413), rejected(413)],
    ['422, whose body could not be read: the status decides', answer(422, { readable: false }), rejected(422)],
    ['429 with Retry-After', answer(429, { retryAfter: '5' }), { kind: 'not-processed', status: 429, afterMs: 5000 }],
    ['429 without Retry-After', answer(429), { kind: 'not-processed', status: 429, afterMs: null }],
    ['500', answer(500), { kind: 'unknown' }],
    ['502', answer(502), { kind: 'unknown' }],
    [
      '503 with Retry-After as a date',
      answer(503, { retryAfter: 'Sun, 01 Mar 2026 10:00:30 GMT' }),
      { kind: 'not-processed', status: 503, afterMs: 30_000 },
    ],
    ['503 with Retry-After in seconds', answer(503, { retryAfter: '30' }), { kind: 'not-processed', status: 503, afterMs: 30_000 }],
    ['503 without Retry-After', answer(503), { kind: 'unknown' }],
    ['503 with a Retry-After that does not read', answer(503, { retryAfter: 'soon' }), { kind: 'unknown' }],
    ['504', answer(504), { kind: 'unknown' }],
    ['600 (no status of HTTP)', answer(600), { kind: 'unknown' }],
  ];
  it.each(table)('%s', (_name, input, outcome) => {
    expect(writeOutcome(input, now)).toEqual(outcome);
  });

  it('keeps what a refusal said', () => {
    const details = [{ field: 'slug', message: 'is taken' }];
    expect(writeOutcome(answer(422, { message: 'Slug taken', details }), now)).toEqual({
      kind: 'rejected',
      status: 422,
      configuration: false,
      message: 'Slug taken',
      details,
    });
  });

  it('names a write that was done as its kind does, and every other outcome as the table does', () => {
    for (const kind of Object.keys(WRITE_KINDS) as (keyof typeof WRITE_KINDS)[]) {
      expect(recordedOutcome({ kind: 'done', status: 200 }, kind)).toBe(WRITE_KINDS[kind].done);
      expect(recordedOutcome(rejected(422), kind)).toBe('rejected');
      expect(recordedOutcome({ kind: 'not-processed', status: 429, afterMs: null }, kind)).toBe('not-processed');
      expect(recordedOutcome({ kind: 'unknown' }, kind)).toBe('unknown');
    }
    expect(recordedOutcome({ kind: 'done', status: 200 }, 'create-product')).toBe('created');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else; a long wait is read as ten minutes', () => {
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs(' 5 ', now)).toBe(5000);
    expect(retryAfterMs('Sun, 01 Mar 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(600_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
