/**
 * Our server's answers about approvals, for the pages' tests that stand in for it: a site's rule, and the
 * change it would store for what was asked (its schema's shape, so the page reads it as it reads the server's).
 */
import { changeSchema, type ApprovalKind, type Change, type NewChange, type SiteRule } from '@/contract/approvals';

/** A site whose rule holds back `writes`, one approval by an owner. */
export const ruleOn = (site: string, writes: ApprovalKind[]): SiteRule => ({
  site,
  rule: { writes, approvals: 1, approvers: ['owner'] },
  changedAt: 1_767_225_600_000,
  changedBy: { id: 'owner', name: 'Olive Owner' },
  mayChange: false,
});

/** The pending change the server stores for `asked`, as `id`, version 1. */
export function changeFor(asked: NewChange, id: string, more: Partial<Change> = {}): Change {
  return changeSchema.parse({
    id,
    site: asked.site,
    kind: asked.kind,
    version: 1,
    state: 'pending',
    title: asked.kind === 'import' ? `${asked.items.length} products` : 'A product',
    product: asked.kind === 'update' ? asked.product : null,
    author: { id: 'demo', name: 'Local demo' },
    askedAt: 1_767_225_600_000,
    expiresAt: 1_767_830_400_000,
    approvals: 0,
    needed: 1,
    mayApprove: false,
    hash: 'sha256-0',
    body: asked.kind === 'import' ? null : asked.body,
    base: asked.kind === 'update' ? asked.base : null,
    before: asked.kind === 'update' ? asked.before : null,
    revertOf: asked.kind === 'update' ? (asked.revertOf ?? null) : null,
    importId: asked.kind === 'import' ? asked.importId : null,
    items: asked.kind === 'import' ? asked.items.map((item) => ({ ...item, hash: 'sha256-0' })) : null,
    approvedBy: [],
    approvers: ['owner'],
    override: null,
    events: [{ action: 'asked', version: 1, by: { id: 'demo', name: 'Local demo' }, at: 1_767_225_600_000 }],
    mayEdit: true,
    mayWithdraw: true,
    mayOverride: false,
    maySend: false,
    ...more,
  });
}
