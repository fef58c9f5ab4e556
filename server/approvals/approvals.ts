/**
 * Four eyes on a site's writes, as the server keeps and judges them (src/contract/approvals.ts): the checks
 * of what is asked for (the write's own rules, before anything is stored), who may do what with a change,
 * whether it is approved now (counted again at send time against the current rule and the approvers' current
 * grants), expiry, and the activity record's entry of every step. The endpoints (approval-endpoints.ts) and
 * the pipeline's step (require-approval.ts) both work through this.
 */
import { createHash } from 'node:crypto';
import { roleOn, grantsOn, may, ACTOR_LABELS } from '../../src/contract/access';
import {
  bodyHash,
  importSetHash,
  OPEN_CHANGE_STATES,
  type ApprovalKind,
  type ApprovalRule,
  type Change,
  type ChangeEvent,
  type ChangeState,
  type ChangeSummary,
  type ImportItem,
} from '../../src/contract/approvals';
import {
  FINGERPRINT_PATTERN,
  productFingerprint,
  updateBodyFromShape,
  validateProductUpdate,
  type ProductRecordShape,
} from '../../src/contract/products';
import { validateProduct } from '../../src/contract/rules';
import { isJsonObject } from '../../src/contract/site-api-basics';
import type { ErrorDetail } from '../../src/contract/site-api';
import type { ActivityStore } from '../activity/activity-store';
import { actorOf, type Identity } from '../identity';
import type { ApprovalStore, ChangeRow, StoredItem } from './approval-store';

/** Who acts on a change: a person, or the local demo. */
export interface Person {
  id: string;
  name: string;
}

export const DEMO_PERSON: Person = { id: 'demo', name: ACTOR_LABELS.demo };

export function personOf(who: Identity): Person | undefined {
  if (who.kind === 'person') return { id: who.id, name: who.displayName };
  if (who.kind === 'demo') return DEMO_PERSON;
  return undefined;
}

/** `sha256-<hex>` of bytes as received: what a write's body is checked against (the contract's bodyHash, of a Buffer). */
export function hashOfBytes(body: Buffer): string {
  return `sha256-${createHash('sha256').update(body).digest('hex')}`;
}

/** Whether `who` is an owner of `siteId` (the local demo is: it may do everything). */
export function isOwnerOf(who: Identity, siteId: string): boolean {
  if (who.kind === 'demo') return true;
  return who.kind === 'person' && roleOn(who.grants, siteId) === 'owner';
}

/** Whether `who` holds one of `approvers` on `siteId` (a grant of the site or of every site). */
export function holdsApproverRole(who: Identity, siteId: string, approvers: readonly string[]): boolean {
  return who.kind === 'person' && grantsOn(who.grants, siteId).some((grant) => approvers.includes(grant.role));
}

/** A refusal of something asked of a change: the status and message in the spec's error shape. */
export class ChangeRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

/** The states from which a change may still be edited by its author (a rejected change too: a new version asks again). */
export const EDITABLE: readonly string[] = ['pending', 'rejected', 'returned'];

/** What a change holds, checked, ready to store. */
export interface Content {
  body: string | null;
  items: StoredItem[] | null;
  hash: string;
  title: string;
  product: string | null;
  base: string | null;
  before: string | null;
}

/** Every control character (a name may hold any, escaped in its JSON; NUL is refused by PostgreSQL). */
// eslint-disable-next-line no-control-regex -- the point is to remove control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/** A name or slug as a title shows it: control characters become a space, and it is at most 200 characters. */
function titlePart(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.replace(CONTROL_CHARACTERS, ' ').trim().slice(0, 200);
  return text || null;
}

/** The product's name and slug from a body, for a title. */
function titleOf(body: string, fallback: string): string {
  try {
    const json = JSON.parse(body) as unknown;
    if (isJsonObject(json)) {
      const name = titlePart(json.name);
      const slug = titlePart(json.slug);
      if (name && slug) return `${name} (${slug})`;
      if (name) return name;
      if (slug) return slug;
    }
  } catch {
    // Not JSON: the fallback.
  }
  return fallback;
}

type Check = { ok: true } | { ok: false; status: 400 | 422; details: ErrorDetail[] };

function checkCreateBody(body: string, field: string): Check {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, status: 400, details: [{ field, message: 'must be a product as JSON' }] };
  }
  const check = validateProduct(json);
  return check.ok ? { ok: true } : { ok: false, status: check.status, details: prefixed(check.details, field) };
}

function checkUpdateBody(body: string, field: string, shape: ProductRecordShape | undefined): Check {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, status: 400, details: [{ field, message: 'must be a product update as JSON' }] };
  }
  const check = validateProductUpdate(shape && isJsonObject(json) ? updateBodyFromShape(json, shape) : json, validateProduct);
  return check.ok ? { ok: true } : { ok: false, status: check.status, details: prefixed(check.details, field) };
}

const prefixed = (details: readonly ErrorDetail[], field: string): ErrorDetail[] =>
  details.map((detail) => ({ field: detail.field === 'body' ? field : `${field}.${detail.field}`, message: detail.message }));

const PRODUCT_ID = /^\d{1,20}$/;

function refusedCheck(check: Extract<Check, { ok: false }>, what: string): ChangeRefused {
  return new ChangeRefused(
    check.status,
    check.status === 400
      ? `The ${what} is malformed: some fields have the wrong type or are not fields of a product. Nothing was stored.`
      : `The ${what} has fields with values that are not allowed. Nothing was stored.`,
    check.details,
  );
}

/**
 * Checks what a change would send as the write itself would be checked, and works out its hash and title;
 * throws ChangeRefused (400 or 422 with the details) otherwise.
 */
export async function checkContent(
  kind: ApprovalKind,
  content: { body?: string; product?: string; base?: string; before?: string; items?: readonly ImportItem[] },
  shape: ProductRecordShape | undefined,
): Promise<Content> {
  if (kind === 'create') {
    if (content.body === undefined)
      throw new ChangeRefused(400, 'A new product’s change must hold its body.', [{ field: 'body', message: 'is required' }]);
    const check = checkCreateBody(content.body, 'body');
    if (!check.ok) throw refusedCheck(check, 'product');
    return {
      body: content.body,
      items: null,
      hash: await bodyHash(content.body),
      title: titleOf(content.body, 'New product'),
      product: null,
      base: null,
      before: null,
    };
  }
  if (kind === 'update') {
    const { body, product, base, before } = content;
    const missing = (
      [
        ['body', body],
        ['product', product],
        ['base', base],
        ['before', before],
      ] as const
    ).filter(([, value]) => value === undefined);
    if (missing.length > 0) {
      throw new ChangeRefused(
        400,
        'A correction’s change must hold its body, the product’s id, its fingerprint as read and the product as read.',
        missing.map(([field]) => ({ field, message: 'is required' })),
      );
    }
    if (!PRODUCT_ID.test(product ?? ''))
      throw new ChangeRefused(400, 'The product id is not a platform id.', [{ field: 'product', message: 'must be digits' }]);
    if (!FINGERPRINT_PATTERN.test(base ?? '')) {
      throw new ChangeRefused(400, 'The base must be the fingerprint of the product as read.', [
        { field: 'base', message: 'must be "sha256-<64 hex digits>", in quotes' },
      ]);
    }
    let read: unknown;
    try {
      read = JSON.parse(before ?? '');
    } catch {
      throw new ChangeRefused(400, 'The product as read is not JSON.', [
        { field: 'before', message: 'must be the product as read, as JSON' },
      ]);
    }
    if ((await productFingerprint(read)) !== base) {
      throw new ChangeRefused(422, 'The base is not the fingerprint of the product as read. Nothing was stored.', [
        { field: 'base', message: 'is not the fingerprint of before' },
      ]);
    }
    const check = checkUpdateBody(body ?? '', 'body', shape);
    if (!check.ok) throw refusedCheck(check, 'update');
    return {
      body: body ?? '',
      items: null,
      hash: await bodyHash(body ?? ''),
      title: titleOf(body ?? '', titleOf(before ?? '', `Product ${product ?? ''}`)),
      product: product ?? null,
      base: base ?? null,
      before: before ?? null,
    };
  }
  const items = content.items;
  if (!items || items.length === 0) {
    throw new ChangeRefused(400, 'An import’s change must hold its products.', [
      { field: 'items', message: 'must hold at least one product' },
    ]);
  }
  const details: ErrorDetail[] = [];
  let status: 400 | 422 = 422;
  const keys = new Set<string>();
  for (const [index, item] of items.entries()) {
    const field = `items[${index}]`;
    if (keys.has(item.key)) {
      details.push({ field: `${field}.key`, message: 'names a product twice' });
      status = 400;
    }
    keys.add(item.key);
    if (item.method === 'PUT') {
      if (!PRODUCT_ID.test(item.product ?? '')) {
        details.push({ field: `${field}.product`, message: 'is required on an update, as digits' });
        status = 400;
      }
      if (!FINGERPRINT_PATTERN.test(item.base ?? '')) {
        details.push({ field: `${field}.base`, message: 'is required on an update: the fingerprint as read' });
        status = 400;
      }
    }
    const check = item.method === 'POST' ? checkCreateBody(item.body, `${field}.body`) : checkUpdateBody(item.body, `${field}.body`, shape);
    if (!check.ok) {
      details.push(...check.details);
      if (check.status === 400) status = 400;
    }
  }
  if (details.length > 0) throw refusedCheck({ ok: false, status, details }, 'import');
  const stored: StoredItem[] = await Promise.all(
    items.map(async (item) => ({
      key: item.key,
      method: item.method,
      ...(item.product !== undefined ? { product: item.product } : {}),
      ...(item.base !== undefined ? { base: item.base } : {}),
      body: item.body,
      hash: await bodyHash(item.body),
    })),
  );
  return {
    body: null,
    items: stored,
    hash: await importSetHash(items),
    title: items.length === 1 ? '1 product' : `${items.length} products`,
    product: null,
    base: null,
    before: null,
  };
}

export function itemsOf(row: ChangeRow): StoredItem[] {
  if (!row.items) return [];
  try {
    const items = JSON.parse(row.items) as unknown;
    return Array.isArray(items) ? (items as StoredItem[]) : [];
  } catch {
    return [];
  }
}

export function createApprovals(deps: {
  store: ApprovalStore;
  activity: ActivityStore;
  now: () => number;
  expiryDays: number;
  /**
   * How long a claimed change may stay `sending` before it is taken to have been sent (the server that claimed
   * it stopped before its write settled it): longer than any write can take (default 2 × 15 s + a minute).
   */
  stuckAfterMs?: number;
}) {
  const { store, activity, now, expiryDays } = deps;
  const stuckAfterMs = deps.stuckAfterMs ?? 2 * 15_000 + 60_000;
  const expiryMs = expiryDays * 86_400_000;

  /**
   * Records a step of a change in the activity record and in its history; resolves to the entry's number.
   * `by` null: nobody did it (an expiry).
   */
  async function record(
    row: ChangeRow,
    action: string,
    step: ChangeEvent['action'],
    who: Identity | null,
    extra: { reason?: string; version?: number; write?: number | null; detail?: Record<string, unknown>; address?: string | null } = {},
  ): Promise<number> {
    const version = extra.version ?? row.version;
    const [entry] = await activity.append({
      at: now(),
      actor: who ? actorOf(who) : { kind: 'anonymous' },
      siteId: row.site_id,
      action,
      outcome: 'ok',
      target: { name: row.title.slice(0, 500) },
      address: extra.address ?? null,
      detail: {
        change: row.id,
        site: row.site_id,
        kind: row.kind,
        version,
        hash: row.hash,
        ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
        ...(extra.write !== undefined ? { write: extra.write } : {}),
        ...extra.detail,
      },
    });
    const seq = entry ? Number(entry.seq) : null;
    const by = who ? personOf(who) : undefined;
    await store.addEvent(row.id, {
      action: step,
      version,
      byId: by?.id ?? null,
      byName: by?.name ?? null,
      at: now(),
      reason: extra.reason ?? null,
      seq,
      writeSeq: extra.write ?? null,
    });
    return seq ?? 0;
  }

  /** Expires every open change whose time ran out, each recorded once (whichever instance moves it first). */
  async function expireDue(): Promise<void> {
    const t = now();
    // A change its write claimed and never settled (the server stopped midway): the write may have reached
    // the platform, so it counts as sent with an unknown outcome, never as approved again (never sent twice).
    for (const row of await store.stuck(t - stuckAfterMs)) {
      if (await store.move(row.id, ['sending'], 'sent', { updated_at: t })) {
        await record({ ...row, state: 'sent' }, 'change.sent', 'sent', null, { detail: { outcome: 'unknown', recovered: true } });
      }
    }
    for (const row of await store.due(t)) {
      if (await store.move(row.id, ['pending', 'returned'], 'expired', { updated_at: t }, row.version)) {
        await record({ ...row, state: 'expired' }, 'change.expired', 'expired', null);
      }
    }
  }

  /**
   * Whether an owner's override of the current version counts now: only while whoever gave it is still an
   * enabled owner of the site (as approvals are counted again), the local demo always.
   */
  async function overrideStands(row: ChangeRow): Promise<boolean> {
    if (row.override_version !== row.version || !row.override_by_id) return false;
    if (row.override_by_id === DEMO_PERSON.id) return true;
    return store.isOwner(row.override_by_id, row.site_id);
  }

  /**
   * Where the change stands now: `pending` is approved when enough approvals count now, or an owner's
   * override of this version. `rules`: the sites' rules read already in this request (a list reads each once).
   */
  async function standing(
    row: ChangeRow,
    rules?: Map<string, ApprovalRule>,
  ): Promise<{ state: ChangeState; rule: ApprovalRule; counting: Awaited<ReturnType<ApprovalStore['countingApprovals']>> }> {
    let rule = rules?.get(row.site_id);
    if (!rule) {
      rule = (await store.rule(row.site_id)).rule;
      rules?.set(row.site_id, rule);
    }
    const counting = await store.countingApprovals(row, rule.approvers);
    let state = row.state as ChangeState;
    // Its time ran out (between the last expireDue and now): expired, whatever its approvals.
    if ((state === 'pending' || state === 'returned') && row.expires_at <= now()) state = 'expired';
    if (state === 'pending' && (counting.length >= rule.approvals || (await overrideStands(row)))) state = 'approved';
    return { state, rule, counting };
  }

  async function summaryOf(
    row: ChangeRow,
    who: Identity,
    rules?: Map<string, ApprovalRule>,
  ): Promise<ChangeSummary & { rule: ApprovalRule; counting: { personId: string; name: string; at: number }[] }> {
    const { state, rule, counting } = await standing(row, rules);
    const me = personOf(who);
    const mine = me !== undefined && me.id === row.author_id;
    const already = me ? (await store.approvalsOf(row.id, row.version)).some((approval) => approval.personId === me.id) : false;
    return {
      id: row.id,
      site: row.site_id,
      kind: row.kind as ApprovalKind,
      version: row.version,
      state,
      title: row.title,
      product: row.product,
      author: { id: row.author_id, name: row.author_name },
      askedAt: row.asked_at,
      expiresAt: row.expires_at,
      approvals: counting.length,
      needed: rule.approvals,
      mayApprove: state === 'pending' && !mine && !already && holdsApproverRole(who, row.site_id, rule.approvers),
      rule,
      counting,
    };
  }

  async function changeOf(row: ChangeRow, who: Identity): Promise<Change> {
    const { rule, counting, ...summary } = await summaryOf(row, who);
    const me = personOf(who);
    const mine = me !== undefined && me.id === row.author_id;
    const events = await store.eventsOf(row.id);
    const state = summary.state;
    return {
      ...summary,
      hash: row.hash,
      body: row.body,
      base: row.base,
      before: row.before_text,
      revertOf: row.revert_of,
      importId: row.import_id,
      items: row.kind === 'import' ? itemsOf(row) : null,
      approvedBy: counting.map((approval) => ({ id: approval.personId, name: approval.name, at: approval.at })),
      approvers: rule.approvers,
      override:
        row.override_version === row.version && row.override_by_id && (await overrideStands(row))
          ? {
              by: { id: row.override_by_id, name: row.override_by_name ?? '' },
              at: row.override_at ?? 0,
              reason: row.override_reason ?? '',
            }
          : null,
      events: events.map((event) => ({
        action: event.action as ChangeEvent['action'],
        version: event.version,
        by: event.byId ? { id: event.byId, name: event.byName ?? '' } : null,
        at: event.at,
        ...(event.reason !== null ? { reason: event.reason } : {}),
        ...(event.seq !== null ? { seq: event.seq } : {}),
        ...(event.writeSeq !== null ? { write: event.writeSeq } : {}),
      })),
      mayEdit: mine && EDITABLE.includes(row.state),
      mayWithdraw: mine && (OPEN_CHANGE_STATES.includes(state) || state === 'rejected') && state !== 'sending',
      mayOverride: (state === 'pending' || state === 'approved') && isOwnerOf(who, row.site_id),
      maySend: state === 'approved' && may(who, row.site_id, 'create'),
    };
  }

  return { store, activity, record, expireDue, standing, overrideStands, summaryOf, changeOf, expiryMs, now };
}

export type Approvals = ReturnType<typeof createApprovals>;
