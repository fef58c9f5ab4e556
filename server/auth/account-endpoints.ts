/**
 * Your account: what any person signed in may see and change of their own (PEOPLE_PATHS in access.ts):
 * their name, their password, and their sessions (sign out one, or every one but this). A new password
 * meets the rules of password-policy.ts; the current one is checked through the login throttle, like a
 * sign-in, so a session left open on a shared computer cannot be used to guess it.
 */
import type { ServerResponse } from 'node:http';
import { PEOPLE_PATHS } from '../../src/contract/people-paths';
import { nameBodySchema, passwordChangeBodySchema, type AccountView } from '../../src/contract/people';
import { sendError } from '../answers';
import type { LoginThrottle } from './login-throttle';
import { sendDone, sendJson, type Endpoint } from '../own-api';
import type { Identity } from '../identity';
import type { Accounts } from './accounts';
import { deviceName } from './device-name';
import { parseBody, refusePassword } from './endpoint-helpers';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hash';
import { checkNewPassword } from './password-policy';
import { loadSecondFactorPolicy, secondFactorRequired } from './second-factor-policy';

type Person = Extract<Identity, { kind: 'person' }>;

/** At most how long a replaced session id keeps working (accounts.ts's ROTATION_GRACE_MS). */
const REPLACED_ID_GRACE_MS = 10_000;

/** The person asking, or undefined after answering 409 for the local demo (it has no accounts). */
export function personAsking(who: Identity, res: ServerResponse): Person | undefined {
  if (who.kind === 'person') return who;
  sendError(res, 409, 'The local demo has no accounts: add a person with "npm run people -- add" to sign in as yourself.');
  return undefined;
}

export function accountEndpoints(deps: { accounts: Accounts; throttle: LoginThrottle }): Endpoint[] {
  const { accounts, throttle } = deps;
  return [
    {
      method: 'GET',
      path: PEOPLE_PATHS.account,
      handle: async ({ request, who }) => {
        const me = personAsking(who, request.res);
        if (!me) return;
        const t = accounts.now();
        const [person, sessions, policy] = await Promise.all([
          accounts.people.get(me.id),
          accounts.sessions.listOf(me.id, t),
          loadSecondFactorPolicy(accounts.settings),
        ]);
        const view: AccountView = {
          email: me.email,
          displayName: me.displayName,
          grants: me.grants,
          secondFactorRequired: secondFactorRequired(policy, me.grants),
          hasPassword: (person?.passwordHash ?? null) !== null,
          // An id replaced after a change of grants lives on for a few seconds (accounts.ts): the same browser, not another.
          sessions: sessions
            .filter((session) => session.idHash === me.session.idHash || session.expiresAt - t > REPLACED_ID_GRACE_MS)
            .map((session) => ({
              handle: session.idHash,
              device: deviceName(session.userAgent),
              address: session.address,
              createdAt: session.createdAt,
              lastSeenAt: session.lastSeenAt,
              method: session.method,
              current: session.idHash === me.session.idHash,
            })),
        };
        sendJson(request.res, 200, view);
      },
    },
    {
      method: 'PATCH',
      path: PEOPLE_PATHS.account,
      handle: async ({ request, who, body }) => {
        const me = personAsking(who, request.res);
        if (!me) return;
        const change = parseBody(request.res, nameBodySchema, body, 'Give your name (at most 100 characters).');
        if (!change) return;
        await accounts.people.setDisplayName(me.id, change.displayName, accounts.now());
        sendJson(request.res, 200, { displayName: change.displayName });
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.accountPassword,
      handle: async ({ request, who, body }) => {
        const { req, res } = request;
        const me = personAsking(who, res);
        if (!me) return;
        const change = parseBody(res, passwordChangeBodySchema, body, 'Give your current password and the new one.');
        if (!change) return;
        const policy = await loadSecondFactorPolicy(accounts.settings);
        const problems = checkNewPassword(change.newPassword, {
          name: me.displayName,
          email: me.email,
          secondFactorRequired: secondFactorRequired(policy, me.grants),
        });
        if (problems.length > 0) {
          refusePassword(res, 'newPassword', problems);
          return;
        }
        const admitted = await throttle.attempt(req, me.email);
        if (!admitted.admitted) {
          sendError(res, 429, 'Too many wrong passwords; wait a moment and try again.', undefined, {
            'retry-after': String(Math.ceil(admitted.waitMs / 1000)),
          });
          return;
        }
        const person = await accounts.people.get(me.id);
        const right =
          person?.passwordHash != null
            ? await verifyPassword(person.passwordHash, change.currentPassword)
            : await verifyAgainstDummy(change.currentPassword);
        if (!right) {
          admitted.attempt.failed();
          // 400, not 401: the person is still signed in; only this password was wrong.
          sendError(res, 400, 'Your current password is not right.', [
            { field: 'currentPassword', message: 'This is not your current password.' },
          ]);
          return;
        }
        await admitted.attempt.succeeded(res);
        const t = accounts.now();
        await accounts.people.setPasswordHash(me.id, await hashPassword(change.newPassword), t);
        // Whoever else knew the old password is signed out; this browser stays signed in.
        const ended = await accounts.sessions.deleteAllOf(me.id, { exceptId: me.sessionId });
        sendJson(res, 200, { ended });
      },
    },
    {
      method: 'DELETE',
      path: PEOPLE_PATHS.accountSession,
      handle: async ({ request, who, params }) => {
        const me = personAsking(who, request.res);
        if (!me) return;
        const handle = params.handle ?? '';
        if (!(await accounts.sessions.deleteOne(me.id, handle))) {
          sendError(request.res, 404, 'No such session of yours: it may have ended already.');
          return;
        }
        sendDone(request.res);
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.accountSignOutOthers,
      handle: async ({ request, who }) => {
        const me = personAsking(who, request.res);
        if (!me) return;
        const ended = await accounts.sessions.deleteAllOf(me.id, { exceptId: me.sessionId });
        sendJson(request.res, 200, { ended });
      },
    },
  ];
}
