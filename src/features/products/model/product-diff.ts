/**
 * What a save of an edited product changes, and the smallest update that says it.
 *
 *   diffProduct(before, form, settings) → { changes, body, problems }
 *
 * - `before`: the product as read when the editor opened it (or as a colleague left it, after a conflict).
 * - `changes`: field by field, in the order of the form (the product's fields, then each attribute and
 *   its options): `added` (a new attribute or option, one row per field it has), `changed`, `disabled`
 *   (switched off, or removed from the form: the platform cannot delete an attribute or option, so the
 *   update sends it with enabled "false") and `re-enabled`. Each says the field in words with the site's
 *   labels, its wire key, and the values before and after as the person reads them and as on the wire.
 * - `body`: the PUT body (WireProductUpdate): `name` and `enabled` always; each changed product field (a
 *   cleared one as "", cleared categories or secure zones as an empty list, a changed list whole); each
 *   attribute and option that changes, with its id and name and only its changed fields; new ones whole.
 *   `null` when nothing changes: then nothing is sent.
 * - `problems`: cells and dates the form holds that cannot be read (left out, so they would read as
 *   cleared); the editor's validation refuses such a form before it asks for a diff.
 *
 * Only the fields the site shows are compared and sent; a field the site hides keeps its value on the
 * platform. The order of attributes and options is not compared: the platform keeps no order of its own
 * that an update can change.
 */
import type { ProductRecord, WireAttributeWithId, WireOptionWithId, WireProductUpdate } from '@/contract/products';
import { encodeProduct, type FormProblem, type ProductSettings } from './codec';
import type { ProductForm } from './product-form';
import type { FieldDef, Scope } from './registry';
import {
  comparable,
  displayValue,
  fieldKey,
  fieldName,
  flatten,
  isEmptyValue,
  itemName,
  sameValue,
  sentValue,
  type FlatItem,
  type FlatProduct,
  type WireValue,
} from './wire-fields';

export type ProductChangeKind = 'changed' | 'added' | 'disabled' | 're-enabled';

export interface ProductChange {
  kind: ProductChangeKind;
  scope: Scope;
  /** The field in words, where included: `Attribute “Size” › Option “S” › USD, Added to price`. */
  label: string;
  /** Where the field is (`Attribute “Size” › Option “S”`; '' on the product) and its own name (`Stock`). */
  where: string;
  field: string;
  /** The field's key in the body, relative to its object (`module_field_14/product/price/usd/1`). */
  wire: string;
  /** The platform ids of the field's attribute and option, where it has them (none on a new one). */
  attributeId?: string;
  optionId?: string;
  /** As the person reads them: "$19.99", "1 Mar 2026, 13:00:00", "Yes"; "" for empty. */
  before: string;
  after: string;
  /** As on the wire (undefined: absent). */
  beforeWire: WireValue;
  afterWire: WireValue;
  /** Stable key of the field across the product's versions (`a:31/o:77|name`), for choosing per field. */
  key: string;
}

export interface ProductDiff {
  changes: ProductChange[];
  body: WireProductUpdate | null;
  problems: FormProblem[];
}

const wireValue = (value: unknown): WireValue => (typeof value === 'string' || Array.isArray(value) ? (value as WireValue) : undefined);

/** The field changes from one flat product to another, over the site's fields. */
export function diffFlat(before: FlatProduct, after: FlatProduct, settings: ProductSettings): ProductChange[] {
  const changes: ProductChange[] = [];
  const row = (kind: ProductChangeKind, def: FieldDef, from: unknown, to: unknown, item?: FlatItem, where = ''): ProductChange => {
    const field = fieldName(def, settings.fields);
    const parent = item?.parent === undefined ? undefined : (after.items.get(item.parent) ?? before.items.get(item.parent));
    const attribute = item?.scope === 'attribute' ? item : parent;
    const option = item?.scope === 'option' ? item : undefined;
    return {
      kind,
      scope: def.scope,
      label: where === '' ? field : `${where} › ${field}`,
      where,
      field,
      wire: def.wire,
      ...(attribute?.id ? { attributeId: attribute.id } : {}),
      ...(option?.id ? { optionId: option.id } : {}),
      // A new item had nothing before (not even the switch's default).
      before: kind === 'added' ? '' : displayValue(def, from, settings),
      after: displayValue(def, to, settings),
      beforeWire: wireValue(from),
      afterWire: wireValue(to),
      key: fieldKey(item?.key, def.wire),
    };
  };
  for (const def of settings.fields.product) {
    const from = before.product[def.wire];
    const to = after.product[def.wire];
    if (!sameValue(def, from, to)) changes.push(row('changed', def, from, to));
  }
  for (const item of after.items.values()) {
    const old = before.items.get(item.key);
    const defs = settings.fields[item.scope];
    if (!old) {
      const where = itemName(after, item.key);
      for (const def of defs) {
        const value = item.wire[def.wire];
        if (!isEmptyValue(value)) changes.push(row('added', def, undefined, value, item, where));
      }
      continue;
    }
    const where = itemName(before, item.key);
    for (const def of defs) {
      const from = old.wire[def.wire];
      const to = item.wire[def.wire];
      if (sameValue(def, from, to)) continue;
      const kind = def.wire !== 'enabled' ? 'changed' : comparable(def, to) === 'false' ? 'disabled' : 're-enabled';
      changes.push(row(kind, def, from, to, item, where));
    }
  }
  return changes;
}

/** An item's wire object as a new one is sent: its fields that have a value, name first. */
function whole(item: FlatItem, defs: readonly FieldDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = { name: item.wire.name ?? '' };
  for (const def of defs) {
    const value = item.wire[def.wire];
    if (def.wire !== 'name' && !isEmptyValue(value)) out[def.wire] = value;
  }
  return out;
}

/** The smallest update body that makes `after` of the changes: null when there are none. */
export function bodyOf(changes: readonly ProductChange[], after: FlatProduct, settings: ProductSettings): WireProductUpdate | null {
  if (changes.length === 0) return null;
  const { fields } = settings;
  const defOf = (scope: Scope, wire: string) => fields[scope].find((def) => def.wire === wire);
  const body: WireProductUpdate & Record<string, unknown> = {
    name: typeof after.product.name === 'string' ? after.product.name : '',
    enabled: after.product.enabled === 'false' ? 'false' : 'true',
  };
  const byItem = new Map<string, ProductChange[]>();
  for (const change of changes) {
    if (change.scope === 'product') {
      const def = defOf('product', change.wire);
      if (def) body[change.wire] = sentValue(def, after.product[change.wire]);
      continue;
    }
    const itemKey = change.key.slice(0, change.key.lastIndexOf('|'));
    byItem.set(itemKey, [...(byItem.get(itemKey) ?? []), change]);
  }
  const attributes: WireAttributeWithId[] = [];
  const itemBody = (item: FlatItem): Record<string, unknown> => {
    const defs = fields[item.scope];
    if (item.id === '') return whole(item, defs);
    const out: Record<string, unknown> = { id: item.id, name: item.wire.name ?? '' };
    for (const change of byItem.get(item.key) ?? []) {
      const def = defs.find((d) => d.wire === change.wire);
      if (def) out[change.wire] = sentValue(def, item.wire[change.wire]);
    }
    return out;
  };
  for (const attribute of after.items.values()) {
    if (attribute.scope !== 'attribute') continue;
    const options = [...after.items.values()].filter((option) => option.parent === attribute.key && byItem.has(option.key));
    if (!byItem.has(attribute.key) && options.length === 0) continue;
    const entry = itemBody(attribute) as WireAttributeWithId;
    // A new attribute goes whole, with every option it has (all new with it).
    const sent = attribute.id === '' ? [...after.items.values()].filter((option) => option.parent === attribute.key) : options;
    if (sent.length > 0) entry.items = sent.map((option) => itemBody(option) as WireOptionWithId);
    attributes.push(entry);
  }
  if (attributes.length > 0) body.attributes = attributes;
  return body;
}

/**
 * The product as the form would leave it, flat: the form encoded (ids kept), and every attribute or
 * option of `before` that the form no longer has, switched off (the platform cannot delete it). An option
 * of a removed attribute is left as it is: switching its attribute off hides it.
 */
export function formAsFlat(
  before: ProductRecord,
  form: ProductForm,
  settings: ProductSettings,
): { flat: FlatProduct; problems: FormProblem[] } {
  const { body, problems } = encodeProduct(form, settings);
  const flat = flatten(body, (a, o) => {
    const attribute = form.attributes[a];
    return (o === undefined ? attribute?.key : attribute?.options[o]?.key) ?? `${a}.${o ?? ''}`;
  });
  const old = flatten(before);
  const kept = new Set(flat.items.keys());
  for (const item of old.items.values()) {
    if (kept.has(item.key)) continue;
    if (item.scope === 'option' && item.parent !== undefined && !kept.has(item.parent)) continue;
    flat.items.set(item.key, { ...item, wire: { ...item.wire, enabled: 'false' } });
  }
  return { flat, problems };
}

/** What saving `form` changes on `before`, and the body that says it (null: nothing to send). */
export function diffProduct(before: ProductRecord, form: ProductForm, settings: ProductSettings): ProductDiff {
  const { flat, problems } = formAsFlat(before, form, settings);
  const changes = diffFlat(flatten(before), flat, settings);
  return { changes, body: bodyOf(changes, flat, settings), problems };
}
