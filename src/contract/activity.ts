/**
 * The activity record as the browser reads it (`/api/activity...`): entries, the filters of the Activity
 * page, whether the chain verifies, and the team's created products. Each shape is a zod schema with its
 * type inferred from it: the server parses the bodies it reads with them, the browser the answers. Only the
 * pages that read the record load this module (zod is not on the first page: decision 0003).
 */
import * as z from 'zod/mini';

export const ACTIVITY_PATHS = {
  /** GET with ActivityFilter's fields as query parameters, and `before` (a seq) and `limit`: a page, newest first. */
  list: '/api/activity',
  /** GET one entry with its detail (a create's body sent and the platform's answer). */
  entry: '/api/activity/:seq',
  /** GET what became of a product update (its entry's seq): its outcome, and the updates that revert it (UpdateFollowUps). */
  updateFollowUps: '/api/activity/:seq/update',
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
  'product.update': 'Product update sent',
  'product.update.outcome': 'Product update answered',
  'case.lookup': 'Case looked up',
  'case.list': 'Cases listed',
  'case.status': 'Case status changed',
  'case.assigned': 'Case assigned',
  'case.note.added': 'Note added to a case',
  'case.note.edited': 'Note on a case edited',
  'case.notes.pruned': 'Old notes pruned',
  'cases.export': 'Cases exported',
  'role.capability': 'Role capability changed',
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
  'approval.rule': 'Approval rule changed',
  'change.asked': 'Approval asked',
  'change.edited': 'Change edited',
  'change.approved': 'Change approved',
  'change.rejected': 'Change rejected',
  'change.withdrawn': 'Change withdrawn',
  'change.expired': 'Change expired',
  'change.overridden': 'Sent without approval (owner)',
  'change.sent': 'Approved change sent',
  'change.returned': 'Change returned to its author',
  'activity.pruned': 'Old entries pruned',
} as const;
export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

/** What the Activity page filters by; every field optional. Times are epoch milliseconds. */
export const activityFilterSchema = z.object({
  person: z.optional(z.string()),
  site: z.optional(z.string()),
  action: z.optional(z.string()),
  outcome: z.optional(z.string()),
  from: z.optional(z.number()),
  to: z.optional(z.number()),
  /** A product's slug or a case id (exact), or words of a product's name. */
  q: z.optional(z.string()),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

/** At most this many site ids in a report, each at most MAX_REPORTED_SITE_ID characters. */
export const MAX_REPORTED_SITES = 100;
export const MAX_REPORTED_SITE_ID = 100;

/**
 * What the Settings page tells the record of a profile check: the outcome, how many problems, and the site
 * ids the profile names. Never the profile's content (its addresses, its key variables): a body that
 * carries more is refused, not trimmed.
 */
export const profileCheckReportSchema = z
  .strictObject({
    outcome: z.enum(['ok', 'problems']),
    problems: z.int().check(z.minimum(0, 'must be a count')),
    sites: z
      .array(z.string().check(z.minLength(1), z.maxLength(MAX_REPORTED_SITE_ID)))
      .check(z.maxLength(MAX_REPORTED_SITES, `must be at most ${MAX_REPORTED_SITES} site ids`)),
  })
  .check(
    z.refine((report) => (report.outcome === 'ok') === (report.problems === 0), {
      message: 'must be 0 exactly when the outcome is ok',
      path: ['problems'],
    }),
  );
export type ProfileCheckReport = z.infer<typeof profileCheckReportSchema>;

const actorSchema = z.union([
  z.object({ kind: z.literal('person'), id: z.string(), name: z.string() }),
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('anonymous') }),
]);

export const activityEntrySchema = z.object({
  seq: z.number(),
  /** Epoch milliseconds, UTC. */
  at: z.number(),
  actor: actorSchema,
  siteId: z.nullable(z.string()),
  action: z.string(),
  target: z.object({
    name: z.nullable(z.string()),
    slug: z.nullable(z.string()),
    form: z.nullable(z.string()),
    case: z.nullable(z.string()),
  }),
  refersTo: z.nullable(z.number()),
  requestId: z.nullable(z.string()),
  address: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  outcome: z.string(),
  status: z.nullable(z.number()),
  durationMs: z.nullable(z.number()),
  hash: z.string(),
  /** Only when one entry is asked for: what the action kept (a create's `body`, the platform's `answer`). */
  detail: z.optional(z.unknown()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({
  entries: z.array(activityEntrySchema),
  /** The `before` of the next (older) page; null at the end. */
  next: z.nullable(z.number()),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** An entry that follows an update, in short: its number, when, who, and its outcome. */
const followUpSchema = z.object({ seq: z.number(), at: z.number(), actor: actorSchema, outcome: z.string() });

/**
 * What became of a product update (`product.update`): its outcome entry (null while none was written), and
 * each update sent to revert it that the person may read, oldest first, with its own outcome entry.
 */
export const updateFollowUpsSchema = z.object({
  outcome: z.nullable(followUpSchema),
  reverts: z.array(z.object({ update: followUpSchema, outcome: z.nullable(followUpSchema) })),
});
export type UpdateFollowUps = z.infer<typeof updateFollowUpsSchema>;

export const chainStateSchema = z.union([
  z.object({ ok: z.literal(true), entries: z.number(), first: z.nullable(z.number()), last: z.nullable(z.number()) }),
  z.object({ ok: z.literal(false), entries: z.number(), brokenAt: z.number(), reason: z.string() }),
]);
export type ChainState = z.infer<typeof chainStateSchema>;

/** The team's created products on a site, from the activity record (`/api/created-products`). */
export const CREATED_PRODUCTS_PATHS = {
  /** GET `?site=<id>` (and `before`, `limit`): a page of products created on the site, newest first. */
  list: '/api/created-products',
  /** GET `?site=<id>`: every slug created on the site (TeamSlugs: the import's and the editor's duplicate checks). */
  slugs: '/api/created-products/slugs',
  /** GET one, with the body sent and the platform's answer. */
  one: '/api/created-products/:seq',
} as const;

export const createdByTeamSchema = z.object({
  /** The outcome entry's number in the record. */
  seq: z.number(),
  /** The create entry's number (what was sent). */
  createSeq: z.nullable(z.number()),
  at: z.number(),
  by: z.string(),
  name: z.nullable(z.string()),
  slug: z.nullable(z.string()),
  /** The id the platform gave it, when its answer had one. */
  platformId: z.nullable(z.string()),
  /** Only for one: the body sent and the platform's answer, as text. */
  body: z.optional(z.nullable(z.string())),
  answer: z.optional(z.nullable(z.string())),
});
export type CreatedByTeam = z.infer<typeof createdByTeamSchema>;

export const createdByTeamPageSchema = z.object({
  products: z.array(createdByTeamSchema),
  next: z.nullable(z.number()),
});
export type CreatedByTeamPage = z.infer<typeof createdByTeamPageSchema>;

/** A slug created on a site, with who created it last and when. */
export const teamSlugSchema = z.object({ slug: z.string(), by: z.string(), at: z.number() });
export type TeamSlug = z.infer<typeof teamSlugSchema>;

export const teamSlugsSchema = z.object({
  /** Every slug created on the site. */
  slugs: z.array(z.string()),
  /** The same slugs, each with the last creation's who and when. */
  created: z.array(teamSlugSchema),
});
export type TeamSlugs = z.infer<typeof teamSlugsSchema>;
