/**
 * Two server instances sharing one PostgreSQL database, as behind a load balancer: a session started on
 * one works on the other, a person disabled on one is out on the other at the next request, the
 * entries both write form one chain that verifies, and an import started on one is seen, and held, on the other.
 */
import http from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullProduct } from '../../src/contract/fixtures';
import { IMPORTS_PATHS, importPath, type ImportRecord, type ImportSummary } from '../../src/contract/imports';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { loadConfig } from '../config';
import { POSTGRES_BIN, startPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { closeServer, listen, send, tempDir } from '../testing/test-helpers';

const OWNER = { email: 'owner@example.com', password: 'two instances one passphrase' };

it('has PostgreSQL where CI runs (.ci/run installs it)', () => {
  if (process.env.CI) expect(POSTGRES_BIN, 'PostgreSQL (initdb, pg_ctl) is missing in CI').toBeDefined();
});

describe.skipIf(POSTGRES_BIN === undefined)(
  `two instances on one PostgreSQL${POSTGRES_BIN === undefined ? ' (skipped: no PostgreSQL here; apt-get install postgresql)' : ''}`,
  () => {
    let cluster: ThrowawayPostgres;
    const dataDir = tempDir('site-admin-two-');
    const instances: { site: SiteAdminServer; server: http.Server; port: number }[] = [];

    beforeAll(async () => {
      cluster = await startPostgres();
      const { url } = (await cluster.freshDatabase()) as { url: URL };
      for (let n = 0; n < 2; n += 1) {
        const site = await createSiteAdminServer(
          loadConfig({
            DATABASE_URL: url.href,
            SANDBOX_DATA_DIR: `${dataDir}/${n}`,
            LOG_REQUESTS: 'false',
            ADMIN_USER: OWNER.email,
            ADMIN_PASSWORD: OWNER.password,
          }),
        );
        const server = http.createServer((req, res) => site.handle(req, res));
        instances.push({ site, server, port: await listen(server) });
      }
    }, 60_000);

    afterAll(async () => {
      for (const { site, server } of instances) {
        await closeServer(server);
        await site.close();
      }
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    const post = (n: number, path: string, body: string, cookie?: string) =>
      send(instances[n]?.port ?? 0, {
        method: 'POST',
        path,
        body,
        headers: {
          'content-type': 'application/json',
          origin: `http://127.0.0.1:${instances[n]?.port ?? 0}`,
          ...(cookie ? { cookie } : {}),
        },
      });

    it('shares sessions, and writes one chain from both', async () => {
      const signedIn = await post(0, '/api/sign-in/password', JSON.stringify(OWNER));
      expect(signedIn.status).toBe(200);
      const cookie = ([] as string[])
        .concat(signedIn.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
      // The session started on the first instance works on the second.
      expect((await send(instances[1]?.port ?? 0, { path: '/api/sites', headers: { cookie } })).status).toBe(200);

      const creates = Array.from({ length: 12 }, (_, n) =>
        post(n % 2, '/api/site/v2/ecommerce/products/create', JSON.stringify(fullProduct(`two-${n}`)), cookie),
      );
      expect((await Promise.all(creates)).map((reply) => reply.status)).toEqual(Array<number>(12).fill(200));
      const verified = await instances[1]?.site.activity.verify();
      expect(verified).toMatchObject({ ok: true });
      const rows = await instances[0]?.site.database.db
        .selectFrom('activity')
        .select(['action'])
        .where('action', 'like', 'product.create%')
        .execute();
      expect(rows).toHaveLength(24);
    });

    it('shows an import started on one instance on the other, with its run and what it created', async () => {
      const signedIn = await post(0, '/api/sign-in/password', JSON.stringify(OWNER));
      const cookie = ([] as string[])
        .concat(signedIn.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
      const file = { fileName: 'two.csv', delimiter: ',', headers: ['Name', 'Slug'], rows: [['Two', 'two-import-0']] };
      const work = { mapping: ['name', 'slug'], fixes: {}, concurrency: 1, started: false, products: 1 };
      const created = await post(0, IMPORTS_PATHS.list, JSON.stringify({ site: 'main', file, work }), cookie);
      expect(created.status).toBe(201);
      const { id } = JSON.parse(created.text) as ImportRecord;
      const run = await post(0, importPath(IMPORTS_PATHS.run, id), '{}', cookie);
      const { runner } = JSON.parse(run.text) as { runner: string };
      const sent = await send(instances[0]?.port ?? 0, {
        method: 'POST',
        path: '/api/site/v2/ecommerce/products/create',
        body: JSON.stringify(fullProduct('two-import-0')),
        headers: {
          'content-type': 'application/json',
          origin: `http://127.0.0.1:${instances[0]?.port ?? 0}`,
          cookie,
          'x-import-product': `${id}/0`,
          'x-import-runner': runner,
        },
      });
      expect(sent.status).toBe(200);

      const listed = await send(instances[1]?.port ?? 0, { path: `${IMPORTS_PATHS.list}?site=main`, headers: { cookie } });
      const found = (JSON.parse(listed.text) as { imports: ImportSummary[] }).imports.find((one) => one.id === id);
      expect(found).toMatchObject({ fileName: 'two.csv', runner: { name: 'owner' }, counts: { created: 1 } });
      // The run held on the first is held for the second too.
      expect((await post(1, importPath(IMPORTS_PATHS.run, id), '{}', cookie)).status).toBe(409);
    });

    it('turns a person disabled on one instance away on the other at the next request', async () => {
      const signedIn = await post(1, '/api/sign-in/password', JSON.stringify(OWNER));
      const cookie = ([] as string[])
        .concat(signedIn.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
      const owner = await instances[0]?.site.accounts.people.getByEmail(OWNER.email);
      await instances[0]?.site.accounts.people.setDisabled(owner?.id ?? '', true, Date.now());
      expect((await send(instances[1]?.port ?? 0, { path: '/api/sites', headers: { cookie } })).status).toBe(401);
      await instances[0]?.site.accounts.people.setDisabled(owner?.id ?? '', false, Date.now());
    });
  },
);
