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

/** The names the server answers on loopback (and the in-process sandbox always). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

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
 * HTTP Basic login, compared in constant time. After a failed attempt an address must wait (100 ms,
 * doubling with each further failure, up to a few seconds) before its next attempt is even checked:
 * attempts inside that window get 429 at once, so guessing in parallel gains nothing.
 */
export function createBasicAuth(options: BasicAuthOptions) {
  const expected = digest(`${options.user}:${options.password}`);
  const realm = options.realm ?? 'site-admin';
  const base = options.failureDelayMs ?? 100;
  const max = options.maxDelayMs ?? 5000;
  const failures = new Map<string, { count: number; last: number }>();

  const send = (res: ServerResponse, status: 401 | 429, message: string, headers: Record<string, string>) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify({ error: status === 401 ? 'Unauthorized' : 'Too Many Requests', message, code: status }));
  };

  /** Calls `next` for a logged-in request; answers 401 or 429 itself otherwise. */
  return function check(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const address = req.socket.remoteAddress ?? 'unknown';
    const now = Date.now();
    const entry = failures.get(address);
    // Forget an address's failures after a quiet quarter of an hour.
    if (entry && now - entry.last > 15 * 60_000) failures.delete(address);
    const recent = failures.get(address);
    const remaining = recent ? Math.min(base * 2 ** (recent.count - 1), max) - (now - recent.last) : 0;
    if (remaining > 0) {
      send(res, 429, 'Too many failed logins from this address; wait a moment and try again.', {
        'retry-after': String(Math.ceil(remaining / 1000)),
      });
      return;
    }
    const header = req.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : '';
    if (match && timingSafeEqual(digest(given), expected)) {
      failures.delete(address);
      next();
      return;
    }
    if (match) {
      failures.set(address, { count: (recent?.count ?? 0) + 1, last: now });
      // Bounded memory: a flood of addresses forgets the oldest.
      if (failures.size > 10_000) failures.delete(failures.keys().next().value ?? '');
    }
    send(res, 401, 'Log in to use site-admin.', { 'www-authenticate': `Basic realm="${realm}", charset="UTF-8"` });
  };
}
