/**
 * Asking for approval from the editor, a correction, a revert and the import (src/contract/approvals.ts):
 * whether the site's rule holds back this kind of write, the final button's words while that is known,
 * and what the page says once it has asked. The server is the authority: a covered write sent without an
 * approved change is refused there whatever the page shows; the page only avoids offering it.
 *
 * The rule is read beside the editor, never before it: the editor opens at once, and only the final
 * button waits. A failed read says so and offers another try; it is never taken for "off".
 */
import { Alert, Anchor, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { APPROVED_CHANGE_HEADER, RULE_OFF, ruleCovers, type ApprovalKind, type Change } from '@/contract/approvals';
import { approvalRulesQuery } from '@/features/approvals/approvals-api';
import { ApiError } from '@/lib/api-error';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';

/** Whether a write of this kind needs approval on the site: still being read, unreadable, off, or on. */
export type ApprovalNeed = { state: 'checking' } | { state: 'failed'; why: string; retry: () => void } | { state: 'off' } | { state: 'on' };

/** The site's rule for `kind`, read beside the page (every site's rules, shared by the pages for 30 s). */
export function useApprovalNeed(siteId: string, kind: ApprovalKind): ApprovalNeed {
  const rules = useQuery(approvalRulesQuery);
  if (rules.isPending) return { state: 'checking' };
  if (rules.isError) {
    return { state: 'failed', why: ownApiFailureText(rules.error), retry: () => void rules.refetch() };
  }
  // The server lists every site the person may use; a site it does not list has no rule of its own.
  const rule = rules.data.find((entry) => entry.site === siteId)?.rule ?? RULE_OFF;
  return ruleCovers(rule, kind) ? { state: 'on' } : { state: 'off' };
}

/**
 * After a write the server refused for want of an approved change (its 403 names APPROVED_CHANGE_HEADER):
 * the rule changed since the page read it, so it is read again, and the button then asks for approval.
 */
export function useRuleRefusal(): (error: unknown) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 403 && error.details.some((detail) => detail.field === APPROVED_CHANGE_HEADER)) {
        void queryClient.invalidateQueries({ queryKey: approvalRulesQuery.queryKey });
      }
    },
    [queryClient],
  );
}

/**
 * The final button's words and whether it can be pressed: `plain` where nothing needs approval, "Ask for
 * approval" where it does, and a short wait while the rule is read (or after it could not be).
 */
export function approvalButton(need: ApprovalNeed, plain: string, ask = 'Ask for approval'): { label: string; ready: boolean } {
  switch (need.state) {
    case 'checking':
      return { label: 'Checking whether approval is needed…', ready: false };
    case 'failed':
      return { label: plain, ready: false };
    case 'off':
      return { label: plain, ready: true };
    case 'on':
      return { label: ask, ready: true };
  }
}

/** The rule could not be read: nothing can be sent or asked for until it is, since either could be wrong. */
export function ApprovalRuleFailed({ need, siteName }: { need: Extract<ApprovalNeed, { state: 'failed' }>; siteName: string }) {
  return (
    <Alert color="red" title="Whether this needs approval could not be read" role="alert">
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {need.why} Until it is known whether {siteName} needs a second person’s approval for this, nothing is sent or asked for.
        </Text>
        <Button variant="default" size="xs" onClick={need.retry}>
          Read it again
        </Button>
      </Group>
    </Alert>
  );
}

/** After asking: nothing was sent; the change waits for approval on its page. */
export function AskedForApproval({ change, siteName, again = false }: { change: Change; siteName: string; again?: boolean }) {
  return (
    <Alert color="blue" title={again ? 'Asked again: waiting for approval' : 'Waiting for approval'} role="status">
      <Text size="sm">
        Nothing was sent to {siteName}. {again ? `Version ${change.version} of the change` : 'The change'} waits for{' '}
        {change.needed === 1 ? 'a second person’s approval' : `${change.needed} approvals`}; once approved, it is sent exactly as asked.{' '}
        <Anchor component={Link} to={pathTo('approval', { id: change.id })}>
          Open the change
        </Anchor>
      </Text>
    </Alert>
  );
}

/** Why asking failed, in the server's words where it gave them (its details listed after). */
export function AskFailed({ error, title = 'Approval could not be asked for' }: { error: unknown; title?: string }) {
  const details = error instanceof ApiError ? error.details : [];
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{ownApiFailureText(error)} Nothing was sent.</Text>
      {details.length > 0 && (
        <List size="sm" mt={4}>
          {details.slice(0, 20).map((detail, i) => (
            <List.Item key={i}>
              <b>{detail.field}</b>: {detail.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** While a pending change is read for its author to edit. */
export function ReadingChange() {
  return (
    <Stack>
      <Title order={1}>Edit the change</Title>
      <Text c="dimmed" role="status">
        Reading the change…
      </Text>
    </Stack>
  );
}
