/**
 * The navigation's counts of cases new to the person, per form of a site (`GET /api/inbox/:site/counts`).
 * The server reads each form's newest cases once per INBOX_POLL_MS for the whole team (one instance holds the
 * reading, as one page holds an import's run) and answers every browser from what it read: browsers ask
 * site-admin, never the platform. Written without zod: the navigation is on the first page, which loads none.
 */

export const INBOX_COUNTS_PATH = '/api/inbox/:site/counts';
export const inboxCountsPath = (site: string) => INBOX_COUNTS_PATH.replace(':site', encodeURIComponent(site));

/** At most one list request per site and form in this time, however many people have an inbox open. */
export const INBOX_POLL_MS = 30_000;

export interface FormCount {
  /** Cases new to the asker among the newest the server read (at most a page). */
  new: number;
  /** Whether there may be more than `new`: every case of the page read was new. */
  more: boolean;
}

export interface InboxCounts {
  /** By form id, each form of the site's profile. */
  forms: Record<string, FormCount>;
  /** When the server last read the lists (ms), or null before the first reading. */
  readAt: number | null;
  /** How often the server reads them (its INBOX_POLL_SECONDS, in ms): the browser asks again at that pace. */
  pollMs?: number;
}

const isCount = (value: unknown): value is FormCount =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FormCount).new === 'number' &&
  typeof (value as FormCount).more === 'boolean';

/** The counts in an answer, or undefined when it is not that shape. */
export function readInboxCounts(value: unknown): InboxCounts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { forms, readAt, pollMs } = value as Partial<InboxCounts>;
  if (typeof forms !== 'object' || forms === null || !Object.values(forms).every(isCount)) return undefined;
  if (readAt !== null && typeof readAt !== 'number') return undefined;
  if (pollMs !== undefined && (typeof pollMs !== 'number' || !(pollMs > 0))) return undefined;
  return pollMs === undefined ? { forms, readAt } : { forms, readAt, pollMs };
}
