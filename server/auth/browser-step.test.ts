/**
 * A sign-in's step held by the browser, over real HTTP and a real database: the cookie it is held by, and
 * that it is used once, by the cookie's token and nothing else.
 */
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from '../db/open';
import { createPendingStepStore } from '../db/pending-step-store';
import { closeServer, listen, send, tempDir } from '../testing/test-helpers';
import { browserSteps } from './browser-step';

const MINUTE = 60_000;

describe.each([false, true])('a step held by the browser (Secure cookies: %s)', (secure) => {
  let database: AppDatabase;
  let server: http.Server;
  let port: number;
  let clock = Date.UTC(2026, 10, 1, 9);
  const name = secure ? '__Host-site_admin_test_step' : 'site_admin_test_step';

  beforeAll(async () => {
    database = await openDatabase({ engine: 'sqlite', file: join(tempDir('browser-step-'), 'site-admin.sqlite') });
    const steps = browserSteps({
      name: 'site_admin_test_step',
      cookie: { secure },
      store: createPendingStepStore(database.db),
      ttlMs: 5 * MINUTE,
      now: () => clock,
    });
    server = http.createServer((req, res) => {
      void (async () => {
        if (req.url === '/start') await steps.start(res, 'test', null, { challenge: 'abc' });
        const step = req.url === '/take' ? await steps.takeFrom(req, res, 'test') : undefined;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(step?.data ?? null));
      })();
    });
    port = await listen(server);
  });
  afterAll(async () => {
    await closeServer(server);
    await database.close();
  });

  const start = async () => {
    const reply = await send(port, { path: '/start' });
    const set = reply.headers['set-cookie']?.[0] ?? '';
    return { set, cookie: set.split(';')[0] ?? '' };
  };
  const take = (cookie: string) => send(port, { path: '/take', headers: { cookie } });

  it('is held by a cookie of its own, HttpOnly, SameSite=Lax, and __Host- with Secure when served over HTTPS', async () => {
    const { set } = await start();
    expect(set).toMatch(new RegExp(`^${name}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=300; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}$`));
  });

  it('is used once: taking it answers what it holds and ends its cookie; a second time, nothing', async () => {
    const { cookie } = await start();
    const first = await take(cookie);
    expect(JSON.parse(first.text)).toEqual({ challenge: 'abc' });
    expect(first.headers['set-cookie']?.[0]).toMatch(new RegExp(`^${name}=; Path=/; Max-Age=0;`));
    expect(JSON.parse((await take(cookie)).text)).toBeNull();
  });

  it('is not given out past its time, nor for a cookie of another name or not shaped as a token', async () => {
    const late = await start();
    clock += 5 * MINUTE;
    expect(JSON.parse((await take(late.cookie)).text)).toBeNull();
    const { cookie } = await start();
    const token = cookie.slice(name.length + 1);
    expect(JSON.parse((await take(`other_step=${token}`)).text)).toBeNull();
    expect(JSON.parse((await take(`${name}=${token}x`)).text)).toBeNull();
    expect(JSON.parse((await take(cookie)).text)).toEqual({ challenge: 'abc' });
  });
});
