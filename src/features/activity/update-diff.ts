/**
 * A product update as the activity record keeps it (`product.update`: the body sent and the product as the
 * server read it just before, both as the platform's text in the site's record shape), read back into the
 * one shape of src/contract/products.ts and shown as the editor's diff: field by field, from the product
 * before to the product as the update left it.
 *
 * The products model diffs two flat products (product-diff.ts); what it has no function for is a body
 * applied to a record without a form in between, so `applyUpdate` does that here, by the platform's rules
 * for a PUT (src/contract/products.ts, as the sandbox implements them): fields given overwrite, "" clears,
 * attributes and options with an id update that one, without an id are created, nothing left out goes.
 */
import {
  readProductRecord,
  updateBodyFromShape,
  wireProductUpdateSchema,
  type AttributeRecord,
  type OptionRecord,
  type ProductRecord,
  type ProductRecordShape,
  type WireProductUpdate,
} from '@/contract/products';
import { isJsonObject } from '@/contract/site-api-basics';
import type { ProductSettings } from '@/features/products/model/codec';
import { diffFlat, type ProductChange } from '@/features/products/model/product-diff';
import { BASE_FIELDS, fieldByWire, type Scope, type SiteFields } from '@/features/products/model/registry';
import { flatten } from '@/features/products/model/wire-fields';

/** An update from the record, read. */
export interface RecordedUpdate {
  /** The product's platform id. */
  product: string;
  /** The product as read just before the update, and the update's body, in the one shape. */
  before: ProductRecord;
  body: WireProductUpdate;
  /** The body as sent, exactly. */
  bodyText: string;
  /** The update this one reverts, when it is a revert. */
  reverts: number | null;
}

export type RecordedUpdateReading = { ok: true; update: RecordedUpdate } | { ok: false; problem: string };

/** The detail of a `product.update` entry, read through the site's record shape; why not, when it cannot be. */
export function readRecordedUpdate(detail: unknown, shape: ProductRecordShape): RecordedUpdateReading {
  if (!isJsonObject(detail)) return { ok: false, problem: 'the entry kept no detail' };
  const { product, body, before, reverts } = detail;
  if (typeof product !== 'string') return { ok: false, problem: 'the entry does not say which product it updated' };
  if (typeof body !== 'string') return { ok: false, problem: 'the entry kept no body' };
  if (typeof before !== 'string') return { ok: false, problem: 'the entry kept no product as it was before' };
  let beforeJson: unknown;
  let bodyJson: unknown;
  try {
    beforeJson = JSON.parse(before);
    bodyJson = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'what the entry kept is not JSON' };
  }
  const read = readProductRecord(beforeJson, shape);
  if (!read.ok) return { ok: false, problem: `the product before cannot be read: ${read.problem}` };
  if (!isJsonObject(bodyJson)) return { ok: false, problem: 'the body sent is not a JSON object' };
  const parsed = wireProductUpdateSchema.safeParse(updateBodyFromShape(bodyJson, shape));
  if (!parsed.success) return { ok: false, problem: 'the body sent is not an update of a product' };
  return {
    ok: true,
    update: {
      product,
      before: read.record,
      body: parsed.data,
      bodyText: body,
      reverts: typeof reverts === 'number' ? reverts : null,
    },
  };
}

/** `fields` over `target`, as a PUT applies them: each value given set, each "" removed, `skip` left alone. */
function apply<T extends object>(target: T, fields: object, skip: readonly string[]): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (skip.includes(key) || value === undefined) continue;
    if (value === '') delete out[key];
    else out[key] = value;
  }
  return out as T;
}

/**
 * The product as `body` leaves `before`, by the rules of a PUT. What it creates has no id yet (the
 * platform gives them), so the diff shows it as added.
 */
export function applyUpdate(before: ProductRecord, body: WireProductUpdate): ProductRecord {
  const after = apply(before, body, ['attributes']);
  if (body.attributes === undefined) return after;
  const attributes: AttributeRecord[] = [...(before.attributes ?? [])];
  for (const attribute of body.attributes) {
    const at = attribute.id === undefined ? -1 : attributes.findIndex((known) => known.id === attribute.id);
    const existing = attributes[at];
    if (existing === undefined) {
      const fresh = apply({} as AttributeRecord, attribute, ['id', 'items']);
      if (attribute.items) fresh.items = attribute.items.map((option) => apply({} as OptionRecord, option, ['id']));
      attributes.push(fresh);
      continue;
    }
    const changed = apply(existing, attribute, ['id', 'items']);
    if (attribute.items) {
      const items = [...(existing.items ?? [])];
      for (const option of attribute.items) {
        const index = option.id === undefined ? -1 : items.findIndex((known) => known.id === option.id);
        const known = items[index];
        if (known === undefined) items.push(apply({} as OptionRecord, option, ['id']));
        else items[index] = apply(known, option, ['id']);
      }
      changed.items = items;
    }
    attributes[at] = changed;
  }
  return { ...after, attributes };
}

/**
 * Every field of the registry, with the site's labels and kinds where the site has the field: an update
 * sent by anyone may change a field this site's editor hides, and the record shows it all the same.
 */
export function withEveryField(settings: ProductSettings): ProductSettings {
  const scoped = (scope: Scope) => BASE_FIELDS[scope].map((def) => fieldByWire(settings.fields, scope, def.wire) ?? def);
  const fields: SiteFields = { product: scoped('product'), attribute: scoped('attribute'), option: scoped('option') };
  return { ...settings, fields };
}

/** What the update changed, field by field, from the product before it to the product it left. */
export function updateChanges(update: Pick<RecordedUpdate, 'before' | 'body'>, settings: ProductSettings): ProductChange[] {
  return diffFlat(flatten(update.before), flatten(applyUpdate(update.before, update.body)), withEveryField(settings));
}
