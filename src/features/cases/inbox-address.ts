/**
 * What an inbox address holds (`/cases/21?from=2026-10-01&to=2026-10-31&where={...}&team=open,new&read=2&at=12`):
 * the form (in the path), the received date range, the field conditions, the team's own filters, how many
 * of the platform's pages the team filters have read, and the position. The same query, with `form`, rides
 * on a case opened from the inbox (`/cases/21/50003?form=21&...&at=12`), which is how the case view knows
 * its previous and next, and how a shared or reloaded link opens the same filtered inbox at the same row.
 */
import { caseFilterProblems, formIdentifierViolations, type CaseFilter } from '@/contract/case-list';
import { TEAM_FILTERS, type TeamFilter } from '@/contract/case-work';
import { pathTo, withQuery, type Href } from '@/lib/paths';

export interface InboxAddress {
  form: string;
  /** The first and last received day (`YYYY-MM-DD`, in the browser's time zone), each optional. */
  from: string | null;
  to: string | null;
  /** Conditions on the form's fields, in the platform's filter syntax (no `created_at`: that is the range). */
  where: CaseFilter;
  /** The team's own filters, in TEAM_FILTERS' order: applied by the page to the pages it has read. */
  team: TeamFilter[];
  /** With team filters: how many of the platform's pages are read (from 1). */
  read: number;
  /** The row (from 0) last opened or to show. */
  at: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** More pages than this are not read for a team filter from one address: a hand-edited link cannot ask for thousands. */
export const MAX_PAGES_READ = 40;

function day(value: string | null): string | null {
  if (value === null || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00`);
  return Number.isNaN(date.getTime()) ? null : value;
}

function where(value: string | null): CaseFilter {
  if (value === null) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (caseFilterProblems(parsed).length > 0) return {};
    const filter = { ...(parsed as CaseFilter) };
    delete filter.created_at;
    return filter;
  } catch {
    return {};
  }
}

const team = (value: string | null): TeamFilter[] => {
  const named = new Set((value ?? '').split(','));
  return TEAM_FILTERS.filter((filter) => named.has(filter));
};

const count = (value: string | null, least: number, most: number, fallback: number): number => {
  const n = Number(value);
  return value !== null && Number.isSafeInteger(n) && n >= least ? Math.min(n, most) : fallback;
};

/**
 * The inbox an address names: `form` from the path (the inbox's own page) or, by default, the query's
 * `form` (a case opened from the inbox); null when there is none that can be a form's identifier. Anything
 * else not well formed is left out rather than refused: a hand-edited link still opens the form's inbox.
 */
export function readInboxAddress(search: string, form?: string): InboxAddress | null {
  const params = new URLSearchParams(search);
  const named = form ?? params.get('form') ?? '';
  if (named === '' || formIdentifierViolations(named).length > 0) return null;
  return {
    form: named,
    from: day(params.get('from')),
    to: day(params.get('to')),
    where: where(params.get('where')),
    team: team(params.get('team')),
    read: count(params.get('read'), 1, MAX_PAGES_READ, 1),
    at: count(params.get('at'), 0, Number.MAX_SAFE_INTEGER, 0),
  };
}

/** The query of `inbox` (with `form` when it rides on a case), in a fixed order, leaving out what is empty or the default. */
export function inboxQuery(inbox: InboxAddress, withForm = true): URLSearchParams {
  const params = new URLSearchParams(withForm ? { form: inbox.form } : {});
  if (inbox.from) params.set('from', inbox.from);
  if (inbox.to) params.set('to', inbox.to);
  if (Object.keys(inbox.where).length > 0) params.set('where', JSON.stringify(inbox.where));
  if (inbox.team.length > 0) {
    params.set('team', inbox.team.join(','));
    if (inbox.read > 1) params.set('read', String(inbox.read));
  }
  if (inbox.at > 0) params.set('at', String(inbox.at));
  return params;
}

/** The inbox's own address: `/cases/21?...`. */
export const inboxHref = (inbox: InboxAddress): Href<'inbox'> => withQuery(pathTo('inbox', { form: inbox.form }), inboxQuery(inbox, false));

/** A new inbox of `form`: no filters, at the top. */
export const freshInbox = (form: string): InboxAddress => ({ form, from: null, to: null, where: {}, team: [], read: 1, at: 0 });

/** Midnight at the start of `day` in the browser's time zone, in epoch seconds. */
function startOf(day: string): number {
  return Math.floor(new Date(`${day}T00:00:00`).getTime() / 1000);
}

/**
 * The platform's filter for `inbox`: its field conditions, and the date range as `created_at` in epoch
 * seconds (what the record holds), from the start of the first day to the end of the last, both included.
 */
export function inboxFilter(inbox: Pick<InboxAddress, 'from' | 'to' | 'where'>): CaseFilter | undefined {
  const filter: CaseFilter = { ...inbox.where };
  if (inbox.from || inbox.to) {
    const range: { gt?: number; lt?: number } = {};
    if (inbox.from) range.gt = startOf(inbox.from) - 1;
    if (inbox.to) {
      const next = new Date(`${inbox.to}T00:00:00`);
      next.setDate(next.getDate() + 1);
      range.lt = Math.floor(next.getTime() / 1000);
    }
    filter.created_at = range;
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** Whether `inbox` narrows the platform's list at all. */
export const isFiltered = (inbox: Pick<InboxAddress, 'from' | 'to' | 'where'>): boolean => inboxFilter(inbox) !== undefined;
