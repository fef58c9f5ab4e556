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
 */
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

/** What the record keeps of each kind of write: its two actions, and what it names from the body sent. */
const WRITES: Record<
  WriteKind,
  { action: string; outcomeAction: string; target(body: string): { name: string | null; slug: string | null } }
> = {
  'create-product': { action: 'product.create', outcomeAction: 'product.create.outcome', target: productOf },
};

export function recordSiteCalls(activity: ActivityStore, now: () => number): Step {
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
    } else if (operation.name !== 'list-form-cases') {
      // A list of cases is not a write; what the record keeps of a list read is its own entry, not yet written.
      const kind = operation.name;
      const write = WRITES[kind];
      let entry: { seq: number; target: { name: string | null; slug: string | null } } | undefined;
      hooks.push({
        beforeSend: async (body) => {
          const text = body.toString('utf8');
          const target = write.target(text);
          const [row] = await activity.append({
            ...base,
            at: now(),
            action: write.action,
            target,
            outcome: 'sent',
            detail: { body: text },
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
            detail: outcome.kind === 'answered' ? { answer: outcome.body } : { reason: outcome.reason },
          });
        },
      });
    }
    next();
  };
}
