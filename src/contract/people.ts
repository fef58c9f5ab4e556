/**
 * Our own endpoints of people (owners), of a person's own account, and of one-time links (an invitation or
 * a reset): the bodies each takes, checked with the same schemas by the server and by the browser's forms,
 * and what each answers, parsed with these schemas by the browser (types inferred from them). The paths are PEOPLE_PATHS in access.ts. Browser-safe; loaded only by the pages
 * that use it (zod is not on the first page).
 */
import * as z from 'zod/mini';
import { ADJUSTABLE_CAPABILITIES, ADJUSTABLE_ROLES, ALL_SITES, CAPABILITIES, ROLES, type Grant } from './access';
import { ROLE_LABELS } from './people-paths';

/** How long an invitation or a reset link may be used: 72 hours. */
export const ONE_TIME_LINK_MS = 72 * 60 * 60 * 1000;

export { INVITE_PAGE } from './access';

export const MAX_DISPLAY_NAME = 100;
export const MAX_EMAIL = 320;

const displayName = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_DISPLAY_NAME, `must be at most ${MAX_DISPLAY_NAME} characters`));

const grant = z.strictObject({ siteId: z.string().check(z.minLength(1), z.maxLength(200)), role: z.enum(ROLES) });
const grants = z.array(grant).check(z.maxLength(500));

export const nameBodySchema = z.strictObject({ displayName });

export const passwordChangeBodySchema = z.strictObject({
  currentPassword: z.string().check(z.minLength(1, 'is required'), z.maxLength(1024)),
  newPassword: z.string().check(z.minLength(1, 'is required'), z.maxLength(1024)),
});

export const inviteBodySchema = z.strictObject({
  email: z.pipe(z.string().check(z.trim(), z.maxLength(MAX_EMAIL, 'is too long')), z.email('must be an e-mail address')),
  displayName,
  grants,
});
export type InviteBody = z.infer<typeof inviteBodySchema>;

export const grantsBodySchema = z.strictObject({ grants });

export const personChangeBodySchema = z.strictObject({ disabled: z.boolean() });

export const secondFactorBodySchema = z.strictObject({ everyone: z.boolean(), roles: z.array(z.enum(ROLES)).check(z.maxLength(3)) });
/** The owners' rule: who must confirm their password with a passkey. */
export type SecondFactorRule = z.infer<typeof secondFactorBodySchema>;

/** A one-time link's token: 32 random bytes, base64url. */
export const linkBodySchema = z.strictObject({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'is not a link of ours')) });
export const acceptBodySchema = z.strictObject({
  token: linkBodySchema.shape.token,
  password: z.string().check(z.minLength(1, 'is required'), z.maxLength(1024)),
});

const grantAnswer = z.object({ siteId: z.string(), role: z.enum(ROLES) });

/** One of the signed-in person's sessions, as Your account lists them. */
export const sessionViewSchema = z.object({
  /** What "sign out this one" names it by: never usable as the session's id. */
  handle: z.string(),
  /** "Chrome on macOS", from the browser's user agent; null when it sent none. */
  device: z.nullable(z.string()),
  address: z.nullable(z.string()),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  /** How it was started: password, passkey, password+passkey, single-sign-on. */
  method: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** `GET` your account. */
export const accountViewSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  grants: z.array(grantAnswer),
  /** The owners' rule asks this person for a second factor (a passkey) after the password. */
  secondFactorRequired: z.boolean(),
  hasPassword: z.boolean(),
  sessions: z.array(sessionViewSchema),
});
export type AccountView = z.infer<typeof accountViewSchema>;

/** Where a person stands: able to sign in, invited (a link not used yet), or disabled. */
export const PERSON_STATUSES = ['active', 'invited', 'disabled'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

const linkPurpose = z.enum(['invitation', 'reset']);

export const personViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  grants: z.array(grantAnswer),
  status: z.enum(PERSON_STATUSES),
  hasPassword: z.boolean(),
  /** Their open link (invitation or reset) and when it ends; null when none. */
  link: z.nullable(z.object({ purpose: linkPurpose, expiresAt: z.number() })),
  /** When they last used site-admin (any session still open), or null. */
  lastSeenAt: z.nullable(z.number()),
  /** Sessions still open. */
  sessions: z.number(),
});
export type PersonView = z.infer<typeof personViewSchema>;

/** `GET` people. */
export const peopleViewSchema = z.object({
  people: z.array(personViewSchema),
  /** The sites of the profile a grant may name, besides every site ('*'). */
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
  secondFactor: z.object({ everyone: z.boolean(), roles: z.array(z.enum(ROLES)) }),
});
export type PeopleView = z.infer<typeof peopleViewSchema>;

/** A link made for a person (invitation or reset): shown once, to be copied and sent to them. */
export const linkViewSchema = z.object({ url: z.string(), expiresAt: z.number() });
export type LinkView = z.infer<typeof linkViewSchema>;

/** `POST` invite: the person added, and their invitation. */
export const invitedViewSchema = z.object({ person: personViewSchema, link: linkViewSchema });
export type InvitedView = z.infer<typeof invitedViewSchema>;

/** What a one-time link is for, told to the person who opened it (not signed in). */
export const linkDetailsSchema = z.object({
  purpose: linkPurpose,
  email: z.string(),
  displayName: z.string(),
  /** Their password may be 8 characters rather than 15: a passkey is asked for after it. */
  secondFactorRequired: z.boolean(),
  expiresAt: z.number(),
});
export type LinkDetails = z.infer<typeof linkDetailsSchema>;

/** What ending sessions answers: how many ended. */
export const endedSchema = z.object({ ended: z.number() });

/** A grant in words: "Owner of every site", "Editor on Harbour Linen" (a site's id when it has no name here). */
export function describeGrant(grant: Grant, siteNames: ReadonlyMap<string, string>): string {
  const role = ROLE_LABELS[grant.role];
  if (grant.siteId === ALL_SITES) return `${role} of every site`;
  return `${role} on ${siteNames.get(grant.siteId) ?? grant.siteId}`;
}

/**
 * PUT ROLE_OVERRIDES_PATH: `role` may (`allowed: true`) or may not (`false`) do `capability` on `siteId`
 * (a site of the profile, or ALL_SITES), or does what it would without this override (`null`).
 */
export const roleCapabilityChangeSchema = z.strictObject({
  siteId: z.string().check(z.minLength(1), z.maxLength(200)),
  role: z.enum(ADJUSTABLE_ROLES, `must be one of ${ADJUSTABLE_ROLES.join(', ')}: an owner may do everything on their sites`),
  capability: z.enum(ADJUSTABLE_CAPABILITIES, `must be ${ADJUSTABLE_CAPABILITIES.join(' or ')}: the others follow the role`),
  allowed: z.nullable(z.boolean()),
});
export type RoleCapabilityChange = z.infer<typeof roleCapabilityChangeSchema>;

export const roleCapabilityOverrideSchema = z.object({
  siteId: z.string(),
  role: z.enum(ROLES),
  capability: z.enum(CAPABILITIES),
  allowed: z.boolean(),
  /** When and by whom it was set. */
  changedAt: z.number(),
  changedBy: z.nullable(z.string()),
});
export type RoleCapabilityOverrideView = z.infer<typeof roleCapabilityOverrideSchema>;

/** GET ROLE_OVERRIDES_PATH: the sites an override may name (besides every site), and the overrides set. */
export const roleCapabilitiesViewSchema = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
  overrides: z.array(roleCapabilityOverrideSchema),
});
export type RoleCapabilitiesView = z.infer<typeof roleCapabilitiesViewSchema>;
