import { queryOptions } from '@tanstack/react-query';
import type { CaseFilter, ListEnvelope } from '@/contract/case-list';
import { listFormCases } from '@/lib/api-client';

/** Cases a page of the inbox asks for: a screen or two of rows, so a page arrives and renders at once. */
export const INBOX_PAGE_SIZE = 50;

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
