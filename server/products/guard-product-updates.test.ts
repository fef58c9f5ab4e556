/**
 * No silent overwrite, through the whole server to a stand-in platform that holds one product and records
 * every request: an update goes on only when it names, by fingerprint, the product as it is on the platform
 * just before it is sent; the activity record keeps the body sent and the product as it was read; a revert
 * must name an update of the same product.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { productFingerprint } from '../../src/contract/products';
import { API_BASE_PATH } from '../../src/contract/site-api';
import { recordingPlatform, type RecordingPlatform } from '../testing/recording-platform';
import { errorShapeProblems, send, startWholeServer, tempDir } from '../testing/test-helpers';

const PRODUCT_PATH = `${API_BASE_PATH}/ecommerce/products/1042`;

describe('an update of a product', () => {
  let platform: RecordingPlatform;
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  /** The product as the stand-in platform holds it (its answer to a read, as text). */
  let stored = '';
  const record = (name: string) =>
    JSON.stringify({
      id: '1042',
      name,
      slug: 'linen-throw',
      enabled: 'true',
      'module_field_14/product/price/usd/1': '4900',
      updated_at: '1767225600',
    });

  beforeAll(async () => {
    platform = await recordingPlatform((request) => {
      if (request.method === 'GET' && request.url === '/api/site/v2/ecommerce/products/1042') return { status: 200, body: stored };
      if (request.method === 'PUT') return { status: 200, body: stored };
      return { status: 404, body: JSON.stringify({ error: 'Not Found', message: 'Product does not exist', code: 404 }) };
    });
    running = await startWholeServer(
      { SITE_API_BASE_URL: `http://127.0.0.1:${platform.port}/api/site/v2`, SITE_API_KEY: 'key-guard', SITE_ID: '3003' },
      { prefix: 'site-admin-guard-' },
    );
  });
  afterAll(async () => {
    await running.stop();
    await platform.close();
  });
  beforeEach(() => {
    stored = record('Linen throw');
    platform.received.length = 0;
  });

  const put = (body: unknown, headers: Record<string, string> = {}) =>
    send(running.port, {
      method: 'PUT',
      path: PRODUCT_PATH,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const puts = () => platform.received.filter((request) => request.method === 'PUT');
  const change = { name: 'Linen throw, sand', enabled: 'true', 'module_field_14/product/price/usd/1': '5200' };

  it('sends an update that names the product as it is, exactly as written, without the fingerprint', async () => {
    const fingerprint = await productFingerprint(JSON.parse(stored));
    const text = JSON.stringify(change);
    const reply = await put(text, { 'if-match': fingerprint });
    expect(reply.status, reply.text).toBe(200);
    expect(puts()).toHaveLength(1);
    expect(puts()[0]?.body).toBe(text);
    expect(puts()[0]?.url).toBe('/api/site/v2/ecommerce/products/1042');
    expect(puts()[0]?.headers['if-match']).toBeUndefined();

    const entries = await running.site.database.db.selectFrom('activity').selectAll().orderBy('seq', 'desc').limit(2).execute();
    const [outcome, sent] = entries;
    expect(sent?.action).toBe('product.update');
    expect(sent?.target_name).toBe('Linen throw, sand');
    expect(sent?.target_slug).toBe('linen-throw');
    expect(JSON.parse(sent?.detail ?? '{}')).toEqual({ product: '1042', body: text, before: record('Linen throw') });
    expect(outcome).toMatchObject({ action: 'product.update.outcome', outcome: 'updated', refers_to: sent?.seq });
  });

  it('refuses, with 412 and nothing sent, an update of a product changed since it was read', async () => {
    const fingerprint = await productFingerprint(JSON.parse(stored));
    stored = record('Linen throw (changed in the platform’s admin)');
    const reply = await put(change, { 'if-match': fingerprint });
    expect(reply.status).toBe(412);
    expect(errorShapeProblems(412, reply.headers['content-type'], reply.text)).toEqual([]);
    expect(puts()).toEqual([]);
  });

  it('refuses an update that names no product as read (428) or names it badly (400), reading nothing', async () => {
    expect((await put(change)).status).toBe(428);
    expect((await put(change, { 'if-match': '"abc"' })).status).toBe(400);
    expect(platform.received).toEqual([]);
  });

  it('holds an update to the create’s rules and the update’s own (name and enabled required, platform ids)', async () => {
    const fingerprint = await productFingerprint(JSON.parse(stored));
    const withoutEnabled = await put({ name: 'Linen throw' }, { 'if-match': fingerprint });
    expect(withoutEnabled.status).toBe(422);
    expect(JSON.parse(withoutEnabled.text)).toMatchObject({ details: [{ field: 'enabled', message: 'is required on an update' }] });
    const badPrice = await put({ ...change, 'module_field_14/product/price/usd/1': '52.00' }, { 'if-match': fingerprint });
    expect(badPrice.status).toBe(422);
    const badId = await put({ ...change, attributes: [{ id: '07', name: 'Size' }] }, { 'if-match': fingerprint });
    expect(badId.status).toBe(400);
    const unknownField = await put({ ...change, colour: 'sand' }, { 'if-match': fingerprint });
    expect(unknownField.status).toBe(400);
    // A price cleared with "" is an update's way to remove it.
    const cleared = await put({ ...change, 'module_field_14/product/price/usd/1': '' }, { 'if-match': fingerprint });
    expect(cleared.status, cleared.text).toBe(200);
    expect(puts()).toHaveLength(1);
  });

  it('refuses a product id that is not a platform id', async () => {
    const notAnId = await send(running.port, {
      method: 'PUT',
      path: `${API_BASE_PATH}/ecommerce/products/0x10`,
      headers: { 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    expect(notAnId.status).toBe(422);
    expect(platform.received).toEqual([]);
  });

  it('records a revert with the update it reverts, and refuses one that names no update of this product', async () => {
    const fingerprint = await productFingerprint(JSON.parse(stored));
    expect((await put(change, { 'if-match': fingerprint, 'x-revert-of': '999999' })).status).toBe(422);
    expect(puts()).toEqual([]);
    const update = await running.site.database.db
      .selectFrom('activity')
      .select('seq')
      .where('action', '=', 'product.update')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    const revert = await put(change, { 'if-match': fingerprint, 'x-revert-of': String(update.seq) });
    expect(revert.status, revert.text).toBe(200);
    const entry = await running.site.database.db
      .selectFrom('activity')
      .select('detail')
      .where('action', '=', 'product.update')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.detail ?? '{}')).toMatchObject({ product: '1042', reverts: Number(update.seq) });
  });

  it('passes the list and a product’s read on, and refuses a list query it does not know', async () => {
    expect((await send(running.port, { path: `${API_BASE_PATH}/ecommerce/products/1042` })).status).toBe(200);
    const list = await send(running.port, { path: `${API_BASE_PATH}/ecommerce/products?per_page=500&properties=name,slug,enabled` });
    expect(list.status).toBe(404);
    expect(platform.received.at(-1)?.url).toBe('/api/site/v2/ecommerce/products?per_page=500&properties=name,slug,enabled');
    const refused = await send(running.port, { path: `${API_BASE_PATH}/ecommerce/products?per_page=501&colour=red` });
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.text)).toMatchObject({ details: [{ field: 'colour' }, { field: 'per_page' }] });
  });
});

describe('an update of a product through the whole server to its sandbox', () => {
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  beforeAll(async () => {
    running = await startWholeServer(
      { SANDBOX_API_KEY: 'sandbox-key-guard', SANDBOX_SITE_ID: '1001' },
      { prefix: 'site-admin-guard-sandbox-' },
    );
  });
  afterAll(() => running.stop());

  const viaServer = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    send(running.port, {
      method,
      path: `${API_BASE_PATH}${path}`,
      headers: { 'sec-fetch-site': 'same-origin', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body,
    });

  it('sends nothing over a change made on the platform between reading and saving, and sends once read again', async () => {
    const list = await viaServer('GET', '/ecommerce/products?per_page=1&properties=name');
    expect(list.status, list.text).toBe(200);
    const [first] = (JSON.parse(list.text) as { results: { id: string }[] }).results;
    const path = `/ecommerce/products/${first?.id ?? ''}`;
    const opened = await viaServer('GET', path);
    const fingerprint = await productFingerprint(JSON.parse(opened.text));

    // A colleague, in the platform's own admin: straight to the sandbox, past site-admin.
    const sandbox = running.site.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    const theirs = await fetch(`${sandbox.baseUrl.href}${path}`, {
      method: 'PUT',
      headers: { 'x-api-key': 'sandbox-key-guard', 'x-site-id': '1001', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed by a colleague', enabled: 'true' }),
    });
    expect(theirs.status).toBe(200);

    const mine = JSON.stringify({ name: 'My name for it', enabled: 'false' });
    const refused = await viaServer('PUT', path, mine, { 'if-match': fingerprint });
    expect(refused.status).toBe(412);
    const now = await viaServer('GET', path);
    expect(JSON.parse(now.text)).toMatchObject({ name: 'Renamed by a colleague', enabled: 'true' });

    const sent = await viaServer('PUT', path, mine, { 'if-match': await productFingerprint(JSON.parse(now.text)) });
    expect(sent.status, sent.text).toBe(200);
    expect(JSON.parse(sent.text)).toMatchObject({ name: 'My name for it', enabled: 'false' });
  });
});

describe('an update on a site whose platform names ids and options its own way', () => {
  let platform: RecordingPlatform;
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  let dir: string;
  const stored = JSON.stringify({
    uuid: '77',
    name: 'Deck chair',
    enabled: 'true',
    attributes: [{ uuid: '78', name: 'Colour', options: [{ uuid: '79', name: 'Sand' }] }],
  });

  beforeAll(async () => {
    platform = await recordingPlatform((request) =>
      request.method === 'GET' || request.method === 'PUT'
        ? { status: 200, body: stored }
        : { status: 404, body: JSON.stringify({ error: 'Not Found', message: 'no', code: 404 }) },
    );
    dir = tempDir('site-admin-guard-shape-');
    const profile = join(dir, 'site-profile.json');
    writeFileSync(
      profile,
      JSON.stringify({
        sites: [
          {
            id: 'deck',
            name: 'Deck',
            platform: { baseUrl: `http://127.0.0.1:${platform.port}/api/site/v2`, siteId: '4004', apiKeyEnv: 'DECK_API_KEY' },
            products: { record: { id: 'uuid', options: 'options' } },
          },
        ],
      }),
    );
    running = await startWholeServer({ SITE_PROFILE: profile, DECK_API_KEY: 'key-deck' }, { prefix: 'site-admin-guard-shape-' });
  });
  afterAll(async () => {
    await running.stop();
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks the body in the one shape and sends it in the site’s keys, as written', async () => {
    const body = JSON.stringify({
      name: 'Deck chair',
      enabled: 'true',
      attributes: [{ uuid: '78', name: 'Colour', options: [{ uuid: '79', name: 'Sand, light' }] }],
    });
    const reply = await send(running.port, {
      method: 'PUT',
      path: '/api/s/deck/site/v2/ecommerce/products/77',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        'if-match': await productFingerprint(JSON.parse(stored)),
      },
      body,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(platform.received.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([body]);
  });
});
