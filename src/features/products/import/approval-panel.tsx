/**
 * What the import page shows about approval where the site's rule covers imports: the start button's words
 * and whether it may be pressed, and an alert for where the import's approval stands (waiting, rejected,
 * no longer holding because rows changed since it was asked for, or unreadable).
 */
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { ApprovalRuleFailed, AskFailed, type ApprovalNeed } from '../approval';
import type { ImportApproval } from './approval';

const products = (n: number) => `${n} ${n === 1 ? 'product' : 'products'}`;

export interface ApprovalStart {
  /** Words in place of the run's own (undefined: the run's own, e.g. "Create 12 products"). */
  label?: string;
  /** Whether the start button may be pressed, as far as approval goes. */
  ready: boolean;
  /** What pressing it does in place of running (asking), else undefined. */
  instead?: () => void;
  alert: ReactNode;
}

export function approvalStart({
  need,
  approval,
  ready,
  siteName,
  ask,
  asking,
  askError,
}: {
  need: ApprovalNeed;
  approval: ImportApproval;
  ready: number;
  siteName: string;
  ask: () => void;
  asking: boolean;
  askError: unknown;
}): ApprovalStart {
  const failed = askError ? <AskFailed error={askError} /> : null;
  switch (need.state) {
    case 'off':
      return { ready: true, alert: null };
    case 'checking':
      return { label: 'Checking whether approval is needed…', ready: false, alert: null };
    case 'failed':
      return { ready: false, alert: <ApprovalRuleFailed need={need} siteName={siteName} /> };
  }
  const change = approval.state === 'none' || approval.state === 'finding' || approval.state === 'unreadable' ? null : approval.change;
  const link = change ? (
    <Anchor component={Link} to={pathTo('approval', { id: change.id })}>
      Open the change
    </Anchor>
  ) : null;
  const again = (words: string) => (
    <Button size="xs" variant="default" loading={asking} onClick={ask}>
      {words}
    </Button>
  );
  switch (approval.state) {
    case 'finding':
      return { label: 'Looking for this import’s approval…', ready: false, alert: null };
    case 'unreadable':
      return {
        ready: false,
        alert: (
          <Alert color="red" title="This import’s approval could not be read" role="alert">
            {ownApiFailureText(approval.error)} Nothing is sent until it is known.
          </Alert>
        ),
      };
    case 'none':
      return { label: `Ask for approval of ${products(ready)}`, ready: ready > 0 && !asking, instead: ask, alert: failed };
    case 'rejected':
      return {
        label: `Ask for approval of ${products(ready)}`,
        ready: false,
        alert: (
          <Alert color="orange" title="The approval of this import was rejected" role="alert">
            <Group justify="space-between" gap="xs">
              <Text size="sm">Nothing was sent. {link} to read why; fix the rows, then ask again.</Text>
              {approval.change.mayEdit && again('Ask again (new version)')}
            </Group>
            {failed}
          </Alert>
        ),
      };
    case 'pending':
    case 'approved':
      if (approval.holds === null) return { label: 'Checking the rows against the approval…', ready: false, alert: null };
      if (!approval.holds) {
        return {
          label: `Ask for approval of ${products(ready)}`,
          ready: false,
          alert: (
            <Alert color="orange" title="The approval no longer holds" role="alert">
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  Rows changed since approval was asked for, so what would be sent is not what{' '}
                  {approval.state === 'approved' ? 'was approved' : 'is being looked at'}. Nothing is sent until the rows as they are now
                  are approved. {link}
                </Text>
                {approval.change.mayEdit ? (
                  again('Ask again (new version)')
                ) : (
                  <Text size="sm">Only {approval.change.author.name}, who asked, can ask again.</Text>
                )}
              </Group>
              {failed}
            </Alert>
          ),
        };
      }
      if (approval.state === 'pending') {
        return {
          label: 'Waiting for approval',
          ready: false,
          alert: (
            <Alert color="blue" title="Waiting for approval" role="status">
              <Text size="sm">
                Nothing was sent to {siteName}. {products(approval.change.items?.length ?? ready)} wait for approval (
                {approval.change.approvals} of {approval.change.needed}); once approved, the run sends exactly these rows. {link}
              </Text>
            </Alert>
          ),
        };
      }
      return {
        ready: true,
        alert: (
          <Alert color="teal" title="Approved" role="status">
            <Text size="sm">These rows were approved as they are: the run sends each one exactly as approved. {link}</Text>
          </Alert>
        ),
      };
  }
}
