/**
 * The words for roles and the addresses of our own people and account endpoints: what the People and
 * Account pages, the invitation page and the server share. Apart from access.ts, which the first page
 * loads, so that the first page loads none of it.
 */
import type { Role } from './access';

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', editor: 'Editor', support: 'Support' };

/** What each role means, in the words the People page and the docs use. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything on every site, and manages people',
  editor: 'Creates and imports products, looks up cases',
  support: 'Looks up cases',
};

/**
 * GET: the owners' overrides of what each role may do (`RoleCapabilitiesView`); PUT a `RoleCapabilityChange`:
 * allows or withholds an adjustable capability for a role on a site or every site, or returns it to the
 * default. Owners of every site only.
 */
export const ROLE_OVERRIDES_PATH = '/api/role-capabilities';

/** Our own endpoints of a person's own account, of people (owners only), and of one-time links (public). */
export const PEOPLE_PATHS = {
  /** GET: `AccountView`; PATCH `{displayName}`. */
  account: '/api/account',
  /** POST `{currentPassword, newPassword}`: changes the password and ends the person's other sessions. */
  accountPassword: '/api/account/password',
  /** DELETE: ends one of the person's sessions, by its handle. */
  accountSession: '/api/account/sessions/:handle',
  /** POST: ends every session of the person but this one. */
  accountSignOutOthers: '/api/account/sessions/sign-out-others',
  /** GET: `PeopleView`; POST `{email, displayName, grants}`: invites a person (`InvitedView`). */
  people: '/api/people',
  /** PATCH `{disabled}`: disables or enables a person. */
  person: '/api/people/:id',
  /** PUT `{grants}`: replaces a person's grants. */
  personGrants: '/api/people/:id/grants',
  /** POST: a new one-time link (`LinkView`); the old password and every session end. */
  personReset: '/api/people/:id/reset',
  /** POST: ends every session of the person. */
  personSignOut: '/api/people/:id/sign-out',
  /** PUT `{everyone, roles}`: the owners' second-factor rule. */
  secondFactor: '/api/people/second-factor',
  /**
   * POST `{token}`: who a one-time link is for (`LinkDetails`). A POST with the token in its body rather
   * than a GET with it in the address, so the token is never written to a server's or a proxy's log.
   */
  link: '/api/links/details',
  /** POST `{token, password}`: chooses the password, uses the link up and signs the person in (`SignInAnswer`). */
  linkAccept: '/api/links/accept',
} as const;

/** A path of PEOPLE_PATHS with its named parts filled in (each encoded). */
export function peoplePath(path: string, params: Record<string, string>): string {
  return path.replace(/:([a-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
