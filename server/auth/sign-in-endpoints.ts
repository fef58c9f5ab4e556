/**
 * Our own endpoints for signing in and out with a password (src/contract/access.ts's ACCESS_PATHS), and
 * the list of sites the person may use. Every attempt at a password goes through the login throttle
 * (login-throttle.ts) before the password is looked at; a wrong address, a wrong password and a disabled person
 * get the same answer, in the same time (a dummy hash is checked when there is no real one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ACCESS_PATHS, type SignInOptions } from '../../src/contract/access';
import type { SignInAnswer } from '../../src/contract/sign-in-answers';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { SITES_PATH, type SiteInfo } from '../../src/contract/site-info';
import { sendError } from '../answers';
import type { LoginThrottle } from './login-throttle';
import { HEALTH_PATH, sendDone, sendJson, type Endpoint } from '../own-api';
import type { Accounts } from './accounts';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './password-hash';
import { MAX_LENGTH } from './password-policy';

/** How many characters of an e-mail address a sign-in reads. */
const MAX_EMAIL_LENGTH = 320;

export interface SignInWays {
  /** What GET /api/sign-in says, besides the password (always offered). */
  options(): Promise<Omit<SignInOptions, 'password'>>;
  /**
   * After the right password: whether this person must confirm with a second factor before a session
   * starts. When so, it answers itself (with the pending step) and returns true.
   */
  secondFactor?(call: { personId: string; req: IncomingMessage; res: ServerResponse }): Promise<boolean>;
}

export function signInEndpoints(deps: {
  accounts: Accounts;
  throttle: LoginThrottle;
  sites: readonly SiteInfo[];
  ways: SignInWays;
}): Endpoint[] {
  const { accounts, throttle, sites, ways } = deps;
  return [
    {
      method: 'GET',
      path: HEALTH_PATH,
      public: true,
      handle: ({ request }) => sendJson(request.res, 200, { status: 'ok' }),
    },
    {
      method: 'GET',
      path: SITES_PATH,
      handle: ({ request, who }) => sendJson(request.res, 200, { sites: accounts.sitesFor(who, sites), me: accounts.meOf(who) }),
    },
    {
      method: 'GET',
      path: ACCESS_PATHS.signIn,
      public: true,
      handle: async ({ request }) => {
        const options: SignInOptions = { password: true, ...(await ways.options()) };
        sendJson(request.res, 200, options);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.signInPassword,
      public: true,
      handle: async ({ request, body }) => {
        const { req, res } = request;
        const email = isJsonObject(body) && typeof body.email === 'string' ? body.email.trim() : '';
        const password = isJsonObject(body) && typeof body.password === 'string' ? body.password : '';
        if (!email || !password || email.length > MAX_EMAIL_LENGTH || [...password].length > MAX_LENGTH) {
          sendError(res, 400, 'Sign in with your e-mail address and your password.', [
            ...(!email || email.length > MAX_EMAIL_LENGTH ? [{ field: 'email', message: 'is required' }] : []),
            ...(!password || [...password].length > MAX_LENGTH ? [{ field: 'password', message: 'is required' }] : []),
          ]);
          return;
        }
        const admitted = await throttle.attempt(req, email);
        if (!admitted.admitted) {
          const known = await accounts.people.getByEmail(email);
          await accounts.record({
            action: 'sign-in.failed',
            person: known ? { id: known.id, name: known.displayName } : undefined,
            method: 'password',
            reason: 'throttled',
            req,
          });
          sendError(res, 429, 'Too many failed sign-ins; wait a moment and try again.', undefined, {
            'retry-after': String(Math.ceil(admitted.waitMs / 1000)),
          });
          return;
        }
        const person = await accounts.people.getByEmail(email);
        const right =
          person && person.passwordHash !== null && person.disabledAt === null
            ? await verifyPassword(person.passwordHash, password)
            : await verifyAgainstDummy(password);
        if (!person || !right) {
          admitted.attempt.failed();
          // The address typed is kept only when it is a person's: what someone typed by mistake (a password
          // in the wrong box, say) is not written down.
          await accounts.record({
            action: 'sign-in.failed',
            person: person ? { id: person.id, name: person.displayName } : undefined,
            method: 'password',
            reason: !person ? 'unknown-address' : person.disabledAt !== null ? 'disabled' : 'wrong-password',
            req,
          });
          sendError(res, 401, 'That e-mail address and password do not match anyone who may sign in here.');
          return;
        }
        await admitted.attempt.succeeded(res);
        if (person.passwordHash !== null && needsRehash(person.passwordHash)) {
          await accounts.people.setPasswordHash(person.id, await hashPassword(password), accounts.now());
        }
        if (ways.secondFactor && (await ways.secondFactor({ personId: person.id, req, res }))) return;
        await accounts.startSession(req, res, person.id, 'password');
        const answer: SignInAnswer = await accounts.signedInAnswer(person.id);
        sendJson(res, 200, answer);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.signOut,
      public: true,
      handle: async ({ request }) => {
        await accounts.endSession(request.req, request.res);
        sendDone(request.res);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.signOutEverywhere,
      handle: async ({ request, who }) => {
        if (who.kind === 'person') await accounts.sessions.deleteAllOf(who.id);
        await accounts.endSession(request.req, request.res);
        sendDone(request.res);
      },
    },
  ];
}
