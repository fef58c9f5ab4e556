/**
 * The login and its limits, over real loopback HTTP. Source addresses are rotated by binding the client
 * to other addresses of 127.0.0.0/8, which are all this machine's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, createBasicAuth, DEVICE_COOKIE, type LoginLimits } from './login';
import { closeServer, errorShapeProblems, freePort, listen, startSandboxedSite, tempDir, waitFor } from './test-helpers';

const USER = 'staff';
const PASSWORD = 'correct horse battery';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const RIGHT = basic(USER, PASSWORD);

interface Answer {
  status: number;
  text: string;
  retryAfter: string | undefined;
  challenge: string | undefined;
  /** The device cookie the answer set, as `name=value`. */
  device: string | undefined;
}

function ask(
  port: number,
  { authorization, cookie, from, path = '/' }: { authorization?: string; cookie?: string; from?: string; path?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    if (cookie) headers.cookie = cookie;
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false, localAddress: from });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const set = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
        resolve({
          status: res.statusCode ?? 0,
          text,
          retryAfter: res.headers['retry-after'],
          challenge: res.headers['www-authenticate'],
          device: set?.split(';')[0],
        });
      });
    });
    req.end();
  });
}

/** A bare server behind the login, with the given limits. */
async function loginServer(limits: Partial<LoginLimits>, extra: { password?: string; redis?: unknown } = {}) {
  const login = createBasicAuth({ user: USER, password: extra.password ?? PASSWORD, limits, redis: extra.redis });
  const server = http.createServer((req, res) => login(req, res, () => res.end('welcome')));
  const port = await listen(server);
  return { server, port };
}

const LOOSE = { points: 1000, durationSec: 600 };

describe('the login', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    ({ server, port } = await loginServer({ overall: LOOSE, perAddress: LOOSE, perAccount: LOOSE, perDevice: LOOSE }));
  });
  afterAll(() => closeServer(server));

  it('asks for a login, in the error shape, and counts nothing for a request without credentials', async () => {
    const reply = await ask(port);
    expect(reply.status).toBe(401);
    expect(reply.challenge).toMatch(/^Basic realm="site-admin"/);
    expect(errorShapeProblems(401, 'application/json', reply.text)).toEqual([]);
    expect(reply.device).toBeUndefined();
  });

  it('lets the right login in and gives the browser a device cookie; keeps a wrong one out', async () => {
    const right = await ask(port, { authorization: RIGHT });
    expect(right.text).toBe('welcome');
    expect(right.device).toMatch(new RegExp(`^${DEVICE_COOKIE}=[\\w-]+\\.\\d+\\.[\\w-]+$`));
    // A browser that sends its cookie back is not given another.
    expect((await ask(port, { authorization: RIGHT, cookie: right.device })).device).toBeUndefined();
    for (const wrong of [basic(USER, 'wrong'), basic('other', PASSWORD), basic(USER, `${PASSWORD} `), 'Basic !!!', 'Bearer x']) {
      const reply = await ask(port, { authorization: wrong });
      expect(reply.status, wrong).toBe(401);
      expect(reply.device).toBeUndefined();
    }
  });
});

describe('the login limits', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await closeServer(s);
  });
  const start = async (limits: Partial<LoginLimits>, extra: { password?: string } = {}) => {
    const running = await loginServer(limits, extra);
    servers.push(running.server);
    return running.port;
  };

  it('checks no more parallel guesses from one address than its limit, and answers the rest 429 with Retry-After', async () => {
    const port = await start({ overall: LOOSE, perAddress: { points: 3, durationSec: 600 }, perAccount: LOOSE });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, n) => ask(port, { authorization: basic(USER, `guess ${n}`) })));
    expect(replies.filter((r) => r.status === 401)).toHaveLength(3);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(errorShapeProblems(429, 'application/json', r.text)).toEqual([]);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    // Inside the lock even the right password is not looked at.
    expect((await ask(port, { authorization: RIGHT })).status).toBe(429);
  });

  it('holds a flood from rotating source addresses to the overall limit of checked guesses', async () => {
    const port = await start({ overall: { points: 5, durationSec: 600 }, perAddress: LOOSE, perAccount: LOOSE });
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        ask(port, { authorization: basic(`user${n}`, `guess ${n}`), from: `127.0.${1 + Math.floor(n / 200)}.${2 + (n % 200)}` }),
      ),
    );
    expect(replies.filter((r) => r.status === 401)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(95);
  });

  it('limits the guesses at one account from every address together', async () => {
    const port = await start({ overall: LOOSE, perAddress: LOOSE, perAccount: { points: 4, durationSec: 600 } });
    const statuses: number[] = [];
    for (let n = 0; n < 8; n += 1)
      statuses.push((await ask(port, { authorization: basic(USER, `guess ${n}`), from: `127.0.9.${n + 1}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    // The user name is compared without regard to case for the count, so STAFF is the same account.
    expect((await ask(port, { authorization: basic('STAFF', 'guess'), from: '127.0.9.50' })).status).toBe(429);
    // Another user name is another account.
    expect((await ask(port, { authorization: basic('someone', 'guess'), from: '127.0.9.51' })).status).toBe(401);
  });

  it('lets a browser that logged in before in while an attacker keeps its address and its account locked', async () => {
    const port = await start({ overall: LOOSE, perAddress: { points: 3, durationSec: 600 }, perAccount: { points: 5, durationSec: 600 } });
    const { device } = await ask(port, { authorization: RIGHT });
    expect(device).toBeDefined();
    // The attacker, on the same address (one office NAT, or the TLS terminator on this host), guesses on.
    for (let round = 0; round < 10; round += 1) {
      await ask(port, { authorization: basic(USER, `guess ${round}`) });
      await ask(port, { authorization: basic(USER, `guess ${round}`), from: '127.0.5.5' });
      const staff = await ask(port, { authorization: RIGHT, cookie: device });
      expect(staff.text, `round ${round}`).toBe('welcome');
    }
    // A client without the cookie (or with a forged one) is an untrusted client: locked out with the attacker.
    expect((await ask(port, { authorization: RIGHT })).status).toBe(429);
    const forged = `${DEVICE_COOKIE}=${'A'.repeat(22)}.9999999999.${'B'.repeat(43)}`;
    expect((await ask(port, { authorization: RIGHT, cookie: forged })).status).toBe(429);
  });

  it('limits the guesses from one trusted browser on their own', async () => {
    const port = await start({ overall: LOOSE, perAddress: LOOSE, perAccount: LOOSE, perDevice: { points: 2, durationSec: 600 } });
    const first = (await ask(port, { authorization: RIGHT })).device;
    const second = (await ask(port, { authorization: RIGHT })).device;
    expect(first).not.toBe(second);
    const statuses = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await ask(port, { authorization: basic(USER, `guess ${n}`), cookie: first })).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect((await ask(port, { authorization: RIGHT, cookie: first })).status).toBe(429);
    expect((await ask(port, { authorization: RIGHT, cookie: second })).text).toBe('welcome');
  });

  it('accepts no device cookie made for another password', async () => {
    const old = await start({}, { password: 'an older long passphrase' });
    const { device } = await ask(old, { authorization: basic(USER, 'an older long passphrase') });
    const port = await start({ overall: LOOSE, perAddress: { points: 1, durationSec: 600 }, perAccount: LOOSE });
    expect((await ask(port, { authorization: basic(USER, 'guess') })).status).toBe(401);
    expect((await ask(port, { authorization: RIGHT, cookie: device })).status).toBe(429);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and limits IPv6 by /64', () => {
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::99')).toBe(addressKey('2001:0db8:0001:0002:ffff::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The whole server with a login
// ---------------------------------------------------------------------------------------------------------------

describe('the whole server with a login: an attacker on the same address', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  let port: number;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-login-', { ADMIN_USER: USER, ADMIN_PASSWORD: PASSWORD });
    ({ port } = running);
  });
  afterAll(() => running.stop());

  it('does not lock out staff who logged in before, however long the attacker keeps guessing', async () => {
    const first = await ask(port, { authorization: RIGHT, path: '/api/sites' });
    expect(first.status).toBe(200);
    // The attacker guesses until it is refused (bounded: the limits stop it long before 60).
    let refused = false;
    for (let n = 0; n < 60 && !refused; n += 1)
      refused = (await ask(port, { authorization: basic(USER, `guess ${n}`), path: '/api/sites' })).status === 429;
    expect(refused).toBe(true);
    // One wrong guess now and then would keep a per-address lock on; staff get in all the same.
    for (let round = 0; round < 5; round += 1) {
      await ask(port, { authorization: basic(USER, `slow guess ${round}`), path: '/api/sites' });
      const staff = await ask(port, { authorization: RIGHT, cookie: first.device, path: '/api/sites' });
      expect(staff.status, `round ${round}: ${staff.text}`).toBe(200);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Counts shared through a real Redis (Debian's redis-server), as several instances would share them
// ---------------------------------------------------------------------------------------------------------------

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));

it('has redis-server where CI runs (.ci/run installs it)', () => {
  if (process.env.CI) expect(REDIS_SERVER, 'redis-server is missing in CI').toBeDefined();
});

describe.skipIf(!REDIS_SERVER)(
  `the login limits shared through Redis${REDIS_SERVER ? '' : ' (skipped: no redis-server here; apt-get install redis-server)'}`,
  () => {
    let redis: ChildProcess | undefined;
    let redisPort: number;
    let redisDir: string;
    const clients: Redis[] = [];
    const servers: http.Server[] = [];

    const startRedis = async () => {
      const child = spawn(
        REDIS_SERVER!,
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir],
        {
          stdio: 'ignore',
        },
      );
      redis = child;
      const probe = new Redis({
        port: redisPort,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      await waitFor(
        async () => {
          try {
            if (probe.status !== 'ready') await probe.connect();
            return (await probe.ping()) === 'PONG';
          } catch {
            probe.disconnect();
            return false;
          }
        },
        { timeoutMs: 15_000, what: 'redis-server to answer PING' },
      );
      probe.disconnect();
    };

    const stopRedis = async () => {
      const child = redis;
      redis = undefined;
      if (!child || child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    };

    /** One site-admin instance's login, with its own Redis client, as a second process would have. */
    const instance = async (limits: Partial<LoginLimits>) => {
      const client = new Redis({
        port: redisPort,
        host: '127.0.0.1',
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
      });
      client.on('error', () => undefined);
      await client.connect();
      clients.push(client);
      const running = await loginServer(limits, { redis: client });
      servers.push(running.server);
      return running.port;
    };

    beforeAll(async () => {
      redisPort = await freePort();
      redisDir = tempDir('site-admin-redis-');
      await startRedis();
    }, 30_000);

    afterAll(async () => {
      for (const s of servers) await closeServer(s);
      for (const c of clients) c.disconnect();
      await stopRedis();
      rmSync(redisDir, { recursive: true, force: true });
    });

    it('counts failures on one instance against the limit on another', async () => {
      const limits = { overall: LOOSE, perAddress: { points: 4, durationSec: 600 }, perAccount: LOOSE };
      const a = await instance(limits);
      const b = await instance(limits);
      expect((await ask(a, { authorization: basic(USER, 'one'), from: '127.0.7.1' })).status).toBe(401);
      expect((await ask(b, { authorization: basic(USER, 'two'), from: '127.0.7.1' })).status).toBe(401);
      expect((await ask(a, { authorization: basic(USER, 'three'), from: '127.0.7.1' })).status).toBe(401);
      expect((await ask(b, { authorization: basic(USER, 'four'), from: '127.0.7.1' })).status).toBe(401);
      expect((await ask(a, { authorization: basic(USER, 'five'), from: '127.0.7.1' })).status).toBe(429);
      expect((await ask(b, { authorization: RIGHT, from: '127.0.7.1' })).status).toBe(429);
      // A device cookie issued by one instance is good on the other.
      const { device } = await ask(a, { authorization: RIGHT, from: '127.0.7.2' });
      expect((await ask(b, { authorization: RIGHT, cookie: device, from: '127.0.7.1' })).text).toBe('welcome');
    });

    it('keeps limiting in memory while Redis is away, rather than failing or letting guesses through', async () => {
      const port = await instance({ overall: LOOSE, perAddress: { points: 2, durationSec: 600 }, perAccount: LOOSE });
      await stopRedis();
      const statuses = [];
      for (let n = 0; n < 4; n += 1)
        statuses.push((await ask(port, { authorization: basic(USER, `guess ${n}`), from: '127.0.8.1' })).status);
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect((await ask(port, { authorization: RIGHT, from: '127.0.8.2' })).text).toBe('welcome');
    });
  },
);
