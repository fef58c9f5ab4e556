/**
 * The pipeline step, after permissions and before the update's guard, that enforces four eyes: a write the
 * site's rule holds back (a create, an update, or any write of an import) goes on only when it carries
 * `x-approved-change: <id>` naming a change of this site and kind (this product, this import's row) that is
 * approved now (enough approvals from people other than its author who still hold an approver role of the
 * current rule, or an owner's override of its current version), not expired, and whose hash is the SHA-256
 * of the very bytes received. Otherwise 403 in the spec's error shape (409 when it was sent or is being sent
 * already), and nothing is forwarded. A header on a write the rule does not cover is checked all the same.
 *
 * Its hook is the first to see the body. A create's or an update's change is claimed with a conditional
 * UPDATE (pending → sending), so one write sends it and a second is refused; what its answer means then
 * settles it (see settle): done or unknown → sent, linked to the write's entry in the activity record; 412
 * on an update, or any other refusal by the platform → returned to its author with the reason, nothing
 * written; not processed (429), or stopped before it left → approved again. An import's change
 * is not claimed: each of its rows is sent once by the import's own claim, and the change is sent when the
 * import's run is released as finished (importFinished).
 */
import { IMPORT_PRODUCT_HEADER } from '../../src/contract/imports';
import { APPROVAL_KIND_LABELS, APPROVED_CHANGE_HEADER, REASON_MAX, ruleCovers, type ApprovalKind } from '../../src/contract/approvals';
import { PRODUCT_BASE_HEADER, REVERT_OF_HEADER } from '../../src/contract/products';
import { refuse } from '../answers';
import { updatedProductId } from '../activity/record-site-calls';
import { WriteRefused, type ForwardOutcome, type Step } from '../pipeline/context';
import type { Identity } from '../identity';
import { hashOfBytes, itemsOf, type Approvals } from './approvals';
import type { ChangeRow } from './approval-store';

const NOT_SENT = 'Nothing was sent.';

export const RETURNED_REASON =
  'The product was changed on the platform since this change was asked for, so nothing was sent. Edit the change against the product as it is now to ask again.';

/** `siteNames`: each site's name in the profile, for the refusal's words. */
export function requireApproval(approvals: Approvals, siteNames: ReadonlyMap<string, string>): Step {
  const { store } = approvals;
  return (request, next) => {
    const { req, res, operation, site, who } = request;
    if (!site || (operation?.name !== 'create-product' && operation?.name !== 'update-product')) {
      next();
      return;
    }
    const importHeader = req.headers[IMPORT_PRODUCT_HEADER];
    const kind: ApprovalKind = importHeader !== undefined ? 'import' : operation.name === 'create-product' ? 'create' : 'update';
    const header = req.headers[APPROVED_CHANGE_HEADER];
    const siteName = siteNames.get(site.id) ?? site.id;
    void store.rule(site.id).then(
      ({ rule }) => {
        if (header === undefined) {
          // An import's write is held back where imports are, and also where its own create or update is: the
          // import's header must not get a write round a rule that covers it (its approval is still an import's change).
          const ownKind: ApprovalKind = operation.name === 'create-product' ? 'create' : 'update';
          if (!ruleCovers(rule, kind) && !ruleCovers(rule, ownKind)) {
            next();
            return;
          }
          const held: ApprovalKind = ruleCovers(rule, kind) ? kind : ownKind;
          refuse(
            req,
            res,
            403,
            `Writes of ${APPROVAL_KIND_LABELS[held].toLowerCase()} to ${siteName} need a second person’s approval. Ask for approval instead. ${NOT_SENT}`,
            [{ field: APPROVED_CHANGE_HEADER, message: 'is required on this site' }],
          );
          return;
        }
        const id = typeof header === 'string' ? header : '';
        const productId = operation.name === 'update-product' ? updatedProductId(operation.upstreamPath) : null;
        const importValue = typeof importHeader === 'string' ? importHeader : '';
        const slash = importValue.indexOf('/');
        const importId = slash > 0 ? importValue.slice(0, slash) : '';
        const key = slash > 0 ? importValue.slice(slash + 1) : '';
        const base = req.headers[PRODUCT_BASE_HEADER];
        const revertOf = req.headers[REVERT_OF_HEADER];
        /** The change this write claimed (a create's or an update's), to settle once its outcome is known. */
        let claimed: ChangeRow | undefined;
        let onOverride = false;
        (request.forwardHooks ??= []).push({
          beforeSend: async (body) => {
            await approvals.expireDue();
            const row = id ? await store.get(id) : undefined;
            const refused = (message: string, status = 403) =>
              new WriteRefused(status, `${message} ${NOT_SENT}`, [
                { field: APPROVED_CHANGE_HEADER, message: 'does not name an approved change of this write' },
              ]);
            if (!row || row.site_id !== site.id) throw refused('There is no such change for this site.');
            if (row.kind !== kind) throw refused(`The change is not of ${APPROVAL_KIND_LABELS[kind].toLowerCase()}.`);
            const received = hashOfBytes(body);
            if (kind === 'import') {
              const item = itemsOf(row).find((one) => one.key === key);
              if (row.import_id !== importId || !item) throw refused('The change is not of this import’s product.');
              const method = operation.name === 'create-product' ? 'POST' : 'PUT';
              if (item.method !== method || (method === 'PUT' && (item.product !== productId || item.base !== base))) {
                throw refused('The change holds another write for this product.');
              }
              if (item.hash !== received) throw refused('The body is not the one approved: its SHA-256 differs.');
            } else {
              if (kind === 'update' && (row.product !== productId || row.base !== base)) {
                throw refused('The change is of another product, or of the product as read at another time.');
              }
              // A revert is approved as the revert of that one update (its diff is what was shown), and nothing else is.
              if (kind === 'update' && (row.revert_of === null ? revertOf !== undefined : revertOf !== String(row.revert_of))) {
                throw refused('The change is not this revert.');
              }
              if (row.hash !== received) throw refused('The body is not the one approved: its SHA-256 differs.');
            }
            if (row.state === 'sending' || row.state === 'sent') {
              throw refused('This change was sent already (or is on its way): an approved change is sent once.', 409);
            }
            const standing = await approvals.standing(row);
            if (standing.state !== 'approved') {
              throw refused(
                row.state === 'pending'
                  ? `The change has ${standing.counting.length} of the ${standing.rule.approvals} approvals it needs from people other than its author.`
                  : `The change is ${standing.state}.`,
              );
            }
            if (kind !== 'import') {
              const t = approvals.now();
              if (!(await store.move(row.id, ['pending'], 'sending', { updated_at: t }, row.version, t))) {
                throw refused('This change was sent already (or is on its way, or was edited): an approved change is sent once.', 409);
              }
              claimed = row;
              onOverride = standing.counting.length < standing.rule.approvals;
            }
            return { approvedChange: row.id };
          },
          beforeAnswer: async (outcome, noted) => {
            if (!claimed) return;
            await settle(approvals, claimed, onOverride, outcome, noted.recordSeq ?? null, who ?? null);
          },
        });
        next();
      },
      (error: unknown) => {
        console.error('site-admin: a site’s approval rule could not be read', error);
        refuse(req, res, 503, `site-admin could not read whether this write needs approval, so it did not send it; try again in a moment.`);
      },
    );
  };
}

/** A platform's refusal as a returned change's reason: what it said, without control characters, at most REASON_MAX characters. */
function refusedReason(status: number, message: string | null): string {
  // eslint-disable-next-line no-control-regex -- the platform's words go into the database (NUL is refused by PostgreSQL)
  const said = (message ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const text = `The platform refused this change (${status})${said ? `: ${said}` : ''}. Nothing was written. Edit the change to ask again.`;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text;
}

/**
 * A claimed change's end, from what its write's answer means (the one table, src/contract/write-outcome.ts):
 * - done, or unknown (it may have been written: never sent again) → sent;
 * - 412 on an update (the product changed since the change was asked for) → returned to its author;
 * - refused by the platform for any other reason (nothing was written, and sending the same body again
 *   would be refused again) → returned to its author with the platform's words; but a 401 or 403 refuses
 *   the site's key, not the change: it stays approved, to send once the key is put right;
 * - not processed (429, a 503 with Retry-After: safe to send again), or stopped before it left (the product
 *   could not be read, our own checks) → approved again, to send later.
 */
async function settle(
  approvals: Approvals,
  row: ChangeRow,
  /** Whether it went on an owner's override rather than its approvals: the send's own entry then says so. */
  onOverride: boolean,
  outcome: ForwardOutcome,
  writeSeq: number | null,
  who: Identity | null,
) {
  const { store } = approvals;
  const t = approvals.now();
  const write = outcome.write;
  if (write?.kind === 'rejected' && write.status === 412 && row.kind === 'update') {
    await returned(approvals, row, RETURNED_REASON, who, t);
    return;
  }
  if (outcome.sent && write?.kind === 'rejected' && write.status !== 401 && write.status !== 403) {
    await returned(approvals, row, refusedReason(write.status, write.message), who, t);
    return;
  }
  if (outcome.sent && write?.kind !== 'not-processed' && write?.kind !== 'rejected') {
    if (await store.move(row.id, ['sending'], 'sent', { sent_seq: writeSeq, updated_at: t })) {
      await approvals.record({ ...row, state: 'sent' }, 'change.sent', 'sent', who, {
        write: writeSeq,
        detail: {
          outcome: write?.kind ?? 'unknown',
          status: outcome.status || null,
          ...(onOverride
            ? { override: true, reason: row.override_reason ?? '', overrideBy: { id: row.override_by_id, name: row.override_by_name } }
            : {}),
        },
      });
    }
    return;
  }
  // Not taken, and safe to send again: approved again, to send later.
  await store.move(row.id, ['sending'], 'pending', { updated_at: t });
}

async function returned(approvals: Approvals, row: ChangeRow, reason: string, who: Identity | null, t: number) {
  if (await approvals.store.move(row.id, ['sending'], 'returned', { reason, updated_at: t })) {
    await approvals.record({ ...row, state: 'returned' }, 'change.returned', 'returned', who, { reason });
  }
}

/**
 * An import's run was released as finished: each of its approved changes is sent now (each row was sent
 * once, by the import's own claim), recorded with the import.
 */
export async function importFinished(approvals: Approvals, importId: string, who: Identity): Promise<void> {
  for (const row of await approvals.store.ofImport(importId)) {
    const { state } = await approvals.standing(row);
    if (state !== 'approved') continue;
    if (await approvals.store.move(row.id, ['pending'], 'sent', { updated_at: approvals.now() }, row.version)) {
      await approvals.record({ ...row, state: 'sent' }, 'change.sent', 'sent', who, { detail: { import: importId, outcome: 'finished' } });
    }
  }
}
