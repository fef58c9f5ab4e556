/**
 * The activity record's endpoints: a page of entries by filter (newest first, keyset pages), one entry with
 * its detail, whether the chain verifies, and an export of everything a filter shows as CSV or JSON lines,
 * streamed a batch at a time with the socket's back-pressure, so a million entries go out with flat memory.
 *
 * Owners of every site (and the local demo) see everyone's activity; everyone else sees their own.
 */
import type { ServerResponse } from 'node:http';
import { drainOrClose, FORMULA_START } from '../file-answers';
import Papa from 'papaparse';
import { seesEveryone } from '../../src/contract/access';
import { ACTIVITY_PATHS, type ActivityEntry, type ActivityFilter, type UpdateFollowUps } from '../../src/contract/activity';
import { sendError } from '../answers';
import type { Identity } from '../identity';
import { sendJson, type Endpoint } from '../own-api';
import type { ActivityRow, ActivityStore } from './activity-store';

/** Entries in one page of the list, at most. */
export const MAX_ACTIVITY_PAGE = 500;

export function entryOf(row: ActivityRow, withDetail = false): ActivityEntry {
  const actor: ActivityEntry['actor'] =
    row.actor_kind === 'person' && row.person_id
      ? { kind: 'person', id: row.person_id, name: row.person_name ?? '' }
      : row.actor_kind === 'demo'
        ? { kind: 'demo' }
        : { kind: 'anonymous' };
  const entry: ActivityEntry = {
    seq: Number(row.seq),
    at: Number(row.at),
    actor,
    siteId: row.site_id,
    action: row.action,
    target: { name: row.target_name, slug: row.target_slug, form: row.form_id, case: row.case_id },
    refersTo: row.refers_to === null ? null : Number(row.refers_to),
    requestId: row.request_id,
    address: row.address,
    userAgent: row.user_agent,
    outcome: row.outcome,
    status: row.status,
    durationMs: row.duration_ms,
    hash: row.hash,
  };
  if (withDetail) entry.detail = row.detail === null ? null : (JSON.parse(row.detail) as unknown);
  return entry;
}

const text = (value: string | null) => value?.trim().slice(0, 200) || undefined;

/** The filter of a request's query; null (with the reason) when a value cannot be read. */
export function filterOf(query: URLSearchParams): { filter: ActivityFilter } | { problem: { field: string; message: string } } {
  const filter: ActivityFilter = {};
  for (const key of ['person', 'site', 'action', 'outcome', 'q'] as const) {
    const value = text(query.get(key));
    if (value !== undefined) filter[key] = value;
  }
  for (const key of ['from', 'to'] as const) {
    const raw = query.get(key);
    if (raw === null || raw === '') continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) return { problem: { field: key, message: 'must be a time in milliseconds since 1970' } };
    filter[key] = value;
  }
  return { filter };
}

/** Who may see what: everyone's activity for owners and the demo, else only the person's own. */
function scoped(who: Identity, filter: ActivityFilter): ActivityFilter {
  if (seesEveryone(who)) return filter;
  return { ...filter, person: who.kind === 'person' ? who.id : '\u0000nobody' };
}

/** An entry in short, for the follow-ups of an update. */
function followUp(row: ActivityRow): NonNullable<UpdateFollowUps['outcome']> {
  const { seq, at, actor, outcome } = entryOf(row);
  return { seq, at, actor, outcome };
}

const mayRead = (who: Identity, row: ActivityRow) => seesEveryone(who) || (who.kind === 'person' && row.person_id === who.id);

const CSV_COLUMNS = [
  'seq',
  'time_utc',
  'person',
  'person_id',
  'site',
  'action',
  'product',
  'slug',
  'form',
  'case',
  'outcome',
  'status',
  'duration_ms',
  'request_id',
  'address',
  'user_agent',
  'hash',
] as const;

function csvRow(entry: ActivityEntry): (string | number | null)[] {
  const person = entry.actor.kind === 'person' ? entry.actor.name : entry.actor.kind;
  return [
    entry.seq,
    new Date(entry.at).toISOString(),
    person,
    entry.actor.kind === 'person' ? entry.actor.id : null,
    entry.siteId,
    entry.action,
    entry.target.name,
    entry.target.slug,
    entry.target.form,
    entry.target.case,
    entry.outcome,
    entry.status,
    entry.durationMs,
    entry.requestId,
    entry.address,
    entry.userAgent,
    entry.hash,
  ];
}

/** Writes `chunk`, waiting for the socket to take it when its buffer is full; false when the client went away. */
async function write(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    await drainOrClose(res);
  }
  return !res.destroyed;
}

export function activityEndpoints(activity: ActivityStore): Endpoint[] {
  return [
    {
      method: 'GET',
      path: ACTIVITY_PATHS.list,
      handle: async ({ request, who }) => {
        const query = new URL(request.url, 'http://x').searchParams;
        const read = filterOf(query);
        if ('problem' in read) {
          sendError(request.res, 400, 'The filter cannot be read.', [read.problem]);
          return;
        }
        const limit = Math.min(Math.max(Number(query.get('limit')) || 100, 1), MAX_ACTIVITY_PAGE);
        const beforeRaw = query.get('before');
        const before = beforeRaw ? Number(beforeRaw) : undefined;
        if (before !== undefined && !Number.isSafeInteger(before)) {
          sendError(request.res, 400, 'The page cannot be read.', [{ field: 'before', message: 'must be an entry number' }]);
          return;
        }
        const rows = await activity.list(scoped(who, read.filter), { before, limit });
        const entries = rows.map((row) => entryOf(row));
        sendJson(request.res, 200, { entries, next: rows.length === limit ? (entries.at(-1)?.seq ?? null) : null });
      },
    },
    {
      method: 'GET',
      path: ACTIVITY_PATHS.verify,
      handle: async ({ request }) => sendJson(request.res, 200, await activity.check()),
    },
    {
      method: 'GET',
      path: ACTIVITY_PATHS.export,
      handle: async ({ request, who }) => {
        const { res } = request;
        const query = new URL(request.url, 'http://x').searchParams;
        const format = query.get('format') ?? 'csv';
        const read = filterOf(query);
        if (format !== 'csv' && format !== 'jsonl') {
          sendError(res, 400, 'Export as csv or jsonl.', [{ field: 'format', message: 'must be csv or jsonl' }]);
          return;
        }
        if ('problem' in read) {
          sendError(res, 400, 'The filter cannot be read.', [read.problem]);
          return;
        }
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        res.writeHead(200, {
          'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
          'content-disposition': `attachment; filename="site-admin-activity-${stamp}.${format}"`,
          'cache-control': 'no-store',
        });
        if (request.method === 'HEAD') {
          res.end();
          return;
        }
        if (format === 'csv' && !(await write(res, `${Papa.unparse([CSV_COLUMNS as unknown as string[]])}\r\n`))) return;
        for await (const batch of activity.stream(scoped(who, read.filter))) {
          const entries = batch.map((row) => entryOf(row));
          const chunk =
            format === 'csv'
              ? // A cell that starts as a formula would (FORMULA_START) cannot run as one in a spreadsheet.
                `${Papa.unparse(entries.map(csvRow), { escapeFormulae: FORMULA_START })}\r\n`
              : entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
          if (!(await write(res, chunk))) return;
        }
        res.end();
      },
    },
    {
      method: 'GET',
      path: ACTIVITY_PATHS.updateFollowUps,
      handle: async ({ request, who, params }) => {
        const seq = Number(params.seq);
        const row = Number.isSafeInteger(seq) ? await activity.get(seq) : undefined;
        if (!row || !mayRead(who, row) || row.action !== 'product.update') {
          sendError(request.res, 404, `There is no product update ${params.seq ?? ''} in the activity record that you may read.`);
          return;
        }
        const found = await activity.updateFollowUps(seq);
        // The same rule as for the entries themselves: a revert made by someone else is listed only for those who see everyone's.
        const readable = (one: ActivityRow | undefined) => (one && mayRead(who, one) ? followUp(one) : null);
        const answer: UpdateFollowUps = {
          outcome: readable(found.outcome),
          reverts: found.reverts
            .filter((revert) => mayRead(who, revert.update))
            .map((revert) => ({ update: followUp(revert.update), outcome: readable(revert.outcome) })),
        };
        sendJson(request.res, 200, answer);
      },
    },
    {
      method: 'GET',
      path: ACTIVITY_PATHS.entry,
      handle: async ({ request, who, params }) => {
        const seq = Number(params.seq);
        const row = Number.isSafeInteger(seq) ? await activity.get(seq) : undefined;
        if (!row || !mayRead(who, row)) {
          sendError(request.res, 404, `There is no entry ${params.seq ?? ''} of the activity record that you may read.`);
          return;
        }
        sendJson(request.res, 200, entryOf(row, true));
      },
    },
  ];
}
