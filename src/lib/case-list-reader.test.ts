import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_ENVELOPE, type ListEnvelope } from '@/contract/case-list';
import { ApiError } from './api-error';
import { ListEnvelopeError, listEnvelopeOf, readCaseListAnswer } from './case-list-reader';
import { parseExactJson } from './exact-json';
import { isExactNumber } from './exact-number';

const CASE_A = '{"id":"50001","created_at":1777600000,"properties":{"email":"ana@example.com","order_id":12345678901234567890}}';
const CASE_B = '{"id":"50003","created_at":1777700000,"properties":{}}';

/** The sandbox's answer to `?per_page=2&page=3` of a form of 7 cases: the default envelope. */
const RESULTS = `{"results":[${CASE_A},${CASE_B}],"total_entries":7,"total_pages":4,"current_page":3,"per_page":2}`;
const DATA_META = `{"data":[${CASE_A},${CASE_B}],"meta":{"total":"7","page":"3","per_page":"2"}}`;
const ARRAY = `[${CASE_A},${CASE_B}]`;

const ok = (text: string) => ({ status: 200, platformStatus: 200, text });
const asked = { page: 3, perPage: 2 };

function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('expected the reader to throw');
}

describe('readCaseListAnswer', () => {
  it('reads the default envelope: the cases, the total, whether more pages follow', () => {
    expect(DEFAULT_LIST_ENVELOPE).toBe('results');
    const page = readCaseListAnswer(ok(RESULTS), 'results', asked);
    expect(page).toMatchObject({ total: 7, page: 3, perPage: 2, hasMore: true, noCases: false });
    expect(page.cases.map((c) => c.id)).toEqual(['50001', '50003']);
    const last = readCaseListAnswer(ok(RESULTS.replace('"current_page":3', '"current_page":4')), 'results', { page: 4, perPage: 2 });
    expect(last.hasMore).toBe(false);
  });

  it('keeps every number as the platform wrote it with the exact parser', () => {
    const page = readCaseListAnswer(ok(RESULTS), 'results', asked, parseExactJson);
    const orderId = (page.cases[0]?.properties as Record<string, unknown>).order_id;
    expect(isExactNumber(orderId) && String(orderId)).toBe('12345678901234567890');
  });

  it('reads the other envelopes when the profile names them, counts written as strings too', () => {
    expect(readCaseListAnswer(ok(DATA_META), 'data-meta', asked)).toMatchObject({ total: 7, hasMore: true });
    // Without totals, only a full page says more may follow.
    expect(readCaseListAnswer(ok(ARRAY), 'array', asked)).toMatchObject({ total: null, hasMore: true });
    expect(readCaseListAnswer(ok(`[${CASE_A}]`), 'array', asked)).toMatchObject({ total: null, hasMore: false });
  });

  it('takes the platform’s 404 as a page without cases, never an error', () => {
    const text = '{"error":"Not Found","message":"The form does not contain any cases","code":404}';
    expect(readCaseListAnswer({ status: 404, platformStatus: 404, text }, 'results', { page: 1, perPage: 50 })).toEqual({
      cases: [],
      total: 0,
      page: 1,
      perPage: 50,
      hasMore: false,
      noCases: true,
    });
  });

  it('keeps our own server’s 404 (no such site) and other errors as errors, with what was said', () => {
    const text = '{"error":"Not Found","message":"No site called \\"x\\" is configured on this server.","code":404}';
    const error = thrown(() => readCaseListAnswer({ status: 404, platformStatus: null, text }, 'results', asked));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ListEnvelopeError);
    expect((error as ApiError).failure).toEqual({ type: 'answered', status: 404, by: 'server' });
    const refused =
      '{"error":"Unprocessable Entity","message":"bad","code":422,"details":[{"field":"per_page","message":"must be a whole number from 1 to 500"}]}';
    const invalid = thrown(() => readCaseListAnswer({ status: 422, platformStatus: null, text: refused }, 'results', asked)) as ApiError;
    expect(invalid.details).toEqual([{ field: 'per_page', message: 'must be a whole number from 1 to 500' }]);
  });

  it.each<[string, string, ListEnvelope, RegExp, ListEnvelope[]]>([
    ['another envelope than the profile names', DATA_META, 'results', /it has no "results"/, ['data-meta']],
    ['the default envelope where the profile names another', RESULTS, 'data-meta', /it has no "data"/, ['results']],
    ['a bare list where totals are expected', ARRAY, 'results', /not a JSON object/, ['array']],
    ['an object where a bare list is expected', RESULTS, 'array', /not a list/, ['results']],
    [
      'a total that is not a count',
      RESULTS.replace('"total_entries":7', '"total_entries":-1'),
      'results',
      /"total_entries" is not a whole number/,
      [],
    ],
    ['a case that is not an object', RESULTS.replace(CASE_B, '"50003"'), 'results', /item \(number 2\)/, []],
    ['another page than asked', RESULTS, 'results', /page 3, not page 1/, ['results']],
    ['an empty object, as the documentation’s example', '{}', 'results', /it has no "results"/, []],
  ])('refuses %s, with the raw answer and the envelope it fits', (_what, text, envelope, problem, found) => {
    const on = _what === 'another page than asked' ? { page: 1, perPage: 2 } : asked;
    const error = thrown(() => readCaseListAnswer(ok(text), envelope, on));
    expect(error).toBeInstanceOf(ListEnvelopeError);
    const refused = error as ListEnvelopeError;
    expect(refused.raw).toBe(text);
    expect(refused.expected).toBe(envelope);
    expect(refused.found).toEqual(found);
    expect(refused.problem).toMatch(problem);
    expect(refused.failure).toEqual({ type: 'unreadable', status: 200, by: 'platform', cutOff: false });
    expect(refused.message).toContain(`"${envelope}" envelope`);
    if (found.length > 0) expect(refused.message).toContain(`It is the "${found[0]}" envelope`);
  });

  it('refuses a page whose size is not the one asked for (the platform ignored per_page)', () => {
    const error = thrown(() => readCaseListAnswer(ok(RESULTS), 'results', { page: 3, perPage: 50 })) as ListEnvelopeError;
    expect(error.problem).toBe('its pages hold 2 cases, not 50 as asked');
  });

  it('says an answer that is not JSON is not JSON', () => {
    const error = thrown(() => readCaseListAnswer(ok('<html>'), 'results', asked)) as ApiError;
    expect(error).not.toBeInstanceOf(ListEnvelopeError);
    expect(error.failure.type).toBe('unreadable');
  });
});

describe('listEnvelopeOf', () => {
  it('is the profile’s setting, or the default', () => {
    expect(listEnvelopeOf({})).toBe('results');
    expect(listEnvelopeOf({ lists: {} })).toBe('results');
    expect(listEnvelopeOf({ lists: { envelope: 'array' } })).toBe('array');
  });
});
