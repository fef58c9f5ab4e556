/**
 * The navigation's counts of cases new to the person on a site (`GET /api/inbox/:site/counts`): one query,
 * asked again at the server's reading pace while the page is visible, never while it is hidden. The server
 * answers from its one shared reading of each form (the platform is never asked by a browser for these).
 * Without zod: the navigation is on the first page (decision 0003).
 */
import { queryOptions } from '@tanstack/react-query';
import { readerOf } from '@/contract/answer-reader';
import { INBOX_POLL_MS, inboxCountsPath, readInboxCounts, type InboxCounts } from '@/contract/inbox-counts';
import { callOwnApi } from './api-client';

const countsReader = readerOf((value) => readInboxCounts(value) ?? null);

/** The site's counts, as the server read them last. */
export function getInboxCounts(site: string, signal?: AbortSignal): Promise<InboxCounts> {
  return callOwnApi(inboxCountsPath(site), { answer: countsReader }, signal);
}

export function inboxCountsQuery(site: string) {
  return queryOptions({
    queryKey: ['inbox-counts', site] as const,
    queryFn: ({ signal }) => getInboxCounts(site, signal),
    // At the server's own pace (INBOX_POLL_SECONDS): asking more often would only read the same reading again.
    refetchInterval: (query) => query.state.data?.pollMs ?? INBOX_POLL_MS,
    refetchIntervalInBackground: false,
    // A count is a hint beside a link: a failed ask waits for the next interval rather than retrying, and a
    // session found ended here does not take the page over (src/app/query-client.ts).
    retry: false,
    meta: { background: true },
  });
}

/** At most this many on the badge; more reads `99+`. */
export const NEW_CASES_SHOWN_UP_TO = 99;

/**
 * The site's new cases in all, as the badge writes it (`12`, `40+` when a form may have more than it could
 * count, `99+`), and how a screen reader hears it; null when there are none.
 */
export function newCasesBadge(counts: InboxCounts | undefined): { text: string; spoken: string } | null {
  if (!counts) return null;
  let total = 0;
  let more = false;
  for (const count of Object.values(counts.forms)) {
    total += count.new;
    more ||= count.more;
  }
  if (total === 0) return null;
  const text = total > NEW_CASES_SHOWN_UP_TO ? `${NEW_CASES_SHOWN_UP_TO}+` : `${total}${more ? '+' : ''}`;
  const spoken = total > NEW_CASES_SHOWN_UP_TO ? `more than ${NEW_CASES_SHOWN_UP_TO}` : more ? `${total} or more` : `${total}`;
  return { text, spoken: `${spoken} new` };
}

/** A form's own count as the inbox's form picker writes it beside the form's name (`3 new`, `40+ new`); null for none. */
export function formNewText(counts: InboxCounts | undefined, form: string): string | null {
  const count = counts?.forms[form];
  if (!count || count.new === 0) return null;
  return `${count.new > NEW_CASES_SHOWN_UP_TO ? `${NEW_CASES_SHOWN_UP_TO}+` : `${count.new}${count.more ? '+' : ''}`} new`;
}
