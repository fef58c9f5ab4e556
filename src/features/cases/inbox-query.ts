import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CaseFilter, ListEnvelope } from '@/contract/case-list';
import {
  assigneesSchema,
  INBOX_PATHS,
  inboxPath,
  workAnswerSchema,
  UNTOUCHED,
  type CaseWork,
  type WorkAnswer,
  type WorkChange,
} from '@/contract/case-work';
import { callOwnApi } from '@/lib/api-client';
import { listFormCases } from '@/lib/case-list-reader';

/**
 * Cases a page of the inbox asks for: the platform's most (500), so the team's filters, which only this
 * page can apply, see as many cases as one request brings, and the platform and the team's work are each
 * asked once per 500 cases. The list is virtualised: only the rows on screen are rendered, whatever the page.
 */
export const INBOX_PAGE_SIZE = 500;

/**
 * How long a page no row on screen needs is kept: long enough to scroll back without asking again, short
 * enough that scrolling through a large form never holds more than the pages around the screen.
 */
const PAGE_KEPT_MS = 20_000;

/** One page of a form's cases, newest first, with the inbox's filter; the key and the fetcher travel together. */
export function formCasesQueryOptions(form: string, filter: CaseFilter | undefined, page: number, envelope: ListEnvelope) {
  return queryOptions({
    queryKey: ['form-cases', form, envelope, filter ?? null, page] as const,
    queryFn: ({ signal }) =>
      listFormCases(
        form,
        { per_page: INBOX_PAGE_SIZE, page, sort_type: 'created_at', sort_order: 'desc', ...(filter ? { filter } : {}) },
        envelope,
        signal,
      ),
    gcTime: PAGE_KEPT_MS,
  });
}

/** The page (from 1) that holds row `index` (from 0). */
export const pageOfRow = (index: number): number => Math.floor(index / INBOX_PAGE_SIZE) + 1;

/** The key every query of a form's work starts with: a change updates them all at once. */
export const workKeyOf = (site: string, form: string) => ['inbox-work', site, form] as const;

/**
 * The longest `?cases=` one request carries, in characters: 500 ids of up to 64 characters would make an
 * address of 32 KB, over what servers take in a request's head (Node: 16 KB in all); ids of a few digits
 * fit a whole page in one request.
 */
const CASES_PARAMETER_MAX = 6_000;

/** `cases` in groups whose `?cases=` stays within CASES_PARAMETER_MAX, in order. */
export function casesInGroups(cases: readonly string[]): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let length = 0;
  for (const id of cases) {
    const encoded = encodeURIComponent(id).length + 1;
    if (group.length > 0 && length + encoded > CASES_PARAMETER_MAX) {
      groups.push(group);
      group = [];
      length = 0;
    }
    group.push(id);
    length += encoded;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The team's work on the cases of one page read (`GET work?cases=…`): one request a page, or a few for long ids. */
export function caseWorkQueryOptions(site: string, form: string, cases: readonly string[]) {
  return queryOptions({
    queryKey: [...workKeyOf(site, form), cases.join(',')] as const,
    queryFn: async ({ signal }): Promise<WorkAnswer> => {
      const answers = await Promise.all(
        casesInGroups(cases).map((group) =>
          callOwnApi(
            `${inboxPath(INBOX_PATHS.work, { site, form })}?cases=${group.map(encodeURIComponent).join(',')}`,
            { answer: workAnswerSchema },
            signal,
          ),
        ),
      );
      return { since: answers[0]?.since ?? 0, cases: Object.assign({}, ...answers.map((answer) => answer.cases)) as WorkAnswer['cases'] };
    },
    enabled: cases.length > 0,
    gcTime: PAGE_KEPT_MS,
  });
}

/** Who may be assigned the site's cases. */
export function assigneesQueryOptions(site: string) {
  return queryOptions({
    queryKey: ['inbox-assignees', site] as const,
    queryFn: ({ signal }) => callOwnApi(inboxPath(INBOX_PATHS.assignees, { site }), { answer: assigneesSchema }, signal),
    staleTime: 60_000,
  });
}

/** Sends a change of work (one PATCH, whatever the number of cases); answers the work as the server now has it. */
export const sendWorkChange = (site: string, form: string, change: WorkChange): Promise<WorkAnswer> =>
  callOwnApi(inboxPath(INBOX_PATHS.change, { site, form }), { method: 'PATCH', body: change, answer: workAnswerSchema });

/** `work` with `change` applied, as the server will have it (the assignee's name from `names`). */
export function changedWork(work: CaseWork, change: WorkChange, names: ReadonlyMap<string, string>): CaseWork {
  const next = { ...work };
  if (change.status !== undefined) next.status = change.status;
  if (change.seen !== undefined) next.seen = change.seen;
  if (change.assignee !== undefined) {
    next.assignee = change.assignee === null ? null : { id: change.assignee, name: names.get(change.assignee) ?? change.assignee };
  }
  return next;
}

/** Every page of the form's work in the cache with the cases it was asked for (its key's last part). */
function workPages(client: QueryClient, site: string, form: string) {
  return client.getQueriesData<WorkAnswer>({ queryKey: workKeyOf(site, form) }).map(([key, data]) => ({
    key,
    data,
    cases: String(key[3] ?? '').split(','),
  }));
}

/**
 * Applies `change` to every page of the form's work in the cache at once (optimistic: the rows change before
 * the server answers) and answers a function that puts back what was there, for when the server refuses.
 */
export function applyWorkChange(
  client: QueryClient,
  site: string,
  form: string,
  change: WorkChange,
  names: ReadonlyMap<string, string>,
): () => void {
  const pages = workPages(client, site, form);
  const changed = new Set(change.cases);
  for (const { key, data, cases } of pages) {
    if (!data || !cases.some((id) => changed.has(id))) continue;
    const next = { ...data.cases };
    for (const id of cases) if (changed.has(id)) next[id] = changedWork(next[id] ?? UNTOUCHED, change, names);
    client.setQueryData<WorkAnswer>(key, { ...data, cases: next });
  }
  return () => {
    for (const { key, data } of pages) client.setQueryData(key, data);
  };
}

/** Writes the server's answer to a change into every page of the form's work in the cache that holds those cases. */
export function storeWorkAnswer(client: QueryClient, site: string, form: string, answer: WorkAnswer): void {
  for (const { key, data, cases } of workPages(client, site, form)) {
    if (!data) continue;
    const answered = cases.filter((id) => id in answer.cases);
    if (answered.length === 0) continue;
    const next = { ...data.cases };
    for (const id of answered) next[id] = answer.cases[id] ?? next[id] ?? UNTOUCHED;
    client.setQueryData<WorkAnswer>(key, { ...data, cases: next });
  }
}
