/**
 * The login throttle as people and attackers meet it: through POST /api/sign-in/password of the whole
 * server (createSiteAdminServer, a person in its database), over real loopback HTTP. Source addresses are
 * rotated by binding the client to other addresses of 127.0.0.0/8, which are all this machine's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addPeople,
  cookiesSet,
  errorShapeProblems,
  freePort,
  signInWithPassword,
  startWholeServer,
  tempDir,
  waitFor,
} from '../testing/test-helpers';
import { addressKey, DEVICE_COOKIE, type LoginLimits } from './login-throttle';
import { SESSION_COOKIE } from './session-cookie';

const EMAIL = 'staff@example.com';
const PASSWORD = 'correct horse battery staple';
const OWNER = [{ siteId: '*', role: 'owner' }] as const;

interface Answer {
  status: number;
  text: string;
  retryAfter: string | undefined;
  /** The device cookie the answer set, as `name=value`. */
  device: string | undefined;
  /** Whether the answer started a session (set its cookie). */
  signedIn: boolean;
}

/** One sign-in with a password, as the app's page sends it. */
async function signIn(
  port: number,
  { email = EMAIL, password = PASSWORD, cookie, from }: { email?: string; password?: string; cookie?: string; from?: string } = {},
): Promise<Answer> {
  const reply = await signInWithPassword(port, email, password, { cookie, from });
  const cookies = cookiesSet(reply);
  const device = cookies.get(DEVICE_COOKIE);
  return {
    status: reply.status,
    text: reply.text,
    retryAfter: reply.headers['retry-after'],
    device: device === undefined ? undefined : `${DEVICE_COOKIE}=${device}`,
    signedIn: Boolean(cookies.get(SESSION_COOKIE)),
  };
}

const LOOSE = { points: 1000, durationSec: 600 };

type Running = Awaited<ReturnType<typeof startWholeServer>>;
const running: Running[] = [];

/** The whole server with `limits` and the one person of these tests. */
async function start(limits: Partial<LoginLimits>, env: Record<string, string> = {}, people = true): Promise<number> {
  const server = await startWholeServer(env, { loginLimits: limits });
  running.push(server);
  if (people) await addPeople(server.site, [{ email: EMAIL, password: PASSWORD, grants: OWNER }]);
  return server.port;
}

afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

describe('signing in through the login throttle', () => {
  it('lets the right password in and gives the browser a device cookie; keeps wrong ones out, without one', async () => {
    const port = await start({ overall: LOOSE, perAddress: LOOSE, perAccount: LOOSE, perDevice: LOOSE });
    const right = await signIn(port);
    expect([right.status, right.signedIn]).toEqual([200, true]);
    expect(right.device).toMatch(new RegExp(`^${DEVICE_COOKIE}=[\\w-]+\\.\\d+\\.[\\w-]+$`));
    // A browser that sends its cookie back is not given another.
    expect((await signIn(port, { cookie: right.device })).device).toBeUndefined();
    for (const wrong of [{ password: 'wrong' }, { email: 'other@example.com' }, { password: `${PASSWORD}!` }]) {
      const reply = await signIn(port, wrong);
      expect(reply.status, JSON.stringify(wrong)).toBe(401);
      expect([reply.device, reply.signedIn]).toEqual([undefined, false]);
    }
  });

  it('checks no more parallel guesses from one address than its limit, and answers the rest 429 with Retry-After', async () => {
    const port = await start({ overall: LOOSE, perAddress: { points: 3, durationSec: 600 }, perAccount: LOOSE });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, n) => signIn(port, { password: `guess ${n}` })));
    expect(replies.filter((r) => r.status === 401)).toHaveLength(3);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(errorShapeProblems(429, 'application/json', r.text)).toEqual([]);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    // Inside the lock even the right password is not looked at.
    const right = await signIn(port);
    expect([right.status, right.signedIn]).toEqual([429, false]);
  });

  it('holds a flood from rotating source addresses to the overall limit of checked guesses', async () => {
    const port = await start({ overall: { points: 5, durationSec: 600 }, perAddress: LOOSE, perAccount: LOOSE });
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        signIn(port, { email: `user${n}@example.com`, password: `guess ${n}`, from: `127.0.${1 + Math.floor(n / 200)}.${2 + (n % 200)}` }),
      ),
    );
    expect(replies.filter((r) => r.status === 401)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(95);
  });

  it('limits the guesses at one account from every address together', async () => {
    const port = await start({ overall: LOOSE, perAddress: LOOSE, perAccount: { points: 4, durationSec: 600 } });
    const statuses: number[] = [];
    for (let n = 0; n < 8; n += 1) statuses.push((await signIn(port, { password: `guess ${n}`, from: `127.0.9.${n + 1}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    // The address is compared without regard to case or spaces around it, so this is the same account.
    expect((await signIn(port, { email: ' STAFF@Example.com ', password: 'guess', from: '127.0.9.50' })).status).toBe(429);
    // Another address is another account.
    expect((await signIn(port, { email: 'someone@example.com', password: 'guess', from: '127.0.9.51' })).status).toBe(401);
  });

  it('lets a browser that signed in before in while an attacker keeps its address and its account locked', async () => {
    const port = await start({ overall: LOOSE, perAddress: { points: 3, durationSec: 600 }, perAccount: { points: 5, durationSec: 600 } });
    const { device } = await signIn(port);
    expect(device).toBeDefined();
    // The attacker, on the same address (one office NAT, or the TLS terminator on this host), guesses on.
    for (let round = 0; round < 10; round += 1) {
      await signIn(port, { password: `guess ${round}` });
      await signIn(port, { password: `guess ${round}`, from: '127.0.5.5' });
      const staff = await signIn(port, { cookie: device });
      expect([staff.status, staff.signedIn], `round ${round}: ${staff.text}`).toEqual([200, true]);
    }
    // A client without the cookie (or with a forged one) is an untrusted client: locked out with the attacker.
    expect((await signIn(port)).status).toBe(429);
    const forged = `${DEVICE_COOKIE}=${'A'.repeat(22)}.9999999999.${'B'.repeat(43)}`;
    expect((await signIn(port, { cookie: forged })).status).toBe(429);
  });

  it('limits the guesses from one trusted browser on their own', async () => {
    const port = await start({ overall: LOOSE, perAddress: LOOSE, perAccount: LOOSE, perDevice: { points: 2, durationSec: 600 } });
    const first = (await signIn(port)).device;
    const second = (await signIn(port)).device;
    expect(first).not.toBe(second);
    const statuses = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await signIn(port, { password: `guess ${n}`, cookie: first })).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect((await signIn(port, { cookie: first })).status).toBe(429);
    expect((await signIn(port, { cookie: second })).status).toBe(200);
  });

  it('accepts no device cookie signed by another server’s database', async () => {
    const other = await start({});
    const { device } = await signIn(other);
    expect(device).toBeDefined();
    const port = await start({ overall: LOOSE, perAddress: { points: 1, durationSec: 600 }, perAccount: LOOSE });
    expect((await signIn(port, { password: 'guess' })).status).toBe(401);
    expect((await signIn(port, { cookie: device })).status).toBe(429);
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

describe('the default limits, with the owner of ADMIN_USER: an attacker on the same address', () => {
  it('does not lock out staff who signed in before, however long the attacker keeps guessing', async () => {
    const port = await start({}, { ADMIN_USER: EMAIL, ADMIN_PASSWORD: PASSWORD }, false);
    const first = await signIn(port);
    expect(first.status, first.text).toBe(200);
    // The attacker guesses until it is refused (bounded: the limits stop it long before 60).
    let refused = false;
    for (let n = 0; n < 60 && !refused; n += 1) refused = (await signIn(port, { password: `guess ${n}` })).status === 429;
    expect(refused).toBe(true);
    // One wrong guess now and then would keep a per-address lock on; staff get in all the same.
    for (let round = 0; round < 5; round += 1) {
      await signIn(port, { password: `slow guess ${round}` });
      const staff = await signIn(port, { cookie: first.device });
      expect(staff.status, `round ${round}: ${staff.text}`).toBe(200);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Counts shared through a real Redis (Debian's redis-server), as several instances share them
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

    const startRedis = async () => {
      const child = spawn(
        REDIS_SERVER!,
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir],
        { stdio: 'ignore' },
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

    beforeAll(async () => {
      redisPort = await freePort();
      redisDir = tempDir('site-admin-redis-');
      await startRedis();
    }, 30_000);

    afterAll(async () => {
      await stopRedis();
      rmSync(redisDir, { recursive: true, force: true });
    });

    it('counts failures on one instance against the limit on another, and takes one’s device cookie on the other', async () => {
      // Two instances as a load balancer would have them: one Redis, one database (people, the device cookies' key).
      const shared = tempDir('site-admin-shared-');
      try {
        const limits = { overall: LOOSE, perAddress: { points: 4, durationSec: 600 }, perAccount: LOOSE };
        const a = await start(limits, {
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          DATA_DIR: shared,
          SANDBOX_DATA_DIR: join(shared, 'sandbox-a'),
        });
        const b = await start(
          limits,
          { REDIS_URL: `redis://127.0.0.1:${redisPort}`, DATA_DIR: shared, SANDBOX_DATA_DIR: join(shared, 'sandbox-b') },
          false,
        );
        expect((await signIn(a, { password: 'one', from: '127.0.7.1' })).status).toBe(401);
        expect((await signIn(b, { password: 'two', from: '127.0.7.1' })).status).toBe(401);
        expect((await signIn(a, { password: 'three', from: '127.0.7.1' })).status).toBe(401);
        expect((await signIn(b, { password: 'four', from: '127.0.7.1' })).status).toBe(401);
        expect((await signIn(a, { password: 'five', from: '127.0.7.1' })).status).toBe(429);
        expect((await signIn(b, { from: '127.0.7.1' })).status).toBe(429);
        const { device } = await signIn(a, { from: '127.0.7.2' });
        const onB = await signIn(b, { cookie: device, from: '127.0.7.1' });
        expect([onB.status, onB.signedIn]).toEqual([200, true]);
      } finally {
        for (const server of running.splice(0)) await server.stop();
        rmSync(shared, { recursive: true, force: true });
      }
    });

    it('keeps limiting in memory while Redis is away, rather than failing or letting guesses through', async () => {
      const port = await start(
        { overall: LOOSE, perAddress: { points: 2, durationSec: 600 }, perAccount: LOOSE },
        { REDIS_URL: `redis://127.0.0.1:${redisPort}` },
      );
      await stopRedis();
      const statuses = [];
      for (let n = 0; n < 4; n += 1) statuses.push((await signIn(port, { password: `guess ${n}`, from: '127.0.8.1' })).status);
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect((await signIn(port, { from: '127.0.8.2' })).status).toBe(200);
    });
  },
);
