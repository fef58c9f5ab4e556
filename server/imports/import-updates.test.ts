/**
 * An import's updates through the whole server, on SQLite and PostgreSQL, to a stand-in platform that keeps
 * its products and counts every PUT that reaches it: an update is claimed before it is forwarded, so a
 * second send of it (this page again, a reload, a colleague) is refused and never reaches the platform; a
 * product changed on the platform since the dry run read it is refused 412 by the product-update step and
 * the import keeps it as held back ("conflict"), never sent by itself, until a person sends it again after
 * a fresh check; the counts say updated and conflict.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, IMPORTS_PATHS, importPath, type ImportRecord } from '../../src/contract/imports';
import { PRODUCT_BASE_HEADER, productFingerprint } from '../../src/contract/products';
import { describeEachEngine } from '../testing/postgres';
import { addPeople, closeServer, listen, send, startWholeServer, type Reply } from '../testing/test-helpers';

const OWNER = { email: 'owner@example.com', password: 'the first import passphrase here' };
const ANA = { email: 'ana@example.com', password: 'ana ruiz passphrase here', displayName: 'Ana Ruiz' };

const FILE = {
  fileName: 'prices.csv',
  source: { kind: 'pasted' },
  delimiter: ',',
  headers: ['Name', 'Slug'],
  rows: [
    ['Linen throw', 'linen-throw'],
    ['Wool blanket', 'wool-blanket'],
  ],
};
const WORK = { mapping: ['name', 'slug'], fixes: {}, concurrency: 4, started: false, products: 2 };

describeEachEngine('an import’s updates on the server', (_engine, freshDatabase) => {
  let platform: http.Server;
  /** The platform's products by id, and the PUT bodies that reached it. */
  const products = new Map<string, Record<string, unknown>>();
  const puts: { id: string; body: string }[] = [];
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  const clock = Date.UTC(2026, 10, 27, 9, 30);
  const cookies: Record<'owner' | 'ana', string> = { owner: '', ana: '' };

  beforeAll(async () => {
    platform = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const id = /\/ecommerce\/products\/(\d+)$/.exec(req.url ?? '')?.[1] ?? '';
        const product = products.get(id);
        res.setHeader('content-type', 'application/json');
        if (!product) {
          res.writeHead(404).end(JSON.stringify({ code: 404, error: 'Not Found', message: 'Product does not exist' }));
          return;
        }
        if (req.method === 'PUT') {
          puts.push({ id, body });
          Object.assign(product, JSON.parse(body) as object);
        }
        res.writeHead(200).end(JSON.stringify(product));
      });
    });
    const platformPort = await listen(platform);
    running = await startWholeServer(
      {
        SITE_API_BASE_URL: `http://127.0.0.1:${platformPort}/api/site/v2`,
        SITE_API_KEY: 'platform-key-import-updates',
        SITE_ID: '2002',
        ADMIN_USER: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
      },
      { database: await freshDatabase(), now: () => clock, prefix: 'site-admin-import-updates-' },
    );
    await addPeople(running.site, [{ ...ANA, grants: [{ siteId: '*', role: 'editor' }] }]);
    for (const [name, who] of [
      ['owner', OWNER],
      ['ana', ANA],
    ] as const) {
      const reply = await call('POST', '/api/sign-in/password', '', { email: who.email, password: who.password });
      expect(reply.status).toBe(200);
      cookies[name] = ([] as string[])
        .concat(reply.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
    }
  }, 60_000);

  afterAll(async () => {
    await running.stop();
    await closeServer(platform);
  }, 60_000);

  function call(method: string, path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return send(running.port, {
      method,
      path,
      headers: {
        origin: `http://127.0.0.1:${running.port}`,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  const json = <T>(reply: Reply) => JSON.parse(reply.text) as T;
  const newImport = async () => {
    const reply = await call('POST', IMPORTS_PATHS.list, cookies.ana, { site: 'main', file: FILE, work: WORK });
    expect(reply.status).toBe(201);
    return json<ImportRecord>(reply).id;
  };
  const runnerOf = async (id: string, cookie: string) => {
    const reply = await call('POST', importPath(IMPORTS_PATHS.run, id), cookie, {});
    expect(reply.status).toBe(200);
    return json<{ runner: string }>(reply).runner;
  };
  const read = async (id: string) => json<ImportRecord>(await call('GET', importPath(IMPORTS_PATHS.one, id), cookies.owner));
  /** The fingerprint of the product as a read of it now answers it (what the dry run keeps). */
  const fingerprintNow = (productId: string) => productFingerprint(JSON.parse(JSON.stringify(products.get(productId))));
  const updateFor = (id: string, key: string, productId: string, body: object, base: string, cookie: string, runner: string) =>
    call('PUT', `/api/site/v2/ecommerce/products/${productId}`, cookie, body, {
      [PRODUCT_BASE_HEADER]: base,
      [IMPORT_PRODUCT_HEADER]: `${id}/${key}`,
      [IMPORT_RUNNER_HEADER]: runner,
    });
  const putsOf = (productId: string) => puts.filter((put) => put.id === productId).map((put) => put.body);

  it('sends an update once: claimed before it is forwarded, a second send of it is refused and never reaches the platform', async () => {
    products.set('1042', { id: '1042', name: 'Linen throw', slug: 'linen-throw', enabled: 'true', weighting: '1' });
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    const base = await fingerprintNow('1042');
    const body = { name: 'Linen throw', enabled: 'true', weighting: '5' };
    const first = await updateFor(id, '0', '1042', body, base, cookies.ana, ana);
    expect(first.status).toBe(200);
    expect(putsOf('1042')).toEqual([JSON.stringify(body)]);

    // The same page again (a retry, a reload that lost the answer): refused, nothing forwarded.
    const again = await updateFor(id, '0', '1042', body, await fingerprintNow('1042'), cookies.ana, ana);
    expect(again.status).toBe(409);
    expect(json<{ message: string }>(again).message).toMatch(/already updated/);
    // A colleague who takes the run after Ana lets it go cannot send it either.
    expect((await call('POST', importPath(IMPORTS_PATHS.release, id), cookies.ana, { runner: ana })).status).toBe(204);
    const owner = await runnerOf(id, cookies.owner);
    expect((await updateFor(id, '0', '1042', body, await fingerprintNow('1042'), cookies.owner, owner)).status).toBe(409);
    expect(putsOf('1042')).toHaveLength(1);

    const record = await read(id);
    expect(record.products['0']).toMatchObject({ status: 'updated', body: JSON.stringify(body) });
    expect(record.counts).toMatchObject({ products: 2, created: 0, updated: 1, conflict: 0, pending: 1 });
    // The product's status refers to its update in the activity record, with the exact body sent.
    const entry = await running.site.activity.get(record.products['0']?.createSeq ?? 0);
    expect(entry).toMatchObject({ action: 'product.update', target_slug: 'linen-throw' });
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ product: '1042', body: JSON.stringify(body) });
  });

  it('holds back an update whose product changed on the platform since the dry run: nothing sent, never sent again by itself', async () => {
    products.set('2077', { id: '2077', name: 'Wool blanket', slug: 'wool-blanket', enabled: 'true', weighting: '1' });
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    const asChecked = await fingerprintNow('2077');
    // A colleague changes the product in the platform's own admin after the dry run read it.
    Object.assign(products.get('2077') ?? {}, { weighting: '9' });
    const body = { name: 'Wool blanket', enabled: 'true', weighting: '3' };
    const refused = await updateFor(id, '1', '2077', body, asChecked, cookies.ana, ana);
    expect(refused.status).toBe(412);
    expect(putsOf('2077')).toEqual([]);
    expect((await read(id)).products['1']).toMatchObject({ status: 'conflict', message: expect.stringMatching(/since the dry run/) });
    expect((await read(id)).counts).toMatchObject({ conflict: 1, updated: 0 });

    // Not sent again by itself, even with the product's fingerprint as it is now.
    const fresh = await fingerprintNow('2077');
    expect((await updateFor(id, '1', '2077', body, fresh, cookies.ana, ana)).status).toBe(409);
    expect(putsOf('2077')).toEqual([]);

    // A person, having checked it against the product as it is now, sends it again.
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '1'), cookies.ana, { status: 'pending' })).status).toBe(204);
    expect((await updateFor(id, '1', '2077', body, fresh, cookies.ana, ana)).status).toBe(200);
    expect(putsOf('2077')).toEqual([JSON.stringify(body)]);
    expect((await read(id)).products['1']).toMatchObject({ status: 'updated' });
  });
});
