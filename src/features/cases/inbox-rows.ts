/**
 * The rows of an inbox, for its list and for the previous/next of a case opened from it: the platform's
 * pages of the form's cases, and for each page read the team's work on its cases (one `GET work` a page).
 *
 * Without team filters the list is the platform's: any row can be reached by scrolling, and only page 1
 * (its total sizes the list) and the pages of the rows on screen are asked for. The team's filters are
 * applied here, as the platform knows nothing of the team's work: then the pages are read in order, from
 * 1 to the address's `read`, and the list is their rows that pass, with how many of those read they hide.
 */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { isNewTo, UNTOUCHED, type CaseWork, type TeamFilter, type WorkAnswer } from '@/contract/case-work';
import type { FormCase } from '@/contract/site-api';
import type { Me } from '@/contract/access';
import { listEnvelopeOf, type CaseListPage } from '@/lib/case-list-reader';
import { useSite } from '@/lib/site-context';
import { caseIdentity } from './case-identity';
import { inboxFilter, type InboxAddress } from './inbox-address';
import { caseIdOf } from './inbox-columns';
import { caseWorkQueryOptions, formCasesQueryOptions, INBOX_PAGE_SIZE, pageOfRow } from './inbox-query';

export interface InboxRow {
  id: string;
  record: FormCase;
  received: { date: Date; dateOnly: boolean } | null;
  /** The team's work on the case; undefined while its page's work is on its way (or could not be read). */
  work: CaseWork | undefined;
  /** New to the person looking: received since their "new" began and not yet seen by them. */
  isNew: boolean;
}

/** The key a person has in the team's work: their id, or 'demo' for the local demo. */
export const personKeyOf = (me: Me): string => (me.kind === 'person' ? me.id : 'demo');

/** Whether `row` passes every team filter in `team` for the person `personKey`. */
export function passesTeamFilters(row: InboxRow, team: readonly TeamFilter[], personKey: string): boolean {
  const work = row.work ?? UNTOUCHED;
  return team.every((filter) =>
    filter === 'mine' ? work.assignee?.id === personKey : filter === 'open' ? work.status !== 'done' : row.isNew,
  );
}

function rowsOf(page: CaseListPage | undefined, answer: WorkAnswer | undefined, form: string): InboxRow[] {
  if (!page) return [];
  const rows: InboxRow[] = [];
  for (const record of page.cases) {
    const id = caseIdOf(record);
    if (id === null) continue;
    const received = caseIdentity(record, form, id).submitted;
    const work = answer?.cases[id] ?? (answer ? UNTOUCHED : undefined);
    const isNew = answer !== undefined && received !== null && isNewTo(received.date.getTime(), work?.seen ?? false, answer.since);
    rows.push({ id, record, received, work, isNew });
  }
  return rows;
}

/** The furthest row known: the total where the envelope has one, else what the pages so far show. */
function rowCount(pages: readonly (CaseListPage | undefined)[]): number {
  let count = 0;
  for (const page of pages) {
    if (!page) continue;
    if (page.total !== null) return page.total;
    count = Math.max(count, (page.page - 1) * page.perPage + page.cases.length + (page.hasMore ? 1 : 0));
  }
  return count;
}

const combineResults = <T>(results: UseQueryResult<T>[]) => ({
  data: results.map((result) => result.data),
  pending: results.some((result) => result.isPending),
  fetching: results.some((result) => result.isFetching),
  failed: results.find((result) => result.isError),
});

export interface InboxRows {
  /** Rows in the list (as far as is known). */
  count: number;
  /** Row `index`, or undefined while its page (or, with team filters, its work) is on its way. */
  rowAt: (index: number) => InboxRow | undefined;
  /** Every row of the list read so far, in order (with team filters: those that pass). */
  loaded: readonly InboxRow[];
  /** The platform's first page, once here: its total and whether it had no cases. */
  first: CaseListPage | undefined;
  firstPending: boolean;
  /** A page of the list that could not be read, with its retry. */
  failed: UseQueryResult<CaseListPage> | undefined;
  /** The team's work on some page could not be read. */
  workFailed: UseQueryResult<WorkAnswer> | undefined;
  /** With team filters: cases read, how many the filters hide, whether the platform has more pages, and the next page is on its way. */
  team: { read: number; hidden: number; more: boolean; reading: boolean } | null;
}

/**
 * The rows of `inbox`. `range` is the first and last row wanted (on screen, or around a case opened from
 * the list); without team filters only their pages are read.
 */
export function useInboxRows(inbox: InboxAddress, range: readonly [number, number]): InboxRows {
  const { site, me } = useSite();
  const envelope = listEnvelopeOf(site);
  const filter = useMemo(() => inboxFilter(inbox), [inbox]);
  const teamMode = inbox.team.length > 0;
  const pages = useMemo(
    () => (teamMode ? Array.from({ length: inbox.read }, (_, i) => i + 1) : [...new Set([1, pageOfRow(range[0]), pageOfRow(range[1])])]),
    [teamMode, inbox.read, range],
  );
  const lists = useQueries({
    queries: pages.map((page) => formCasesQueryOptions(inbox.form, filter, page, envelope)),
    combine: combineResults<CaseListPage>,
  });
  const idsOfPages = useMemo(
    // Each id once: the work endpoint refuses a list that names a case twice.
    () => lists.data.map((page) => (page ? [...new Set(page.cases.map(caseIdOf).filter((id): id is string => id !== null))] : [])),
    [lists.data],
  );
  const works = useQueries({
    queries: idsOfPages.map((ids) => caseWorkQueryOptions(site.id, inbox.form, ids)),
    combine: combineResults<WorkAnswer>,
  });
  // Pages and work are put on screen in a transition: React renders the rows in slices between which the
  // browser stays responsive, not in one long task as the queries' own updates would (as the case view does).
  // The pages asked for travel with their answers, so a row is never looked up in another page's answer.
  const now = useMemo(() => ({ pages, listData: lists.data, workData: works.data }), [pages, lists.data, works.data]);
  const { pages: shownPages, listData, workData } = useDeferredValue(now);
  const pageRows = useMemo(() => listData.map((page, i) => rowsOf(page, workData[i], inbox.form)), [listData, workData, inbox.form]);
  const personKey = personKeyOf(me);
  const teamRows = useMemo(() => {
    if (!teamMode) return null;
    const rows: InboxRow[] = [];
    let read = 0;
    // Pages in order, each once its work is here: a row whose work is unknown cannot be said to pass.
    for (let i = 0; i < pageRows.length; i += 1) {
      if (!listData[i] || !workData[i]) break;
      for (const row of pageRows[i] ?? []) {
        read += 1;
        if (passesTeamFilters(row, inbox.team, personKey)) rows.push(row);
      }
    }
    return { rows, read };
  }, [teamMode, pageRows, listData, workData, inbox.team, personKey]);

  const first = listData[0];
  const last = listData[listData.length - 1];
  if (teamRows) {
    return {
      count: teamRows.rows.length,
      rowAt: (index) => teamRows.rows[index],
      loaded: teamRows.rows,
      first,
      firstPending: first === undefined && (lists.pending || lists.data[0] !== undefined),
      failed: lists.failed,
      workFailed: works.failed,
      team: {
        read: teamRows.read,
        hidden: teamRows.read - teamRows.rows.length,
        more: last !== undefined && !last.noCases && (last.hasMore || (last.total !== null && last.page * last.perPage < last.total)),
        reading: lists.fetching || works.fetching,
      },
    };
  }
  return {
    count: rowCount(listData),
    rowAt: (index) => {
      const at = shownPages.indexOf(pageOfRow(index));
      return at < 0 ? undefined : pageRows[at]?.[index % INBOX_PAGE_SIZE];
    },
    loaded: pageRows.flat(),
    first,
    firstPending: first === undefined && (lists.pending || lists.data[0] !== undefined),
    failed: lists.failed,
    workFailed: works.failed,
    team: null,
  };
}
