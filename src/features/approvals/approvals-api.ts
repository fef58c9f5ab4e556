/**
 * The pages' calls about approvals (src/contract/approvals.ts): the sites' rules, the changes, and asking,
 * editing, approving, rejecting, withdrawing and overriding one. Each answer is read with the contract's
 * schema. Sending an approved change is `sendApprovedChange` (send-approved.ts): the exact stored body.
 */
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  APPROVAL_PATHS,
  changePath,
  changeSchema,
  changeSummarySchema,
  rulePath,
  siteRuleSchema,
  type ApprovalRule,
  type ChangeView,
  type EditedChange,
  type NewChange,
} from '@/contract/approvals';
import { callOwnApi } from '@/lib/api-client';

/** Every site's rule that the person may use. */
export const approvalRulesQuery = queryOptions({
  queryKey: ['approval-rules'],
  queryFn: ({ signal }) => callOwnApi(APPROVAL_PATHS.rules, { answer: z.array(siteRuleSchema) }, signal),
  staleTime: 30_000,
});

export const setApprovalRule = (site: string, rule: ApprovalRule) =>
  callOwnApi(rulePath(site), { method: 'PUT', body: rule, answer: siteRuleSchema });

/** The changes of a site (or of every site the person may use, `site` null) that `view` shows, newest first. */
export const changesQuery = (site: string | null, view: ChangeView) =>
  queryOptions({
    queryKey: ['changes', site, view],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ view });
      if (site) query.set('site', site);
      return callOwnApi(`${APPROVAL_PATHS.list}?${query.toString()}`, { answer: z.array(changeSummarySchema) }, signal);
    },
  });

export const changeQuery = (id: string) =>
  queryOptions({
    queryKey: ['change', id],
    queryFn: ({ signal }) => callOwnApi(changePath(APPROVAL_PATHS.one, id), { answer: changeSchema }, signal),
  });

export const askForApproval = (change: NewChange) =>
  callOwnApi(APPROVAL_PATHS.list, { method: 'POST', body: change, answer: changeSchema });
export const editChange = (id: string, edit: EditedChange) =>
  callOwnApi(changePath(APPROVAL_PATHS.one, id), { method: 'PUT', body: edit, answer: changeSchema });
export const approveChange = (id: string, version: number) =>
  callOwnApi(changePath(APPROVAL_PATHS.approve, id), { method: 'POST', body: { version }, answer: changeSchema });
export const rejectChange = (id: string, version: number, reason: string) =>
  callOwnApi(changePath(APPROVAL_PATHS.reject, id), { method: 'POST', body: { version, reason }, answer: changeSchema });
export const withdrawChange = (id: string) =>
  callOwnApi(changePath(APPROVAL_PATHS.withdraw, id), { method: 'POST', body: {}, answer: changeSchema });
export const overrideChange = (id: string, version: number, reason: string) =>
  callOwnApi(changePath(APPROVAL_PATHS.override, id), { method: 'POST', body: { version, reason }, answer: changeSchema });
