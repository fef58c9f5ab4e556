/**
 * The shared reading of each form's newest cases, behind the navigation's counts of new cases. The platform
 * has no webhooks, so new cases are found by reading page one of a form's list again; the server does that
 * once per site and form for the whole team, never once per person:
 *
 * - A form is read only while someone has asked for its counts lately (inbox_watches.asked_at within
 *   WATCHED_FOR_MS): nobody looking, nothing read.
 * - At most once per interval (INBOX_POLL_SECONDS) per site and form, whoever asks and however many
 *   instances share the database: the instance that reads takes the form's lease in inbox_polls with one
 *   conditional update (no live lease, and not read within the interval), as one page takes an import's
 *   run (imports/import-store.ts). An instance that dies mid-reading lets go when its lease lapses.
 * - What is kept: the newest page's [[case id, received at ms], ...], the list's total, how the reading went
 *   and when. The platform's 404 ("no cases") is an empty list; a failed reading keeps the last good list
 *   and says how it failed. Nothing else of a case is kept.
 *
 * The reading is the server's, not a person's, and shows nobody a case's content, so it is not an entry of
 * the activity record (docs/activity.md). Knows nothing of HTTP; the counts' endpoint is inbox-counts.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CaseListQuery } from '../../src/contract/case-list';
import { caseIdOf, receivedAtMs } from '../../src/contract/case-list-items';
import { NEW_WINDOW_MS } from '../../src/contract/case-work';
import type { Database } from '../db/schema';
import type { PlatformReader } from '../platform-reader';

/** A form is read while someone asked for its counts within this time. */
export const WATCHED_FOR_MS = 10 * 60_000;
/** Page one of the list, newest first: the cases a count can name. */
export const POLL_QUERY = { per_page: 100, page: 1, sort_type: 'created_at', sort_order: 'desc' } as const satisfies CaseListQuery;

/** A case of the newest page: its id and when it was received (ms; null when its record does not say). */
export type NewestCase = [id: string, receivedAt: number | null];

/** What the last reading of a form left. */
export interface FormReading {
  form: string;
  /** When it was last read (ms), null before the first reading. */
  polledAt: number | null;
  /** 'ok', 'empty' (the platform's 404), or 'failed: why'; null before the first reading. */
  outcome: string | null;
  /** The newest cases of the last good reading, newest first. */
  newest: NewestCase[];
  /** The list's total as the platform gave it; null when unknown. */
  total: number | null;
}

export interface InboxPollOptions {
  db: Kysely<Database>;
  /** Each site's id and the forms of its profile. */
  sites: readonly { id: string; forms: readonly string[] }[];
  readers: ReadonlyMap<string, PlatformReader>;
  /** At most one reading per site and form in this time (INBOX_POLL_SECONDS). */
  intervalMs: number;
  /** How long a reading may take before another instance may take the form: longer than a reading's timeout. */
  leaseMs: number;
  now: () => number;
  /** This instance in the leases; a random id when not given. */
  holder?: string;
}

export interface InboxPoll {
  /** One pass over the watched forms: each due one that this instance could take is read. Resolves to how many were read. */
  tick(): Promise<number>;
  /** Ticks every `everyMs` until stopped; a failing tick is logged and the next one tries again. */
  start(everyMs: number): void;
  /** Stops ticking, waiting for a tick under way. */
  stop(): Promise<void>;
}

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The stored newest list, or none when it is missing or not the shape written. */
function newestOf(text: string | null): NewestCase[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value)) return [];
    return value.filter(
      (item): item is NewestCase => Array.isArray(item) && typeof item[0] === 'string' && (item[1] === null || typeof item[1] === 'number'),
    );
  } catch {
    return [];
  }
}

export function createInboxPoll(options: InboxPollOptions): InboxPoll {
  const { db, readers, intervalMs, leaseMs, now } = options;
  const holder = options.holder ?? randomBytes(12).toString('base64url');
  const formsOf = new Map(options.sites.map((site) => [site.id, new Set(site.forms)]));

  /** Takes the form's lease when it is due and free; true when this instance is to read it. */
  async function take(site: string, form: string, at: number): Promise<boolean> {
    // One statement decides between instances: not read within the interval, and no live lease of anyone's.
    const lease = () =>
      db
        .updateTable('inbox_polls')
        .set({ holder, lease_until: at + leaseMs })
        .where('site_id', '=', site)
        .where('form_id', '=', form)
        .where((eb) => eb.or([eb('polled_at', 'is', null), eb('polled_at', '<=', at - intervalMs)]))
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
        .executeTakeFirst();
    if (Number((await lease()).numUpdatedRows) === 1) return true;
    // A form never read has no row yet: made once (by whichever instance comes first), then leased as any other.
    const made = await db
      .insertInto('inbox_polls')
      .values({ site_id: site, form_id: form, holder: null, lease_until: null, polled_at: null, outcome: null, newest: null, total: null })
      .onConflict((oc) => oc.columns(['site_id', 'form_id']).doNothing())
      .executeTakeFirst();
    return Number(made.numInsertedOrUpdatedRows ?? 0) === 1 && Number((await lease()).numUpdatedRows) === 1;
  }

  async function read(site: string, form: string, at: number): Promise<void> {
    const reader = readers.get(site);
    const reading = reader
      ? await reader.caseList(form, POLL_QUERY)
      : ({ kind: 'failed', status: null, reason: 'no reader for this site' } as const);
    const mine = db.updateTable('inbox_polls').where('site_id', '=', site).where('form_id', '=', form).where('holder', '=', holder);
    if (reading.kind === 'failed') {
      // The last good list stays; when and how this reading failed is noted, and the next is an interval away.
      const why = `failed: ${reading.status === null ? '' : `${reading.status}, `}${reading.reason}`.slice(0, 500);
      await mine.set({ lease_until: null, polled_at: at, outcome: why }).execute();
      return;
    }
    const newest: NewestCase[] =
      reading.kind === 'empty'
        ? []
        : reading.content.items.flatMap((item) => {
            const id = caseIdOf(item);
            return id === null ? [] : [[id, receivedAtMs(item)] satisfies NewestCase];
          });
    const total = reading.kind === 'empty' ? 0 : (reading.content.total ?? null);
    await mine
      .set({ lease_until: null, polled_at: at, outcome: reading.kind === 'empty' ? 'empty' : 'ok', newest: JSON.stringify(newest), total })
      .execute();
  }

  // A server whose profile names no forms (one site from today's settings) has nothing to read, ever.
  const anyForms = options.sites.some((site) => site.forms.length > 0);

  async function pass(): Promise<number> {
    if (!anyForms) return 0;
    const at = now();
    const watched = await db
      .selectFrom('inbox_watches')
      .select(['site_id', 'form_id'])
      .distinct()
      .where('asked_at', '>=', at - WATCHED_FOR_MS)
      .execute();
    // Only the forms the profile still names: a form taken out of it is no longer read.
    const wanted = watched.filter((row) => formsOf.get(row.site_id)?.has(row.form_id));
    const made = await Promise.all(
      wanted.map(async ({ site_id: site, form_id: form }) => {
        if (!(await take(site, form, at))) return 0;
        await read(site, form, at);
        return 1;
      }),
    );
    return made.reduce<number>((sum, one) => sum + one, 0);
  }

  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): Promise<number> => {
    // One pass at a time: a slow platform does not pile passes up.
    running ??= pass().finally(() => (running = undefined));
    return running;
  };
  return {
    tick,
    start(everyMs) {
      timer = setInterval(() => {
        tick().catch((error: unknown) => console.error('site-admin: the reading of new cases failed; it is tried again', error));
      }, everyMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** Since when a person's "new" runs on a form, when they first ask: the week before (NEW_WINDOW_MS). */
export const firstSince = (now: number) => now - NEW_WINDOW_MS;

/**
 * The asker's watches of a site's forms: created on first ask (their "new" from NEW_WINDOW_MS back), and
 * `asked_at` moved to now on every ask, which keeps those forms read. Resolves to since when, by form.
 */
export async function watchForms(
  db: Kysely<Database>,
  site: string,
  forms: readonly string[],
  personKey: string,
  now: number,
): Promise<Map<string, number>> {
  if (forms.length === 0) return new Map();
  await db
    .insertInto('inbox_watches')
    .values(forms.map((form) => ({ site_id: site, form_id: form, person_key: personKey, since: firstSince(now), asked_at: now })))
    .onConflict((oc) => oc.columns(['site_id', 'form_id', 'person_key']).doUpdateSet({ asked_at: now }))
    .execute();
  const rows = await db
    .selectFrom('inbox_watches')
    .select(['form_id', 'since'])
    .where('site_id', '=', site)
    .where('person_key', '=', personKey)
    .where('form_id', 'in', forms)
    .execute();
  return new Map(rows.map((row) => [row.form_id, Number(row.since)]));
}

/** What the last readings of a site's forms left, by form (a form never read is missing). */
export async function readingsOf(db: Kysely<Database>, site: string, forms: readonly string[]): Promise<Map<string, FormReading>> {
  if (forms.length === 0) return new Map();
  const rows = await db
    .selectFrom('inbox_polls')
    .select(['form_id', 'polled_at', 'outcome', 'newest', 'total'])
    .where('site_id', '=', site)
    .where('form_id', 'in', forms)
    .execute();
  return new Map(
    rows.map((row) => [
      row.form_id,
      {
        form: row.form_id,
        polledAt: numberOrNull(row.polled_at),
        outcome: row.outcome,
        newest: newestOf(row.newest),
        total: numberOrNull(row.total),
      },
    ]),
  );
}

/** Which of `cases` (by form) the person has seen on the site: `form/case` keys. */
export async function seenAmong(db: Kysely<Database>, site: string, personKey: string, cases: ReadonlyMap<string, readonly string[]>) {
  const seen = new Set<string>();
  await Promise.all(
    [...cases].map(async ([form, ids]) => {
      if (ids.length === 0) return;
      const rows = await db
        .selectFrom('case_seen')
        .select('case_id')
        .where('site_id', '=', site)
        .where('form_id', '=', form)
        .where('person_key', '=', personKey)
        .where('case_id', 'in', ids)
        .execute();
      for (const row of rows) seen.add(`${form}/${row.case_id}`);
    }),
  );
  return seen;
}
