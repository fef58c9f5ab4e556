import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '@/contract/site-api';
import { readErrorBody } from './error-body';

/** What the contract's schema makes of a value: its output, or null when it refuses it. */
const bySchema = (value: unknown) => {
  const parsed = errorBodySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** Error bodies, near misses and anything else: each field right, wrong or missing, with extra keys now and then. */
const field = <T>(right: fc.Arbitrary<T>) => fc.option(fc.oneof(right, fc.jsonValue()), { nil: undefined });
const detail = fc.oneof(
  fc.record({ field: field(fc.string()), message: field(fc.string()), extra: field(fc.string()) }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const candidate = fc.oneof(
  fc.record(
    {
      error: field(fc.string()),
      message: field(fc.string()),
      code: field(fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 60))),
      details: field(fc.array(detail, { maxLength: 3 })),
      extra: field(fc.string()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

describe('readErrorBody', () => {
  it('accepts what errorBodySchema accepts, refuses what it refuses, and gives what it gives', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        expect(readErrorBody(value)).toEqual(bySchema(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a 422 with its details, leaving out keys the contract does not name', () => {
    const body = {
      error: 'Unprocessable Entity',
      message: 'Invalid',
      code: 422,
      details: [{ field: 'slug', message: 'Taken', hint: 'x' }],
      trace: 'abc',
    };
    expect(readErrorBody(body)).toEqual({
      error: 'Unprocessable Entity',
      message: 'Invalid',
      code: 422,
      details: [{ field: 'slug', message: 'Taken' }],
    });
    expect(readErrorBody({ ...body, code: 422.5 })).toBeNull();
    expect(readErrorBody('<html>')).toBeNull();
  });
});
