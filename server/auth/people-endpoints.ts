/**
 * People (PEOPLE_PATHS in access.ts), for owners of every site only (`managesPeople`): everyone with their
 * grants and where they stand; inviting a person (a one-time link valid 72 hours, shown once to the owner
 * to send on: no mail server is needed); their grants as sites × roles; disabling and enabling; a reset
 * (a new link; the old password and every session end); signing a person out; and the owners' rule on
 * second factors. Anyone else gets 403 in the spec's error shape, and nothing is read or changed.
 *
 * Two rules keep site-admin manageable: an owner cannot disable themselves, and no change may leave nobody
 * active who manages people.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALL_SITES, managesPeople, type Grant } from '../../src/contract/access';
import { PEOPLE_PATHS } from '../../src/contract/people-paths';
import {
  grantsBodySchema,
  INVITE_PAGE,
  inviteBodySchema,
  ONE_TIME_LINK_MS,
  personChangeBodySchema,
  secondFactorBodySchema,
  type InvitedView,
  type LinkView,
  type PeopleView,
  type PersonView,
} from '../../src/contract/people';
import type { SiteInfo } from '../../src/contract/site-info';
import { sendError } from '../answers';
import type { LinkStore } from '../db/link-store';
import type { Person } from '../db/people-store';
import { sendDone, sendJson, type Endpoint, type EndpointCall } from '../own-api';
import type { Identity } from '../identity';
import type { Accounts } from './accounts';
import { parseBody } from './endpoint-helpers';
import { loadSecondFactorPolicy, saveSecondFactorPolicy } from './second-factor-policy';

type Owner = Extract<Identity, { kind: 'person' }>;

/** The owner asking, or undefined after answering 403 (anyone else) or 409 (the local demo). */
export function ownerAsking(who: Identity, res: ServerResponse): Owner | undefined {
  if (who.kind === 'person' && managesPeople(who.grants)) return who;
  if (who.kind === 'demo') {
    sendError(res, 409, 'The local demo has no accounts: add the first person with "npm run people -- add".');
    return undefined;
  }
  sendError(res, 403, 'Only an owner of every site may manage people; ask one of them for this change.');
  return undefined;
}

/**
 * The address the link is opened at, on the origin the owner's browser uses (its Origin header, which the
 * same-origin check has already compared with Host), else this request's Host. The token follows `#`.
 */
function linkUrl(req: IncomingMessage, token: string, secure: boolean): string {
  const origin = req.headers.origin;
  const base = origin && origin !== 'null' ? origin : `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
  return `${base}${INVITE_PAGE}#${token}`;
}

export function peopleEndpoints(deps: { accounts: Accounts; links: LinkStore; sites: readonly SiteInfo[] }): Endpoint[] {
  const { accounts, links, sites } = deps;
  const siteIds = new Set(sites.map((site) => site.id));

  async function viewOf(person: Person, open: Awaited<ReturnType<LinkStore['openLinks']>>, now: number): Promise<PersonView> {
    const [grants, sessions] = await Promise.all([accounts.people.grantsOf(person.id), accounts.sessions.listOf(person.id, now)]);
    const link = open.get(person.id) ?? null;
    return {
      id: person.id,
      email: person.email,
      displayName: person.displayName,
      grants,
      status: person.disabledAt !== null ? 'disabled' : person.passwordHash === null && link ? 'invited' : 'active',
      hasPassword: person.passwordHash !== null,
      link,
      lastSeenAt: sessions[0]?.lastSeenAt ?? null,
      sessions: sessions.length,
    };
  }

  /** How many active people manage people, were `personId` to have `grants` and be `disabled`. */
  async function managersAfter(personId: string, change: { grants?: Grant[]; disabled?: boolean }): Promise<number> {
    let count = 0;
    for (const person of await accounts.people.list()) {
      const disabled = person.id === personId && change.disabled !== undefined ? change.disabled : person.disabledAt !== null;
      if (disabled) continue;
      const grants = person.id === personId && change.grants ? change.grants : await accounts.people.grantsOf(person.id);
      if (managesPeople(grants)) count += 1;
    }
    return count;
  }

  /** The grants of a body, or undefined after answering 400 for a site the profile does not have. */
  function checkGrants(res: ServerResponse, grants: readonly Grant[]): Grant[] | undefined {
    const unknown = grants.findIndex((grant) => grant.siteId !== ALL_SITES && !siteIds.has(grant.siteId));
    if (unknown >= 0) {
      sendError(res, 400, `There is no site “${grants[unknown]?.siteId ?? ''}” on this server.`, [
        { field: `grants.${unknown}.siteId`, message: 'is not a site of this server' },
      ]);
      return undefined;
    }
    return [...grants];
  }

  /** The person of the path, or undefined after answering 404. */
  async function target(call: EndpointCall): Promise<Person | undefined> {
    const person = await accounts.people.get(call.params.id ?? '');
    if (!person) sendError(call.request.res, 404, 'No such person: they may have been removed.');
    return person;
  }

  async function newLink(req: IncomingMessage, personId: string, purpose: 'invitation' | 'reset', by: string): Promise<LinkView> {
    const { token, expiresAt } = await links.create({ personId, purpose, createdBy: by, now: accounts.now(), ttlMs: ONE_TIME_LINK_MS });
    return { url: linkUrl(req, token, accounts.cookie.secure), expiresAt };
  }

  /** Tells the activity record that `owner` changed `subject`. */
  const changed = (req: IncomingMessage, owner: Owner, subject: Person | undefined, change: string, detail: Record<string, unknown> = {}) =>
    accounts.record({
      action: 'person.changed',
      person: { id: owner.id, name: owner.displayName },
      subject: subject && { id: subject.id, name: subject.displayName, email: subject.email },
      change,
      detail,
      req,
    });

  return [
    {
      method: 'GET',
      path: PEOPLE_PATHS.people,
      handle: async ({ request, who }) => {
        if (!ownerAsking(who, request.res)) return;
        const t = accounts.now();
        const [everyone, open, secondFactor] = await Promise.all([
          accounts.people.list(),
          links.openLinks(t),
          loadSecondFactorPolicy(accounts.settings),
        ]);
        const view: PeopleView = {
          people: await Promise.all(everyone.map((person) => viewOf(person, open, t))),
          sites: sites.map((site) => ({ id: site.id, name: site.name })),
          secondFactor,
        };
        sendJson(request.res, 200, view);
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.people,
      handle: async ({ request, who, body }) => {
        const { req, res } = request;
        const owner = ownerAsking(who, res);
        if (!owner) return;
        const invite = parseBody(res, inviteBodySchema, body, 'Invite a person with their e-mail address, their name and their roles.');
        if (!invite) return;
        const grants = checkGrants(res, invite.grants);
        if (!grants) return;
        const t = accounts.now();
        const added = await accounts.people.add({ email: invite.email, displayName: invite.displayName, passwordHash: null, now: t });
        if (!added.ok) {
          sendError(res, 409, `${invite.email} is already someone here; reset their account instead if they cannot sign in.`, [
            { field: 'email', message: 'is already someone here' },
          ]);
          return;
        }
        if (grants.length > 0) await accounts.people.setGrants(added.person.id, grants, t);
        const link = await newLink(req, added.person.id, 'invitation', owner.id);
        const person = await accounts.people.get(added.person.id);
        await changed(req, owner, person ?? added.person, 'invited', { grants });
        const answer: InvitedView = {
          person: await viewOf(person ?? added.person, await links.openLinks(accounts.now()), accounts.now()),
          link,
        };
        sendJson(res, 201, answer);
      },
    },
    {
      method: 'PATCH',
      path: PEOPLE_PATHS.person,
      handle: async (call) => {
        const { res } = call.request;
        const owner = ownerAsking(call.who, res);
        if (!owner) return;
        const change = parseBody(res, personChangeBodySchema, call.body, 'Say whether the person is disabled.');
        if (!change) return;
        const person = await target(call);
        if (!person) return;
        if (change.disabled && person.id === owner.id) {
          sendError(res, 409, 'You cannot disable yourself; another owner can.');
          return;
        }
        if (change.disabled && (await managersAfter(person.id, { disabled: true })) === 0) {
          sendError(res, 409, `${person.displayName} is the last active owner of every site; make someone else one first.`);
          return;
        }
        const t = accounts.now();
        await accounts.people.setDisabled(person.id, change.disabled, t);
        // Out at once, on every instance: their sessions are refused from their next request.
        if (change.disabled) await accounts.sessions.deleteAllOf(person.id);
        await changed(call.request.req, owner, person, change.disabled ? 'disabled' : 'enabled');
        sendDone(res);
      },
    },
    {
      method: 'PUT',
      path: PEOPLE_PATHS.personGrants,
      handle: async (call) => {
        const { res } = call.request;
        const owner = ownerAsking(call.who, res);
        if (!owner) return;
        const change = parseBody(res, grantsBodySchema, call.body, 'Give the person’s roles, site by site.');
        if (!change) return;
        const grants = checkGrants(res, change.grants);
        if (!grants) return;
        const person = await target(call);
        if (!person) return;
        if (!managesPeople(grants) && (await managersAfter(person.id, { grants })) === 0) {
          sendError(res, 409, `${person.displayName} is the last active owner of every site; make someone else one first.`, [
            { field: 'grants', message: 'would leave nobody who manages people' },
          ]);
          return;
        }
        const before = await accounts.people.grantsOf(person.id);
        await accounts.people.setGrants(person.id, grants, accounts.now());
        await changed(call.request.req, owner, person, 'grants', { before, after: grants });
        sendJson(res, 200, { grants: await accounts.people.grantsOf(person.id) });
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.personReset,
      handle: async (call) => {
        const { req, res } = call.request;
        const owner = ownerAsking(call.who, res);
        if (!owner) return;
        const person = await target(call);
        if (!person) return;
        if (person.id === owner.id) {
          sendError(res, 409, 'Change your own password under Your account; another owner can reset yours.');
          return;
        }
        const t = accounts.now();
        // The old password stops working now, and whoever is signed in as them is signed out.
        await accounts.people.setPasswordHash(person.id, null, t);
        await accounts.sessions.deleteAllOf(person.id);
        const link = await newLink(req, person.id, 'reset', owner.id);
        await changed(req, owner, person, 'reset');
        sendJson(res, 200, link);
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.personSignOut,
      handle: async (call) => {
        const { res } = call.request;
        const owner = ownerAsking(call.who, res);
        if (!owner) return;
        const person = await target(call);
        if (!person) return;
        const ended = await accounts.sessions.deleteAllOf(person.id);
        await changed(call.request.req, owner, person, 'signed-out', { ended });
        sendJson(res, 200, { ended });
      },
    },
    {
      method: 'PUT',
      path: PEOPLE_PATHS.secondFactor,
      handle: async ({ request, who, body }) => {
        const owner = ownerAsking(who, request.res);
        if (!owner) return;
        const rule = parseBody(request.res, secondFactorBodySchema, body, 'Say who must add a passkey to their password.');
        if (!rule) return;
        await saveSecondFactorPolicy(accounts.settings, rule, accounts.now());
        await changed(request.req, owner, undefined, 'second-factor-rule', { rule });
        sendJson(request.res, 200, await loadSecondFactorPolicy(accounts.settings));
      },
    },
  ];
}
