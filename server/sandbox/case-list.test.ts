/**
 * The sandbox's list of a form's cases, `GET /forms/{form}/cases`, against a real SQLite store: paging
 * and its limit, sorting, filtering with the JSON object syntax, the 404 of an empty list, the two
 * headers, and a case added through /__sandbox/cases appearing in the list. What each page must hold is
 * worked out here from the seed itself, not from the code under test.
 */
import fc from 'fast-check';
import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASE_LIST_SORT_TYPES } from '../../src/contract/case-list';
import { errorBodySchema, type ErrorBody } from '../../src/contract/site-api';
import { errorShapeProblems, fuzzRuns } from '../testing/test-helpers';
import { createSandboxApp } from './app';
import { seedWarrantyClaims, WARRANTY_CLAIMS, WARRANTY_FORM } from './seed';
import { openStore, type SandboxStore } from './store';

const BASE = '/api/site/v2';
const AUTH = { 'x-api-key': 'k', 'x-site-id': '1001' } as const;

let store: SandboxStore;
let app: ReturnType<typeof createSandboxApp>;

beforeEach(() => {
  store = openStore(':memory:', ['1001', '1002']);
  app = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001', '1002'] });
});
afterEach(() => store.close());

interface Case {
  id: string;
  created_at: number;
  properties: Record<string, unknown>;
}
interface ListBody {
  results: Case[];
  total_entries: number;
  total_pages: number;
  current_page: number;
  per_page: number;
}

const claims = seedWarrantyClaims();
const claimIds = (cases: readonly { record: Record<string, unknown> }[]) => cases.map((c) => c.record.id);
const byCreated = (direction: 1 | -1) =>
  [...claims].sort((a, b) => direction * ((a.record.created_at as number) - (b.record.created_at as number)));

const list = (query = '', headers: Record<string, string> = AUTH, form = WARRANTY_FORM) =>
  app.request(`${BASE}/forms/${form}/cases${query}`, { headers });

async function page(query = '', form = WARRANTY_FORM): Promise<ListBody> {
  const res = await list(query, AUTH, form);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as ListBody;
}

async function errorOf(res: Response, status: number): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  const body: unknown = await res.json();
  expect(z.strictObject(errorBodySchema.shape).safeParse(body).success, JSON.stringify(body)).toBe(true);
  expect((body as ErrorBody).code).toBe(status);
  return body as ErrorBody;
}

const filter = (value: unknown) => `filter=${encodeURIComponent(JSON.stringify(value))}`;

describe('paging', () => {
  it('answers the newest 20 in the default envelope when nothing is asked', async () => {
    const body = await page();
    expect(Object.keys(body).sort()).toEqual(['current_page', 'per_page', 'results', 'total_entries', 'total_pages']);
    expect(body).toMatchObject({
      total_entries: WARRANTY_CLAIMS,
      total_pages: Math.ceil(WARRANTY_CLAIMS / 20),
      current_page: 1,
      per_page: 20,
    });
    expect(body.results.map((c) => c.id)).toEqual(claimIds(byCreated(-1).slice(0, 20)));
  });

  it('goes through every case exactly once, page by page, in order', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 4; n += 1) {
      const body = await page(`?per_page=100&page=${n}&sort_type=created_at&sort_order=asc`);
      expect(body).toMatchObject({ current_page: n, per_page: 100, total_pages: 4, total_entries: WARRANTY_CLAIMS });
      expect(body.results.length).toBe(n < 4 ? 100 : WARRANTY_CLAIMS - 300);
      seen.push(...body.results.map((c) => c.id));
    }
    expect(seen).toEqual(claimIds(byCreated(1)));
  });

  it('answers up to 500 a page, and 422 in the spec’s shape over it', async () => {
    expect((await page('?per_page=500')).results).toHaveLength(WARRANTY_CLAIMS);
    const error = await errorOf(await list('?per_page=501'), 422);
    expect(error.details).toEqual([{ field: 'per_page', message: expect.stringMatching(/1 to 500/) }]);
  });

  it('answers a page past the last with no results and the totals', async () => {
    const body = await page('?per_page=100&page=5');
    expect(body).toMatchObject({ results: [], total_entries: WARRANTY_CLAIMS, total_pages: 4, current_page: 5 });
  });

  it.each([
    ['page 0', '?page=0', 'page'],
    ['a page that is not a number', '?page=two', 'page'],
    ['per_page 0', '?per_page=0', 'per_page'],
    ['an unknown sort', '?sort_type=email', 'sort_type'],
    ['an unknown order', '?sort_order=up', 'sort_order'],
    ['a filter that is not JSON', '?filter=%7Bemail', 'filter'],
    ['a parameter the list does not have', '?limit=5', 'limit'],
  ])('answers 422 naming the parameter for %s', async (_what, query, field) => {
    const error = await errorOf(await list(query), 422);
    expect(error.details?.map((d) => d.field)).toEqual([field]);
  });
});

describe('sorting', () => {
  it('sorts by created_at both ways, by id, and by updated_at (the creation time of a case never changed)', async () => {
    expect((await page('?per_page=500&sort_type=created_at&sort_order=asc')).results.map((c) => c.id)).toEqual(claimIds(byCreated(1)));
    expect((await page('?per_page=500&sort_type=created_at&sort_order=desc')).results.map((c) => c.id)).toEqual(claimIds(byCreated(-1)));
    const numeric = [...claims].sort((a, b) => Number(a.id) - Number(b.id)).map((c) => c.id);
    expect((await page('?per_page=500&sort_type=id&sort_order=asc')).results.map((c) => c.id)).toEqual(numeric);
    expect((await page('?per_page=500&sort_type=id&sort_order=desc')).results.map((c) => c.id)).toEqual([...numeric].reverse());
    expect((await page('?per_page=500&sort_type=updated_at&sort_order=asc')).results.map((c) => c.id)).toEqual(claimIds(byCreated(1)));
  });
});

describe('filtering', () => {
  const props = (c: (typeof claims)[number]) => c.record.properties as Record<string, unknown>;

  it('matches a field by equality', async () => {
    const expected = claims.filter((c) => props(c).form_field_21_6 === 'Refund');
    expect(expected.length).toBeGreaterThan(20);
    const body = await page(`?per_page=500&sort_type=created_at&sort_order=asc&${filter({ form_field_21_6: 'Refund' })}`);
    expect(body.total_entries).toBe(expected.length);
    expect(body.results.map((c) => c.id)).toEqual(claimIds(expected));
  });

  it('compares as text, so a number matches the string the platform stores, and a list matches an item it holds', async () => {
    const member = claims.find((c) => props(c).user_id !== '0')!;
    const body = await page(`?${filter({ user_id: Number(props(member).user_id) })}`);
    expect(body.results.map((c) => c.id)).toContain(member.id);
    // Form 3's topics are checkbox answers: a list.
    const topics = await page(`?per_page=500&${filter({ form_field_3_3: 'Shipping' })}`, '3');
    expect(topics.results.length).toBeGreaterThan(0);
    for (const c of topics.results) expect(c.properties.form_field_3_3).toContain('Shipping');
  });

  it('compares numbers and dates with gt and lt, both on one value for a range', async () => {
    const from = 1788000000;
    const to = 1790000000;
    const expected = claims.filter((c) => (c.record.created_at as number) > from && (c.record.created_at as number) < to);
    expect(expected.length).toBeGreaterThan(5);
    const body = await page(`?per_page=500&sort_type=created_at&sort_order=asc&${filter({ created_at: { gt: from, lt: to } })}`);
    expect(body.results.map((c) => c.id)).toEqual(claimIds(expected));

    const dear = claims.filter((c) => (props(c).form_field_21_7 as number) > 400);
    expect((await page(`?per_page=500&${filter({ form_field_21_7: { gt: 400 } })}`)).total_entries).toBe(dear.length);
    // The case id is a string of digits: compared as a number.
    const high = claims.filter((c) => Number(c.id) < 50100);
    expect((await page(`?per_page=500&${filter({ id: { lt: 50100 } })}`)).total_entries).toBe(high.length);
    // Dates written as ISO text (form 12's) compare as text.
    const iso = await page(`?per_page=500&${filter({ form_field_12_4: { gt: '2026-06-01' } })}`, '12');
    for (const c of iso.results) expect(String(c.properties.form_field_12_4) > '2026-06-01').toBe(true);
  });

  it('finds text containing a word, whatever its case, and combines conditions with and', async () => {
    const expected = claims.filter((c) => String(props(c).form_field_21_3).toLowerCase().includes('zip'));
    expect(expected.length).toBeGreaterThan(0);
    expect((await page(`?per_page=500&${filter({ form_field_21_3: { contains: 'ZIP' } })}`)).total_entries).toBe(expected.length);
    const both = expected.filter((c) => props(c).form_field_21_6 === 'Repair');
    const combined = await page(`?per_page=500&${filter({ form_field_21_3: { contains: 'zip' }, form_field_21_6: 'Repair' })}`);
    expect(combined.total_entries).toBe(both.length);
  });

  it('answers 404 "The form does not contain any cases" when nothing matches, and 422 for a filter of another form', async () => {
    const none = await errorOf(await list(`?${filter({ email: 'nobody@nowhere.example' })}`), 404);
    expect(none.message).toBe('The form does not contain any cases');
    const error = await errorOf(await list(`?${filter({ email: { like: 'x' } })}`), 422);
    expect(error.details).toEqual([{ field: 'filter.email', message: expect.stringMatching(/not an operator/) }]);
    await errorOf(await list(`?${filter(['email'])}`), 422);
  });
});

describe('an empty list, the headers, the sites', () => {
  it('answers 404 in the spec’s shape for a form without cases', async () => {
    const error = await errorOf(await list('', AUTH, '99'), 404);
    expect(error).toEqual({ error: 'Not Found', message: 'The form does not contain any cases', code: 404 });
  });

  it('needs the same two headers as the lookup: 401 without the key, 403 for another site', async () => {
    await errorOf(await list('', { 'x-site-id': '1001' }), 401);
    await errorOf(await list('', { 'x-api-key': 'wrong', 'x-site-id': '1001' }), 401);
    await errorOf(await list('', { 'x-api-key': 'k' }), 401);
    await errorOf(await list('', { 'x-api-key': 'k', 'x-site-id': '7' }), 403);
  });

  it('lists each site’s own cases: the second site has no warranty claims', async () => {
    await errorOf(await list('', { ...AUTH, 'x-site-id': '1002' }), 404);
    expect((await page('', '12')).total_entries).toBeGreaterThan(0);
  });

  it('answers 422 for a form identifier that cannot be one', async () => {
    const error = await errorOf(await list('', AUTH, 'a.b'), 422);
    expect(error.details?.map((d) => d.field)).toEqual(['form']);
  });
});

describe('a case added through /__sandbox/cases', () => {
  it('is in the list at once: first when newest, counted in the totals', async () => {
    const record = '{"name":"form_21","created_at":1800000000,"properties":{"email":"new@example.com","big":12345678901234567890}}';
    const added = await app.request('/__sandbox/cases', {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: `{"form":"${WARRANTY_FORM}","record":${record}}`,
    });
    expect(added.status).toBe(200);
    const { id } = (await added.json()) as { id: string };
    const res = await list('?per_page=1');
    const text = await res.text();
    // Sent as stored: its numbers digit for digit.
    expect(text).toContain('"big":12345678901234567890');
    const body = JSON.parse(text) as ListBody;
    expect(body.total_entries).toBe(WARRANTY_CLAIMS + 1);
    expect(body.results.map((c) => c.id)).toEqual([id]);
    // A form that had no cases has one now.
    await app.request('/__sandbox/cases', {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ form: '99', record: { name: 'form_99', created_at: 1800000000 } }),
    });
    expect((await page('', '99')).total_entries).toBe(1);
  });
});

describe('whatever the query', () => {
  const key = fc.oneof(
    fc.constantFrom('id', 'created_at', 'updated_at', 'email', 'form_field_21_7', 'form_field_21_5'),
    fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/),
  );
  const scalar = fc.oneof(fc.string({ maxLength: 200 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean());
  const bound = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(1e300),
    fc.constant(-(2 ** 63)),
  );
  const condition = fc.oneof(
    scalar,
    fc
      .record({ gt: bound, lt: bound, contains: fc.string({ minLength: 1, maxLength: 200 }) }, { requiredKeys: [] })
      .filter((c) => Object.keys(c).length > 0),
  );

  it('answers every filter the rules admit with a page or the 404, never a failure', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, condition, { maxKeys: 4 }), fc.constantFrom(...CASE_LIST_SORT_TYPES), async (asked, sort) => {
        const res = await list(`?per_page=500&sort_type=${sort}&${filter(asked)}`);
        const text = await res.text();
        if (JSON.stringify(asked).length > 2000) expect(res.status, text).toBe(422);
        else expect([200, 404], text).toContain(res.status);
      }),
      fuzzRuns(150),
    );
  });

  it('answers any query string with a page, the 404 or a 422 in the spec’s shape', async () => {
    const part = fc.oneof(
      fc.constantFrom('per_page', 'page', 'sort_type', 'sort_order', 'filter', 'limit', '', '%', '%ZZ', '+', '&', '=', '%00', '[]'),
      fc.string({ maxLength: 12 }),
    );
    const raw = fc.array(fc.tuple(part, part), { maxLength: 5 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
    await fc.assert(
      fc.asyncProperty(raw, async (query) => {
        const res = await app.request(`${BASE}/forms/${WARRANTY_FORM}/cases?${query.replace(/[#\s]/g, '')}`, { headers: AUTH });
        const text = await res.text();
        expect([200, 404, 422], `${query} → ${text}`).toContain(res.status);
        if (res.status !== 200) expect(errorShapeProblems(res.status, res.headers.get('content-type'), text)).toEqual([]);
      }),
      fuzzRuns(300),
    );
  });
});

describe('a large form made when asked (/__sandbox/cases/generate)', () => {
  const generate = (body: string) =>
    app.request('/__sandbox/cases/generate', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body });

  it('adds that many cases to the form, ids after every case of the site, each listed once', async () => {
    const highest = Math.max(...claims.map((c) => Number(c.id)));
    const made = await generate('{"form":"40","count":2000}');
    expect(made.status).toBe(200);
    const answer = (await made.json()) as { form: string; count: number; first: string; last: string };
    expect(answer).toMatchObject({ form: '40', count: 2000 });
    expect(Number(answer.first)).toBeGreaterThan(highest);
    const ids = new Set<string>();
    for (let n = 1; n <= 4; n += 1) {
      const body = await page(`?per_page=500&page=${n}`, '40');
      expect(body.total_entries).toBe(2000);
      for (const c of body.results) ids.add(c.id);
    }
    expect(ids.size).toBe(2000);
    // The same request on a fresh sandbox makes the same cases.
    const first = await page('?per_page=5', '40');
    store.close();
    store = openStore(':memory:', ['1001', '1002']);
    app = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001', '1002'] });
    await generate('{"form":"40","count":2000}');
    expect(await page('?per_page=5', '40')).toEqual(first);
  });

  it.each([
    ['no count', '{"form":"40"}', ['count']],
    ['a count of 0', '{"form":"40","count":0}', ['count']],
    ['too many', '{"form":"40","count":100001}', ['count']],
    ['a form that cannot be one', '{"form":"a.b","count":5}', ['form']],
  ])('refuses %s (422)', async (_what, body, fields) => {
    const error = await errorOf(await generate(body), 422);
    expect(error.details?.map((d) => d.field)).toEqual(fields);
  });

  it('needs the two headers', async () => {
    await errorOf(await app.request('/__sandbox/cases/generate', { method: 'POST', body: '{"form":"40","count":5}' }), 401);
  });
});

describe('the count of a form’s list requests (/__sandbox/list-requests)', () => {
  const count = async (form: string, headers: Record<string, string> = AUTH) => {
    const res = await app.request(`/__sandbox/list-requests?form=${form}`, { headers });
    expect(res.status).toBe(200);
    return ((await res.json()) as { requests: number }).requests;
  };

  it('counts every list request of the form on that site, whatever its answer, and no other', async () => {
    const before = {
      warranty: await count(WARRANTY_FORM),
      empty: await count('77'),
      other: await count(WARRANTY_FORM, { ...AUTH, 'x-site-id': '1002' }),
    };
    await list('?per_page=5');
    await list('?per_page=501');
    await list('', AUTH, '77');
    await app.request(`${BASE}/forms/${WARRANTY_FORM}/cases/1`, { headers: AUTH });
    expect(await count(WARRANTY_FORM)).toBe(before.warranty + 2);
    expect(await count('77')).toBe(before.empty + 1);
    expect(await count(WARRANTY_FORM, { ...AUTH, 'x-site-id': '1002' })).toBe(before.other);
  });

  it('refuses a form that cannot be one (422), and needs the two headers', async () => {
    await errorOf(await app.request('/__sandbox/list-requests?form=a.b', { headers: AUTH }), 422);
    await errorOf(await app.request('/__sandbox/list-requests?form=21'), 401);
  });
});
