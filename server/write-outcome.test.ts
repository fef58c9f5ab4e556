/**
 * The one table of what an answer to a write means (src/contract/write-outcome.ts), held through the whole
 * server: for every answer a platform can give a create of an import's product (src/contract/write-answers.ts),
 * a stand-in platform gives it, and the test reads what the activity record kept, what the import kept for
 * the product, and what the browser received (which src/lib/failure-table.test.ts reads as the page does).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullProduct } from '../src/contract/fixtures';
import { IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, IMPORTS_PATHS, importPath, type ImportRecord } from '../src/contract/imports';
import { WRITE_ANSWERS, type PlatformBehaviour } from '../src/contract/write-answers';
import { closeServer, listen, send, startWholeServer, type Reply } from './testing/test-helpers';

/** The proxy's time limit here: the one answer that never comes costs this, every other is immediate. */
const PROXY_TIMEOUT_MS = 3_000;

describe('what each answer to a create means, for the activity record, the import and the browser', () => {
  let platform: http.Server;
  /** What the platform does with the create of each slug. */
  const behaviours = new Map<string, PlatformBehaviour>();
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  const clock = Date.UTC(2026, 10, 26, 9, 0);
  let importId = '';
  let runner = '';

  beforeAll(async () => {
    platform = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const sent = JSON.parse(body) as { slug: string };
        const behaviour = behaviours.get(sent.slug) ?? { answers: 200 };
        if ('does' in behaviour) {
          if (behaviour.does === 'drop') req.socket.destroy();
          if (behaviour.does === 'break-off') {
            res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
            res.write('{"id":"1","name":');
            setImmediate(() => res.socket?.destroy());
          }
          // 'hang': no answer; the proxy gives up and closes the connection.
          return;
        }
        const status = behaviour.answers;
        const headers: Record<string, string> = {
          'content-type': behaviour.html ? 'text/html' : 'application/json',
          ...(behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {}),
        };
        const json =
          status < 300
            ? { id: `p-${sent.slug}`, ...sent }
            : {
                error: http.STATUS_CODES[status] ?? 'Error',
                code: status,
                message: `The platform says ${status}.`,
                details: [{ field: 'slug', message: `not accepted (${status})` }],
              };
        res.writeHead(status, headers);
        res.end(behaviour.html ? `<html><body>${status}</body></html>` : JSON.stringify(json));
      });
    });
    const platformPort = await listen(platform);
    running = await startWholeServer(
      {
        SITE_API_BASE_URL: `http://127.0.0.1:${platformPort}/api/site/v2`,
        SITE_API_KEY: 'platform-key-write-outcome',
        SITE_ID: '2002',
        PROXY_TIMEOUT_MS: String(PROXY_TIMEOUT_MS),
      },
      { now: () => clock, prefix: 'site-admin-write-outcome-' },
    );
    // One import (the local demo's), one product per answer.
    const rows = WRITE_ANSWERS.map((_, n) => ['Linen throw', `answer-${n}`]);
    const created = await call('POST', IMPORTS_PATHS.list, {
      site: 'main',
      file: { fileName: 'answers.csv', source: { kind: 'pasted' }, delimiter: ',', headers: ['Name', 'Slug'], rows },
      work: { mapping: ['name', 'slug'], fixes: {}, concurrency: 1, started: false, products: rows.length },
    });
    expect(created.status).toBe(201);
    importId = (JSON.parse(created.text) as ImportRecord).id;
    const run = await call('POST', importPath(IMPORTS_PATHS.run, importId), {});
    expect(run.status).toBe(200);
    runner = (JSON.parse(run.text) as { runner: string }).runner;
  }, 60_000);

  afterAll(async () => {
    await running.stop();
    await closeServer(platform);
  });

  function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return send(running.port, {
      method,
      path,
      headers: { origin: `http://127.0.0.1:${running.port}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it.each(WRITE_ANSWERS.map((row, n) => ({ ...row, n })))('$name', async ({ n, platform: behaviour, browser, record, import: kept }) => {
    const slug = `answer-${n}`;
    behaviours.set(slug, behaviour);
    const reply = await call('POST', '/api/site/v2/ecommerce/products/create', fullProduct(slug), {
      [IMPORT_PRODUCT_HEADER]: `${importId}/${n}`,
      [IMPORT_RUNNER_HEADER]: runner,
    });

    expect({
      status: reply.status,
      platformStatus: reply.headers['x-platform-status'] === undefined ? null : Number(reply.headers['x-platform-status']),
      retryAfter: reply.headers['retry-after'] ?? null,
    }).toEqual(browser);

    const outcome = await running.site.database.db
      .selectFrom('activity')
      .select(['outcome', 'status'])
      .where('action', '=', 'product.create.outcome')
      .where('target_slug', '=', slug)
      .executeTakeFirst();
    expect(outcome?.outcome).toBe(record);

    const imported = JSON.parse((await send(running.port, { path: importPath(IMPORTS_PATHS.one, importId) })).text) as ImportRecord;
    const product = imported.products[String(n)];
    expect(product?.status ?? 'pending').toBe(kept);
    if (kept === 'rejected' && !('html' in behaviour)) {
      // Rejected with what the platform said, as the browser was told it.
      expect(product).toMatchObject({
        httpStatus: browser.status,
        message: `The platform says ${browser.status}.`,
        details: [{ field: 'slug', message: `not accepted (${browser.status})` }],
      });
    }
  });
});
