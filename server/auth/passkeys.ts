/**
 * Passkeys (WebAuthn, with @simplewebauthn/server): added under "Your account", used to sign in alone, or
 * as the second factor after a password. One module for the three ceremonies, after SimpleWebAuthn's
 * example server: the server makes each challenge, keeps it in the database (pending_steps: a ceremony
 * begun on one instance can finish on another) under a random id that only a short-lived cookie carries,
 * and uses it once.
 *
 * The relying party is the host the browser asked for (the host check has already admitted it): its name
 * is the passkey's RP ID, and the origin is that host over HTTPS when the server's cookies are Secure
 * (served over HTTPS, SECURE_COOKIES), else over HTTP (loopback). A passkey thus works on the host it was
 * made on, which is how browsers scope them anyway.
 *
 * Every check of a passkey's answer at sign-in goes through the login throttle, like a password.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { ACCESS_PATHS, PASSKEY_NAME_MAX, type PasskeyList, type PasskeySummary, type SecondFactorOptions } from '../../src/contract/access';
import type { SignInAnswer } from '../../src/contract/sign-in-answers';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { sendError } from '../answers';
import type { AppDatabase } from '../db/open';
import { createPasskeyStore, type Passkey } from '../db/passkey-store';
import { createPendingStepStore } from '../db/pending-step-store';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { addressKey, type LoginThrottle } from './login-throttle';
import { sendDone, sendJson, type Endpoint } from '../own-api';
import { hostName } from '../hosts';
import type { Identity } from '../identity';
import type { Accounts } from './accounts';
import { loadSecondFactorPolicy, secondFactorRequired } from './second-factor-policy';
import type { SignInWays } from './sign-in-endpoints';
import { browserSteps } from './browser-step';

/** How long a ceremony may take, from its challenge (or from the password, for the second factor). */
export const STEP_MS = 5 * 60_000;
/** The cookie that holds a step in progress; `__Host-` prefixed with the session's when served over HTTPS. */
export const STEP_COOKIE = 'site_admin_step';

const PURPOSE = {
  registration: 'passkey-registration',
  signIn: 'passkey-sign-in',
  secondFactor: 'second-factor',
} as const;

/** The name shown on the browser's passkey prompt, and in the person's password manager. */
const RP_NAME = 'site-admin';
/** The name of a passkey added while signing in (the person can rename it under "Your account"). */
const FIRST_PASSKEY_NAME = 'Passkey';

const summaryOf = (passkey: Passkey): PasskeySummary => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt,
  lastUsedAt: passkey.lastUsedAt,
});

/** The person's id as WebAuthn's user handle: a random UUID, so it says nothing about them. */
const userHandleOf = (personId: string) => new TextEncoder().encode(personId);

/** A passkey's name as typed: trimmed, 1 to PASSKEY_NAME_MAX characters; null when it is not one. */
export function passkeyName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().replace(/\s+/g, ' ');
  return name.length > 0 && [...name].length <= PASSKEY_NAME_MAX ? name : null;
}

/** A browser's answer to a ceremony, shaped enough to hand to SimpleWebAuthn (which checks the rest). */
function credentialAnswer(body: unknown): Record<string, unknown> | null {
  const response = isJsonObject(body) ? body.response : undefined;
  if (!isJsonObject(response) || typeof response.id !== 'string' || !isJsonObject(response.response)) return null;
  return response;
}

/** How many passkey sign-ins one address may start a minute (each holds a challenge for five minutes). */
export const PASSKEY_STARTS_PER_MINUTE = 30;

export function createPasskeys(deps: { accounts: Accounts; throttle: LoginThrottle; database: AppDatabase }) {
  const { accounts, throttle } = deps;
  const { db } = deps.database;
  const passkeys = createPasskeyStore(db);
  const steps = browserSteps({
    name: STEP_COOKIE,
    cookie: accounts.cookie,
    store: createPendingStepStore(db),
    ttlMs: STEP_MS,
    now: accounts.now,
  });
  // Anyone may ask for a passkey sign-in's challenge, and each one is a row in the database for five
  // minutes: one address may ask PASSKEY_STARTS_PER_MINUTE times a minute, so a flood cannot fill the table.
  const starts = new RateLimiterMemory({ keyPrefix: 'site-admin:passkey-start', points: PASSKEY_STARTS_PER_MINUTE, duration: 60 });

  const relyingParty = (req: IncomingMessage) => {
    const host = (req.headers.host ?? '').toLowerCase();
    return { rpID: hostName(host), origin: `${accounts.cookie.secure ? 'https' : 'http'}://${host}` };
  };

  const registrationOptions = async (req: IncomingMessage, person: { id: string; email: string; displayName: string }) => {
    const existing = await passkeys.listOf(person.id);
    return generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: relyingParty(req).rpID,
      userName: person.email,
      userDisplayName: person.displayName,
      userID: userHandleOf(person.id),
      attestationType: 'none',
      // The same authenticator twice would be one key under two names.
      excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
      // A discoverable credential, so that it can sign in with no e-mail address typed.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: STEP_MS,
    });
  };

  /** Checks a registration's answer against the step's challenge; the new passkey, or null. */
  const verifyNewPasskey = async (
    req: IncomingMessage,
    personId: string,
    challenge: unknown,
    answer: Record<string, unknown>,
    name: string,
  ) => {
    if (typeof challenge !== 'string') return null;
    const { rpID, origin } = relyingParty(req);
    try {
      const verified = await verifyRegistrationResponse({
        response: answer as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      });
      if (!verified.verified) return null;
      const { credential } = verified.registrationInfo;
      const passkey = {
        id: credential.id,
        personId,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
        createdAt: accounts.now(),
      };
      return (await passkeys.add(passkey)) ? { ...passkey, lastUsedAt: null } : null;
    } catch {
      return null;
    }
  };

  /**
   * Checks a sign-in's answer against the step's challenge, with the passkey it names; when it holds, the
   * passkey's counter moves on. Answers whether it held and whether the person was verified (PIN, biometrics).
   */
  const verifyUse = async (req: IncomingMessage, passkey: Passkey, challenge: unknown, answer: Record<string, unknown>) => {
    if (typeof challenge !== 'string') return null;
    const response = answer as unknown as AuthenticationResponseJSON;
    // A discoverable passkey names its person too: it must be the one the passkey was added for.
    const handle = response.response.userHandle;
    if (handle && handle !== Buffer.from(userHandleOf(passkey.personId)).toString('base64url')) return null;
    const { rpID, origin } = relyingParty(req);
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: false,
      });
      if (!verified.verified) return null;
      // The signature counter must have moved on (a cloned authenticator's would not): the library refuses it otherwise.
      await passkeys.used(passkey.id, verified.authenticationInfo.newCounter, accounts.now());
      return { userVerified: verified.authenticationInfo.userVerified };
    } catch {
      return null;
    }
  };

  const signedIn = async (req: IncomingMessage, res: ServerResponse, personId: string, method: string) => {
    await accounts.startSession(req, res, personId, method);
    const answer: SignInAnswer = await accounts.signedInAnswer(personId);
    sendJson(res, 200, answer);
  };

  const tooManyAttempts = (res: ServerResponse, waitMs: number) =>
    sendError(res, 429, 'Too many failed sign-ins; wait a moment and try again.', undefined, {
      'retry-after': String(Math.ceil(waitMs / 1000)),
    });

  const secondFactorNeeded = async (personId: string) =>
    secondFactorRequired(await loadSecondFactorPolicy(accounts.settings), await accounts.people.grantsOf(personId));

  /**
   * After the right password: a person who has a passkey, or whom the owners' rule asks for one, confirms
   * with it before a session starts. The password's proof is held as a step of its own (5 minutes).
   *
   * A person the rule asks for a passkey who has none yet (the rule is new, or they lost their last one)
   * adds one there and then, on the sign-in page, to finish signing in (`setUp`): the password alone lets
   * them do that and nothing else, so they are not locked out (nor left waiting for an owner) and have a
   * second factor from then on. The passkey shows on their account page, where they can see and remove it.
   */
  const secondFactor: NonNullable<SignInWays['secondFactor']> = async ({ personId, res }) => {
    const has = (await passkeys.countOf(personId)) > 0;
    if (!has && !(await secondFactorNeeded(personId))) return false;
    await steps.start(res, PURPOSE.secondFactor, personId, { setUp: !has });
    const answer: SignInAnswer = { result: 'second-factor', ways: ['passkey'], ...(has ? {} : { setUp: true }) };
    sendJson(res, 200, answer);
    return true;
  };

  const personOnly = (who: Identity, res: ServerResponse): who is Extract<Identity, { kind: 'person' }> => {
    if (who.kind === 'person') return true;
    sendError(res, 403, 'Passkeys belong to a person’s account: in the local demo nobody signs in.');
    return false;
  };

  const endpoints: Endpoint[] = [
    {
      method: 'GET',
      path: ACCESS_PATHS.passkeys,
      handle: async ({ request, who }) => {
        if (!personOnly(who, request.res)) return;
        const list: PasskeyList = { passkeys: (await passkeys.listOf(who.id)).map(summaryOf) };
        sendJson(request.res, 200, list);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.passkeyOptions,
      handle: async ({ request, who }) => {
        const { req, res } = request;
        if (!personOnly(who, res)) return;
        const options = await registrationOptions(req, who);
        await steps.start(res, PURPOSE.registration, who.id, { challenge: options.challenge });
        sendJson(res, 200, options);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.passkeys,
      handle: async ({ request, who, body }) => {
        const { req, res } = request;
        if (!personOnly(who, res)) return;
        const name = passkeyName(isJsonObject(body) ? body.name : undefined);
        const answer = credentialAnswer(body);
        if (!name || !answer) {
          sendError(res, 400, 'Give the passkey a name, and the browser’s answer.', [
            ...(name ? [] : [{ field: 'name', message: `must be 1 to ${PASSKEY_NAME_MAX} characters` }]),
            ...(answer ? [] : [{ field: 'response', message: 'is required' }]),
          ]);
          return;
        }
        const step = await steps.takeFrom(req, res, PURPOSE.registration);
        if (!step || step.personId !== who.id) {
          sendError(res, 409, 'Adding this passkey took too long, or was started elsewhere: add it again.');
          return;
        }
        const added = await verifyNewPasskey(req, who.id, step.data.challenge, answer, name);
        if (!added) {
          sendError(res, 400, 'The browser’s answer did not make a passkey for this site: add it again.');
          return;
        }
        sendJson(res, 201, summaryOf(added));
      },
    },
    {
      method: 'PATCH',
      path: `${ACCESS_PATHS.passkeys}/:id`,
      handle: async ({ request, who, params, body }) => {
        const { res } = request;
        if (!personOnly(who, res)) return;
        const name = passkeyName(isJsonObject(body) ? body.name : undefined);
        if (!name) {
          sendError(res, 400, 'Give the passkey a name.', [{ field: 'name', message: `must be 1 to ${PASSKEY_NAME_MAX} characters` }]);
          return;
        }
        if (!(await passkeys.rename(who.id, params.id ?? '', name))) {
          sendError(res, 404, 'You have no such passkey: it may have been removed.');
          return;
        }
        sendDone(res);
      },
    },
    {
      method: 'DELETE',
      path: `${ACCESS_PATHS.passkeys}/:id`,
      handle: async ({ request, who, params }) => {
        const { res } = request;
        if (!personOnly(who, res)) return;
        if (!(await passkeys.remove(who.id, params.id ?? ''))) {
          sendError(res, 404, 'You have no such passkey: it may have been removed already.');
          return;
        }
        sendDone(res);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.passkeySignInOptions,
      public: true,
      handle: async ({ request }) => {
        const { req, res } = request;
        try {
          await starts.consume(addressKey(req.socket.remoteAddress));
        } catch {
          sendError(res, 429, 'Too many passkey sign-ins started from here; wait a minute and try again.', undefined, {
            'retry-after': '60',
          });
          return;
        }
        // No list of passkeys: the browser offers the person the passkeys it holds for this host.
        const options = await generateAuthenticationOptions({
          rpID: relyingParty(req).rpID,
          userVerification: 'preferred',
          timeout: STEP_MS,
        });
        await steps.start(res, PURPOSE.signIn, null, { challenge: options.challenge });
        sendJson(res, 200, options);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.passkeySignIn,
      public: true,
      handle: async ({ request, body }) => {
        const { req, res } = request;
        const answer = credentialAnswer(body);
        if (!answer) {
          sendError(res, 400, 'Sign in with the browser’s answer from your passkey.', [{ field: 'response', message: 'is required' }]);
          return;
        }
        const step = await steps.takeFrom(req, res, PURPOSE.signIn);
        if (!step) {
          sendError(res, 401, 'Signing in with your passkey took too long: try again.');
          return;
        }
        const passkey = await passkeys.get(answer.id as string);
        const person = passkey ? await accounts.people.get(passkey.personId) : undefined;
        // Throttled like a password, by the person the passkey is of (or by the unknown passkey's id).
        const admitted = await throttle.attempt(req, person?.email ?? `passkey:${String(answer.id)}`);
        if (!admitted.admitted) {
          tooManyAttempts(res, admitted.waitMs);
          return;
        }
        const used = passkey && person && person.disabledAt === null ? await verifyUse(req, passkey, step.data.challenge, answer) : null;
        if (!passkey || !person || !used) {
          admitted.attempt.failed();
          sendError(res, 401, 'That passkey does not sign anyone in here: it may have been removed. Sign in with your password.');
          return;
        }
        // Someone the owners' rule asks for two factors has them in one passkey only when it verified them (PIN, biometrics).
        if (!used.userVerified && (await secondFactorNeeded(person.id))) {
          admitted.attempt.failed();
          sendError(
            res,
            401,
            'Your passkey did not ask for your PIN or fingerprint, and your account needs two factors: sign in with your password, then the passkey.',
          );
          return;
        }
        await admitted.attempt.succeeded(res);
        await signedIn(req, res, person.id, 'passkey');
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.secondFactorOptions,
      public: true,
      handle: async ({ request }) => {
        const { req, res } = request;
        const id = steps.idOf(req);
        const step = id ? await steps.peek(id, PURPOSE.secondFactor) : undefined;
        const person = step?.personId ? await accounts.people.get(step.personId) : undefined;
        if (!id || !step || !person || person.disabledAt !== null) {
          sendError(res, 401, 'Your sign-in took too long: enter your password again.');
          return;
        }
        const setUp = step.data.setUp === true;
        const options = setUp
          ? await registrationOptions(req, person)
          : await generateAuthenticationOptions({
              rpID: relyingParty(req).rpID,
              allowCredentials: (await passkeys.listOf(person.id)).map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
              userVerification: 'preferred',
              timeout: STEP_MS,
            });
        // A new challenge for the same sign-in (the person cancelled the browser's prompt and tries again).
        await steps.update(id, PURPOSE.secondFactor, { ...step.data, challenge: options.challenge });
        const answer: SecondFactorOptions = { setUp, options };
        sendJson(res, 200, answer);
      },
    },
    {
      method: 'POST',
      path: ACCESS_PATHS.secondFactor,
      public: true,
      handle: async ({ request, body }) => {
        const { req, res } = request;
        const answer = credentialAnswer(body);
        if (!answer) {
          sendError(res, 400, 'Confirm with the browser’s answer from your passkey.', [{ field: 'response', message: 'is required' }]);
          return;
        }
        const step = await steps.takeFrom(req, res, PURPOSE.secondFactor);
        const person = step?.personId ? await accounts.people.get(step.personId) : undefined;
        if (!step || !person || person.disabledAt !== null) {
          sendError(res, 401, 'Your sign-in took too long: enter your password again.');
          return;
        }
        const admitted = await throttle.attempt(req, person.email);
        if (!admitted.admitted) {
          tooManyAttempts(res, admitted.waitMs);
          return;
        }
        let confirmed: boolean;
        if (step.data.setUp === true) {
          const name = passkeyName(isJsonObject(body) ? body.name : undefined) ?? FIRST_PASSKEY_NAME;
          confirmed = (await verifyNewPasskey(req, person.id, step.data.challenge, answer, name)) !== null;
        } else {
          const passkey = await passkeys.get(answer.id as string);
          confirmed = passkey?.personId === person.id && (await verifyUse(req, passkey, step.data.challenge, answer)) !== null;
        }
        if (!confirmed) {
          admitted.attempt.failed();
          sendError(res, 401, 'The passkey did not confirm that it is you: sign in again with your password and one of your passkeys.');
          return;
        }
        await admitted.attempt.succeeded(res);
        await signedIn(req, res, person.id, 'password+passkey');
      },
    },
  ];

  return { endpoints, secondFactor };
}
