/**
 * What the activity record holds of a site's calls, through the whole server to a stand-in platform that
 * looks at the record itself when a create reaches it: the create's entry, with the exact body, is already
 * there; its outcome follows; a lookup leaves form, case and status and never the case's content.
 */
import http from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullProduct } from '../../src/contract/fixtures';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { loadConfig } from '../config';
import { describeEachEngine } from '../testing/postgres';
import { recordingPlatform, type RecordingPlatform } from '../testing/recording-platform';
import { closeServer, listen, send, startWholeServer, tempDir } from '../testing/test-helpers';
import { shortUserAgent } from './record-site-calls';

const SECRET_FIELD = 'only-on-the-platform@example.com';

describe('the activity record of a site’s calls', () => {
  let dataDir: string;
  let site: SiteAdminServer;
  let server: http.Server;
  let port: number;
  let platform: http.Server;
  /** For each create that reached the platform: the actions recorded by then. */
  const seenAtArrival: string[][] = [];
  let answerStatus = 200;

  beforeAll(async () => {
    dataDir = tempDir('site-admin-activity-');
    platform = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        void (async () => {
          if (req.method === 'POST') {
            const rows = await site.activity
              .verify()
              .then(async () => site.database.db.selectFrom('activity').select(['action', 'detail']).orderBy('seq').execute());
            seenAtArrival.push(rows.map((row) => `${row.action}:${row.detail === JSON.stringify({ body }) ? 'same-body' : 'other'}`));
          }
          const answer =
            req.method === 'POST'
              ? answerStatus === 200
                ? JSON.stringify({ id: '9001', ...(JSON.parse(body) as object) })
                : JSON.stringify({
                    error: 'Unprocessable Entity',
                    code: 422,
                    message: 'slug taken',
                    details: [{ field: 'slug', message: 'taken' }],
                  })
              : /\/cases(\?|$)/.test(req.url ?? '')
                ? JSON.stringify({
                    results: [{ id: '48217', properties: { email: SECRET_FIELD } }],
                    total_entries: 1,
                    total_pages: 1,
                    current_page: 1,
                    per_page: 5,
                  })
                : JSON.stringify({ id: '48217', fields: { email: SECRET_FIELD } });
          res.writeHead(req.method === 'POST' ? answerStatus : 200, { 'content-type': 'application/json' });
          res.end(answer);
        })();
      });
    });
    const platformPort = await listen(platform);
    site = await createSiteAdminServer(
      loadConfig({
        SITE_API_BASE_URL: `http://127.0.0.1:${platformPort}/api/site/v2`,
        SITE_API_KEY: 'platform-key-activity',
        SITE_ID: '2002',
        DATA_DIR: dataDir,
        LOG_REQUESTS: 'false',
      }),
    );
    server = http.createServer((req, res) => site.handle(req, res));
    port = await listen(server);
  });

  afterAll(async () => {
    await closeServer(server);
    await closeServer(platform);
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const entries = () => site.database.db.selectFrom('activity').selectAll().orderBy('seq').execute();

  it('writes a create, with the exact body, before it reaches the platform; then its outcome', async () => {
    const body = JSON.stringify(fullProduct('linen-throw-activity'));
    const reply = await send(port, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      body,
      headers: {
        'content-type': 'application/json',
        origin: `http://127.0.0.1:${port}`,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
      },
    });
    expect(reply.status).toBe(200);
    expect(seenAtArrival.at(-1)).toEqual(['product.create:same-body']);
    const [create, outcome] = (await entries()).slice(-2);
    expect(create).toMatchObject({
      action: 'product.create',
      actor_kind: 'demo',
      site_id: 'main',
      target_slug: 'linen-throw-activity',
      outcome: 'sent',
      request_id: reply.headers['x-request-id'],
      user_agent: 'Chrome 131 on Linux',
    });
    expect(JSON.parse(create?.detail ?? '{}')).toEqual({ body });
    expect(outcome).toMatchObject({ action: 'product.create.outcome', refers_to: create?.seq, outcome: 'created', status: 200 });
    expect(JSON.parse(outcome?.detail ?? '{}')).toMatchObject({ answer: reply.text });
    expect((await site.activity.verify()).ok).toBe(true);
  });

  it('records a rejected create as rejected, with the platform’s status', async () => {
    answerStatus = 422;
    try {
      const reply = await send(port, {
        method: 'POST',
        path: '/api/site/v2/ecommerce/products/create',
        body: JSON.stringify(fullProduct('taken-slug')),
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      });
      expect(reply.status).toBe(422);
    } finally {
      answerStatus = 200;
    }
    expect((await entries()).at(-1)).toMatchObject({
      action: 'product.create.outcome',
      outcome: 'rejected',
      status: 422,
      target_slug: 'taken-slug',
    });
  });

  it('records a lookup with its form, case and status, and never the case’s content', async () => {
    const reply = await send(port, { path: '/api/site/v2/forms/3/cases/48217' });
    expect(reply.text).toContain(SECRET_FIELD);
    const last = (await entries()).at(-1);
    expect(last).toMatchObject({ action: 'case.lookup', form_id: '3', case_id: '48217', status: 200, outcome: 'found', site_id: 'main' });
    expect(JSON.stringify(await entries())).not.toContain(SECRET_FIELD);
  });

  it('lists the team’s created products from the record, with who, the platform’s id and what was sent', async () => {
    const list = JSON.parse((await send(port, { path: '/api/created-products?site=main' })).text) as {
      products: { seq: number; slug: string; platformId: string; by: string }[];
    };
    const throw_ = list.products.find((product) => product.slug === 'linen-throw-activity');
    expect(throw_).toMatchObject({ platformId: '9001', by: 'Local demo' });
    // The rejected create is not a created product.
    expect(list.products.some((product) => product.slug === 'taken-slug')).toBe(false);
    expect(JSON.parse((await send(port, { path: '/api/created-products/slugs?site=main' })).text)).toEqual({
      slugs: ['linen-throw-activity'],
      created: [{ slug: 'linen-throw-activity', by: 'Local demo', at: expect.any(Number) as unknown }],
    });
    const one = JSON.parse((await send(port, { path: `/api/created-products/${throw_?.seq ?? 0}` })).text) as {
      body: string;
      answer: string;
    };
    expect(JSON.parse(one.body)).toMatchObject({ slug: 'linen-throw-activity' });
    expect(JSON.parse(one.answer)).toMatchObject({ id: '9001' });
    expect((await send(port, { path: '/api/created-products?site=elsewhere' })).status).toBe(400);
  });

  it('records nothing for a call refused before any platform (no such operation)', async () => {
    const before = (await entries()).length;
    expect((await send(port, { path: '/api/site/v2/forms/3' })).status).toBe(404);
    expect(await entries()).toHaveLength(before);
  });

  it('shows no case and sends no product when the record cannot take the entry', async () => {
    const sqlite = site.database.sqlite;
    if (!sqlite) throw new Error('this test runs on SQLite');
    const arrivedBefore = seenAtArrival.length;
    sqlite.exec(`create trigger refuse_entries before insert on activity begin select raise(abort, 'the record is unavailable'); end`);
    try {
      const lookup = await send(port, { path: '/api/site/v2/forms/3/cases/48217' });
      expect(lookup.status).toBe(503);
      expect(lookup.text).not.toContain(SECRET_FIELD);
      expect(JSON.parse(lookup.text)).toMatchObject({ code: 503, message: expect.stringContaining('activity record') as string });
      const list = await send(port, { path: '/api/site/v2/forms/3/cases?per_page=5' });
      expect(list.status).toBe(503);
      expect(list.text).not.toContain(SECRET_FIELD);
      expect(list.text).not.toContain('48217');
      const create = await send(port, {
        method: 'POST',
        path: '/api/site/v2/ecommerce/products/create',
        body: JSON.stringify(fullProduct('never-sent-unrecorded')),
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      });
      expect(create.status).toBe(503);
      expect(seenAtArrival).toHaveLength(arrivedBefore);
    } finally {
      sqlite.exec('drop trigger refuse_entries');
    }
    // Once the record takes entries again, so does the lookup.
    expect((await send(port, { path: '/api/site/v2/forms/3/cases/48217' })).status).toBe(200);
  });
});

describeEachEngine('the record of a list of a form’s cases', (_engine, freshDatabase) => {
  let platform: RecordingPlatform;
  let whole: Awaited<ReturnType<typeof startWholeServer>>;
  /** What the stand-in platform answers a list with next. */
  let listAnswer: { status: number; body: string };

  beforeAll(async () => {
    platform = await recordingPlatform(() => listAnswer);
    whole = await startWholeServer(
      { SITE_API_BASE_URL: `http://127.0.0.1:${platform.port}/api/site/v2`, SITE_API_KEY: 'platform-key-list', SITE_ID: '2002' },
      { database: await freshDatabase(), prefix: 'site-admin-list-record-' },
    );
  });
  afterAll(async () => {
    await whole.stop();
    await platform.close();
  });

  const lastEntry = async () => {
    const [row] = await whole.site.database.db.selectFrom('activity').selectAll().orderBy('seq', 'desc').limit(1).execute();
    return { ...row, detail: JSON.parse(row?.detail ?? 'null') as unknown };
  };

  it('records the query and the ids of the cases shown, big ids digit for digit, and nothing else of a case', async () => {
    const secret = 'listed-secret@example.com';
    listAnswer = {
      status: 200,
      body:
        '{"results":[{"id":"61002","properties":{"email":"' +
        secret +
        '"}},{"id":12345678901234567890,"properties":{"name":"Ana"}},{"id":"61000"}],' +
        '"total_entries":203,"total_pages":68,"current_page":2,"per_page":3}',
    };
    const filter = JSON.stringify({ email: { contains: 'ana' } });
    const reply = await send(whole.port, {
      path: `/api/site/v2/forms/21/cases?per_page=3&page=2&sort_type=created_at&sort_order=desc&filter=${encodeURIComponent(filter)}`,
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(secret);
    expect(await lastEntry()).toMatchObject({
      action: 'case.list',
      site_id: 'main',
      form_id: '21',
      outcome: 'listed',
      status: 200,
      request_id: reply.headers['x-request-id'],
      detail: {
        query: { per_page: 3, page: 2, sort_type: 'created_at', sort_order: 'desc', filter: { email: { contains: 'ana' } } },
        cases: ['61002', '12345678901234567890', '61000'],
      },
    });
    const all = await whole.site.database.db.selectFrom('activity').selectAll().execute();
    expect(JSON.stringify(all)).not.toContain(secret);
    expect(JSON.stringify(all)).not.toContain('Ana');
    expect((await whole.site.activity.verify()).ok).toBe(true);
  });

  it('records the platform’s 404 as an empty list, passed on as it came', async () => {
    listAnswer = { status: 404, body: JSON.stringify({ error: 'Not Found', code: 404, message: 'The form does not contain any cases' }) };
    const reply = await send(whole.port, { path: '/api/site/v2/forms/7/cases' });
    expect(reply.status).toBe(404);
    expect(await lastEntry()).toMatchObject({
      action: 'case.list',
      form_id: '7',
      outcome: 'empty',
      status: 404,
      detail: { query: {}, cases: [] },
    });
  });

  it('records an answer in another envelope with the ids a looser reading finds, and says why; the browser still gets it', async () => {
    listAnswer = {
      status: 200,
      body: JSON.stringify({
        data: [{ id: '1', properties: { email: 'x@example.com' } }, { id: 2 }],
        meta: { total: 2, owner: { id: '9' } },
      }),
    };
    const reply = await send(whole.port, { path: '/api/site/v2/forms/21/cases?page=1' });
    expect(reply.status).toBe(200);
    const entry = await lastEntry();
    // What the browser can show of it raw is what the record names: the items' ids, not an object's outside a list.
    expect(entry).toMatchObject({
      action: 'case.list',
      outcome: 'unreadable',
      status: 200,
      detail: { query: { page: 1 }, cases: ['1', '2'] },
    });
    expect(JSON.stringify(entry.detail)).not.toContain('x@example.com');
    expect((entry.detail as { unreadable: string }).unreadable).toMatch(/not the "results" envelope: it has no "results"/);
  });

  it('records a platform’s error as failed, with nothing forwarded twice', async () => {
    platform.received.length = 0;
    listAnswer = { status: 500, body: JSON.stringify({ error: 'Internal Server Error', code: 500, message: 'down' }) };
    const reply = await send(whole.port, { path: '/api/site/v2/forms/21/cases' });
    expect(reply.status).toBe(500);
    expect(platform.received).toHaveLength(1);
    expect(await lastEntry()).toMatchObject({ action: 'case.list', outcome: 'failed', status: 500, detail: { cases: [] } });
  });
});

describe('shortUserAgent', () => {
  it('names the browser and the system, not every detail', () => {
    expect(shortUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15')).toBe(
      'Safari 17 on macOS',
    );
    expect(shortUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox 128 on Windows',
    );
    expect(shortUserAgent('curl/8.5.0')).toBe('curl 8');
    expect(shortUserAgent(undefined)).toBeNull();
  });
});
