/**
 * The locks on the door: which host names the server answers, where state-changing calls may come from
 * (the app's own origin), and the headers every answer carries. The login is in login.ts.
 */
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
