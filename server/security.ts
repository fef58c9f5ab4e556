/**
 * The locks on the door: who may use the server (a login off loopback), where state-changing calls
 * may come from (the app's own origin), and the headers every answer carries.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** Every answer: no framing, no sniffing, no referrer leaks, scripts only from our own origin. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine writes its theme variables into a <style> element at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

export function setSecurityHeaders(res: ServerResponse) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/** Loopback addresses and names: the only hosts the server may listen on without a login. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1';
  return false;
}

/** The host name of a Host header, without port or IPv6 brackets, lower-cased. */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  const match = /^\[([^\]]+)\](?::\d+)?$/.exec(header) ?? /^([^:]+)(?::\d+)?$/.exec(header);
  return (match?.[1] ?? '').toLowerCase();
}

/**
 * Which Host headers the server answers. On loopback only loopback names: a page on another domain
 * that its owner points at 127.0.0.1 (DNS rebinding) would otherwise count as "same origin".
 */
export function isAllowedHost(header: string | undefined, allowed: readonly string[] | 'any'): boolean {
  if (allowed === 'any') return true;
  const name = hostName(header);
  return allowed.includes(name) || (allowed.includes('127.0.0.1') && /^127\.\d+\.\d+\.\d+$/.test(name));
}

/**
 * A state-changing request must come from the app's own pages: the browser says so with
 * Sec-Fetch-Site: same-origin, or with an Origin whose host is the host it asked.
 * Requests without either (not sent by a browser page of ours) are refused too.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (!origin || !host || origin === 'null') return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export interface BasicAuthOptions {
  user: string;
  password: string;
  realm?: string;
  /** Base delay after a failed attempt, doubled for each further failure from the same address. */
  failureDelayMs?: number;
  maxDelayMs?: number;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * HTTP Basic login, compared in constant time. Each failed attempt from an address delays that
 * address's next answers (100 ms, 200 ms, ... up to a few seconds), so guessing is slow.
 */
export function createBasicAuth(options: BasicAuthOptions) {
  const expected = digest(`${options.user}:${options.password}`);
  const realm = options.realm ?? 'site-admin';
  const base = options.failureDelayMs ?? 100;
  const max = options.maxDelayMs ?? 5000;
  const failures = new Map<string, { count: number; last: number }>();

  const delayFor = (address: string) => {
    const entry = failures.get(address);
    if (!entry) return 0;
    // Forget an address's failures after a quiet quarter of an hour.
    if (Date.now() - entry.last > 15 * 60_000) {
      failures.delete(address);
      return 0;
    }
    return Math.min(base * 2 ** (entry.count - 1), max);
  };

  /** Calls `next` for a logged-in request; answers 401 itself otherwise (after any delay). */
  return function check(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const address = req.socket.remoteAddress ?? 'unknown';
    const header = req.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : '';
    const ok = match !== null && timingSafeEqual(digest(given), expected);
    const wait = delayFor(address);
    const answer = () => {
      if (ok) {
        failures.delete(address);
        next();
        return;
      }
      if (match) {
        const entry = failures.get(address);
        failures.set(address, { count: (entry?.count ?? 0) + 1, last: Date.now() });
        // Bounded memory: a flood of addresses forgets the oldest.
        if (failures.size > 10_000) failures.delete(failures.keys().next().value ?? '');
      }
      const body = JSON.stringify({ error: 'Unauthorized', message: 'Log in to use site-admin.', code: 401 });
      res.writeHead(401, {
        'www-authenticate': `Basic realm="${realm}", charset="UTF-8"`,
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(body);
    };
    if (wait > 0) setTimeout(answer, wait);
    else answer();
  };
}
