/**
 * The activity record as the browser reads it (`/api/activity...`): entries, the filters of the Activity
 * page, and whether the chain verifies. Written without zod, like the rest of what the first pages read.
 */

export const ACTIVITY_PATHS = {
  /** GET with ActivityFilter's fields as query parameters, and `before` (a seq) and `limit`: a page, newest first. */
  list: '/api/activity',
  /** GET one entry with its detail (a create's body sent and the platform's answer). */
  entry: '/api/activity/:seq',
  /** GET: whether the whole chain verifies (ChainState). */
  verify: '/api/activity/verify',
  /** GET with the filter and `format=csv` or `format=jsonl`: everything the filter shows, streamed. */
  export: '/api/activity/export',
  /** POST a ProfileCheckReport: that the person checked a site profile in the Settings page, and its outcome. */
  profileCheck: '/api/activity/profile-checks',
} as const;

/** The actions the record holds. */
export const ACTIVITY_ACTIONS = {
  'product.create': 'Product create sent',
  'product.create.outcome': 'Product create answered',
  'case.lookup': 'Case looked up',
  'sign-in': 'Signed in',
  'sign-in.failed': 'Sign-in failed',
  'sign-out': 'Signed out',
  'session.expired': 'Session ended by time-out',
  'person.changed': 'Person changed',
  'profile.check': 'Site profile checked',
  'profile.loaded': 'Site profile loaded at start',
  'import.started': 'Import started',
  'import.paused': 'Import paused',
  'import.resumed': 'Import resumed',
  'import.finished': 'Import finished',
  'activity.pruned': 'Old entries pruned',
} as const;
export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

/** What the Activity page filters by; every field optional. Times are epoch milliseconds. */
export interface ActivityFilter {
  person?: string;
  site?: string;
  action?: string;
  outcome?: string;
  from?: number;
  to?: number;
  /** A product's slug or a case id (exact), or words of a product's name. */
  q?: string;
}

/**
 * What the Settings page tells the record of a profile check: the outcome, how many problems, and the site
 * ids the profile names. Never the profile's content (its addresses, its key variables).
 */
export interface ProfileCheckReport {
  outcome: 'ok' | 'problems';
  problems: number;
  sites: string[];
}

/** At most this many site ids in a report, each at most MAX_REPORTED_SITE_ID characters. */
export const MAX_REPORTED_SITES = 100;
export const MAX_REPORTED_SITE_ID = 100;

export interface ActivityEntry {
  seq: number;
  /** Epoch milliseconds, UTC. */
  at: number;
  actor: { kind: 'person'; id: string; name: string } | { kind: 'demo' } | { kind: 'anonymous' };
  siteId: string | null;
  action: string;
  target: { name: string | null; slug: string | null; form: string | null; case: string | null };
  refersTo: number | null;
  requestId: string | null;
  address: string | null;
  userAgent: string | null;
  outcome: string;
  status: number | null;
  durationMs: number | null;
  hash: string;
  /** Only when one entry is asked for: what the action kept (a create's `body`, the platform's `answer`). */
  detail?: unknown;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  /** The `before` of the next (older) page; null at the end. */
  next: number | null;
}

export type ChainState =
  | { ok: true; entries: number; first: number | null; last: number | null }
  | { ok: false; entries: number; brokenAt: number; reason: string };

/** The team's created products on a site, from the activity record (`/api/created-products`). */
export const CREATED_PRODUCTS_PATHS = {
  /** GET `?site=<id>` (and `before`, `limit`): a page of products created on the site, newest first. */
  list: '/api/created-products',
  /** GET `?site=<id>`: every slug created on the site (TeamSlugs: the import's and the editor's duplicate checks). */
  slugs: '/api/created-products/slugs',
  /** GET one, with the body sent and the platform's answer. */
  one: '/api/created-products/:seq',
} as const;

export interface CreatedByTeam {
  /** The outcome entry's number in the record. */
  seq: number;
  /** The create entry's number (what was sent). */
  createSeq: number | null;
  at: number;
  by: string;
  name: string | null;
  slug: string | null;
  /** The id the platform gave it, when its answer had one. */
  platformId: string | null;
  /** Only for one: the body sent and the platform's answer, as text. */
  body?: string | null;
  answer?: string | null;
}

export interface CreatedByTeamPage {
  products: CreatedByTeam[];
  next: number | null;
}

/** A slug created on a site, with who created it last and when. */
export interface TeamSlug {
  slug: string;
  by: string;
  at: number;
}

export interface TeamSlugs {
  /** Every slug created on the site. */
  slugs: string[];
  /** The same slugs, each with the last creation's who and when. */
  created: TeamSlug[];
}
