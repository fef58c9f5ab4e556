/**
 * How the approvals pages name a change's kind, state, views and history, in one place for the list and a
 * change's page.
 */
import type { ApprovalKind, ChangeEvent, ChangeState, ChangeView } from '@/contract/approvals';

export const KIND_WORDS: Record<ApprovalKind, string> = {
  create: 'New product',
  update: 'Correction',
  import: 'Import',
};

export const STATE_WORDS: Record<ChangeState, { text: string; color: string }> = {
  pending: { text: 'Waiting for approval', color: 'blue' },
  approved: { text: 'Approved, not sent yet', color: 'teal' },
  sending: { text: 'Sending', color: 'blue' },
  sent: { text: 'Sent', color: 'gray' },
  rejected: { text: 'Rejected', color: 'red' },
  withdrawn: { text: 'Withdrawn', color: 'gray' },
  expired: { text: 'Expired', color: 'gray' },
  returned: { text: 'Back with its author', color: 'orange' },
};

export const VIEW_WORDS: Record<ChangeView, { tab: string; empty: string }> = {
  'to-approve': { tab: 'To approve', empty: 'Nothing is waiting for your approval.' },
  mine: { tab: 'Mine', empty: 'You have not asked for approval of any change.' },
  open: { tab: 'All open', empty: 'No change is waiting on any of your sites.' },
  closed: { tab: 'Closed', empty: 'No change has been closed yet: sent, rejected, withdrawn and expired changes show here.' },
};

export const EVENT_WORDS: Record<ChangeEvent['action'], string> = {
  asked: 'Asked for approval',
  edited: 'Edited (a new version)',
  approved: 'Approved',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
  overridden: 'Sent without approval (owner)',
  sent: 'Sent',
  returned: 'Returned to its author: the product changed since',
};

/** "1 of 2 approvals". */
export const approvalsText = (approvals: number, needed: number) => `${approvals} of ${needed} ${needed === 1 ? 'approval' : 'approvals'}`;
