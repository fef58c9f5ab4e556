/**
 * The case viewer's reads and changes of the team's work on a case (`/api/inbox/...`, src/contract/case-work.ts):
 * queries as `queryOptions` (key and fetcher together), changes as plain functions for `useMutation`, each
 * answer read with the contract's schema. Loaded with the work panel only, never on the first page (zod).
 */
import { queryOptions } from '@tanstack/react-query';
import {
  assigneesSchema,
  caseWorkDetailSchema,
  INBOX_PATHS,
  inboxPath,
  noteSchema,
  workAnswerSchema,
  type CaseStatus,
  type NoteBody,
  type WorkChange,
} from '@/contract/case-work';
import { callOwnApi } from '@/lib/api-client';

export interface CaseRef {
  site: string;
  form: string;
  case: string;
}

/** The key of one case's work and notes, which every change of it updates. */
export const caseWorkKey = (ref: CaseRef) => ['case-work', ref.site, ref.form, ref.case] as const;

/** One case's work and its notes, each with its earlier texts. */
export const caseWorkQuery = (ref: CaseRef) =>
  queryOptions({
    queryKey: caseWorkKey(ref),
    queryFn: ({ signal }) => callOwnApi(inboxPath(INBOX_PATHS.caseWork, ref), { answer: caseWorkDetailSchema }, signal),
    // Colleagues change it: a case opened again is read again, rather than shown as it was a minute ago.
    staleTime: 0,
  });

/** Who may be given the site's cases. */
export const assigneesQuery = (site: string) =>
  queryOptions({
    queryKey: ['case-assignees', site] as const,
    queryFn: ({ signal }) => callOwnApi(inboxPath(INBOX_PATHS.assignees, { site }), { answer: assigneesSchema }, signal),
    staleTime: 5 * 60_000,
  });

/** Changes the work on this one case: its status, its assignee (a person's id, or null: nobody) or seen. */
export function changeCaseWork(ref: CaseRef, change: { status?: CaseStatus; assignee?: string | null; seen?: boolean }) {
  const body: WorkChange = { cases: [ref.case], ...change };
  return callOwnApi(inboxPath(INBOX_PATHS.change, ref), { method: 'PATCH', body, answer: workAnswerSchema });
}

export function addNote(ref: CaseRef, body: NoteBody) {
  return callOwnApi(inboxPath(INBOX_PATHS.notes, ref), { method: 'POST', body, answer: noteSchema });
}

export function editNote(ref: CaseRef, note: string, body: NoteBody) {
  return callOwnApi(inboxPath(INBOX_PATHS.note, { ...ref, note }), { method: 'PUT', body, answer: noteSchema });
}
