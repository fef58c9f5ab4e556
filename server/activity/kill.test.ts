/**
 * The activity record when the server is killed (SIGKILL) in the middle of a burst of creates, on SQLite
 * and on PostgreSQL: every create that reached the stand-in platform has its entry with the exact body,
 * every create whose answer reached the browser before the kill has its outcome, and the chain verifies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fullProduct } from '../../src/contract/fixtures';
import { openDatabase } from '../db/open';
import { describeEachEngine } from '../testing/postgres';
import { childEnv, closeServer, freePort, listen, REPO_ROOT, send, tempDir, waitFor } from '../testing/test-helpers';
import { createActivityStore } from './activity-store';

describeEachEngine('the activity record, the server killed mid-burst', (engine, freshDatabase) => {
  it('keeps every create that reached the platform and every answered one, in a chain that verifies', async () => {
    const setting = await freshDatabase();
    const dataDir = tempDir('site-admin-kill-');
    const distDir = tempDir('site-admin-kill-dist-');
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>site-admin</title>');
    /** The bodies of the creates that reached the platform. */
    const arrived: string[] = [];
    let answeredSlugs: string[] = [];
    let onArrival = () => undefined as void;
    const platform = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        arrived.push(body);
        onArrival();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: String(arrived.length), ...(JSON.parse(body) as object) }));
      });
    });
    const platformPort = await listen(platform);
    const port = await freePort();
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: REPO_ROOT,
        env: childEnv({
          HOST: '127.0.0.1',
          PORT: String(port),
          DIST_DIR: distDir,
          DATA_DIR: dataDir,
          LOG_REQUESTS: 'false',
          SITE_API_BASE_URL: `http://127.0.0.1:${platformPort}/api/site/v2`,
          SITE_API_KEY: 'kill-test-key',
          SITE_ID: '77',
          ...(setting.engine === 'postgres' ? { DATABASE_URL: setting.url.href } : { DATA_DIR: dirnameOf(setting.file) }),
        }),
        stdio: 'ignore',
      });
      await waitFor(async () => (await send(port, { path: '/api/health' }).catch(() => undefined))?.status === 200, {
        timeoutMs: 30_000,
        what: 'the server to answer /api/health',
      });

      // A burst of creates, 8 at a time; the server is killed once 20 have reached the platform.
      const killed = new Promise<void>((resolve) => {
        onArrival = () => {
          if (arrived.length === 20 && child?.pid !== undefined) {
            process.kill(child.pid, 'SIGKILL');
            resolve();
          }
        };
      });
      const answered: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < 200) {
          const slug = `burst-${engine}-${next++}`;
          const reply = await send(port, {
            method: 'POST',
            path: '/api/site/v2/ecommerce/products/create',
            body: JSON.stringify(fullProduct(slug)),
            headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
          }).catch(() => undefined);
          if (!reply) return;
          if (reply.status === 200) answered.push(slug);
        }
      };
      await Promise.all([killed, ...Array.from({ length: 8 }, worker)]);
      answeredSlugs = answered;
      await new Promise<void>((resolve) =>
        child?.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
      );
    } finally {
      await closeServer(platform);
    }

    const database = await openDatabase(setting);
    try {
      const rows = await database.db.selectFrom('activity').selectAll().orderBy('seq').execute();
      const sent = new Set(
        rows.filter((row) => row.action === 'product.create').map((row) => (JSON.parse(row.detail ?? '{}') as { body: string }).body),
      );
      expect(arrived.length).toBeGreaterThanOrEqual(20);
      for (const body of arrived) expect(sent.has(body)).toBe(true);
      const outcomes = new Set(
        rows.filter((row) => row.action === 'product.create.outcome' && row.outcome === 'created').map((row) => row.target_slug),
      );
      expect(answeredSlugs.length).toBeGreaterThan(0);
      for (const slug of answeredSlugs) expect(outcomes.has(slug)).toBe(true);
      expect(await createActivityStore(database).verify()).toMatchObject({ ok: true });
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(distDir, { recursive: true, force: true });
    }
  }, 90_000);
});

function dirnameOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/'));
}
