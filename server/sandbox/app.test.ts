import * as z from 'zod/mini';
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTES, MAX_ERROR_DETAILS, MAX_OPTIONS } from '../../src/contract/rules';
import { errorBodySchema, type ErrorBody } from '../../src/contract/site-api';
import { createSandboxApp } from './app';
import { startSandbox } from './start';
import { seedCases } from './seed';
import { openStore, type SandboxStore } from './store';

const BASE = '/api/site/v2';
const AUTH = { 'x-api-key': 'k', 'x-site-id': '1001' } as const;
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' } as const;

let store: SandboxStore;
let app: ReturnType<typeof createSandboxApp>;

beforeEach(() => {
  // Without the demo catalogue, so every product a test counts is one it created.
  store = openStore(':memory:', ['1001'], { demoProducts: false });
  app = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001'] });
});

afterEach(() => {
  store.close();
});

/** Reads an error response and checks the spec's error shape: error = status phrase, code = HTTP status. */
async function errorOf(res: Response, status: number, phrase: string): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = await res.json();
  const parsed = z.strictObject(errorBodySchema.shape).safeParse(body);
  expect(parsed.success, JSON.stringify(body)).toBe(true);
  const error = body as ErrorBody;
  expect(error.error).toBe(phrase);
  expect(error.code).toBe(status);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

const seeded = seedCases();
const aCase = seeded[0]!;

const getCase = (form: string, id: string, headers: Record<string, string> = AUTH) =>
  app.request(`${BASE}/forms/${form}/cases/${id}`, { headers });

const create = (body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
  app.request(`${BASE}/ecommerce/products/create`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('authentication (both operations)', () => {
  it.each([
    ['the key is missing', { 'x-site-id': '1001' }],
    ['the key is wrong', { 'x-api-key': 'not-k', 'x-site-id': '1001' }],
    ['the key is empty', { 'x-api-key': '', 'x-site-id': '1001' }],
    ['the site id is missing', { 'x-api-key': 'k' }],
    ['the site id is not numeric', { 'x-api-key': 'k', 'x-site-id': 'abc' }],
  ])('answers 401 when %s', async (_what, headers) => {
    const error = await errorOf(await getCase(aCase.form, aCase.id, headers), 401, 'Unauthorized');
    expect(error.details).toBeUndefined();
    await errorOf(await create({ name: 'Mug' }, { ...headers, 'content-type': 'application/json' }), 401, 'Unauthorized');
  });

  it('answers 403 for a valid key used with another site id', async () => {
    await errorOf(await getCase(aCase.form, aCase.id, { 'x-api-key': 'k', 'x-site-id': '1002' }), 403, 'Forbidden');
    await errorOf(
      await create({ name: 'Mug' }, { 'x-api-key': 'k', 'x-site-id': '1002', 'content-type': 'application/json' }),
      403,
      'Forbidden',
    );
    expect(store.countProducts()).toBe(0);
  });

  it('checks the key before the site: a wrong key with another site id is 401, not 403', async () => {
    await errorOf(await getCase(aCase.form, aCase.id, { 'x-api-key': 'nope', 'x-site-id': '1002' }), 401, 'Unauthorized');
  });

  it('does not reveal whether a case exists to an unauthenticated caller', async () => {
    await errorOf(await getCase(aCase.form, aCase.id, {}), 401, 'Unauthorized');
    await errorOf(await getCase('3', '1', {}), 401, 'Unauthorized');
  });
});

describe('GET /forms/{form}/cases/{id}', () => {
  it('answers 200 with the whole seeded record', async () => {
    const res = await getCase(aCase.form, aCase.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(aCase.record);
  });

  it('finds a case of every seeded form', async () => {
    for (const form of new Set(seeded.map((c) => c.form))) {
      const one = seeded.find((c) => c.form === form)!;
      const res = await getCase(one.form, one.id);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(one.record);
    }
  });

  it('answers 404 for a case that does not exist', async () => {
    const error = await errorOf(await getCase(aCase.form, '999999999'), 404, 'Not Found');
    expect(error.details).toBeUndefined();
  });

  it('answers 404 for a real case id under another form', async () => {
    const other = seeded.find((c) => c.form !== aCase.form)!;
    await errorOf(await getCase(other.form, aCase.id), 404, 'Not Found');
  });

  it('answers 422 with details for a case identifier with odd characters', async () => {
    const error = await errorOf(await getCase(aCase.form, 'a.b'), 422, 'Unprocessable Entity');
    expect(error.details).toEqual([{ field: 'id', message: expect.any(String) }]);
  });

  it('answers 422 for an encoded slash, which stays one segment', async () => {
    const error = await errorOf(await getCase('a%2Fb', aCase.id), 422, 'Unprocessable Entity');
    expect(error.details?.map((d) => d.field)).toEqual(['form']);
  });

  it('answers 422 for identifiers that are too long, naming both', async () => {
    const error = await errorOf(await getCase('f'.repeat(65), '1'.repeat(65)), 422, 'Unprocessable Entity');
    expect(error.details?.map((d) => d.field)).toEqual(['form', 'id']);
  });

  it('answers 404 in the error shape for an unknown route or method', async () => {
    await errorOf(await app.request(`${BASE}/forms`, { headers: AUTH }), 404, 'Not Found');
    await errorOf(await app.request(`${BASE}/ecommerce/products/list`, { headers: AUTH }), 404, 'Not Found');
    await errorOf(await app.request(`${BASE}/forms/3/cases/1`, { method: 'DELETE', headers: AUTH }), 404, 'Not Found');
    await errorOf(await app.request('/nowhere'), 404, 'Not Found');
  });
});

describe('POST /ecommerce/products/create', () => {
  const product = {
    name: 'Linen throw',
    slug: 'linen-throw',
    enabled: 'true',
    weighting: '10',
    'module_field_14/product/price/usd/1': '1999',
    category_array: [{ id: '158198' }],
    attributes: [
      {
        name: 'Colour',
        enabled: 'true',
        items: [
          { name: 'Sand', 'module_field_14/product_attribute_option/price/usd/1': '0' },
          { name: 'Olive', 'module_field_14/product_attribute_option/inventory/1': '4' },
        ],
      },
    ],
  };

  it('answers 200 with the stored record: a string id, the fields of the body, ids on attributes and options, its dates', async () => {
    const res = await create(product);
    expect(res.status).toBe(200);
    const record = (await res.json()) as Record<string, unknown> & { attributes: { id: string; items: { id: string }[] }[] };
    expect(record.id).toMatch(/^[1-9]\d*$/);
    const [attribute] = record.attributes;
    const ids = [attribute!.id, ...attribute!.items.map((item) => item.id)];
    for (const id of ids) expect(id).toMatch(/^[1-9]\d*$/);
    expect(new Set([record.id, ...ids]).size).toBe(4);
    expect(record).toEqual({
      ...product,
      id: record.id,
      attributes: [
        {
          id: ids[0],
          ...product.attributes[0],
          items: product.attributes[0]!.items.map((item, i) => ({ id: ids[i + 1], ...item })),
        },
      ],
      created_at: expect.stringMatching(/^\d+$/),
      updated_at: record.created_at,
    });
    // The answer is the record as a read of it gives it.
    expect(await (await app.request(`${BASE}/ecommerce/products/${String(record.id)}`, { headers: AUTH })).json()).toEqual(record);
    expect(store.countProducts()).toBe(1);
  });

  it('gives every created product its own id', async () => {
    const first = (await (await create({ name: 'A' })).json()) as { id: string };
    const second = (await (await create({ name: 'B' })).json()) as { id: string };
    expect(first.id).not.toBe(second.id);
    expect(store.countProducts()).toBe(2);
  });

  it('accepts application/json with a charset', async () => {
    const res = await create({ name: 'Mug' }, { ...AUTH, 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(200);
  });

  it('answers 400 for a Content-Type other than application/json, naming Content-Type', async () => {
    const error = await errorOf(await create({ name: 'Mug' }, { ...AUTH, 'content-type': 'text/plain' }), 400, 'Bad Request');
    expect(error.details).toEqual([{ field: 'Content-Type', message: expect.stringContaining('application/json') }]);
    expect(store.countProducts()).toBe(0);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const error = await errorOf(await create('{"name": "Mug",'), 400, 'Bad Request');
    expect(error.details).toEqual([{ field: 'body', message: expect.any(String) }]);
  });

  it('answers 400 for an empty body', async () => {
    await errorOf(await create(''), 400, 'Bad Request');
  });

  it('answers 400 for JSON that is not an object', async () => {
    const error = await errorOf(await create([product]), 400, 'Bad Request');
    expect(error.details).toEqual([{ field: 'body', message: 'must be an object, not an array' }]);
  });

  it('answers 400 naming every field of the wrong JSON type or unknown', async () => {
    const body = {
      ...product,
      weighting: 10,
      price: '1999',
      attributes: [{ ...product.attributes[0], items: [{ name: 'Sand', 'module_field_14/product_attribute_option/price/usd/1': 0 }] }],
    };
    const error = await errorOf(await create(body), 400, 'Bad Request');
    expect(error.details?.map((d) => d.field).sort()).toEqual([
      'attributes[0].items[0].module_field_14/product_attribute_option/price/usd/1',
      'price',
      'weighting',
    ]);
    expect(store.countProducts()).toBe(0);
  });

  it('answers 422 naming every rule the product breaks', async () => {
    const body = {
      name: ' ',
      slug: 'Linen Throw',
      enabled: 'yes',
      release_date: '1767225600',
      expiry_date: '1767225600',
      'module_field_14/product/price/aud/1': '19.99',
      attributes: [{ name: 'Size', items: [{ name: 'S' }, { name: 's' }] }],
    };
    const error = await errorOf(await create(body), 422, 'Unprocessable Entity');
    expect(error.details?.map((d) => d.field)).toEqual([
      'name',
      'slug',
      'enabled',
      'expiry_date',
      'module_field_14/product/price/aud/1',
      'attributes[0].items[1].name',
    ]);
    expect(store.countProducts()).toBe(0);
  });

  it('answers 422 on slug for a slug already used on the site, and keeps only the first product', async () => {
    expect((await create(product)).status).toBe(200);
    const error = await errorOf(await create({ ...product, name: 'Another throw' }), 422, 'Unprocessable Entity');
    expect(error.details).toEqual([{ field: 'slug', message: expect.any(String) }]);
    expect(store.countProducts()).toBe(1);
  });

  it('answers creates that arrive together (one transaction) each with its own product, and one slug once', async () => {
    const many = await Promise.all(Array.from({ length: 40 }, async (_, i) => create({ name: `Mug ${i}`, slug: `mug-${i}` })));
    expect(many.map((res) => res.status)).toEqual(Array(40).fill(200));
    const ids = await Promise.all(many.map(async (res) => ((await res.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(40);
    const same = await Promise.all(Array.from({ length: 10 }, async (_, i) => create({ name: `Same ${i}`, slug: 'same-slug' })));
    expect(same.map((res) => res.status).sort()).toEqual([200, ...Array(9).fill(422)]);
    expect(store.countProducts()).toBe(41);
  });

  it('allows many products without a slug', async () => {
    expect((await create({ name: 'A' })).status).toBe(200);
    expect((await create({ name: 'B' })).status).toBe(200);
  });

  it('answers 413 for a body larger than maxBodyBytes and stores nothing', async () => {
    const small = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001'], maxBodyBytes: 200 });
    const body = JSON.stringify({ name: 'x'.repeat(300) });
    const res = await small.request(`${BASE}/ecommerce/products/create`, { method: 'POST', headers: JSON_HEADERS, body });
    await errorOf(res, 413, 'Content Too Large');
    const declared = await small.request(`${BASE}/ecommerce/products/create`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    await errorOf(declared, 413, 'Content Too Large');
    expect(store.countProducts()).toBe(0);
    // A body under the limit still goes through.
    const fits = await small.request(`${BASE}/ecommerce/products/create`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"name":"ok"}',
    });
    expect(fits.status).toBe(200);
  });
});

describe('a huge 422 or 400 stays small', () => {
  const MIB = 1024 * 1024;

  it('answers 1 MiB of empty attributes with one detail naming the limit, not one per attribute', async () => {
    const count = Math.floor((MIB - 20) / 3);
    const body = `{"attributes":[${Array(count).fill('{}').join(',')}]}`;
    expect(body.length).toBeLessThanOrEqual(MIB);
    const res = await app.request(`${BASE}/ecommerce/products/create`, { method: 'POST', headers: JSON_HEADERS, body });
    const text = await res.clone().text();
    const error = await errorOf(res, 422, 'Unprocessable Entity');
    expect(error.details).toEqual([
      { field: 'attributes', message: `must list at most ${MAX_ATTRIBUTES} attributes, not ${count.toLocaleString('en-US')}` },
    ]);
    expect(text.length).toBeLessThan(4096);
    expect(store.countProducts()).toBe(0);
  });

  it('refuses more than 2,048 options in all, however they are spread over the attributes', async () => {
    const perAttribute = Math.ceil((MAX_OPTIONS + 1) / 10);
    const attributes = Array.from({ length: 10 }, (_, a) => ({
      name: `A${a}`,
      items: Array.from({ length: perAttribute }, (_, o) => ({ name: `O${o}` })),
    }));
    const error = await errorOf(await create({ name: 'Many', attributes }), 422, 'Unprocessable Entity');
    expect(error.details).toEqual([{ field: 'attributes', message: expect.stringContaining('at most 2,048 options in all') }]);
  });

  it('lists at most 100 details on a 422 and says in the message how many problems there were', async () => {
    const items = Array.from({ length: 150 }, (_, o) => ({ name: `O${o}`, 'module_field_14/product_attribute_option/price/usd/1': 'x' }));
    const error = await errorOf(await create({ name: 'Mug', attributes: [{ name: 'Size', items }] }), 422, 'Unprocessable Entity');
    expect(error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(error.message).toContain('first 100 of 150 problems');
  });

  it('lists at most 100 details on a 400 of thousands of unknown fields, saying how many there were', async () => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`unknown_${i}`, ''])));
    const error = await errorOf(await create(body), 400, 'Bad Request');
    expect(error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(error.message).toContain('first 100 of 5,000 problems');
  });
});

describe('the sandbox’s own port: which host names it answers (DNS rebinding)', () => {
  const ask = (port: number, host: string, method = 'GET', body?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method,
        path: `${BASE}/forms/${aCase.form}/cases/${aCase.id}`,
        agent: false,
        headers: { ...AUTH, host },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.end(body);
    });

  it('answers loopback names, and 421 in the error shape to any other Host', async () => {
    const sandbox = await startSandbox({ dataDir: ':memory:', apiKey: 'k', siteIds: ['1001'] });
    try {
      const before = sandbox.store.countProducts();
      const port = Number(sandbox.baseUrl.port);
      expect((await ask(port, `127.0.0.1:${port}`)).status).toBe(200);
      expect((await ask(port, `localhost:${port}`)).status).toBe(200);
      for (const host of [`rebind.evil.example:${port}`, 'evil.example', '127.0.0.1.evil.example']) {
        const reply = await ask(port, host);
        expect(reply.status, host).toBe(421);
        expect(JSON.parse(reply.text)).toMatchObject({ error: 'Misdirected Request', code: 421 });
        expect(reply.text).not.toContain('"properties"');
      }
      expect(sandbox.store.countProducts()).toBe(before);
    } finally {
      await sandbox.close();
    }
  });

  it('takes the operator’s list when one is given', async () => {
    const sandbox = await startSandbox({ dataDir: ':memory:', apiKey: 'k', siteIds: ['1001'], allowedHosts: ['sandbox.example.com'] });
    try {
      const port = Number(sandbox.baseUrl.port);
      expect((await ask(port, 'sandbox.example.com')).status).toBe(200);
      expect((await ask(port, `127.0.0.1:${port}`)).status).toBe(421);
    } finally {
      await sandbox.close();
    }
  });
});

describe('/__sandbox/products', () => {
  it('lists the created products, newest first', async () => {
    const a = (await (await create({ name: 'A', slug: 'a' })).json()) as { id: string };
    const b = (await (await create({ name: 'B' })).json()) as { id: string };
    await create({ name: '' }); // rejected: must not be listed
    const res = await app.request('/__sandbox/products', { headers: AUTH });
    expect(res.status).toBe(200);
    const { products } = (await res.json()) as { products: { id: string; site_id: string; body: unknown }[] };
    expect(products.map((p) => p.id)).toEqual([b.id, a.id]);
    expect(products[1]).toMatchObject({ site_id: '1001', body: { name: 'A', slug: 'a' } });
  });

  it('requires the same authentication as the API', async () => {
    await errorOf(await app.request('/__sandbox/products'), 401, 'Unauthorized');
    const otherSite = await app.request('/__sandbox/products', { headers: { 'x-api-key': 'k', 'x-site-id': '7' } });
    await errorOf(otherSite, 403, 'Forbidden');
  });
});

describe('/__sandbox/cases', () => {
  it('stores a case as written, numbers digit for digit, and serves it so', async () => {
    const record = '{"name":"form_3","order_id":12345678901234567890,"ratio":1.50,"properties":{"n":[1e3]}}';
    const added = await app.request('/__sandbox/cases', { method: 'POST', headers: JSON_HEADERS, body: `{"form":"3","record":${record}}` });
    expect(added.status).toBe(200);
    const text = await added.text();
    expect(text).toContain('"order_id":12345678901234567890,"ratio":1.50');
    const { id } = JSON.parse(text) as { id: string };
    const served = await (await getCase('3', id)).text();
    expect(served).toBe(`${record.slice(0, -1)},"id":"${id}"}`);
  });
});

describe('the seeded data', () => {
  it('has at least 3 forms and 30 cases with name, email and properties', () => {
    expect(new Set(seeded.map((c) => c.form)).size).toBeGreaterThanOrEqual(3);
    expect(seeded.length).toBeGreaterThanOrEqual(30);
    for (const c of seeded) {
      expect(c.record.id).toBe(c.id);
      const properties = c.record.properties as Record<string, unknown>;
      expect(properties).toBeTypeOf('object');
      expect(properties.name).toEqual(expect.any(String));
      expect(properties.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    }
  });

  it('has unique case ids per form', () => {
    const keys = seeded.map((c) => `${c.form}/${c.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has array answers on some cases and an order_id on some but not all', () => {
    const properties = seeded.map((c) => c.record.properties as Record<string, unknown>);
    expect(properties.some((p) => Object.values(p).some(Array.isArray))).toBe(true);
    const withOrder = properties.filter((p) => typeof p.order_id === 'string');
    expect(withOrder.length).toBeGreaterThan(0);
    expect(withOrder.length).toBeLessThan(properties.length);
  });

  it('is the same on every call (deterministic)', () => {
    expect(seedCases()).toEqual(seeded);
  });

  it('is what a fresh store serves', () => {
    for (const c of seeded.slice(-3)) {
      expect(store.getCase('1001', c.form, c.id)).toEqual(c.record);
      expect(store.getCase('1002', c.form, c.id)).toBeUndefined();
    }
  });
});

describe('several sites in one sandbox', () => {
  const SITES = ['1001', '1002'];
  let multi: ReturnType<typeof createSandboxApp>;
  let shared: SandboxStore;
  const on = (site: string) => ({ 'x-api-key': 'k', 'x-site-id': site });
  const createOn = (site: string, body: unknown) =>
    multi.request(`${BASE}/ecommerce/products/create`, {
      method: 'POST',
      headers: { ...on(site), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const productsOf = async (site: string) => {
    const res = await multi.request('/__sandbox/products', { headers: on(site) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { products: { site_id: string; body: { slug?: string } }[] }).products;
  };

  beforeEach(() => {
    shared = openStore(':memory:', SITES, { demoProducts: false });
    multi = createSandboxApp({ store: shared, apiKey: 'k', siteIds: SITES });
  });

  afterEach(() => shared.close());

  it('keeps each site’s products apart: a slug is unique per site, and the list is the site’s own', async () => {
    expect((await createOn('1001', { name: 'Linen throw', slug: 'throw' })).status).toBe(200);
    expect((await createOn('1002', { name: 'Camp throw', slug: 'throw' })).status).toBe(200);
    const again = await errorOf(await createOn('1001', { name: 'Second throw', slug: 'throw' }), 422, 'Unprocessable Entity');
    expect(again.details).toEqual([{ field: 'slug', message: expect.stringContaining('already used') }]);
    expect((await createOn('1002', { name: 'Tent', slug: 'tent' })).status).toBe(200);

    expect((await productsOf('1001')).map((p) => [p.site_id, p.body.slug])).toEqual([['1001', 'throw']]);
    expect((await productsOf('1002')).map((p) => [p.site_id, p.body.slug])).toEqual([
      ['1002', 'tent'],
      ['1002', 'throw'],
    ]);
  });

  it('seeds the first site with the full set of cases and the second with its own smaller set', async () => {
    const full = seedCases('full');
    const second = seedCases('second');
    expect(second.length).toBeLessThan(full.length);
    expect(new Set(second.map((c) => c.form))).toEqual(new Set(['12']));
    const fullCase = full[0]!;
    const secondCase = second[0]!;
    const lookup = (site: string, c: { form: string; id: string }) =>
      multi.request(`${BASE}/forms/${c.form}/cases/${c.id}`, { headers: on(site) });

    expect(await (await lookup('1001', fullCase)).json()).toEqual(fullCase.record);
    await errorOf(await lookup('1002', fullCase), 404, 'Not Found');
    expect(await (await lookup('1002', secondCase)).json()).toEqual(secondCase.record);
    await errorOf(await lookup('1001', secondCase), 404, 'Not Found');
  });

  it('adds a case to the site that asks, numbered after that site’s own cases', async () => {
    const res = await multi.request('/__sandbox/cases', {
      method: 'POST',
      headers: { ...on('1002'), 'content-type': 'application/json' },
      body: JSON.stringify({ form: '12', record: { name: 'form_12' } }),
    });
    const added = (await res.json()) as { id: string };
    const lastOfSecond = Math.max(...seedCases('second').map((c) => Number(c.id)));
    expect(added.id).toBe(String(lastOfSecond + 1));
    expect(shared.getCase('1002', '12', added.id)).toMatchObject({ name: 'form_12' });
    expect(shared.getCase('1001', '12', added.id)).toBeUndefined();
  });

  it('answers the valid key with any other site id 403, on both operations and the helpers, and stores nothing', async () => {
    const before = shared.countProducts();
    await errorOf(await createOn('1003', { name: 'Elsewhere' }), 403, 'Forbidden');
    await errorOf(await multi.request(`${BASE}/forms/3/cases/48217`, { headers: on('1003') }), 403, 'Forbidden');
    await errorOf(await multi.request('/__sandbox/products', { headers: on('10010') }), 403, 'Forbidden');
    await errorOf(
      await multi.request(`${BASE}/forms/3/cases/48217`, { headers: { 'x-api-key': 'not-k', 'x-site-id': '1002' } }),
      401,
      'Unauthorized',
    );
    expect(shared.countProducts()).toBe(before);
  });

  it('takes categories and secure zones as {"id": ...} objects or as id strings, on every site', async () => {
    const asObjects = await createOn('1002', { name: 'Tent', category_array: [{ id: '301' }], secure_zone_array: [{ id: '42' }] });
    expect(asObjects.status).toBe(200);
    const asIds = await createOn('1001', { name: 'Throw', category_array: ['158198', '158199'], secure_zone_array: ['42'] });
    expect(asIds.status).toBe(200);
    expect((await productsOf('1001'))[0]?.body).toMatchObject({ category_array: ['158198', '158199'], secure_zone_array: ['42'] });
    const mixed = await createOn('1001', { name: 'Mixed', category_array: ['1', { id: '2' }] });
    expect(mixed.status).toBe(200);
  });
});
