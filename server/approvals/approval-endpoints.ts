/**
 * The endpoints of four eyes (APPROVAL_PATHS): the sites' rules (an owner of the site sets one), and the
 * changes held back for approval: asking, editing (its author: a new version, the approvals of the old one
 * void), approving and rejecting (people other than the author who hold an approver role of the rule),
 * withdrawing (its author), an owner's override (with a reason), the lists and the navigation's counts.
 * Every step is one entry of the activity record. What is refused is answered in the spec's error shape
 * and changes nothing.
 */
import * as z from 'zod/mini';
import { may, mayUse } from '../../src/contract/access';
import {
  APPROVAL_PATHS,
  CHANGE_VIEWS,
  CONTROL_CHARACTER,
  editedChangeSchema,
  newChangeSchema,
  REASON_MAX,
  approvalRuleSchema,
  ruleCovers,
  APPROVAL_KIND_LABELS,
  type ApprovalRule,
  type ChangeCounts,
  type ChangeSummary,
  type SiteRule,
} from '../../src/contract/approvals';
import type { ProductRecordShape } from '../../src/contract/products';
import type { SiteInfo } from '../../src/contract/site-info';
import { sendError } from '../answers';
import { shortUserAgent } from '../activity/record-site-calls';
import { actorOf, type Identity } from '../identity';
import { parseBody, sendJson, type Endpoint, type EndpointCall } from '../own-api';
import { randomId } from '../imports/import-store';
import { ChangeRefused, checkContent, EDITABLE, holdsApproverRole, isOwnerOf, personOf, type Approvals } from './approvals';
import type { ChangeRow } from './approval-store';

/** The largest change the endpoints read: an import's whole set of bodies (the write's own bound is MAX_BODY_BYTES each). */
export const CHANGE_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** At most this many changes in a list. */
const LIST_MAX = 200;

const versionSchema = z.strictObject({ version: z.int() });
const reasonSchema = z.strictObject({
  version: z.int(),
  reason: z.string().check(
    z.refine((text) => text.trim().length > 0, 'must say why'),
    z.maxLength(REASON_MAX, `must be at most ${REASON_MAX} characters`),
    z.refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain control characters'),
  ),
});
const withdrawSchema = z.optional(z.strictObject({}));
const viewSchema = z.enum(CHANGE_VIEWS);

export function approvalEndpoints(deps: {
  approvals: Approvals;
  sites: readonly SiteInfo[];
  /** Each site's product record shape, where its profile names one: an update's body is checked in the one shape. */
  shapes?: ReadonlyMap<string, ProductRecordShape>;
}): Endpoint[] {
  const { approvals, sites } = deps;
  const { store, record, now } = approvals;
  const siteIds = new Set(sites.map((site) => site.id));
  const siteName = (id: string) => sites.find((site) => site.id === id)?.name ?? id;
  /** The sites whose changes `who` sees: where they may write (support sees none). */
  const writableSites = (who: Identity) => sites.filter((site) => may(who, site.id, 'create')).map((site) => site.id);

  const address = (call: EndpointCall) => call.request.req.socket.remoteAddress ?? null;

  /** Answers a refusal in the spec's shape; true when it did. */
  function answered(call: EndpointCall, error: unknown): boolean {
    if (error instanceof ChangeRefused) {
      sendError(call.request.res, error.status, error.message, error.details);
      return true;
    }
    return false;
  }

  /**
   * Records a step that is already made; when the record cannot take it, `undo` puts it back and the
   * caller hears 503 (ChangeRefused): nothing changes unrecorded.
   */
  async function recorded(step: () => Promise<unknown>, undo: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      console.error('site-admin: the activity record could not take a step of a change', error);
      await undo();
      throw new ChangeRefused(503, 'The activity record could not take this step, so it was not made. Try again in a moment.');
    }
  }

  async function siteRuleOf(siteId: string, who: Identity): Promise<SiteRule> {
    const stored = await store.rule(siteId);
    return { site: siteId, rule: stored.rule, changedAt: stored.changedAt, changedBy: stored.changedBy, mayChange: isOwnerOf(who, siteId) };
  }

  /** The change of `:id`, expired first if its time ran out; 404 (answered) when there is none the person may see. */
  async function changeAt(call: EndpointCall): Promise<ChangeRow | undefined> {
    await approvals.expireDue();
    const row = await store.get(call.params.id ?? '');
    if (!row || !may(call.who, row.site_id, 'create')) {
      sendError(call.request.res, 404, 'There is no such change, or it is of a site you may not write to.');
      return undefined;
    }
    return row;
  }

  async function answerChange(call: EndpointCall, id: string, status = 200) {
    const row = await store.get(id);
    if (!row) {
      sendError(call.request.res, 404, 'There is no such change.');
      return;
    }
    sendJson(call.request.res, status, await approvals.changeOf(row, call.who));
  }

  const stale = (row: ChangeRow) =>
    new ChangeRefused(409, `This change is at version ${row.version} now: read it again to see what you are acting on.`, [
      { field: 'version', message: `is not the current version (${row.version})` },
    ]);

  /** The checks shared by approving and rejecting: an open change, its current version, a person other than its author who may approve. */
  async function approverChecks(call: EndpointCall, row: ChangeRow, version: number): Promise<void> {
    const { state, rule } = await approvals.standing(row);
    if (state !== 'pending' && state !== 'approved') {
      throw new ChangeRefused(409, `This change is ${state}: it can no longer be approved or rejected.`, [
        { field: 'state', message: state },
      ]);
    }
    if (version !== row.version) throw stale(row);
    const me = personOf(call.who);
    if (!me || me.id === row.author_id) {
      throw new ChangeRefused(403, 'You asked for this change, so someone else must approve it.');
    }
    if (!holdsApproverRole(call.who, row.site_id, rule.approvers)) {
      throw new ChangeRefused(
        403,
        `On ${siteName(row.site_id)} only ${rule.approvers.map((role) => `${role}s`).join(' and ')} may approve or reject changes.`,
      );
    }
  }

  return [
    {
      method: 'GET',
      path: APPROVAL_PATHS.rules,
      handle: async ({ request, who }) => {
        const usable = sites.filter((site) => mayUse(who, site.id));
        sendJson(request.res, 200, await Promise.all(usable.map((site) => siteRuleOf(site.id, who))));
      },
    },
    {
      method: 'PUT',
      path: APPROVAL_PATHS.rule,
      handle: async (call) => {
        const { request, who, params, body } = call;
        const siteId = params.site ?? '';
        if (!siteIds.has(siteId) || !mayUse(who, siteId)) {
          sendError(request.res, 404, `There is no site “${siteId}” that you may use.`);
          return;
        }
        if (!isOwnerOf(who, siteId)) {
          sendError(request.res, 403, `Only an owner of ${siteName(siteId)} may change which of its writes need approval.`);
          return;
        }
        const rule = parseBody(request.res, approvalRuleSchema, body, 'This approval rule cannot be set.');
        if (!rule) return;
        const me = personOf(who);
        if (!me) return;
        const before = await store.rule(siteId);
        const t = now();
        await store.setRule(siteId, rule, t, me);
        try {
          await recordRule(call, siteId, before.rule, rule);
        } catch (error) {
          // Nothing changes unrecorded: the rule goes back to what it was.
          console.error('site-admin: the activity record could not take a change of an approval rule', error);
          if (before.changedAt === null) await store.setRule(siteId, before.rule, t, me);
          else await store.setRule(siteId, before.rule, before.changedAt, before.changedBy ?? me);
          sendError(request.res, 503, 'The activity record could not take this change, so it was not made. Try again in a moment.');
          return;
        }
        sendJson(request.res, 200, await siteRuleOf(siteId, who));
      },
    },
    {
      method: 'GET',
      path: APPROVAL_PATHS.counts,
      background: true,
      handle: async ({ request, who }) => {
        await approvals.expireDue();
        const me = personOf(who);
        const rows = await store.list({ sites: writableSites(who), states: ['pending', 'returned', 'rejected'], limit: 1000 });
        const counts: ChangeCounts = { toApprove: 0, returned: 0 };
        // Asked every 30 s by every open page: a few queries whatever the number of changes, not a few per change.
        const others = rows.filter((row) => row.state === 'pending' && row.author_id !== me?.id);
        const rules = new Map<string, ApprovalRule>();
        for (const siteId of new Set(others.map((row) => row.site_id))) rules.set(siteId, (await store.rule(siteId)).rule);
        const mine = me
          ? await store.approvedBy(
              me.id,
              others.map((row) => row.id),
            )
          : new Set<string>();
        for (const row of rows) {
          if (me && row.author_id === me.id) {
            if (row.state === 'returned' || row.state === 'rejected') counts.returned += 1;
          } else if (
            row.state === 'pending' &&
            holdsApproverRole(who, row.site_id, rules.get(row.site_id)?.approvers ?? []) &&
            !mine.has(`${row.id}:${row.version}`) &&
            // One that has its approvals already (or an override) waits to be sent: nobody is to approve it.
            (await approvals.standing(row, rules)).state === 'pending'
          ) {
            counts.toApprove += 1;
          }
        }
        sendJson(request.res, 200, counts);
      },
    },
    {
      method: 'GET',
      path: APPROVAL_PATHS.list,
      handle: async ({ request, who }) => {
        const query = new URL(request.url, 'http://x').searchParams;
        const view = viewSchema.safeParse(query.get('view') ?? 'open');
        if (!view.success) {
          sendError(request.res, 400, 'The view must be one of to-approve, mine, open or closed.', [
            { field: 'view', message: `must be one of ${CHANGE_VIEWS.join(', ')}` },
          ]);
          return;
        }
        const site = query.get('site');
        let usable = writableSites(who);
        if (site !== null && site !== '') usable = usable.filter((id) => id === site);
        await approvals.expireDue();
        const me = personOf(who);
        const rows = await store.list({
          sites: usable,
          limit: view.data === 'to-approve' ? 1000 : LIST_MAX,
          ...(view.data === 'open' || view.data === 'to-approve' ? { states: ['pending', 'sending', 'returned'] } : {}),
          ...(view.data === 'closed' ? { states: ['sent', 'rejected', 'withdrawn', 'expired'] } : {}),
          ...(view.data === 'mine' ? { author: me?.id ?? '' } : {}),
        });
        const summaries: ChangeSummary[] = [];
        const rules = new Map<string, ApprovalRule>();
        for (const row of rows) {
          const { rule: _rule, counting: _counting, ...summary } = await approvals.summaryOf(row, who, rules);
          if (view.data === 'to-approve' && !summary.mayApprove) continue;
          summaries.push(summary);
          if (summaries.length >= LIST_MAX) break;
        }
        sendJson(request.res, 200, summaries);
      },
    },
    {
      method: 'POST',
      path: APPROVAL_PATHS.list,
      maxBodyBytes: CHANGE_MAX_BODY_BYTES,
      handle: async (call) => {
        const { request, who, body } = call;
        const asked = parseBody(request.res, newChangeSchema, body, 'This change cannot be asked for.');
        if (!asked) return;
        const me = personOf(who);
        if (!siteIds.has(asked.site) || !mayUse(who, asked.site)) {
          sendError(request.res, 404, `There is no site “${asked.site}” that you may use.`, [
            { field: 'site', message: 'is not a site you may use' },
          ]);
          return;
        }
        if (!me || !may(who, asked.site, 'create')) {
          sendError(request.res, 403, `You may not write to ${siteName(asked.site)}, so you cannot ask for a change there.`);
          return;
        }
        const { rule } = await store.rule(asked.site);
        if (!ruleCovers(rule, asked.kind)) {
          sendError(
            request.res,
            409,
            `This site does not need approval for ${APPROVAL_KIND_LABELS[asked.kind].toLowerCase()}; send it directly.`,
            [{ field: 'kind', message: 'is not held back by the site’s rule' }],
          );
          return;
        }
        try {
          const content = await checkContent(
            asked.kind,
            asked.kind === 'create' ? { body: asked.body } : asked.kind === 'update' ? asked : { items: asked.items },
            deps.shapes?.get(asked.site),
          );
          const t = now();
          const row: ChangeRow = {
            id: randomId(),
            site_id: asked.site,
            kind: asked.kind,
            version: 1,
            state: 'pending',
            title: content.title,
            product: content.product,
            base: content.base,
            before_text: content.before,
            body: content.body,
            items: content.items ? JSON.stringify(content.items) : null,
            hash: content.hash,
            revert_of: asked.kind === 'update' ? (asked.revertOf ?? null) : null,
            import_id: asked.kind === 'import' ? asked.importId : null,
            author_kind: who.kind === 'demo' ? 'demo' : 'person',
            author_id: me.id,
            author_name: me.name,
            asked_at: t,
            updated_at: t,
            expires_at: t + approvals.expiryMs,
            reason: null,
            override_version: null,
            override_by_id: null,
            override_by_name: null,
            override_at: null,
            override_reason: null,
            sent_seq: null,
          };
          await store.insert(row);
          await recorded(
            () => record(row, 'change.asked', 'asked', who, { address: address(call) }),
            () => store.remove(row.id),
          );
          await answerChange(call, row.id, 201);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
    {
      method: 'GET',
      path: APPROVAL_PATHS.one,
      handle: async (call) => {
        const row = await changeAt(call);
        if (!row) return;
        sendJson(call.request.res, 200, await approvals.changeOf(row, call.who));
      },
    },
    {
      method: 'PUT',
      path: APPROVAL_PATHS.one,
      maxBodyBytes: CHANGE_MAX_BODY_BYTES,
      handle: async (call) => {
        const edit = parseBody(call.request.res, editedChangeSchema, call.body, 'This edit of the change cannot be made.');
        if (!edit) return;
        const row = await changeAt(call);
        if (!row) return;
        try {
          const me = personOf(call.who);
          if (!me || me.id !== row.author_id) throw new ChangeRefused(403, 'Only the person who asked for this change may edit it.');
          if (!EDITABLE.includes(row.state)) {
            throw new ChangeRefused(409, `This change is ${row.state}: it can no longer be edited.`, [
              { field: 'state', message: row.state },
            ]);
          }
          if (edit.version !== row.version) throw stale(row);
          const content = await checkContent(
            row.kind as 'create' | 'update' | 'import',
            row.kind === 'import'
              ? { items: edit.items }
              : row.kind === 'update'
                ? {
                    body: edit.body,
                    product: row.product ?? undefined,
                    base: edit.base ?? row.base ?? undefined,
                    before: edit.before ?? row.before_text ?? undefined,
                  }
                : { body: edit.body },
            deps.shapes?.get(row.site_id),
          );
          const voided = await store.countOf(row.id, row.version);
          const t = now();
          const moved = await store.move(
            row.id,
            EDITABLE,
            'pending',
            {
              version: row.version + 1,
              title: content.title,
              body: content.body,
              items: content.items ? JSON.stringify(content.items) : null,
              hash: content.hash,
              base: content.base,
              before_text: content.before,
              updated_at: t,
              expires_at: t + approvals.expiryMs,
              reason: null,
            },
            row.version,
          );
          if (!moved) throw stale((await store.get(row.id)) ?? row);
          const edited = (await store.get(row.id)) ?? row;
          await recorded(
            () => record(edited, 'change.edited', 'edited', call.who, { detail: { voided }, address: address(call) }),
            () => store.restore(row),
          );
          await answerChange(call, row.id);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
    {
      method: 'POST',
      path: APPROVAL_PATHS.approve,
      handle: async (call) => {
        const asked = parseBody(call.request.res, versionSchema, call.body, 'Say which version you approve.');
        if (!asked) return;
        const row = await changeAt(call);
        if (!row) return;
        try {
          await approverChecks(call, row, asked.version);
          const me = personOf(call.who);
          if (!me) return;
          if (!(await store.approve(row.id, row.version, me, now()))) {
            throw new ChangeRefused(403, 'You approved this version already; one person’s approval counts once.');
          }
          // Edited in the meantime: the approval is of a version that is no longer current, and counts for nothing.
          const after = await store.get(row.id);
          if (!after || after.version !== row.version) throw stale(after ?? row);
          await recorded(
            () => record(row, 'change.approved', 'approved', call.who, { address: address(call) }),
            () => store.unapprove(row.id, row.version, me.id),
          );
          await answerChange(call, row.id);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
    {
      method: 'POST',
      path: APPROVAL_PATHS.reject,
      handle: async (call) => {
        const asked = parseBody(call.request.res, reasonSchema, call.body, 'Say which version you reject, and why.');
        if (!asked) return;
        const row = await changeAt(call);
        if (!row) return;
        try {
          await approverChecks(call, row, asked.version);
          const reason = asked.reason.trim();
          if (!(await store.move(row.id, ['pending'], 'rejected', { reason, updated_at: now() }, row.version))) throw stale(row);
          await recorded(
            () => record({ ...row, state: 'rejected' }, 'change.rejected', 'rejected', call.who, { reason, address: address(call) }),
            () => store.restore(row),
          );
          await answerChange(call, row.id);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
    {
      method: 'POST',
      path: APPROVAL_PATHS.withdraw,
      handle: async (call) => {
        if (!parseBody(call.request.res, withdrawSchema, call.body, 'Withdrawing takes no fields.') && call.body !== undefined) return;
        const row = await changeAt(call);
        if (!row) return;
        try {
          const me = personOf(call.who);
          if (!me || me.id !== row.author_id) throw new ChangeRefused(403, 'Only the person who asked for this change may withdraw it.');
          if (!(await store.move(row.id, EDITABLE, 'withdrawn', { updated_at: now() }))) {
            throw new ChangeRefused(409, `This change is ${row.state}: it can no longer be withdrawn.`, [
              { field: 'state', message: row.state },
            ]);
          }
          await recorded(
            () => record({ ...row, state: 'withdrawn' }, 'change.withdrawn', 'withdrawn', call.who, { address: address(call) }),
            () => store.restore(row),
          );
          await answerChange(call, row.id);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
    {
      method: 'POST',
      path: APPROVAL_PATHS.override,
      handle: async (call) => {
        const asked = parseBody(call.request.res, reasonSchema, call.body, 'Say which version is to be sent without approval, and why.');
        if (!asked) return;
        const row = await changeAt(call);
        if (!row) return;
        try {
          if (!isOwnerOf(call.who, row.site_id)) {
            throw new ChangeRefused(403, `Only an owner of ${siteName(row.site_id)} may send a change without its approvals.`);
          }
          if (row.state !== 'pending') {
            throw new ChangeRefused(409, `This change is ${row.state}: it cannot be sent.`, [{ field: 'state', message: row.state }]);
          }
          if (asked.version !== row.version) throw stale(row);
          const me = personOf(call.who);
          if (!me) return;
          const reason = asked.reason.trim();
          const t = now();
          const moved = await store.move(
            row.id,
            ['pending'],
            'pending',
            {
              override_version: row.version,
              override_by_id: me.id,
              override_by_name: me.name,
              override_at: t,
              override_reason: reason,
              updated_at: t,
            },
            row.version,
          );
          if (!moved) throw stale(row);
          await recorded(
            () => record(row, 'change.overridden', 'overridden', call.who, { reason, address: address(call) }),
            () => store.restore(row),
          );
          await answerChange(call, row.id);
        } catch (error) {
          if (!answered(call, error)) throw error;
        }
      },
    },
  ];

  async function recordRule(call: EndpointCall, siteId: string, before: unknown, after: unknown) {
    await approvals.activity.append({
      at: now(),
      actor: actorOf(call.who),
      siteId,
      action: 'approval.rule',
      outcome: 'ok',
      address: address(call),
      userAgent: shortUserAgent(call.request.req.headers['user-agent']),
      detail: { site: siteId, before, after },
    });
  }
}
