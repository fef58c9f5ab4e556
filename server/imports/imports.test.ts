/**
 * Imports on the server, through the whole server to a stand-in platform that counts what reaches it, on
 * SQLite and PostgreSQL: a product answered 200 is never sent again whoever resumes the import; the run is
 * one page's at a time and the second is told who runs it; a lapsed run lets someone else take over and what
 * it left on its way is unknown; a stale save is refused; support people are turned away; the run's events
 * are in the activity record with their counts.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fullProduct } from '../../src/contract/fixtures';
import {
  IMPORT_LEASE_MS,
  IMPORT_PRODUCT_HEADER,
  IMPORT_RUNNER_HEADER,
  IMPORTS_PATHS,
  importPath,
  type ImportRecord,
  type ImportSummary,
} from '../../src/contract/imports';
import { OWN_API_MAX_BODY_BYTES } from '../own-api';
import { describeEachEngine } from '../testing/postgres';
import { addPeople, closeServer, errorShapeProblems, listen, send, startWholeServer, type Reply } from '../testing/test-helpers';

const OWNER = { email: 'owner@example.com', password: 'the first import passphrase here' };
const ANA = { email: 'ana@example.com', password: 'ana ruiz passphrase here', displayName: 'Ana Ruiz' };
const SAM = { email: 'sam@example.com', password: 'sam support passphrase here', displayName: 'Sam' };

const FILE = {
  fileName: 'linen.csv',
  source: { kind: 'pasted' },
  delimiter: ',',
  headers: ['Name', 'Slug'],
  rows: [
    ['Linen throw', 'linen-0'],
    ['Linen throw', 'linen-1'],
    ['Linen throw', 'linen-2'],
  ],
};
const WORK = { mapping: ['name', 'slug'], fixes: {}, concurrency: 4, started: false, products: 3 };

describeEachEngine('imports on the server', (_engine, freshDatabase) => {
  let platform: http.Server;
  /** Creates that reached the platform, by slug; and every header they came with. */
  const arrived = new Map<string, number>();
  const headersSeen: string[] = [];
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  let clock = Date.UTC(2026, 10, 25, 14, 2);
  const cookies: Record<'owner' | 'ana' | 'sam', string> = { owner: '', ana: '', sam: '' };

  beforeAll(async () => {
    platform = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        headersSeen.push(...Object.keys(req.headers));
        const slug = (JSON.parse(body || '{}') as { slug?: string }).slug ?? '';
        arrived.set(slug, (arrived.get(slug) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `p-${slug}`, ...(JSON.parse(body) as object) }));
      });
    });
    const platformPort = await listen(platform);
    running = await startWholeServer(
      {
        SITE_API_BASE_URL: `http://127.0.0.1:${platformPort}/api/site/v2`,
        SITE_API_KEY: 'platform-key-imports',
        SITE_ID: '2002',
        ADMIN_USER: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
      },
      { database: await freshDatabase(), now: () => clock, prefix: 'site-admin-imports-' },
    );
    await addPeople(running.site, [
      { ...ANA, grants: [{ siteId: '*', role: 'editor' }] },
      { ...SAM, grants: [{ siteId: '*', role: 'support' }] },
    ]);
    for (const [name, who] of [
      ['owner', OWNER],
      ['ana', ANA],
      ['sam', SAM],
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
  /** The spec's error shape, with 409's phrase (the spec's table has none: the platform never answers it). */
  const conflictShapeProblems = (reply: Reply) => [
    ...errorShapeProblems(409, reply.headers['content-type'], reply.text).filter((problem) => !problem.startsWith('error is')),
    ...(json<{ error?: string }>(reply).error === 'Conflict' ? [] : ['error is not Conflict']),
  ];
  const newImport = async (cookie = cookies.ana) => {
    const reply = await call('POST', IMPORTS_PATHS.list, cookie, { site: 'main', file: FILE, work: WORK });
    expect(reply.status).toBe(201);
    return json<ImportRecord>(reply).id;
  };
  const claim = (id: string, cookie: string, runner?: string) => call('POST', importPath(IMPORTS_PATHS.run, id), cookie, { runner });
  const runnerOf = async (id: string, cookie: string) => {
    const reply = await claim(id, cookie);
    expect(reply.status).toBe(200);
    return json<{ runner: string }>(reply).runner;
  };
  const createFor = (id: string, key: string, slug: string, cookie: string, runner: string) =>
    call('POST', '/api/site/v2/ecommerce/products/create', cookie, fullProduct(slug), {
      [IMPORT_PRODUCT_HEADER]: `${id}/${key}`,
      [IMPORT_RUNNER_HEADER]: runner,
    });
  const read = async (id: string, cookie = cookies.owner) =>
    json<ImportRecord>(await call('GET', importPath(IMPORTS_PATHS.one, id), cookie));

  it('keeps a file larger than the own API’s usual bound, and lists it for everyone who may create products', async () => {
    const rows = Array.from({ length: 3000 }, (_, n) => ['Linen throw with a long name to fill the row', `big-${n}`]);
    const big = { ...FILE, fileName: 'big.csv', rows };
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(OWN_API_MAX_BODY_BYTES);
    const created = await call('POST', IMPORTS_PATHS.list, cookies.ana, { site: 'main', file: big, work: WORK });
    expect(created.status).toBe(201);
    const { id } = json<ImportRecord>(created);
    const listed = json<{ imports: ImportSummary[] }>(await call('GET', `${IMPORTS_PATHS.list}?site=main`, cookies.owner)).imports;
    expect(listed.find((one) => one.id === id)).toMatchObject({ fileName: 'big.csv', startedBy: 'Ana Ruiz', runner: null });
    expect((await read(id)).file).toEqual(big);
  });

  it('sends a product once: a second create of it is refused and never reaches the platform, whoever resumes', async () => {
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    expect((await createFor(id, '0', 'linen-0', cookies.ana, ana)).status).toBe(200);
    expect(arrived.get('linen-0')).toBe(1);
    // The same page again, and the same product: refused, nothing forwarded.
    const again = await createFor(id, '0', 'linen-0', cookies.ana, ana);
    expect(again.status).toBe(409);
    expect(conflictShapeProblems(again)).toEqual([]);
    expect(json<{ message: string }>(again).message).toMatch(/already created/);

    // The owner, meanwhile, cannot run it, and is told who does.
    const held = await claim(id, cookies.owner);
    expect(held.status).toBe(409);
    expect(conflictShapeProblems(held)).toEqual([]);
    expect(json<{ message: string }>(held).message).toBe('Ana Ruiz is running this import since 14:02 UTC.');
    expect((await createFor(id, '1', 'linen-1', cookies.owner, 'a-guessed-token')).status).toBe(409);
    expect(arrived.get('linen-1')).toBeUndefined();
    expect(json<ImportSummary>(await call('GET', importPath(IMPORTS_PATHS.one, id), cookies.owner)).runner).toMatchObject({
      name: 'Ana Ruiz',
    });

    // Ana pauses; the owner resumes in another browser: product 0 is created, and stays so.
    expect((await call('POST', importPath(IMPORTS_PATHS.release, id), cookies.ana, { runner: ana })).status).toBe(204);
    const owner = await runnerOf(id, cookies.owner);
    expect((await createFor(id, '0', 'linen-0', cookies.owner, owner)).status).toBe(409);
    expect((await createFor(id, '1', 'linen-1', cookies.owner, owner)).status).toBe(200);
    // Ana's old token no longer sends anything.
    expect((await createFor(id, '2', 'linen-2', cookies.ana, ana)).status).toBe(409);
    expect(arrived.get('linen-0')).toBe(1);
    expect(arrived.get('linen-1')).toBe(1);
    expect(arrived.get('linen-2')).toBeUndefined();

    const record = await read(id);
    expect(record.products['0']).toMatchObject({ status: 'created' });
    expect(record.products['1']).toMatchObject({ status: 'created' });
    expect(record.counts).toEqual({ products: 3, created: 2, updated: 0, rejected: 0, unknown: 0, skipped: 0, conflict: 0, pending: 1 });
    // The product's status refers to its create in the activity record, with the exact body sent.
    const entry = await running.site.activity.get(record.products['0']?.createSeq ?? 0);
    expect(entry).toMatchObject({ action: 'product.create', target_slug: 'linen-0' });
    expect(JSON.parse(entry?.detail ?? '{}')).toEqual({ body: JSON.stringify(fullProduct('linen-0')) });
    // The import's headers stay here.
    expect(headersSeen.filter((name) => name.startsWith('x-import'))).toEqual([]);
  });

  it('lets someone take over once a run lapses; what it left on its way is unknown, and sent again only by a person’s decision', async () => {
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    // A server that stopped mid-send leaves the product on its way, with no answer to come.
    const anaId = (await running.site.accounts.people.getByEmail(ANA.email))?.id ?? '';
    expect(await running.site.imports.claimProduct(id, '2', ana, { kind: 'person', id: anaId, name: 'Ana Ruiz' }, clock)).toEqual({
      ok: true,
    });
    expect((await read(id)).products['2']).toMatchObject({ status: 'sending' });
    clock += IMPORT_LEASE_MS + 1;
    // Once the run lapsed, nobody runs it, and what was on its way may or may not have been created.
    expect((await read(id)).runner).toBeNull();
    expect((await read(id)).products['2']).toMatchObject({ status: 'unknown' });
    const owner = await runnerOf(id, cookies.owner);
    expect((await read(id)).runner).toMatchObject({ name: 'owner' });
    // An unknown outcome is never sent again by itself; a person's decision puts it back.
    expect((await createFor(id, '2', 'lapsed-2', cookies.owner, owner)).status).toBe(409);
    expect(arrived.get('lapsed-2')).toBeUndefined();
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '2'), cookies.owner, { status: 'pending' })).status).toBe(204);
    expect((await createFor(id, '2', 'lapsed-2', cookies.owner, owner)).status).toBe(200);
    expect(arrived.get('lapsed-2')).toBe(1);
    // A created product cannot be put back.
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '2'), cookies.owner, { status: 'pending' })).status).toBe(409);
  });

  it('skips an unknown outcome by a person’s decision: it is counted skipped and never sent', async () => {
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    const anaId = (await running.site.accounts.people.getByEmail(ANA.email))?.id ?? '';
    expect(await running.site.imports.claimProduct(id, '3', ana, { kind: 'person', id: anaId, name: 'Ana Ruiz' }, clock)).toEqual({
      ok: true,
    });
    clock += IMPORT_LEASE_MS + 1;
    const owner = await runnerOf(id, cookies.owner);
    expect((await read(id)).products['3']).toMatchObject({ status: 'unknown' });
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '3'), cookies.owner, { status: 'skipped' })).status).toBe(204);
    const record = await read(id);
    expect(record.products['3']).toMatchObject({ status: 'skipped' });
    expect(record.counts).toMatchObject({ skipped: 1, unknown: 0 });
    // Skipped is a decision not to send it: a create of it is refused and reaches no platform.
    expect((await createFor(id, '3', 'skipped-3', cookies.owner, owner)).status).toBe(409);
    expect(arrived.get('skipped-3')).toBeUndefined();
    // Only an unknown outcome can be skipped; a skipped product can be put back to send it after all.
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '3'), cookies.owner, { status: 'skipped' })).status).toBe(409);
    expect((await call('PUT', importPath(IMPORTS_PATHS.product, id, '3'), cookies.owner, { status: 'pending' })).status).toBe(204);
    expect((await createFor(id, '3', 'skipped-3', cookies.owner, owner)).status).toBe(200);
    expect(arrived.get('skipped-3')).toBe(1);
  });

  it('puts a product back to not sent when its browser went away before the whole create arrived (it never left)', async () => {
    const id = await newImport();
    const runner = await runnerOf(id, cookies.ana);
    const body = JSON.stringify(fullProduct('half-sent'));
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port: running.port,
        method: 'POST',
        path: '/api/site/v2/ecommerce/products/create',
        agent: false,
        headers: {
          origin: `http://127.0.0.1:${running.port}`,
          cookie: cookies.ana,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          [IMPORT_PRODUCT_HEADER]: `${id}/0`,
          [IMPORT_RUNNER_HEADER]: runner,
        },
      });
      req.on('error', () => resolve());
      req.write(body.slice(0, 20));
      // Once the server has claimed the product, the browser goes away with the body half sent.
      void (async () => {
        await expect.poll(async () => (await read(id)).products['0']?.status).toBe('sending');
        req.destroy();
        resolve();
      })();
    });
    await expect.poll(async () => (await read(id)).products['0']).toBeUndefined();
    expect(arrived.get('half-sent')).toBeUndefined();
    expect((await createFor(id, '0', 'half-sent', cookies.ana, runner)).status).toBe(200);
    expect(arrived.get('half-sent')).toBe(1);
  });

  it('refuses a save of the work made on an older version', async () => {
    const id = await newImport();
    const first = await call('PUT', importPath(IMPORTS_PATHS.work, id), cookies.ana, {
      version: 1,
      work: { ...WORK, fixes: { '0:1': 'x' } },
    });
    expect(first.status).toBe(200);
    expect(json<{ version: number }>(first).version).toBe(2);
    const stale = await call('PUT', importPath(IMPORTS_PATHS.work, id), cookies.owner, { version: 1, work: WORK });
    expect(stale.status).toBe(409);
    expect(conflictShapeProblems(stale)).toEqual([]);
    expect(await read(id)).toMatchObject({ version: 2, work: { ...WORK, fixes: { '0:1': 'x' } } });
  });

  it('moves the statuses with the rows when a product comes back from the editor with more rows', async () => {
    const id = await newImport();
    const ana = await runnerOf(id, cookies.ana);
    expect((await createFor(id, '2', 'moved-2', cookies.ana, ana)).status).toBe(200);
    expect(
      (
        await call('PUT', importPath(IMPORTS_PATHS.file, id), cookies.ana, {
          version: 1,
          file: FILE,
          work: WORK,
          moved: { start: 0, end: 1, delta: 1 },
        })
      ).status,
    ).toBe(409);
    await call('POST', importPath(IMPORTS_PATHS.release, id), cookies.ana, { runner: ana });
    // Product 0 now has two rows: product 2 is at row 3, created still; nothing is at row 2.
    const rows = [FILE.rows[0] ?? [], ['', ''], ...FILE.rows.slice(1)];
    const moved = await call('PUT', importPath(IMPORTS_PATHS.file, id), cookies.ana, {
      version: 1,
      file: { ...FILE, rows },
      work: WORK,
      moved: { start: 0, end: 1, delta: 1 },
    });
    expect(moved.status).toBe(200);
    const record = await read(id);
    expect(Object.keys(record.products)).toEqual(['3']);
    expect(record.products['3']).toMatchObject({ status: 'created' });
    expect((record.file as typeof FILE).rows).toHaveLength(4);
    expect((await createFor(id, '3', 'moved-2', cookies.ana, await runnerOf(id, cookies.ana))).status).toBe(409);
    expect(arrived.get('moved-2')).toBe(1);
  });

  it('keeps what a browser knew was answered before the server kept its import: such a product is never sent', async () => {
    const created = await call('POST', IMPORTS_PATHS.list, cookies.ana, {
      site: 'main',
      file: FILE,
      work: WORK,
      products: { '0': { status: 'created', at: 1 }, '1': { status: 'sending', since: 1 } },
    });
    expect(created.status).toBe(201);
    const record = json<ImportRecord>(created);
    expect(record.products['0']).toMatchObject({ status: 'created' });
    expect(record.products['1']).toMatchObject({ status: 'unknown' });
    const runner = await runnerOf(record.id, cookies.ana);
    expect((await createFor(record.id, '0', 'known-0', cookies.ana, runner)).status).toBe(409);
    expect(arrived.get('known-0')).toBeUndefined();
  });

  it('answers support people 403 and bad input 400, in the spec’s error shape', async () => {
    const id = await newImport();
    for (const reply of [
      await call('GET', `${IMPORTS_PATHS.list}?site=main`, cookies.sam),
      await call('POST', IMPORTS_PATHS.list, cookies.sam, { site: 'main', file: FILE, work: WORK }),
      await call('GET', importPath(IMPORTS_PATHS.one, id), cookies.sam),
      await claim(id, cookies.sam),
    ]) {
      expect(reply.status).toBe(403);
      expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
    }
    for (const body of [
      null,
      [],
      { site: 'main' },
      { site: 'nowhere', file: FILE, work: WORK },
      { site: 'main', file: { ...FILE, rows: [[1]] }, work: WORK },
      { site: 'main', file: FILE, work: { ...WORK, concurrency: 99 } },
    ]) {
      const reply = await call('POST', IMPORTS_PATHS.list, cookies.ana, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(errorShapeProblems(400, reply.headers['content-type'], reply.text)).toEqual([]);
    }
    const badHeader = await call('POST', '/api/site/v2/ecommerce/products/create', cookies.ana, fullProduct('bad-header'), {
      [IMPORT_PRODUCT_HEADER]: 'no-key',
    });
    expect(badHeader.status).toBe(400);
    expect(arrived.get('bad-header')).toBeUndefined();
  });

  it('records the run: started, paused, resumed and finished, with counts and the file’s name', async () => {
    const id = await newImport();
    const first = await runnerOf(id, cookies.ana);
    expect((await createFor(id, '0', 'events-0', cookies.ana, first)).status).toBe(200);
    await call('POST', importPath(IMPORTS_PATHS.release, id), cookies.ana, { runner: first });
    const second = await runnerOf(id, cookies.ana);
    await call('POST', importPath(IMPORTS_PATHS.release, id), cookies.ana, { runner: second, finished: true });
    const rows = await running.site.database.db
      .selectFrom('activity')
      .select(['action', 'person_name', 'target_name', 'detail'])
      .where('action', 'like', 'import.%')
      .orderBy('seq')
      .execute();
    const ours = rows.filter((row) => (JSON.parse(row.detail ?? '{}') as { import?: string }).import === id);
    expect(ours.map((row) => row.action)).toEqual(['import.started', 'import.paused', 'import.resumed', 'import.finished']);
    expect(ours.every((row) => row.person_name === 'Ana Ruiz' && row.target_name === 'linen.csv')).toBe(true);
    expect(JSON.parse(ours[1]?.detail ?? '{}')).toMatchObject({ counts: { products: 3, created: 1, rejected: 0, unknown: 0, pending: 2 } });
    expect(await running.site.activity.verify()).toMatchObject({ ok: true });
  });
});
