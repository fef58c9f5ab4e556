/**
 * A short-lived step of a sign-in that the browser holds: a passkey's ceremony, a password waiting for its
 * second factor, a single sign-on gone to the identity provider. What the server must remember (a
 * challenge, PKCE's verifier) is a row of the pending steps (db/pending-step-store.ts: in the database, so a
 * step begun on one instance can finish on another) under the hash of a random token that only a cookie of
 * its own carries, `__Host-` prefixed when the cookies are Secure; a step is used once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PendingStep, PendingStepStore } from '../db/pending-step-store';
import { cookieHeader, cookieName, tokenCookieOf, type CookieSetting } from './session-cookie';

export interface BrowserStepOptions {
  /** The cookie's name (without the `__Host-` prefix, which `cookie` decides). */
  name: string;
  cookie: CookieSetting;
  store: PendingStepStore;
  /** How long a step may take. */
  ttlMs: number;
  now: () => number;
}

export function browserSteps(options: BrowserStepOptions) {
  const { store, ttlMs, now, cookie } = options;
  const name = cookieName(options.name, cookie);
  const end = (res: ServerResponse) => res.appendHeader('set-cookie', cookieHeader(name, '', 0, cookie));

  return {
    /** Keeps a new step of `purpose`, and gives the browser its cookie on `res`. */
    async start(res: ServerResponse, purpose: string, personId: string | null, data: Record<string, unknown>): Promise<void> {
      const t = now();
      const id = await store.create({ purpose, personId, data, expiresAt: t + ttlMs }, t);
      res.appendHeader('set-cookie', cookieHeader(name, id, ttlMs / 1000, cookie));
    },

    /** The token of the step the browser holds, if its cookie carries one. */
    idOf: (req: IncomingMessage): string | undefined => tokenCookieOf(req, name),

    /** Removes the step's cookie from the browser. */
    end,

    /** The step of `id` if it is of `purpose` and in time, without using it up. */
    peek: (id: string, purpose: string): Promise<PendingStep | undefined> => store.peek(id, purpose, now()),

    /** Replaces what a step in time holds; false when it is gone. */
    update: (id: string, purpose: string, data: Record<string, unknown>): Promise<boolean> => store.update(id, purpose, data, now()),

    /** Uses the step of `id` up; undefined when it is not of `purpose`, or past its time. */
    take: (id: string, purpose: string): Promise<PendingStep | undefined> => store.take(id, purpose, now()),

    /** Uses the browser's step of `purpose` up, whatever comes of it, and ends its cookie. */
    async takeFrom(req: IncomingMessage, res: ServerResponse, purpose: string): Promise<PendingStep | undefined> {
      const id = tokenCookieOf(req, name);
      end(res);
      return id ? store.take(id, purpose, now()) : undefined;
    },
  };
}

export type BrowserSteps = ReturnType<typeof browserSteps>;
