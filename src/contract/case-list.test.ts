import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CASE_LIST_SORT_ORDERS,
  CASE_LIST_SORT_TYPES,
  caseListSearch,
  checkCaseListQuery,
  describeListEnvelope,
  envelopesMatching,
  readListEnvelope,
  type CaseListQuery,
} from './case-list';

const fieldName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/);
const text = fc.string({ maxLength: 40 });
const condition = fc.oneof(
  text,
  fc.integer(),
  fc.boolean(),
  fc.record({ gt: fc.oneof(fc.integer(), text), lt: fc.oneof(fc.integer(), text) }, { requiredKeys: ['gt'] }),
  fc.record({ contains: fc.string({ minLength: 1, maxLength: 40 }) }),
);
const query: fc.Arbitrary<CaseListQuery> = fc.record(
  {
    per_page: fc.integer({ min: 1, max: 500 }),
    page: fc.integer({ min: 1, max: 1_000_000 }),
    sort_type: fc.constantFrom(...CASE_LIST_SORT_TYPES),
    sort_order: fc.constantFrom(...CASE_LIST_SORT_ORDERS),
    filter: fc.dictionary(fieldName, condition, { maxKeys: 5 }),
  },
  { requiredKeys: [] },
);

describe('the list’s query', () => {
  it('is built by the browser as the server checks it: every query we send is admitted unchanged', () => {
    fc.assert(
      fc.property(query, (asked) => {
        const search = caseListSearch(asked);
        const check = checkCaseListQuery(search.slice(1));
        expect(check).toEqual({ ok: true, query: asked, search });
      }),
    );
  });

  it('refuses a filter with a key given twice, since its text goes on as written', () => {
    expect(checkCaseListQuery(`filter=${encodeURIComponent('{"email":{"like":"x"},"email":"a"}')}`)).toEqual({
      ok: false,
      details: [{ field: 'filter', message: 'has the key "email" more than once' }],
    });
  });

  it('reads + as a space, as a form writes it', () => {
    expect(checkCaseListQuery('filter=%7B%22name%22%3A%22Ana+Ng%22%7D')).toMatchObject({ ok: true, query: { filter: { name: 'Ana Ng' } } });
  });
});

describe('the envelopes', () => {
  it('tell which envelopes an answer fits, for the profile check', () => {
    expect(envelopesMatching({ results: [], total_entries: 0, total_pages: 0, current_page: 1, per_page: 20 })).toEqual(['results']);
    expect(envelopesMatching({ data: [{}], meta: { total: 1, page: 1, per_page: 20 } })).toEqual(['data-meta']);
    expect(envelopesMatching([{ id: '1' }])).toEqual(['array']);
    expect(envelopesMatching({})).toEqual([]);
    // Keys beyond the envelope's are allowed, as an API adds fields over time.
    expect(
      envelopesMatching({ results: [], total_entries: 0, total_pages: 0, current_page: 1, per_page: 20, has_next_page: false }),
    ).toEqual(['results']);
  });

  it('are described once, as their answers look', () => {
    expect(describeListEnvelope('results')).toBe(
      '{"results": [...], "total_entries": 340, "total_pages": 17, "current_page": 1, "per_page": 20}',
    );
    expect(describeListEnvelope('data-meta')).toBe('{"data": [...], "meta": {"total": 340, "page": 1, "per_page": 20}}');
    expect(describeListEnvelope('array')).toBe('[...]');
  });

  it('names what is missing', () => {
    expect(readListEnvelope('data-meta', { data: [] })).toEqual({ ok: false, problem: 'it has no "meta" object' });
    expect(readListEnvelope('data-meta', { data: [], meta: { total: 1, page: 1 } })).toEqual({
      ok: false,
      problem: 'it has no "meta.per_page"',
    });
    expect(readListEnvelope('results', { results: [], total_entries: 1.5 })).toEqual({
      ok: false,
      problem: '"total_entries" is not a whole number',
    });
  });
});
