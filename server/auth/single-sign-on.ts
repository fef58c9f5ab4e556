/**
 * Single sign-on with OpenID Connect (openid-client): the authorisation code flow with PKCE (S256), `state`
 * and `nonce`. The start endpoint keeps the three secrets of the sign-in in the database's pending steps,
 * under the SHA-256 of a random id that only a short-lived cookie holds, so the provider may send the person
 * back to any instance sharing the database; the callback takes that step once, checks `state`, exchanges
 * the code with the PKCE verifier, and has openid-client check the ID token (signature, issuer, audience,
 * expiry, and the `nonce`). The person is then matched by the provider's verified e-mail address to an
 * active person of ours: single sign-on never creates anyone. With SSO_GROUP_GRANTS, the provider's groups
 * replace the person's grants at each sign-in.
 *
 * The provider's metadata is discovered at the first sign-in, not at start: the console (and sign-in by
 * password) keeps working while the provider is away, instances may start before it, and the failure is
 * logged and shown to the person in words; a failed discovery is tried again at the next sign-in.
 *
 * Every failure sends the browser to `/?sign-in-error=<code>` (src/contract/single-sign-on.ts), which the
 * sign-in page shows in words. Callbacks that fail their checks (state, nonce, code, an unknown or
 * expired step) count as failed sign-ins of the address in the login throttle; the provider's own refusals
 * (a person it did not sign in, an unknown or unverified address) are not guesses and count nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ALL_SITES, ROLES, type Grant, type Role } from '../../src/contract/access';
import { SIGN_IN_ERROR_PARAM, SSO_CALLBACK_PATH, SSO_START_PATH, type SsoErrorCode } from '../../src/contract/single-sign-on';
import type { SingleSignOnSetting } from '../config';
import type { AppDatabase } from '../db/open';
import { createPendingStepStore } from '../db/pending-step-store';
import { addressKey, type Attempt, type LoginThrottle } from './login-throttle';
import type { Endpoint } from '../own-api';
import type { Accounts } from './accounts';
import { browserSteps } from './browser-step';

/** How long a sign-in may take at the identity provider. */
export const SSO_STEP_MS = 10 * 60_000;
/** How long the server waits for the identity provider's discovery, token and userinfo answers. */
const PROVIDER_TIMEOUT_SEC = 10;
/** Sign-ins one address may start a minute: each start writes a row, so a flood must not fill the database. */
export const SSO_STARTS_PER_MINUTE = 30;
/** The pending_steps purpose of a single sign-on in progress. */
const PURPOSE = 'single-sign-on';

export const SSO_COOKIE = 'site_admin_sso';

/** What the start endpoint keeps for the callback. */
interface PendingSignOn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The three secrets of a sign-in as the step holds them, or undefined when one is missing. */
function readPending(data: Record<string, unknown>): PendingSignOn | undefined {
  const { state, nonce, codeVerifier } = data;
  return typeof state === 'string' && typeof nonce === 'string' && typeof codeVerifier === 'string'
    ? { state, nonce, codeVerifier }
    : undefined;
}

/** The grants `groups` give under SSO_GROUP_GRANTS: one per site, the strongest role any of them gives there. */
export function grantsOfGroups(groupGrants: ReadonlyMap<string, readonly Grant[]>, groups: readonly string[]): Grant[] {
  const bySite = new Map<string, Role>();
  for (const group of groups) {
    for (const grant of groupGrants.get(group) ?? []) {
      const held = bySite.get(grant.siteId);
      if (held === undefined || ROLES.indexOf(grant.role) < ROLES.indexOf(held)) bySite.set(grant.siteId, grant.role);
    }
  }
  // A site's grant that an all-sites grant of the same or a stronger role covers adds nothing.
  const everywhere = bySite.get(ALL_SITES);
  return [...bySite]
    .filter(([siteId, role]) => siteId === ALL_SITES || everywhere === undefined || ROLES.indexOf(role) < ROLES.indexOf(everywhere))
    .map(([siteId, role]) => ({ siteId, role }))
    .sort((a, b) => a.siteId.localeCompare(b.siteId));
}

const sameGrants = (a: readonly Grant[], b: readonly Grant[]) => {
  const key = (grants: readonly Grant[]) =>
    grants
      .map((g) => `${g.siteId}\u0000${g.role}`)
      .sort()
      .join('\u0001');
  return key(a) === key(b);
};

/** The groups of a claim: a list of names, or one name. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Sends the browser on; the cookies already set on `res` (the step's, the session's, the device's) go with it. */
function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store' });
  res.end();
}

const failurePage = (code: SsoErrorCode) => `/?${SIGN_IN_ERROR_PARAM}=${code}`;

export function singleSignOnEndpoints(deps: {
  setting: SingleSignOnSetting;
  accounts: Accounts;
  database: AppDatabase;
  throttle: LoginThrottle;
}): Endpoint[] {
  const { setting, accounts, throttle } = deps;
  // The step is taken once, whichever instance the provider sends the person back to.
  const steps = browserSteps({
    name: SSO_COOKIE,
    cookie: accounts.cookie,
    store: createPendingStepStore(deps.database.db),
    ttlMs: SSO_STEP_MS,
    now: accounts.now,
  });

  const starts = new RateLimiterMemory({ keyPrefix: 'site-admin:sso-start', points: SSO_STARTS_PER_MINUTE, duration: 60 });

  let discovered: Promise<oidc.Configuration> | undefined;
  /** The provider's metadata, discovered once; a failure is forgotten, so the next sign-in tries again. */
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        setting.issuer,
        setting.clientId,
        undefined,
        setting.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(setting.clientSecret),
        {
          timeout: PROVIDER_TIMEOUT_SEC,
          // Plain HTTP only for a provider on this machine (config.ts allows http:// on loopback alone).
          execute: setting.issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        },
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  const refuse = (res: ServerResponse, code: SsoErrorCode, why: string) => {
    console.warn(`site-admin: single sign-on refused (${code}): ${why}`);
    steps.end(res);
    redirect(res, failurePage(code));
  };

  async function callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = steps.idOf(req);
    if (!id) {
      refuse(res, 'sso-expired', 'the browser holds no sign-in started here');
      return;
    }
    // The step is used up whatever comes next, a refusal by the throttle included: it is never kept to expire.
    const taken = await steps.take(id, PURPOSE);
    // No account name is known before the provider's answer is checked: the address stands in for it.
    const admitted = await throttle.attempt(req, `single-sign-on ${addressKey(req.socket.remoteAddress)}`);
    if (!admitted.admitted) {
      refuse(res, 'sso-busy', 'too many failed sign-ins from this address');
      return;
    }
    const { attempt } = admitted;
    const step = taken ? readPending(taken.data) : undefined;
    const params = new URL(req.url ?? '/', 'http://callback').searchParams;
    if (!step) {
      attempt.failed();
      refuse(res, 'sso-expired', 'the sign-in is unknown, used already, or more than 10 minutes old');
      return;
    }
    if (params.get('state') !== step.state) {
      attempt.failed();
      refuse(res, 'sso-state', 'the state of the answer is not the one this sign-in sent');
      return;
    }
    if (params.has('error')) {
      await attempt.released();
      refuse(res, 'sso-denied', `the identity provider answered ${params.get('error') ?? ''}: ${params.get('error_description') ?? ''}`);
      return;
    }
    await finish(req, res, step, attempt);
  }

  async function finish(req: IncomingMessage, res: ServerResponse, step: PendingSignOn, attempt: Attempt): Promise<void> {
    let config: oidc.Configuration;
    try {
      config = await configuration();
    } catch (error) {
      await attempt.released();
      refuse(res, 'sso-provider', `discovery at ${setting.issuer.href} failed: ${(error as Error).message}`);
      return;
    }
    // The address the provider sent the person to: the registered redirect URL with this request's query.
    const current = new URL(setting.redirectUrl);
    current.search = new URL(req.url ?? '/', 'http://callback').search;
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: step.codeVerifier,
        expectedState: step.state,
        expectedNonce: step.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('no ID token');
      claims = { ...idToken };
      // Providers that keep the e-mail or the groups out of the ID token give them at userinfo.
      if (
        config.serverMetadata().userinfo_endpoint &&
        (claims.email === undefined || claims.email_verified === undefined || claims[setting.groupsClaim] === undefined)
      ) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
        claims = { ...info, ...claims };
      }
    } catch (error) {
      const e = error as Error & { code?: string; cause?: { claim?: unknown } };
      const claim = typeof e.cause?.claim === 'string' ? ` (${e.cause.claim})` : '';
      attempt.failed();
      refuse(res, 'sso-invalid', `the provider's answer did not verify: ${e.code ? `${e.code}: ` : ''}${e.message}${claim}`);
      return;
    }

    const email = typeof claims.email === 'string' ? claims.email : '';
    // Some providers send the flag as a string.
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (!email || !verified) {
      await attempt.released();
      refuse(res, 'sso-unverified', `the provider gave ${email ? `${email}, not verified` : 'no e-mail address'}`);
      return;
    }
    const person = await accounts.people.getByEmail(email);
    if (!person || person.disabledAt !== null) {
      await attempt.released();
      refuse(res, 'sso-unknown', `${email} is ${person ? 'disabled' : 'not a person of this server'}`);
      return;
    }
    if (setting.groupGrants) {
      const grants = grantsOfGroups(setting.groupGrants, groupsOf(claims[setting.groupsClaim]));
      if (!sameGrants(grants, await accounts.people.grantsOf(person.id)))
        await accounts.people.setGrants(person.id, grants, accounts.now());
      if (grants.length === 0) {
        await attempt.released();
        refuse(res, 'sso-no-grants', `the groups of ${email} (claim ${setting.groupsClaim}) map to no grants`);
        return;
      }
    }
    await attempt.succeeded(res);
    await accounts.startSession(req, res, person.id, 'single-sign-on');
    steps.end(res);
    redirect(res, '/');
  }

  return [
    {
      method: 'GET',
      path: SSO_START_PATH,
      public: true,
      handle: async ({ request: { req, res } }) => {
        try {
          await starts.consume(addressKey(req.socket.remoteAddress));
        } catch {
          redirect(res, failurePage('sso-busy'));
          return;
        }
        let config: oidc.Configuration;
        try {
          config = await configuration();
        } catch (error) {
          console.error(
            `site-admin: single sign-on: the identity provider ${setting.issuer.href} could not be discovered: ${(error as Error).message}`,
          );
          redirect(res, failurePage('sso-provider'));
          return;
        }
        const step: PendingSignOn = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
        await steps.start(res, PURPOSE, null, { ...step });
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: setting.redirectUrl.href,
          scope: setting.scopes,
          code_challenge: await oidc.calculatePKCECodeChallenge(step.codeVerifier),
          code_challenge_method: 'S256',
          state: step.state,
          nonce: step.nonce,
        });
        redirect(res, url.href);
      },
    },
    {
      method: 'GET',
      path: SSO_CALLBACK_PATH,
      public: true,
      handle: ({ request: { req, res } }) => callback(req, res),
    },
  ];
}
