/**
 * Who may do what, in one place for the server (which enforces it on every call) and the browser (which
 * shows only what a person may do). A person holds grants: a role on one site of the profile, or on every
 * site (ALL_SITES). What a role lets them do on a site are its capabilities; a person's capabilities on a
 * site are those of every grant that covers it (a site's own and an all-sites one), together.
 *
 * Written without zod: the first page reads `/api/sites`, which carries these, and loads no zod.
 */

/** owner: everything on every site, and manages people; editor: creates and imports products, looks up cases; support: looks up cases. */
export const ROLES = ['owner', 'editor', 'support'] as const;
export type Role = (typeof ROLES)[number];

/** The site id of a grant on every site of the profile. */
export const ALL_SITES = '*';

export interface Grant {
  /** A site id of the profile, or ALL_SITES. */
  siteId: string;
  role: Role;
}

/**
 * What a person may do on a site: look up (and list) cases, create products (by the editor or an import),
 * export a list of cases as a file (personal data in bulk, which owners may withhold per role and site).
 */
export const CAPABILITIES = ['lookup', 'create', 'export'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * What each operation of Site API v2 needs on the site it works on. Whoever may look up cases may list
 * them: a list shows what a lookup of each case would, a page at a time.
 */
export const OPERATION_NEEDS = {
  'get-form-case': 'lookup',
  'list-form-cases': 'lookup',
  'create-product': 'create',
  // Whoever may create a site's products may read and correct them; support sees no catalogue.
  'list-products': 'create',
  'get-product': 'create',
  'update-product': 'create',
} as const satisfies Record<string, Capability>;

/** What each role may do by default, before any owner's override (ROLE_OVERRIDES_PATH). */
export const ROLE_CAPABILITIES: Readonly<Record<Role, readonly Capability[]>> = {
  owner: ['lookup', 'create', 'export'],
  editor: ['lookup', 'create', 'export'],
  support: ['lookup'],
};

/**
 * The capabilities owners of every site may allow or withhold per role and site. Looking up and creating
 * stay what the role says (a role that may not look up cases is no role at all on a site); exporting is
 * personal data in bulk, which an owner may want for some sites and not others.
 */
export const ADJUSTABLE_CAPABILITIES = ['export'] as const satisfies readonly Capability[];
export type AdjustableCapability = (typeof ADJUSTABLE_CAPABILITIES)[number];
/** The roles an override may concern: an owner may do everything on their sites, always. */
export const ADJUSTABLE_ROLES = ['editor', 'support'] as const satisfies readonly Role[];
export type AdjustableRole = (typeof ADJUSTABLE_ROLES)[number];

/**
 * An owner's override of a role's default on a site (or on every site, ALL_SITES): the role may, or may
 * not, do `capability` there. A site's own override wins over an all-sites one, which wins over the default.
 */
export interface CapabilityOverride {
  siteId: string;
  role: Role;
  capability: Capability;
  allowed: boolean;
}

/** Whether `role` may do `capability` on `siteId`, with the owners' `overrides` applied. */
export function roleMay(role: Role, capability: Capability, siteId: string, overrides: readonly CapabilityOverride[] = []): boolean {
  let everySite: boolean | undefined;
  for (const override of overrides) {
    if (override.role !== role || override.capability !== capability) continue;
    if (override.siteId === siteId) return override.allowed;
    if (override.siteId === ALL_SITES) everySite = override.allowed;
  }
  return everySite ?? ROLE_CAPABILITIES[role].includes(capability);
}

export const isRole = (value: unknown): value is Role => ROLES.some((role) => role === value);

/** The grants of `grants` that cover `siteId`: its own and an all-sites one. */
export function grantsOn(grants: readonly Grant[], siteId: string): Grant[] {
  return grants.filter((grant) => grant.siteId === siteId || grant.siteId === ALL_SITES);
}

/**
 * What a person with `grants` may do on `siteId`, in CAPABILITIES' order, with the owners' `overrides` of
 * the roles' defaults applied to each grant; empty when they may not use it.
 */
export function capabilitiesOn(grants: readonly Grant[], siteId: string, overrides: readonly CapabilityOverride[] = []): Capability[] {
  const roles = grantsOn(grants, siteId).map((grant) => grant.role);
  return CAPABILITIES.filter((capability) => roles.some((role) => roleMay(role, capability, siteId, overrides)));
}

/** Only an owner of every site manages people (an owner's grant on one site is everything on that site only). */
export function managesPeople(grants: readonly Grant[]): boolean {
  return grants.some((grant) => grant.role === 'owner' && grant.siteId === ALL_SITES);
}

/** The strongest role that covers `siteId`, for showing ("Editor on Harbour Linen"); undefined without one. */
export function roleOn(grants: readonly Grant[], siteId: string): Role | undefined {
  const roles = new Set(grantsOn(grants, siteId).map((grant) => grant.role));
  return ROLES.find((role) => roles.has(role));
}

/**
 * Who asks, as far as what they may do goes: the local demo (loopback with nobody in the database), a
 * person with their grants, or nobody signed in. The server's identity and the browser's `Me` are both one.
 */
export type Asker =
  | { kind: 'demo' }
  /** `overrides`: the owners' overrides of the roles' defaults (the server reads them with the session). */
  | { kind: 'person'; grants: readonly Grant[]; overrides?: readonly CapabilityOverride[] }
  | { kind: 'nobody' };

/** What `who` may do on `siteId`, in CAPABILITIES' order: in the local demo everything, for nobody signed in nothing. */
export function capabilitiesOfAsker(who: Asker | undefined, siteId: string): Capability[] {
  if (who?.kind === 'demo') return [...CAPABILITIES];
  return who?.kind === 'person' ? capabilitiesOn(who.grants, siteId, who.overrides) : [];
}

/**
 * Whether `who` may do `capability` on `siteId`: the one check of the server's pipeline and endpoints, and
 * the only place the local demo's rule (everything is allowed) is stated. The capability is required, so a
 * check can never loosen to "any" by a value that happens to be undefined; `mayUse` asks that on purpose.
 */
export function may(who: Asker | undefined, siteId: string, capability: Capability): boolean {
  return capabilitiesOfAsker(who, siteId).includes(capability);
}

/** Whether `who` may use `siteId` at all (any capability): what a site's own lists need. */
export function mayUse(who: Asker | undefined, siteId: string): boolean {
  return capabilitiesOfAsker(who, siteId).length > 0;
}

/** Whether `who` sees everyone's activity, not only their own: an owner of every site, or the local demo. */
export function seesEveryone(who: Asker | undefined): boolean {
  return who?.kind === 'demo' || (who?.kind === 'person' && managesPeople(who.grants));
}

/** Who did something, as the activity record and an import keep it: a person, the local demo, or nobody signed in. */
export type Actor = { kind: 'person'; id: string; name: string } | { kind: 'demo' } | { kind: 'anonymous' };

/** The words for who did something when it was not a person. */
export const ACTOR_LABELS = { demo: 'Local demo', anonymous: 'Anonymous' } as const;

/** Who did something, in words: the person's name, "Local demo" or "Anonymous". */
export function actorName(actor: { kind: 'person'; name: string } | { kind: 'demo' | 'anonymous' }): string {
  return actor.kind === 'person' ? actor.name : ACTOR_LABELS[actor.kind];
}

const DOING: Record<Capability, string> = { lookup: 'look up cases', create: 'create products', export: 'export cases' };

/**
 * Why a call is refused, in words a person can act on: what they may do on the site and what they may not
 * ("You may look up cases on Harbour Linen but not create products there"), or that they have no role on it.
 */
export function refusalMessage(siteName: string, held: readonly Capability[], wanted: Capability): string {
  if (held.length === 0) return `You have no role on ${siteName}: ask an owner of site-admin for one.`;
  return `You may ${held.map((capability) => DOING[capability]).join(' and ')} on ${siteName} but not ${DOING[wanted]} there.`;
}

/** The person a request is made for, as `GET /api/sites` tells the browser. */
export type Me =
  /** Loopback with nobody in the database: the local demo, with no sign-in; everything is allowed. */
  | { kind: 'demo' }
  | {
      kind: 'person';
      id: string;
      email: string;
      displayName: string;
      grants: Grant[];
      /** An owner of every site: may open the People page. */
      managesPeople: boolean;
    };

/** Our own endpoints of people, sign-in and sessions, beside `/api/sites` and `/api/health`. */
export const ACCESS_PATHS = {
  /** GET: the ways in this server offers (`SignInOptions`). */
  signIn: '/api/sign-in',
  /** POST `{email, password}`: signs in with a password (`SignInAnswer`). */
  signInPassword: '/api/sign-in/password',
  /** POST: ends this browser's session. */
  signOut: '/api/sign-out',
  /** POST: ends every session of the person signed in, this one included. */
  signOutEverywhere: '/api/sign-out/everywhere',
  /** POST: a passkey challenge for signing in with a passkey alone (`PublicKeyCredentialRequestOptionsJSON`). */
  passkeySignInOptions: '/api/sign-in/passkey/options',
  /** POST `{response}`: signs in with the passkey's answer to that challenge (`SignInAnswer`). */
  passkeySignIn: '/api/sign-in/passkey',
  /** POST: after the password, the passkey challenge of the second factor (`SecondFactorOptions`). */
  secondFactorOptions: '/api/sign-in/second-factor/options',
  /** POST `{response, name?}`: finishes the sign-in with the passkey's answer (`SignInAnswer`). */
  secondFactor: '/api/sign-in/second-factor',
  /** GET: the passkeys of the person signed in (`PasskeyList`); POST `{name, response}`: adds one. */
  passkeys: '/api/account/passkeys',
  /** POST: a challenge for adding a passkey (`PublicKeyCredentialCreationOptionsJSON`). */
  passkeyOptions: '/api/account/passkeys/options',
} as const;

/** PATCH `{name}`: renames one of your passkeys; DELETE: removes it (it no longer signs anyone in). */
export const passkeyPath = (id: string) => `${ACCESS_PATHS.passkeys}/${encodeURIComponent(id)}`;

/** The longest name of a passkey. */
export const PASSKEY_NAME_MAX = 60;

/** One of your passkeys, as the account page lists it (never its key). */
export interface PasskeySummary {
  /** WebAuthn's credential id, base64url. */
  id: string;
  name: string;
  createdAt: number;
  /** When it last signed in (null: never). */
  lastUsedAt: number | null;
}

/** `GET ACCESS_PATHS.passkeys`. */
export interface PasskeyList {
  passkeys: PasskeySummary[];
}

/**
 * `POST ACCESS_PATHS.secondFactorOptions`: the passkey challenge after the password. `setUp`: the owners'
 * rule asks this person for a passkey and they have none yet, so the options create one (registration)
 * rather than ask for one (authentication).
 */
export interface SecondFactorOptions {
  setUp: boolean;
  /** WebAuthn's options as JSON, for @simplewebauthn/browser. */
  options: unknown;
}

/** A person the stakeholder demo signs in as: shown on the sign-in page, with the password to use. */
export interface DemoPerson {
  email: string;
  password: string;
  /** "Owner of every site", "Editor of Harbour Linen, support on Summit Outfitters". */
  description: string;
}

/** `GET /api/sign-in`: the ways in. */
export interface SignInOptions {
  password: boolean;
  passkey: boolean;
  /** Single sign-on with OpenID Connect, by the name to show on its button; null when not set up. */
  singleSignOn: { name: string } | null;
  /** Only in the stakeholder demo (DEMO_PEOPLE): who to sign in as. */
  demoPeople: DemoPerson[];
}

const isGrant = (value: unknown): value is Grant =>
  typeof value === 'object' && value !== null && typeof (value as Grant).siteId === 'string' && isRole((value as Grant).role);

/** `me` of `GET /api/sites`, or null when it is not shaped as one (checked without zod; see the top). */
export function readMe(value: unknown): Me | null {
  if (typeof value !== 'object' || value === null) return null;
  const me = value as Record<string, unknown>;
  if (me.kind === 'demo') return { kind: 'demo' };
  if (me.kind !== 'person') return null;
  const { id, email, displayName, grants, managesPeople: manages } = me;
  if (typeof id !== 'string' || typeof email !== 'string' || typeof displayName !== 'string') return null;
  if (!Array.isArray(grants) || !grants.every(isGrant) || typeof manages !== 'boolean') return null;
  return { kind: 'person', id, email, displayName, grants: grants.map(({ siteId, role }) => ({ siteId, role })), managesPeople: manages };
}

/** `can` of a site in `GET /api/sites`: the capabilities listed, in CAPABILITIES' order; null when it is not a list of them. */
export function readCapabilities(value: unknown): Capability[] | null {
  if (!Array.isArray(value)) return null;
  if (!value.every((item) => CAPABILITIES.some((capability) => capability === item))) return null;
  return CAPABILITIES.filter((capability) => value.includes(capability));
}

/**
 * The page a one-time link (invitation or reset) opens, outside every site's addresses; its token follows
 * `#`, so it never reaches a server's or a proxy's log. Here, not in people.ts: the first page checks it.
 */
export const INVITE_PAGE = '/invite';
