/**
 * `GET /api/inbox/:site/counts`: the navigation's counts of cases new to the asker, per form of the site's
 * profile, answered from the shared reading (inbox-poll.ts) and never by contacting the platform: a form
 * nobody asked about yet is read at the poll's next pass, and until then counts nothing.
 *
 * A case is new to a person when it was received since their "new" began on that form (their watch, made
 * at their first ask as NEW_WINDOW_MS back) and they have not seen it (case_seen). Asking keeps the site's
 * forms watched, so they go on being read.
 */
import { may } from '../../src/contract/access';
import { isNewTo } from '../../src/contract/case-work';
import { INBOX_COUNTS_PATH, type FormCount, type InboxCounts } from '../../src/contract/inbox-counts';
import { sendError } from '../answers';
import type { AppDatabase } from '../db/open';
import type { Identity } from '../identity';
import { sendJson, type Endpoint } from '../own-api';
import { POLL_QUERY, readingsOf, seenAmong, watchForms, type FormReading } from './inbox-poll';

/** Whose "new" and "seen" these are: a person's id, or 'demo' for the local demo. */
export const personKeyOf = (who: Identity): string => (who.kind === 'person' ? who.id : 'demo');

/** A form's count from its last reading, the asker's `since` and what they have seen. */
export function formCount(reading: FormReading | undefined, since: number, seen: (id: string) => boolean): FormCount {
  if (!reading) return { new: 0, more: false };
  let fresh = 0;
  for (const [id, receivedAt] of reading.newest) {
    if (receivedAt !== null && isNewTo(receivedAt, seen(id), since)) fresh += 1;
  }
  const listed = reading.newest.length;
  // Every case of the page read was new, and the list has more than the page: there may be more new ones.
  const larger = reading.total === null ? listed >= POLL_QUERY.per_page : reading.total > listed;
  return { new: fresh, more: listed > 0 && fresh === listed && larger };
}

export interface InboxCountsOptions {
  database: AppDatabase;
  /** Each site's forms, from its profile, by site id. */
  formsOf: ReadonlyMap<string, readonly string[]>;
  now: () => number;
  /** INBOX_POLL_SECONDS in ms: told to the browser, which asks again at that pace. */
  pollMs: number;
}

export function inboxCountsEndpoints({ database, formsOf, now, pollMs }: InboxCountsOptions): Endpoint[] {
  const { db } = database;
  return [
    {
      method: 'GET',
      path: INBOX_COUNTS_PATH,
      // Asked by an open page every interval: not a use of the session, or an open tab would never time out.
      background: true,
      handle: async ({ request, who, params }) => {
        const site = params.site ?? '';
        const forms = formsOf.get(site);
        if (!forms) {
          sendError(request.res, 404, `There is no site "${site.slice(0, 80)}" here.`);
          return;
        }
        if (!may(who, site, 'lookup')) {
          sendError(request.res, 403, 'You may not look up cases on this site, so it has no new cases for you.');
          return;
        }
        const personKey = personKeyOf(who);
        const sinceOf = await watchForms(db, site, forms, personKey, now());
        const readings = await readingsOf(db, site, forms);
        const seen = await seenAmong(
          db,
          site,
          personKey,
          new Map(forms.map((form) => [form, (readings.get(form)?.newest ?? []).map(([id]) => id)])),
        );
        const counts: InboxCounts['forms'] = {};
        let readAt: number | null = forms.length === 0 ? null : Infinity;
        for (const form of forms) {
          const reading = readings.get(form);
          counts[form] = formCount(reading, sinceOf.get(form) ?? now(), (id) => seen.has(`${form}/${id}`));
          // The oldest reading among the forms; none until every form has been read once.
          const polledAt = reading?.polledAt ?? null;
          readAt = polledAt === null || readAt === null ? null : Math.min(readAt, polledAt);
        }
        const answer: InboxCounts = { forms: counts, readAt, pollMs };
        sendJson(request.res, 200, answer);
      },
    },
  ];
}
