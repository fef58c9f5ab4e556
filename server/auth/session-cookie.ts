/**
 * Our cookies: each holds one secret token and nothing else (the session's id, or a step of a sign-in in
 * progress: browser-step.ts). `HttpOnly` (no script reads it), `SameSite=Lax` (a cross-site form's POST
 * carries none), and, served over HTTPS, `Secure` with the `__Host-` prefix (only this host, over HTTPS,
 * for every path: no subdomain or plain-HTTP page can set or read it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSecretToken } from '../db/secret-token';

export const SESSION_COOKIE = 'site_admin_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** How this server's session cookies are made. */
export interface CookieSetting {
  secure: boolean;
}

/** The name of our cookie `name` as this server sets it: `__Host-` prefixed when Secure. */
export const cookieName = (name: string, { secure }: CookieSetting) => (secure ? `__Host-${name}` : name);

const sessionCookieName = (setting: CookieSetting) => cookieName(SESSION_COOKIE, setting);

/** The token in our cookie of that (full) name, if it is shaped like one (43 base64url characters). */
export function tokenCookieOf(req: IncomingMessage, name: string): string | undefined {
  const value = readCookie(req, name);
  return isSecretToken(value) ? value : undefined;
}

/** The session id the browser sent, if it is shaped like one. */
export function sessionIdOf(req: IncomingMessage, setting: CookieSetting): string | undefined {
  return tokenCookieOf(req, sessionCookieName(setting));
}

/** A cookie of ours with the flags above; `maxAgeSec` 0 deletes it. */
export function cookieHeader(name: string, value: string, maxAgeSec: number, { secure }: CookieSetting): string {
  return `${name}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSec))}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function setSessionCookie(res: ServerResponse, id: string, maxAgeMs: number, setting: CookieSetting): void {
  res.appendHeader('set-cookie', cookieHeader(sessionCookieName(setting), id, maxAgeMs / 1000, setting));
}

export function clearSessionCookie(res: ServerResponse, setting: CookieSetting): void {
  res.appendHeader('set-cookie', cookieHeader(sessionCookieName(setting), '', 0, setting));
}
