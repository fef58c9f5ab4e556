/**
 * Four eyes on a site's writes (`/api/approval-rules`, `/api/changes...`): a site's rule says which writes
 * need approval, how many and from whom; a write it covers is first kept as a pending change holding the
 * exact body that would be sent, and reaches the platform only once approved by people other than its author
 * (or sent by an owner in an emergency, with a reason). The server is the authority: it refuses a covered
 * write that does not carry an approved change whose hash is the body's (APPROVED_CHANGE_HEADER).
 *
 * The shapes are zod schemas, read by the server's endpoints and by the pages that work with changes (zod is
 * not on the first page: decision 0003; the navigation's count reads its few numbers without it).
 */
import * as z from 'zod/mini';
import { APPROVAL_RULES_PATH, CHANGE_COUNTS_PATH } from './approval-counts';
import { IMPORT_KEY_MAX } from './imports';

export type { ChangeCounts } from './approval-counts';

/** The writes a rule may cover: a product's create, its update, and an import's set of creates and updates. */
export const APPROVAL_KINDS = ['create', 'update', 'import'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** The roles that may be allowed to approve; support never writes, so never approves. */
export const APPROVER_ROLES = ['owner', 'editor'] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];

export const APPROVAL_KIND_LABELS: Record<ApprovalKind, string> = {
  create: 'New products',
  update: 'Corrections of products',
  import: 'Imports',
};

const unique = <T>(list: readonly T[]) => new Set(list).size === list.length;

/**
 * A site's rule. `writes` empty: off (the default), nothing needs approval. `approvals`: how many people
 * other than the author must approve (1 or 2). `approvers`: which of the site's roles may approve.
 */
export const approvalRuleSchema = z.strictObject({
  writes: z.array(z.enum(APPROVAL_KINDS)).check(z.refine(unique, 'must not name a write twice')),
  approvals: z.union([z.literal(1), z.literal(2)]),
  approvers: z
    .array(z.enum(APPROVER_ROLES))
    .check(z.minLength(1, 'must name at least one role'), z.refine(unique, 'must not name a role twice')),
});
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** A site with no rule of its own: nothing needs approval. */
export const RULE_OFF: ApprovalRule = { writes: [], approvals: 1, approvers: ['owner'] };

/** Whether the rule holds back `kind` until it is approved. */
export function ruleCovers(rule: ApprovalRule, kind: ApprovalKind): boolean {
  return rule.writes.includes(kind);
}

/** A site's rule as the server keeps it: who set it last, and when (epoch ms); `changedBy` null for the default. */
export const siteRuleSchema = z.object({
  site: z.string(),
  rule: approvalRuleSchema,
  changedAt: z.nullable(z.number()),
  changedBy: z.nullable(z.object({ id: z.string(), name: z.string() })),
  /** Whether the person asking may change it (an owner of the site). */
  mayChange: z.boolean(),
});
export type SiteRule = z.infer<typeof siteRuleSchema>;

/**
 * Sent with a write a rule covers: the id of the approved change it carries. The server forwards the write
 * only when that change is approved (or sent by an owner's override) and its hash is the SHA-256 of the body
 * received; otherwise 403 in the spec's error shape, and nothing is forwarded. Never forwarded itself.
 */
export const APPROVED_CHANGE_HEADER = 'x-approved-change';

/** How long a change waits for its approvals by default before it expires; the server's APPROVAL_EXPIRY_DAYS. */
export const DEFAULT_APPROVAL_EXPIRY_DAYS = 7;

/** The longest reason for a rejection or an owner's override, in characters. */
export const REASON_MAX = 500;

export const APPROVAL_PATHS = {
  /** GET: the rule of every site the person may use (SiteRule[]). */
  rules: APPROVAL_RULES_PATH,
  /** PUT an ApprovalRule: an owner of the site sets it (recorded as `approval.rule`). */
  rule: '/api/approval-rules/:site',
  /** GET `?site=&view=`: the changes (ChangeSummary[], newest first); POST a NewChange: ask for approval (201, the Change). */
  list: '/api/changes',
  /** GET: the navigation's numbers (ChangeCounts). */
  counts: CHANGE_COUNTS_PATH,
  /** GET: the change whole (Change); PUT an EditedChange: its author makes a new version (approvals given void). */
  one: '/api/changes/:id',
  /** POST {version}: approve that version. */
  approve: '/api/changes/:id/approve',
  /** POST {version, reason}: reject it, with a reason (it goes back to its author, who may edit and ask again). */
  reject: '/api/changes/:id/reject',
  /** POST {}: the author withdraws it. */
  withdraw: '/api/changes/:id/withdraw',
  /** POST {version, reason}: an owner of the site lets it be sent without the approvals (an emergency). */
  override: '/api/changes/:id/override',
} as const;

/** The address of one change's `path` (one of APPROVAL_PATHS). */
export function changePath(path: string, id: string): string {
  return path.replace(':id', encodeURIComponent(id));
}
/** The address of a site's rule. */
export const rulePath = (site: string) => APPROVAL_PATHS.rule.replace(':site', encodeURIComponent(site));

/** Which changes a list shows: those the person may approve now, their own, every open one, or the closed. */
export const CHANGE_VIEWS = ['to-approve', 'mine', 'open', 'closed'] as const;
export type ChangeView = (typeof CHANGE_VIEWS)[number];

/**
 * Control characters but tab, line feed and carriage return: never part of a reason a person wrote (and NUL
 * is refused by PostgreSQL, so it must be refused before it reaches the database).
 */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Every control character, tab and line breaks too: never part of an id or key that travels in a header. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const ANY_CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const noControl = z.refine<string>((text) => !ANY_CONTROL_CHARACTER.test(text), 'must not contain control characters');

/**
 * One write of an import's set: the import's product key, its method, and its exact body. The key is at most
 * IMPORT_KEY_MAX characters, as the import's write must name it, so that an approved item can always be sent.
 */
export const importItemSchema = z.strictObject({
  key: z.string().check(z.minLength(1), z.maxLength(IMPORT_KEY_MAX, `must be at most ${IMPORT_KEY_MAX} characters`), noControl),
  method: z.enum(['POST', 'PUT']),
  /** For an update: the platform id of the product, and the fingerprint of it as the dry run read it (If-Match). */
  product: z.optional(z.string()),
  base: z.optional(z.string()),
  body: z.string(),
});
export type ImportItem = z.infer<typeof importItemSchema>;

/**
 * Asking for approval. `body`: the exact text the write would send (a create's or an update's JSON). An
 * update also holds the product's platform id, the fingerprint of the product as read (its If-Match) and the
 * product as read (the platform's JSON text, whose fingerprint must be `base`), from which the diff is shown;
 * a revert names the update it reverts. An import holds its whole set, each body exact.
 */
export const newChangeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ site: z.string(), kind: z.literal('create'), body: z.string() }),
  z.strictObject({
    site: z.string(),
    kind: z.literal('update'),
    product: z.string(),
    base: z.string(),
    before: z.string(),
    body: z.string(),
    revertOf: z.optional(z.int()),
  }),
  z.strictObject({
    site: z.string(),
    kind: z.literal('import'),
    importId: z.string().check(z.maxLength(200), noControl),
    items: z.array(importItemSchema).check(z.minLength(1, 'must hold at least one product')),
  }),
]);
export type NewChange = z.infer<typeof newChangeSchema>;

/** The author's new version: the same kind of content as asked (for an update, `before`/`base` may move on). */
export const editedChangeSchema = z.strictObject({
  /** The version the author edited; 409 when it is not the latest. */
  version: z.int(),
  body: z.optional(z.string()),
  base: z.optional(z.string()),
  before: z.optional(z.string()),
  items: z.optional(z.array(importItemSchema)),
});
export type EditedChange = z.infer<typeof editedChangeSchema>;

/**
 * Where a change stands. `pending`: waiting for approvals; `approved`: enough approvals from people other than
 * its author (or an owner's override), ready to send; `sending`: claimed by the write that carries it;
 * `sent`: the platform was sent it (its answer in `sent`); `rejected`, `withdrawn`, `expired`: closed without
 * sending; `returned`: an update whose product changed on the platform since it was asked for, sent back to
 * its author (nothing was sent).
 */
export const CHANGE_STATES = ['pending', 'approved', 'sending', 'sent', 'rejected', 'withdrawn', 'expired', 'returned'] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];
/** The states in which a change can still reach the platform. */
export const OPEN_CHANGE_STATES: readonly ChangeState[] = ['pending', 'approved', 'sending', 'returned'];

const personSchema = z.object({ id: z.string(), name: z.string() });

export const changeSummarySchema = z.object({
  id: z.string(),
  site: z.string(),
  kind: z.enum(APPROVAL_KINDS),
  version: z.int(),
  state: z.enum(CHANGE_STATES),
  /** What it is about, for a list: the product's name (and slug), or the import's "12 products". */
  title: z.string(),
  product: z.nullable(z.string()),
  author: personSchema,
  askedAt: z.number(),
  expiresAt: z.number(),
  /** Approvals of the current version that count, and how many the rule needs. */
  approvals: z.int(),
  needed: z.int(),
  /** Whether the person asking may approve it now (not its author, an approver role, not approved already). */
  mayApprove: z.boolean(),
});
export type ChangeSummary = z.infer<typeof changeSummarySchema>;

/** A step of a change's life, as its page shows it (each also in the activity record, at `seq`). */
export const changeEventSchema = z.object({
  action: z.enum(['asked', 'edited', 'approved', 'rejected', 'withdrawn', 'expired', 'overridden', 'sent', 'returned']),
  version: z.int(),
  by: z.nullable(personSchema),
  at: z.number(),
  reason: z.optional(z.string()),
  /** The activity record's entry of this step; for `sent`, `write` is the write's own entry. */
  seq: z.optional(z.number()),
  write: z.optional(z.number()),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;

export const changeSchema = z.extend(changeSummarySchema, {
  /** SHA-256 of the body (or of the import's set), `sha256-<hex>`. */
  hash: z.string(),
  body: z.nullable(z.string()),
  base: z.nullable(z.string()),
  before: z.nullable(z.string()),
  revertOf: z.nullable(z.number()),
  importId: z.nullable(z.string()),
  items: z.nullable(z.array(z.extend(importItemSchema, { hash: z.string() }))),
  /** The people whose approvals of the current version count. */
  approvedBy: z.array(z.object({ id: z.string(), name: z.string(), at: z.number() })),
  approvers: z.array(z.enum(APPROVER_ROLES)),
  /** An owner's override of the current version: who, when, why. */
  override: z.nullable(z.object({ by: personSchema, at: z.number(), reason: z.string() })),
  events: z.array(changeEventSchema),
  mayEdit: z.boolean(),
  mayWithdraw: z.boolean(),
  mayOverride: z.boolean(),
  /** Whether the person may send it now (it is approved, and they may write on the site). */
  maySend: z.boolean(),
});
export type Change = z.infer<typeof changeSchema>;

/** `"sha256-<hex>"` of a text's UTF-8 bytes: a body's hash, as the server computes it of the bytes it receives. */
export async function bodyHash(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `sha256-${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The hash of an import's set: SHA-256 of the list of its writes in order, each as key, method, product id,
 * base and the body's hash. Any change to any row's body (or a row added, removed or moved) changes it.
 */
export async function importSetHash(items: readonly ImportItem[]): Promise<string> {
  const lines = await Promise.all(
    items.map(async (item) => JSON.stringify([item.key, item.method, item.product ?? null, item.base ?? null, await bodyHash(item.body)])),
  );
  return bodyHash(`[${lines.join(',')}]`);
}
