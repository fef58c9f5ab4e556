/**
 * The sandbox's product operations beyond the create: the list, one product, and its update, as
 * src/contract/products.ts describes the platform's; and the helpers that go with them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProductRecord, type ProductRecord } from '../../src/contract/products';
import { validateProduct } from '../../src/contract/rules';
import type { ErrorBody } from '../../src/contract/site-api';
import { createSandboxApp } from './app';
import { seedProducts } from './seed';
import { openStore, withoutIds, type SandboxStore } from './store';

const BASE = '/api/site/v2/ecommerce/products';
const AUTH = { 'x-api-key': 'k', 'x-site-id': '1001' } as const;
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' } as const;
const USD = 'module_field_14/product/price/usd/1';
const OPTION_USD = 'module_field_14/product_attribute_option/price/usd/1';

let store: SandboxStore;
let app: ReturnType<typeof createSandboxApp>;

beforeEach(() => {
  store = openStore(':memory:', ['1001', '1002'], { demoProducts: false });
  app = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001', '1002'] });
});
afterEach(() => store.close());

async function errorOf(res: Response, status: number): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ErrorBody;
  expect(body.code).toBe(status);
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

const create = async (body: unknown, site = '1001') => {
  const res = await app.request(`${BASE}/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'x-site-id': site },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ProductRecord;
};
const list = (query = '', site = '1001') => app.request(`${BASE}${query}`, { headers: { ...AUTH, 'x-site-id': site } });
const get = (id: string, site = '1001') => app.request(`${BASE}/${id}`, { headers: { ...AUTH, 'x-site-id': site } });
const put = (id: string, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
  app.request(`${BASE}/${id}`, { method: 'PUT', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
const read = async (id: string) => {
  const res = await get(id);
  expect(res.status).toBe(200);
  return (await res.json()) as ProductRecord;
};

interface Page {
  results: Record<string, unknown>[];
  total_entries: number;
  total_pages: number;
  current_page: number;
  per_page: number;
}

const throw_ = {
  name: 'Linen throw',
  slug: 'linen-throw',
  enabled: 'true',
  [USD]: '12900',
  release_date: '1767225600',
  category_array: [{ id: '158198' }],
  attributes: [
    {
      name: 'Colour',
      enabled: 'true',
      items: [
        { name: 'Sage', [OPTION_USD]: '0' },
        { name: 'Oat', [OPTION_USD]: '500' },
      ],
    },
    { name: 'Gift wrap', items: [{ name: 'No' }, { name: 'Yes' }] },
  ],
};

describe('GET /ecommerce/products', () => {
  it('answers 404 in the error shape when the site has no products, and lists a site’s own products only', async () => {
    const empty = await errorOf(await list(), 404);
    expect(empty).toMatchObject({ error: 'Not Found', message: 'Product does not exist or this site has no products' });
    await create({ name: 'Tent', slug: 'tent' }, '1002');
    await errorOf(await list(), 404);
    const other = (await (await list('', '1002')).json()) as Page;
    expect(other.results.map((record) => record.slug)).toEqual(['tent']);
  });

  it('answers a page of whole records in the results envelope, newest first, with the totals', async () => {
    const made: ProductRecord[] = [];
    for (let i = 1; i <= 5; i += 1) made.push(await create({ name: `Mug ${i}`, slug: `mug-${i}`, enabled: 'true' }));
    const first = (await (await list()).json()) as Page;
    expect(first).toEqual({ results: [...made].reverse(), total_entries: 5, total_pages: 1, current_page: 1, per_page: 20 });
    // The list's records read through the contract's reader, with nothing it does not know.
    for (const record of first.results) expect(readProductRecord(record)).toMatchObject({ ok: true, unknown: [] });

    const second = (await (await list('?per_page=2&page=2')).json()) as Page;
    expect(second).toMatchObject({ total_entries: 5, total_pages: 3, current_page: 2, per_page: 2 });
    expect(second.results.map((record) => record.name)).toEqual(['Mug 3', 'Mug 2']);
    const past = (await (await list('?per_page=2&page=4')).json()) as Page;
    expect(past).toEqual({ results: [], total_entries: 5, total_pages: 3, current_page: 4, per_page: 2 });
  });

  it('returns only the properties asked for, and the id always', async () => {
    await create(throw_);
    const page = (await (await list('?properties=name,enabled,attributes,created_at')).json()) as Page;
    const [record] = page.results;
    expect(Object.keys(record!).sort()).toEqual(['attributes', 'created_at', 'enabled', 'id', 'name']);
    expect(record!.attributes).toHaveLength(2);
    // A field no record has is simply absent.
    const none = (await (await list('?properties=expiry_date')).json()) as Page;
    expect(none.results).toEqual([{ id: record!.id }]);
  });

  it('refuses a query the contract does not allow with 422 naming the parameter: per_page above 500, unknown ones, bad sorts', async () => {
    await create({ name: 'Mug' });
    expect((await errorOf(await list('?per_page=501'), 422)).details).toEqual([
      { field: 'per_page', message: expect.stringContaining('500') },
    ]);
    expect((await list('?per_page=500')).status).toBe(200);
    const many = await errorOf(await list('?limit=5&sort_type=price&sort_order=up&page=0'), 422);
    expect(many.details?.map((detail) => detail.field)).toEqual(['limit', 'page', 'sort_type', 'sort_order']);
    expect((await errorOf(await list('?properties=name,name'), 422)).details?.[0]?.field).toBe('properties');
  });

  it('sorts by name, slug, dates and id either way, products without the date last', async () => {
    await create({ name: 'banana', slug: 'b', release_date: '1767225600' });
    await create({ name: 'Apple', slug: 'c' });
    await create({ name: 'cherry', slug: 'a', release_date: '1767312000' });
    const names = async (query: string) => ((await (await list(query)).json()) as Page).results.map((record) => record.name);
    expect(await names('?sort_type=name&sort_order=asc')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await names('?sort_type=name&sort_order=desc')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('?sort_type=slug&sort_order=asc')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('?sort_type=release_date&sort_order=asc')).toEqual(['banana', 'cherry', 'Apple']);
    expect(await names('?sort_type=release_date&sort_order=desc')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('?sort_type=id&sort_order=asc')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await names('?sort_type=created_at&sort_order=asc')).toEqual(['banana', 'Apple', 'cherry']);
  });
});

describe('GET /ecommerce/products/{id}', () => {
  it('answers the record as the create answered it', async () => {
    const made = await create(throw_);
    expect(await read(made.id)).toEqual(made);
  });

  it('answers 404 for an unknown id, an id that is not a platform id, and another site’s product', async () => {
    const made = await create({ name: 'Mug' });
    for (const id of ['999999', '0', `0${made.id}`, 'abc', '1.0', '-1']) {
      expect((await errorOf(await get(id), 404)).message).toBe('Product does not exist or this site has no products');
    }
    await errorOf(await get(made.id, '1002'), 404);
  });
});

describe('PUT /ecommerce/products/{id}', () => {
  it('updates the attributes and options named by id, leaving every other field, attribute and option as it was', async () => {
    const made = await create(throw_);
    const colour = made.attributes![0]!;
    const oat = colour.items![1]!;
    const body = {
      name: 'Linen throw',
      enabled: 'true',
      [USD]: '13900',
      attributes: [{ id: colour.id, name: 'Colour', items: [{ id: oat.id, name: 'Oatmeal', [OPTION_USD]: '700' }] }],
    };
    const res = await put(made.id, body);
    expect(res.status).toBe(200);
    const after = (await res.json()) as ProductRecord;
    const expected = structuredClone(made);
    expected[USD] = '13900';
    expected.attributes![0]!.items![1] = { ...oat, name: 'Oatmeal', [OPTION_USD]: '700' };
    expect(after).toEqual({ ...expected, updated_at: after.updated_at });
    expect(await read(made.id)).toEqual(after);
  });

  it('creates attributes and options sent without an id, each with a new id unique in the sandbox', async () => {
    const made = await create(throw_);
    const other = await create({ name: 'Mug', attributes: [{ name: 'Size', items: [{ name: 'S' }] }] });
    const colour = made.attributes![0]!;
    const res = await put(made.id, {
      name: 'Linen throw',
      enabled: 'true',
      attributes: [
        { id: colour.id, name: 'Colour', items: [{ name: 'Rust', enabled: 'false' }] },
        { name: 'Size', items: [{ name: 'Single' }, { name: 'Queen', [OPTION_USD]: '2000' }] },
      ],
    });
    expect(res.status).toBe(200);
    const after = (await res.json()) as ProductRecord;
    expect(after.attributes!.map((attribute) => attribute.name)).toEqual(['Colour', 'Gift wrap', 'Size']);
    expect(after.attributes![0]!.items!.map((item) => item.name)).toEqual(['Sage', 'Oat', 'Rust']);
    const rust = after.attributes![0]!.items![2]!;
    expect(rust).toEqual({ id: expect.stringMatching(/^[1-9]\d*$/), name: 'Rust', enabled: 'false' });
    const size = after.attributes![2]!;
    expect(size).toEqual({
      id: expect.stringMatching(/^[1-9]\d*$/),
      name: 'Size',
      items: [
        { id: expect.any(String), name: 'Single' },
        { id: expect.any(String), name: 'Queen', [OPTION_USD]: '2000' },
      ],
    });
    const ids = [made, other, after].flatMap((record) =>
      (record.attributes ?? []).flatMap((attribute) => [attribute.id, ...(attribute.items ?? []).map((item) => item.id)]),
    );
    // Every attribute and option id of the sandbox is its own (the made product's appear twice, before and after).
    const distinct = new Set(ids);
    expect(distinct.size).toBe(ids.length - (2 + 4));
    expect(distinct.has(made.id)).toBe(false);
  });

  it('deletes nothing a PUT leaves out: name and enabled alone keep every other field and attribute', async () => {
    const made = await create(throw_);
    const res = await put(made.id, { name: 'Linen throw, renamed', enabled: 'false' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...made, name: 'Linen throw, renamed', enabled: 'false', updated_at: expect.any(String) });
    // An empty list of attributes changes none.
    const again = await put(made.id, { name: 'Linen throw, renamed', enabled: 'false', attributes: [] });
    expect(((await again.json()) as ProductRecord).attributes).toEqual(made.attributes);
  });

  it('clears an optional field sent as "": the key leaves the record, on the product and on an option', async () => {
    const made = await create(throw_);
    const colour = made.attributes![0]!;
    const sage = colour.items![0]!;
    const res = await put(made.id, {
      name: 'Linen throw',
      enabled: 'true',
      [USD]: '',
      release_date: '',
      attributes: [{ id: colour.id, name: 'Colour', items: [{ id: sage.id, name: 'Sage', [OPTION_USD]: '' }] }],
    });
    expect(res.status).toBe(200);
    const after = (await res.json()) as ProductRecord;
    expect(after).not.toHaveProperty([USD]);
    expect(after).not.toHaveProperty('release_date');
    expect(after.attributes![0]!.items![0]).toEqual({ id: sage.id, name: 'Sage' });
    expect(after.slug).toBe('linen-throw');
  });

  it('replaces the lists of categories and secure zones', async () => {
    const made = await create({ ...throw_, secure_zone_array: [{ id: '42' }] });
    const after = (await (
      await put(made.id, { name: 'Linen throw', enabled: 'true', category_array: [{ id: '1' }, { id: '2' }], secure_zone_array: [] })
    ).json()) as ProductRecord;
    expect(after.category_array).toEqual([{ id: '1' }, { id: '2' }]);
    expect(after.secure_zone_array).toEqual([]);
  });

  it('answers 422 on the id of an attribute or option that is not this product’s, and changes nothing', async () => {
    const made = await create(throw_);
    const other = await create({ name: 'Mug', attributes: [{ name: 'Size', items: [{ name: 'S' }] }] });
    const [colour, wrap] = made.attributes!;
    const foreignAttribute = other.attributes![0]!;
    const res = await put(made.id, {
      name: 'Changed',
      enabled: 'true',
      [USD]: '1',
      attributes: [
        {
          id: colour!.id,
          name: 'Colour',
          items: [
            { id: colour!.items![0]!.id, name: 'Fine' },
            { id: wrap!.items![0]!.id, name: 'Not here' },
          ],
        },
        { id: foreignAttribute.id, name: 'Size' },
        { id: '999999999', name: 'Nowhere', items: [{ id: foreignAttribute.items![0]!.id, name: 'S' }] },
        { name: 'New', items: [{ id: colour!.items![1]!.id, name: 'Oat' }] },
      ],
    });
    const error = await errorOf(res, 422);
    expect(error.details?.map((detail) => detail.field)).toEqual([
      'attributes[0].items[1].id',
      'attributes[1].id',
      'attributes[2].id',
      'attributes[2].items[0].id',
      'attributes[3].items[0].id',
    ]);
    expect(await read(made.id)).toEqual(made);
  });

  it('answers 404 for a product that does not exist, is another site’s, or whose id is no platform id', async () => {
    const made = await create({ name: 'Mug' }, '1002');
    for (const id of ['999999', made.id, 'abc', '007']) {
      expect((await errorOf(await put(id, { name: 'Mug', enabled: 'true' }), 404)).message).toBe(
        'Product does not exist or this site has no products',
      );
    }
    expect(await (await get(made.id, '1002')).json()).toEqual(made);
  });

  it('answers 400 for a body of the wrong shape, not JSON or not sent as JSON, and 422 without name or enabled', async () => {
    const made = await create(throw_);
    const shape = await errorOf(await put(made.id, { name: 'Mug', enabled: 'true', weighting: 10, colour: 'red' }), 400);
    expect(shape.details?.map((detail) => detail.field).sort()).toEqual(['colour', 'weighting']);
    expect((await errorOf(await put(made.id, '{"name":'), 400)).details).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
    await errorOf(await put(made.id, '[]'), 400);
    const type = await errorOf(await put(made.id, { name: 'Mug', enabled: 'true' }, { ...AUTH, 'content-type': 'text/plain' }), 400);
    expect(type.details?.[0]?.field).toBe('Content-Type');
    const missing = await errorOf(await put(made.id, { [USD]: '100' }), 422);
    expect(missing.details?.map((detail) => detail.field)).toEqual(['name', 'enabled']);
    const rules = await errorOf(await put(made.id, { name: 'Mug', enabled: 'yes', [USD]: '1.50' }), 422);
    expect(rules.details?.map((detail) => detail.field)).toEqual(['enabled', USD]);
    expect(await read(made.id)).toEqual(made);
  });

  it('answers 422 on slug for a slug another product of the site has, and holds the merged product to the create’s rules', async () => {
    const made = await create(throw_);
    await create({ name: 'Mug', slug: 'mug' });
    const clash = await errorOf(await put(made.id, { name: 'Linen throw', enabled: 'true', slug: 'mug' }), 422);
    expect(clash.details).toEqual([{ field: 'slug', message: expect.stringContaining('already used') }]);
    // A new option named as an existing one of the attribute: the product after the update breaks the rule.
    const colour = made.attributes![0]!;
    const twice = await errorOf(
      await put(made.id, {
        name: 'Linen throw',
        enabled: 'true',
        attributes: [{ id: colour.id, name: 'Colour', items: [{ name: 'sage' }] }],
      }),
      422,
    );
    expect(twice.details).toEqual([{ field: 'attributes[0].items[2].name', message: expect.stringContaining('already called') }]);
    // An expiry date before the stored release date.
    const dates = await errorOf(await put(made.id, { name: 'Linen throw', enabled: 'true', expiry_date: '1767139200' }), 422);
    expect(dates.details?.map((detail) => detail.field)).toEqual(['expiry_date']);
    expect(await read(made.id)).toEqual(made);
    // The same slug on another site is free, and its own slug may be sent again.
    expect((await put(made.id, { name: 'Linen throw', enabled: 'true', slug: 'linen-throw' })).status).toBe(200);
  });

  it('moves updated_at forward on every update that changes something, and not on one that changes nothing', async () => {
    const made = await create(throw_);
    const first = (await (await put(made.id, { name: 'Linen throw', enabled: 'false' })).json()) as ProductRecord;
    expect(Number(first.updated_at)).toBeGreaterThan(Number(made.updated_at));
    expect(first.created_at).toBe(made.created_at);
    const second = (await (await put(made.id, { name: 'Linen throw', enabled: 'true' })).json()) as ProductRecord;
    expect(Number(second.updated_at)).toBeGreaterThan(Number(first.updated_at));
    const same = (await (await put(made.id, { name: 'Linen throw', enabled: 'true', [USD]: '12900' })).json()) as ProductRecord;
    expect(same).toEqual(second);
    const sorted = (await (await list('?sort_type=updated_at&sort_order=desc&properties=name')).json()) as Page;
    expect(sorted.results[0]?.id).toBe(made.id);
  });
});

describe('/__sandbox/product-writes', () => {
  it('tells exactly which update bodies a product received, as sent, with the answer’s status', async () => {
    const made = await create({ name: 'Mug', enabled: 'true' });
    const sent = ['{ "name" : "Mug",\n  "enabled":"false" }', '{"name":"Mug","enabled":"maybe"}'];
    expect((await put(made.id, sent[0])).status).toBe(200);
    expect((await put(made.id, sent[1])).status).toBe(422);
    const writes = async (id: string, site = '1001') =>
      (await app.request(`/__sandbox/product-writes?id=${id}`, { headers: { ...AUTH, 'x-site-id': site } })).json();
    expect(await writes(made.id)).toEqual({
      id: made.id,
      writes: [
        { body: sent[0], status: 200 },
        { body: sent[1], status: 422 },
      ],
    });
    expect(await writes(made.id, '1002')).toEqual({ id: made.id, writes: [] });
    await errorOf(await app.request('/__sandbox/product-writes?id=x', { headers: AUTH }), 422);
    await errorOf(await app.request(`/__sandbox/product-writes?id=${made.id}`), 401);
  });
});

describe('the demo catalogue', () => {
  it('gives each new site products a create would accept: some with options, some disabled, some dated, several currencies', async () => {
    const demo = openStore(':memory:', ['1001', '1002']);
    try {
      const full = seedProducts('full');
      const second = seedProducts('second');
      expect(full.length).toBeGreaterThanOrEqual(30);
      expect(demo.countProducts('1001')).toBe(full.length);
      expect(demo.countProducts('1002')).toBe(second.length);
      for (const { product } of [...full, ...second]) expect(validateProduct(product)).toMatchObject({ ok: true });
      const products = full.map(({ product }) => product);
      expect(products.filter((product) => product.attributes?.length).length).toBeGreaterThan(5);
      expect(products.some((product) => product.enabled === 'false')).toBe(true);
      expect(products.some((product) => product.release_date)).toBe(true);
      expect(products.some((product) => product.expiry_date)).toBe(true);
      const currencies = new Set(
        products.flatMap((product) => Object.keys(product).filter((key) => key.includes('/price/'))).map((key) => key.split('/')[3]),
      );
      expect(currencies.size).toBeGreaterThanOrEqual(3);
      const slugs = demo.listProducts('1001', 1000).map((stored) => stored.body.slug);
      expect(new Set(slugs).size).toBe(full.length);
      // What is stored is the seed, ids aside.
      expect(
        demo
          .listProducts('1001', 1000)
          .map((stored) => withoutIds(stored.record as never))
          .reverse(),
      ).toEqual(
        products.map((product) => ({ ...product, id: expect.any(String), created_at: expect.any(String), updated_at: expect.any(String) })),
      );
    } finally {
      demo.close();
    }
  });
});

describe('/__sandbox/products/generate', () => {
  const generate = (body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    app.request('/__sandbox/products/generate', { method: 'POST', headers, body: JSON.stringify(body) });

  it('adds that many products to the site, twice without a slug clash, each listed once', async () => {
    const first = (await (await generate({ count: 300 })).json()) as { count: number; created: number };
    expect(first).toMatchObject({ count: 300, created: 300 });
    const second = (await (await generate({ count: 300 })).json()) as { created: number };
    expect(second.created).toBe(300);
    const page = (await (await list('?per_page=500&page=2&properties=slug')).json()) as Page;
    expect(page).toMatchObject({ total_entries: 600, total_pages: 2 });
    const all = [...((await (await list('?per_page=500&properties=slug')).json()) as Page).results, ...page.results];
    expect(new Set(all.map((record) => record.slug)).size).toBe(600);
    await errorOf(await list('', '1002'), 404);
  });

  it('refuses a count out of range and an unauthenticated call', async () => {
    for (const count of [0, 1.5, '10', 50_001]) expect((await errorOf(await generate({ count }), 422)).details?.[0]?.field).toBe('count');
    await errorOf(await generate({ count: 1 }, { 'content-type': 'application/json' }), 401);
    expect(store.countProducts()).toBe(0);
  });
});
