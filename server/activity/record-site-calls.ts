/**
 * The activity record's step in the pipeline, after permissions: every case lookup and every product
 * create that goes on to a platform is recorded, with who, which site, what and when.
 *
 * - A create is written *before* it leaves for the platform, with the exact body sent (the proxy gathers
 *   the body, and contacts the platform only once the entry is committed; if it cannot be written, nothing
 *   is sent). Its outcome is a second entry that refers to the first, written before the browser hears it,
 *   with the meaning the proxy gave its answer by the one table (src/contract/write-outcome.ts): created
 *   (the platform's answer kept), rejected, not processed (429, or 503 with Retry-After), or unknown (no
 *   answer, a server error, the browser gone). The entry's number goes to the hooks after this one (the
 *   import's).
 * - A lookup is one entry, written once the platform's answer is in and before the browser gets it: form,
 *   case, status. Never the case's content: the personal data stays on the platform. When the entry cannot
 *   be written, the browser gets 503 and not the case: nobody looks at a case unrecorded.
 * - A list of a form's cases likewise (`case.list`): form, the query (page, per_page, sort, filter), outcome,
 *   status, and the ids of the cases the answer holds, read through the site's list envelope; never
 *   anything else of a case. An answer that is not that envelope is recorded with no ids and why.
 */
import {
  checkCaseListQuery,
  DEFAULT_LIST_ENVELOPE,
  readListEnvelope,
  type CaseListQuery,
  type ListEnvelope,
} from '../../src/contract/case-list';
import { caseIdOf, parseListAnswer } from '../../src/contract/case-list-items';
import { recordedOutcome, type WriteKind } from '../../src/contract/write-outcome';
import type { ActivityStore, NewEntry } from './activity-store';
import { actorOf } from '../identity';
import type { ForwardOutcome, Step } from '../pipeline/context';

/** The last user agents read: a browser sends the same header on every call, and each is read once. */
const shortAgents = new Map<string, string>();
const SHORT_AGENTS_KEPT = 200;

/** "Chrome 131 on Linux": enough to tell a person's devices apart, not a fingerprint. */
export function shortUserAgent(header: string | undefined): string | null {
  if (!header) return null;
  const known = shortAgents.get(header);
  if (known !== undefined) return known;
  const short = readUserAgent(header);
  if (shortAgents.size >= SHORT_AGENTS_KEPT) shortAgents.clear();
  shortAgents.set(header, short);
  return short;
}

function readUserAgent(header: string): string {
  const browser =
    /\b(Edg|OPR|Firefox|Chrome|Version)\/(\d+)/.exec(header) ?? /\b(curl|node|undici|Go-http-client|python-requests)\/?(\d*)/i.exec(header);
  const name = browser ? ({ Edg: 'Edge', OPR: 'Opera', Version: 'Safari' }[browser[1] ?? ''] ?? browser[1]) : null;
  const os = /\b(Windows|Android|iPhone|iPad|Mac OS X|CrOS|Linux)\b/.exec(header)?.[1];
  const osName = os === 'Mac OS X' ? 'macOS' : os === 'CrOS' ? 'ChromeOS' : os;
  if (!name) return header.slice(0, 60);
  return `${name}${browser?.[2] ? ` ${browser[2]}` : ''}${osName ? ` on ${osName}` : ''}`;
}

/** A lookup's outcome in a word: found, not-found, refused (4xx), failed (5xx, no answer). */
function lookupOutcome(outcome: ForwardOutcome): string {
  if (outcome.kind === 'failed') return 'failed';
  if (outcome.status >= 200 && outcome.status < 300) return 'found';
  if (outcome.status === 404) return 'not-found';
  return outcome.status < 500 ? 'refused' : 'failed';
}

/** The form and query of a list's path under the platform's base: `/forms/21/cases?per_page=50&page=2`. */
function listOf(upstreamPath: string): { form: string | null; query: CaseListQuery } {
  const at = upstreamPath.indexOf('?');
  const path = at < 0 ? upstreamPath : upstreamPath.slice(0, at);
  const form = /^\/forms\/([^/]+)\/cases$/.exec(path)?.[1];
  // The allowlist built this query from what it checked: read again, it is the same query.
  const checked = checkCaseListQuery(at < 0 ? '' : upstreamPath.slice(at + 1));
  return { form: form === undefined ? null : decodeURIComponent(form), query: checked.ok ? checked.query : {} };
}

/**
 * A list's outcome in a word and the ids of its cases: listed (with the ids the envelope holds), empty (the
 * platform's 404, "no cases"), unreadable (not the envelope: no ids, and why), refused (another 4xx), failed.
 */
function listRead(outcome: ForwardOutcome, envelope: ListEnvelope): { outcome: string; cases: (string | null)[]; unreadable?: string } {
  if (outcome.kind === 'failed') return { outcome: 'failed', cases: [] };
  if (outcome.status === 404) return { outcome: 'empty', cases: [] };
  if (outcome.status < 200 || outcome.status > 299) return { outcome: outcome.status < 500 ? 'refused' : 'failed', cases: [] };
  const text = outcome.body;
  if (text === null) return { outcome: 'unreadable', cases: [], unreadable: 'the answer is not JSON' };
  let json: unknown;
  try {
    json = parseListAnswer(text);
  } catch {
    return { outcome: 'unreadable', cases: [], unreadable: 'the answer is not JSON' };
  }
  const read = readListEnvelope(envelope, json);
  if (!read.ok) {
    // The browser shows such an answer raw, so the record names every case it holds all the same: the ids of
    // whatever items a looser reading finds in it.
    return { outcome: 'unreadable', cases: idsAnywhere(json), unreadable: `not the "${envelope}" envelope: ${read.problem}` };
  }
  return { outcome: 'listed', cases: read.content.items.map((item) => caseIdOf(item)) };
}

/** At most this many ids read loosely from an answer that is not the envelope (a page holds at most 500). */
const LOOSE_IDS_MAX = 5_000;

/** The ids of every object with an id held in a list anywhere in `json` (a case, as any envelope would hold it). */
function idsAnywhere(json: unknown): string[] {
  const ids: string[] = [];
  const walk = (value: unknown, inList: boolean) => {
    if (ids.length >= LOOSE_IDS_MAX || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, true);
      return;
    }
    const id = inList ? caseIdOf(value) : null;
    if (id !== null) ids.push(id);
    for (const inner of Object.values(value)) walk(inner, false);
  };
  walk(json, false);
  return ids;
}

/** The product's name and slug from the body sent, when it is JSON that has them. */
function productOf(body: string): { name: string | null; slug: string | null } {
  try {
    const json = JSON.parse(body) as unknown;
    if (typeof json !== 'object' || json === null) return { name: null, slug: null };
    const { name, slug } = json as Record<string, unknown>;
    return { name: typeof name === 'string' ? name.slice(0, 500) : null, slug: typeof slug === 'string' ? slug.slice(0, 500) : null };
  } catch {
    return { name: null, slug: null };
  }
}

/** The form and case of a lookup's path under the platform's base: `/forms/3/cases/48217`. */
function caseOf(upstreamPath: string): { form: string | null; case: string | null } {
  const match = /^\/forms\/([^/]+)\/cases\/([^/]+)$/.exec(upstreamPath);
  const decode = (part: string | undefined) => (part === undefined ? null : decodeURIComponent(part));
  return { form: decode(match?.[1]), case: decode(match?.[2]) };
}

/** The product an update names: its name and slug, as sent, else as it was read. */
function updatedProductOf() {
  return (body: string, before?: string) => {
    const sent = productOf(body);
    const read = before === undefined ? { name: null, slug: null } : productOf(before);
    return { name: sent.name ?? read.name, slug: sent.slug ?? read.slug };
  };
}

/** An update's product id, from the address the allowlist built. */
export const updatedProductId = (upstreamPath: string) => /^\/ecommerce\/products\/(\d+)$/.exec(upstreamPath)?.[1] ?? null;

type Target = { name: string | null; slug: string | null };

/** What the record keeps of each kind of write: its two actions, and what it names from the body sent. */
const WRITES: Record<
  WriteKind,
  { action: string; outcomeAction: string; target(upstreamPath: string): (body: string, before?: string) => Target }
> = {
  'create-product': { action: 'product.create', outcomeAction: 'product.create.outcome', target: () => productOf },
  'update-product': { action: 'product.update', outcomeAction: 'product.update.outcome', target: updatedProductOf },
};

/**
 * `envelopes`: each site's list envelope (the profile's `lists.envelope`), by site id; a site not in it
 * is read through the default envelope.
 */
export function recordSiteCalls(
  activity: ActivityStore,
  now: () => number,
  envelopes: ReadonlyMap<string, ListEnvelope> = new Map(),
): Step {
  return (request, next) => {
    const { operation, site, who, requestId, req } = request;
    if (!operation || !site) {
      next();
      return;
    }
    const started = performance.now();
    const base = {
      actor: actorOf(who),
      siteId: site.id,
      requestId: requestId ?? null,
      address: req.socket.remoteAddress ?? null,
      userAgent: shortUserAgent(req.headers['user-agent']),
    } satisfies Partial<NewEntry>;
    const durationMs = () => performance.now() - started;

    const hooks = (request.forwardHooks ??= []);
    if (operation.name === 'get-form-case') {
      const target = caseOf(operation.upstreamPath);
      hooks.push({
        answerOnlyOnceRecorded: true,
        beforeAnswer: (outcome) =>
          activity
            .append({
              // Named one by one rather than spread from `base`: this runs for every lookup.
              actor: base.actor,
              siteId: base.siteId,
              requestId: base.requestId,
              address: base.address,
              userAgent: base.userAgent,
              at: now(),
              action: 'case.lookup',
              target,
              outcome: lookupOutcome(outcome),
              status: outcome.status || null,
              durationMs: durationMs(),
            })
            .then(() => undefined),
      });
    } else if (operation.name === 'list-form-cases') {
      const { form, query } = listOf(operation.upstreamPath);
      const envelope = envelopes.get(site.id) ?? DEFAULT_LIST_ENVELOPE;
      hooks.push({
        answerOnlyOnceRecorded: true,
        beforeAnswer: (outcome) => {
          const read = listRead(outcome, envelope);
          return activity
            .append({
              ...base,
              at: now(),
              action: 'case.list',
              target: { form },
              outcome: read.outcome,
              status: outcome.status || null,
              durationMs: durationMs(),
              detail: {
                query,
                cases: read.cases,
                ...(read.unreadable ? { unreadable: read.unreadable } : {}),
                ...(outcome.kind === 'failed' ? { reason: outcome.reason } : {}),
              },
            })
            .then(() => undefined);
        },
      });
    } else if (operation.name === 'create-product' || operation.name === 'update-product') {
      const kind = operation.name;
      const write = WRITES[kind];
      const targetOf = write.target(operation.upstreamPath);
      let entry: { seq: number; target: Target } | undefined;
      hooks.push({
        beforeSend: async (body, noted) => {
          const text = body.toString('utf8');
          const target = targetOf(text, noted.productBefore);
          const [row] = await activity.append({
            ...base,
            at: now(),
            action: write.action,
            target,
            outcome: 'sent',
            // An update keeps the product as it was just before (what a revert puts back), and the update it reverts.
            detail: {
              ...(kind === 'update-product' ? { product: updatedProductId(operation.upstreamPath) } : {}),
              body: text,
              ...(noted.productBefore !== undefined ? { before: noted.productBefore } : {}),
              ...(noted.revertOf !== undefined ? { reverts: noted.revertOf } : {}),
              // The approved change it sends, where the site's rule held it back (its `change.sent` entry links back here).
              ...(noted.approvedChange !== undefined ? { change: noted.approvedChange } : {}),
            },
          });
          if (!row) return;
          entry = { seq: row.seq, target };
          return { recordSeq: Number(row.seq) };
        },
        beforeAnswer: async (outcome) => {
          // Refused before it was sent (too large): nothing reached a platform, nothing to complete.
          if (!entry) return;
          await activity.append({
            ...base,
            at: now(),
            action: write.outcomeAction,
            refersTo: entry.seq,
            target: entry.target,
            outcome: outcome.write ? recordedOutcome(outcome.write, kind) : 'unknown',
            status: outcome.status || null,
            durationMs: durationMs(),
            detail: {
              ...(kind === 'update-product' ? { product: updatedProductId(operation.upstreamPath) } : {}),
              ...(outcome.kind === 'answered' ? { answer: outcome.body } : { reason: outcome.reason }),
            },
          });
        },
      });
    }
    next();
  };
}
