/**
 * One-time links (an invitation, or a reset), opened by someone not signed in: who the link is for, and
 * choosing a password with it, which uses the link up and signs the person in. Public endpoints: the link's
 * token is the proof. It travels in the body, never in an address, so no log keeps it.
 */
import type { ServerResponse } from 'node:http';
import { PEOPLE_PATHS } from '../../src/contract/people-paths';
import type { SignInAnswer } from '../../src/contract/sign-in-answers';
import { acceptBodySchema, linkBodySchema, type LinkDetails } from '../../src/contract/people';
import { sendError } from '../answers';
import type { LinkStore, OneTimeLink } from '../db/link-store';
import type { Person } from '../db/people-store';
import { sendJson, type Endpoint } from '../own-api';
import type { Accounts } from './accounts';
import { parseBody, refusePassword } from './endpoint-helpers';
import { hashPassword } from './password-hash';
import { checkNewPassword } from './password-policy';
import { loadSecondFactorPolicy, secondFactorRequired } from './second-factor-policy';

const ASK_AGAIN = 'Ask an owner of site-admin for a new link.';

export function linkEndpoints(deps: { accounts: Accounts; links: LinkStore }): Endpoint[] {
  const { accounts, links } = deps;

  /** The open link of `token` and its person, or undefined after answering 404 or 410 in words. */
  async function openLink(res: ServerResponse, token: string): Promise<{ link: OneTimeLink; person: Person } | undefined> {
    const link = await links.find(token);
    if (!link) {
      sendError(res, 404, `This link is not one of this server’s: check that it was copied whole. ${ASK_AGAIN}`);
      return undefined;
    }
    if (link.usedAt !== null) {
      sendError(res, 410, `This link has been used already, or a newer one was made. ${ASK_AGAIN}`);
      return undefined;
    }
    if (link.expiresAt <= accounts.now()) {
      sendError(res, 410, `This link has expired: links last 72 hours. ${ASK_AGAIN}`);
      return undefined;
    }
    const person = await accounts.people.get(link.personId);
    if (!person || person.disabledAt !== null) {
      sendError(res, 410, `This link is for an account that is disabled. ${ASK_AGAIN}`);
      return undefined;
    }
    return { link, person };
  }

  return [
    {
      method: 'POST',
      path: PEOPLE_PATHS.link,
      public: true,
      handle: async ({ request, body }) => {
        const { res } = request;
        const read = parseBody(res, linkBodySchema, body, 'This is not a link of this server: check that it was copied whole.');
        if (!read) return;
        const open = await openLink(res, read.token);
        if (!open) return;
        const grants = await accounts.people.grantsOf(open.person.id);
        const details: LinkDetails = {
          purpose: open.link.purpose,
          email: open.person.email,
          displayName: open.person.displayName,
          secondFactorRequired: secondFactorRequired(await loadSecondFactorPolicy(accounts.settings), grants),
          expiresAt: open.link.expiresAt,
        };
        sendJson(res, 200, details);
      },
    },
    {
      method: 'POST',
      path: PEOPLE_PATHS.linkAccept,
      public: true,
      handle: async ({ request, body }) => {
        const { req, res } = request;
        const read = parseBody(res, acceptBodySchema, body, 'Choose a password.');
        if (!read) return;
        const open = await openLink(res, read.token);
        if (!open) return;
        const { person } = open;
        const grants = await accounts.people.grantsOf(person.id);
        const problems = checkNewPassword(read.password, {
          name: person.displayName,
          email: person.email,
          secondFactorRequired: secondFactorRequired(await loadSecondFactorPolicy(accounts.settings), grants),
        });
        if (problems.length > 0) {
          refusePassword(res, 'password', problems);
          return;
        }
        const hash = await hashPassword(read.password);
        const t = accounts.now();
        // Used up first, in one update: of two tabs sending the same link, only one chooses the password.
        if (!(await links.use(read.token, t))) {
          sendError(res, 410, `This link has been used already. ${ASK_AGAIN}`);
          return;
        }
        await accounts.people.setPasswordHash(person.id, hash, t);
        await accounts.sessions.deleteAllOf(person.id);
        await accounts.startSession(req, res, person.id, 'password');
        const answer: SignInAnswer = await accounts.signedInAnswer(person.id);
        sendJson(res, 200, answer);
      },
    },
  ];
}
