/**
 * What an inbox address holds (`/cases?form=21&from=2026-10-01&to=2026-10-31&where={...}&at=12`): the form,
 * the received date range, the field conditions and the position. The same query rides on a case opened
 * from the inbox (`/cases/21/50003?form=21&...&at=12`), which is how the case view knows its previous and
 * next, and how a shared or reloaded link opens the same filtered inbox at the same row.
 */
import { caseFilterProblems, formIdentifierViolations, type CaseFilter } from '@/contract/case-list';
import { pathTo, withQuery, type Href } from '@/lib/paths';

export interface InboxAddress {
  form: string;
  /** The first and last received day (`YYYY-MM-DD`, in the browser's time zone), each optional. */
  from: string | null;
  to: string | null;
  /** Conditions on the form's fields, in the platform's filter syntax (no `created_at`: that is the range). */
  where: CaseFilter;
  /** The row (from 0) last opened or to show. */
  at: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

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

/**
 * The inbox an address names, or null when it names no form (or one that cannot be a form's identifier).
 * Anything in it that is not well formed is left out rather than refused: a hand-edited link still opens
 * the form's inbox.
 */
export function readInboxAddress(search: string): InboxAddress | null {
  const params = new URLSearchParams(search);
  const form = params.get('form') ?? '';
  if (form === '' || formIdentifierViolations(form).length > 0) return null;
  const at = Number(params.get('at'));
  return {
    form,
    from: day(params.get('from')),
    to: day(params.get('to')),
    where: where(params.get('where')),
    at: Number.isSafeInteger(at) && at >= 0 ? at : 0,
  };
}

/** The query of `inbox`, in a fixed order, leaving out what is empty (and `at` when it is 0). */
export function inboxQuery(inbox: InboxAddress): URLSearchParams {
  const params = new URLSearchParams({ form: inbox.form });
  if (inbox.from) params.set('from', inbox.from);
  if (inbox.to) params.set('to', inbox.to);
  if (Object.keys(inbox.where).length > 0) params.set('where', JSON.stringify(inbox.where));
  if (inbox.at > 0) params.set('at', String(inbox.at));
  return params;
}

/** The inbox's own address, on Cases. */
export const inboxHref = (inbox: InboxAddress): Href<'cases'> => withQuery(pathTo('cases'), inboxQuery(inbox));

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

/** Whether `inbox` narrows the list at all. */
export const isFiltered = (inbox: Pick<InboxAddress, 'from' | 'to' | 'where'>): boolean => inboxFilter(inbox) !== undefined;
