/**
 * How guessing a sign-in is held back (OWASP's authentication guidance):
 *
 * - Failed checks are limited per account (the user name tried), per source address and overall, so a
 *   flood from rotating addresses gets a small number of checked guesses per second, and one address or
 *   one account only a few an hour. An attempt over a limit gets 429 and is not checked at all.
 * - A browser that has logged in before carries a signed device cookie (OWASP, "Slow Down Online Guessing
 *   Attacks with Device Cookies"). Its attempts are limited on their own, per device, and never by the
 *   limits above: an attacker behind the same office NAT, or on the same host as the TLS terminator,
 *   cannot lock out the staff who already work here.
 *
 * The counts live in memory, or in Redis (REDIS_URL) when several instances must share them; if Redis
 * cannot be reached, each instance falls back to counting in its own memory (rate-limiter-flexible's
 * insurance limiter) rather than letting guesses through.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LoginLimit {
  /** Failed checks allowed in the window. */
  points: number;
  /** Window in whole seconds, from the first failure in it. */
  durationSec: number;
}

export interface LoginLimits {
  /** Failed checks by clients without a device cookie, all sources and accounts together. */
  overall: LoginLimit;
  /** Failed checks by clients without a device cookie, from one source address (an IPv6 /64). */
  perAddress: LoginLimit;
  /** Failed checks by clients without a device cookie, for one user name, from anywhere. */
  perAccount: LoginLimit;
  /** Failed checks from one browser holding a device cookie. */
  perDevice: LoginLimit;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  overall: { points: 5, durationSec: 1 },
  perAddress: { points: 10, durationSec: 15 * 60 },
  perAccount: { points: 30, durationSec: 60 * 60 },
  perDevice: { points: 10, durationSec: 15 * 60 },
};

export const DEVICE_COOKIE = 'site_admin_device';
/** How long a device cookie is good for. */
export const DEVICE_COOKIE_MAX_AGE_SEC = 180 * 24 * 60 * 60;

export interface LoginThrottleOptions {
  /** Signs the device cookies: the same on every instance (kept in the database), so each accepts the others'. */
  deviceKey: Buffer;
  limits?: Partial<LoginLimits>;
  /** An ioredis client: the counts are shared through it. Without one they stay in this process. */
  redis?: unknown;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The address a limit is kept for: IPv4 as it is, IPv6 by its /64 (one host usually holds a whole /64). */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] ?? address;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function createLimiter(name: string, limit: LoginLimit, redis: unknown): RateLimiterAbstract {
  const options = { keyPrefix: `site-admin:login:${name}`, points: limit.points, duration: limit.durationSec };
  if (redis === undefined) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    // Fail over at once while Redis is away, and keep counting in memory meanwhile.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

type Take = { limiter: RateLimiterAbstract; key: string };

/**
 * Takes one point from each limiter in turn, before the password is looked at, so that any number of
 * parallel attempts gets no more checks than the limits allow. Resolves to null when all admitted the
 * attempt, else to how long until the first refusing one would; the points already taken are given back,
 * since an attempt that is not checked is not a guess.
 */
async function admit(takes: readonly Take[]): Promise<number | null> {
  for (const [index, take] of takes.entries()) {
    try {
      await take.limiter.consume(take.key);
    } catch (refusal) {
      await Promise.all(takes.slice(0, index).map((t) => t.limiter.reward(t.key)));
      // A store error without its insurance: refuse the attempt rather than check it unlimited.
      return refusal instanceof RateLimiterRes ? Math.max(refusal.msBeforeNext, 1000) : 1000;
    }
  }
  return null;
}

/** One admitted attempt: say how it went, and the points it took are kept (a failure) or given back. */
export interface Attempt {
  /** The guess was right: its points go back, and a browser without a device cookie gets one. */
  succeeded(res: ServerResponse): Promise<void>;
  /** The guess was wrong: its points stay taken. */
  failed(): void;
  /** Nothing was guessed after all (a single sign-on the identity provider refused): its points go back, no device cookie. */
  released(): Promise<void>;
}

/**
 * The limits on guessing a sign-in, for every way in that checks a secret (a password, its second
 * factor): `attempt` takes a point from each limit that applies before anything is checked, and answers
 * how long to wait when one is used up (the caller answers 429 with Retry-After).
 */
export function createLoginThrottle(options: LoginThrottleOptions) {
  const limits: LoginLimits = { ...DEFAULT_LOGIN_LIMITS, ...options.limits };
  const overall = createLimiter('overall', limits.overall, options.redis);
  const perAddress = createLimiter('address', limits.perAddress, options.redis);
  const perAccount = createLimiter('account', limits.perAccount, options.redis);
  const perDevice = createLimiter('device', limits.perDevice, options.redis);

  const sign = (payload: string) => createHmac('sha256', options.deviceKey).update(payload).digest('base64url');

  /** The device id of a valid, unexpired device cookie, else undefined. */
  const trustedDevice = (req: IncomingMessage): string | undefined => {
    const value = cookieValue(req.headers.cookie, DEVICE_COOKIE);
    const match = value ? /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
    if (!match) return undefined;
    const [, id = '', expires = '', mac = ''] = match;
    if (Number(expires) * 1000 < Date.now()) return undefined;
    const good = Buffer.from(sign(`${id}.${expires}`));
    return timingSafeEqual(good, Buffer.from(mac)) ? id : undefined;
  };

  const issueDevice = (res: ServerResponse) => {
    const id = randomBytes(16).toString('base64url');
    const expires = Math.floor(Date.now() / 1000) + DEVICE_COOKIE_MAX_AGE_SEC;
    res.appendHeader(
      'set-cookie',
      `${DEVICE_COOKIE}=${id}.${expires}.${sign(`${id}.${expires}`)}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_SEC}; HttpOnly; SameSite=Lax`,
    );
  };

  return {
    /**
     * Admits one attempt at `account` (the e-mail address tried, in any case) from this request's address
     * and browser: an `Attempt` to report on, or how many milliseconds to wait before trying again.
     */
    async attempt(
      req: IncomingMessage,
      account: string,
    ): Promise<{ admitted: true; attempt: Attempt } | { admitted: false; waitMs: number }> {
      const device = trustedDevice(req);
      const takes: Take[] = device
        ? [{ limiter: perDevice, key: device }]
        : [
            { limiter: overall, key: 'all' },
            { limiter: perAddress, key: addressKey(req.socket.remoteAddress) },
            { limiter: perAccount, key: digest(account.trim().toLowerCase()).toString('base64url') },
          ];
      let wait: number | null;
      try {
        wait = await admit(takes);
      } catch {
        wait = 1000;
      }
      if (wait !== null) return { admitted: false, waitMs: wait };
      return {
        admitted: true,
        attempt: {
          async succeeded(res) {
            await Promise.all(takes.map((t) => t.limiter.reward(t.key))).catch(() => undefined);
            if (!device) issueDevice(res);
          },
          failed() {},
          async released() {
            await Promise.all(takes.map((t) => t.limiter.reward(t.key))).catch(() => undefined);
          },
        },
      };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
