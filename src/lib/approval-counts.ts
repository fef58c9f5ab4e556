/**
 * The navigation's Approvals entry: the counts beside it (asked again every 30 seconds while the page is
 * visible, and when the window gets the focus back) and the sites' rules, which say whether the entry is
 * of use to the person. Read without zod (src/contract/approval-counts.ts), for the shell's lazy chunk.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  APPROVAL_RULES_PATH,
  CHANGE_COUNTS_PATH,
  changeCountsReader,
  ruleGlancesReader,
  type ChangeCounts,
} from '@/contract/approval-counts';
import { callOwnApi } from './api-client';

/** How often the counts are asked again while the page is visible. */
export const CHANGE_COUNTS_POLL_MS = 30_000;

export const changeCountsQuery = queryOptions({
  // Apart from ['changes', site, view], whose site could be named "counts".
  queryKey: ['change-counts'] as const,
  queryFn: ({ signal }) => callOwnApi(CHANGE_COUNTS_PATH, { answer: changeCountsReader }, signal),
  refetchInterval: CHANGE_COUNTS_POLL_MS,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
  // A hint beside a link: a failed ask waits for the next one, and never takes the page over (query-client.ts).
  retry: false,
  meta: { background: true },
});

/** Whether each site the person may use has a rule on, and whether they may change it (an owner). */
export const ruleGlancesQuery = queryOptions({
  // Not ['approval-rules']: that key holds the whole rules, read with the contract's schema by the page.
  queryKey: ['approval-rules', 'glance'] as const,
  queryFn: ({ signal }) => callOwnApi(APPROVAL_RULES_PATH, { answer: ruleGlancesReader }, signal),
  refetchOnWindowFocus: true,
  retry: false,
  meta: { background: true },
});

/** The badge's number: changes waiting for the person's approval and their own come back to them; 0 without counts. */
export const approvalsWaiting = (counts: ChangeCounts | undefined): number => (counts ? counts.toApprove + counts.returned : 0);
