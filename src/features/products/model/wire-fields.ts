/**
 * A product as a flat list of its fields on the wire, keyed so that the same field has the same key in
 * the product as read, as a colleague left it, and as the person's form would send it. Opening for edit,
 * the diff, the conflict view and the revert all compare products through this one module, with one
 * notion of "the same value" and one way of saying a value in words. Internal to the model: the screens
 * use open-for-edit.ts, product-diff.ts, merge-conflict.ts and revert.ts.
 *
 * - Keys: `name` for a product field; `a:31` for attribute 31 and `a:31/o:77` for its option 77 (ids are
 *   the platform's); a new item (no id yet) is `a+<form key>` or `a:31/o+<form key>`; a field of an item
 *   is `<item key>|<wire key>`.
 * - The same value: "" and absent are the same; an absent switch is "true" (the platform's default, and
 *   what the editor reads it as); categories and secure zones are compared by their ids, in order,
 *   whichever way the list is written (`[{"id":"1"}]` or `["1"]`).
 */
import type { AttributeRecord, OptionRecord, WireAttributeWithId, WireOptionWithId, WireProductUpdate } from '@/contract/products';
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { MAX_MINOR_UNITS } from '@/contract/rules';
import type { WireReference } from '@/contract/site-api';
import type { ProductSettings } from './codec';
import { formatMoney } from './money';
import { fieldByWire, type FieldDef, type SiteFields } from './registry';

/** A value as the wire has it: text, a list of references, or nothing. */
export type WireValue = string | readonly WireReference[] | undefined;

/** An attribute or option, as one of the flat product's items. */
export interface FlatItem {
  key: string;
  scope: 'attribute' | 'option';
  /** The platform's id; '' for an item not created yet. */
  id: string;
  /** The attribute's key, on an option. */
  parent?: string;
  /** The wire's own object, fields by wire key (the options of an attribute are items of their own). */
  wire: Record<string, unknown>;
}

/** A product, flat: its own fields by wire key, and its items in order (each attribute, then its options). */
export interface FlatProduct {
  product: Record<string, unknown>;
  items: Map<string, FlatItem>;
}

type WireItem = (WireAttributeWithId | AttributeRecord) & { items?: (WireOptionWithId | OptionRecord)[] };
type Body = Omit<WireProductUpdate, 'attributes'> & { attributes?: WireItem[] };

/**
 * Flattens a record or a body. `newKeyOf` names an item without an id (the form's key of it, so that
 * the same new item has the same key from one diff to the next); by default its position.
 */
export function flatten(body: Body, newKeyOf?: (attribute: number, option?: number) => string): FlatProduct {
  const { attributes, ...product } = body;
  const items = new Map<string, FlatItem>();
  (attributes ?? []).forEach((attribute, a) => {
    const { items: options, id, ...wire } = attribute;
    const key = id ? `a:${id}` : `a+${newKeyOf ? newKeyOf(a) : a}`;
    items.set(key, { key, scope: 'attribute', id: id ?? '', wire });
    (options ?? []).forEach((option, o) => {
      const { id: optionId, ...optionWire } = option;
      const optionKey = optionId ? `${key}/o:${optionId}` : `${key}/o+${newKeyOf ? newKeyOf(a, o) : o}`;
      items.set(optionKey, { key: optionKey, scope: 'option', id: optionId ?? '', parent: key, wire: optionWire });
    });
  });
  return { product, items };
}

const refIds = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((ref: unknown) => (typeof ref === 'string' ? ref : String((ref as { id?: unknown }).id ?? ''))) : [];

/** One comparable text per value: the same text means the same value to the platform. */
export function comparable(def: FieldDef, value: unknown): string {
  if (def.kind === 'references') return JSON.stringify(refIds(value));
  if (value === undefined || value === null || value === '') return def.kind === 'boolean' ? 'true' : '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const sameValue = (def: FieldDef, a: unknown, b: unknown): boolean => comparable(def, a) === comparable(def, b);

/** Whether a value is empty (nothing to show or send): "", absent, an empty list. */
export const isEmptyValue = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const WHOLE = /^(0|[1-9]\d*)$/;
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string): Intl.DateTimeFormat {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    dateFormats.set(locale, format);
  }
  return format;
}

/**
 * A wire value as the person reads it: a price in the site's decimals and the person's locale ("$19.99",
 * "19,99 €"), a date in their time zone, Yes or No, references by their names where the site names them.
 * What cannot be read so is shown as it is on the wire. Empty is "".
 */
export function displayValue(def: FieldDef, value: unknown, settings: ProductSettings): string {
  if (def.kind === 'references') {
    const names = new Map((def.named ?? []).map((entry) => [entry.value, entry.label]));
    return refIds(value)
      .map((id) => names.get(id) ?? id)
      .join(', ');
  }
  if (def.kind === 'boolean') return comparable(def, value) === 'false' ? 'No' : 'Yes';
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return JSON.stringify(value);
  if (def.kind === 'money' && WHOLE.test(value) && Number(value) <= MAX_MINOR_UNITS) {
    return formatMoney(Number(value), def.currency, settings.locale, settings.decimals);
  }
  if (def.kind === 'datetime' && WHOLE.test(value) && Number(value) <= MAX_EPOCH_SECONDS) {
    return dateFormat(settings.locale).format(new Date(Number(value) * 1000));
  }
  if (def.kind === 'choice') return def.options.find((option) => option.value === value)?.label ?? value;
  return value;
}

/** A field's own name: "Stock", "USD, Added to price", with the site's labels. */
export function fieldName(def: FieldDef, fields: SiteFields): string {
  const site = fieldByWire(fields, def.scope, def.wire) ?? def;
  return site.kind === 'money' ? `${site.currency.toUpperCase()}, ${site.label}` : site.label;
}

const itemNames = new WeakMap<FlatProduct, Map<string, string>>();

/** Where an item is, in words: `Attribute “Size”`, `Attribute “Size” › Option “S”`; by position when unnamed. */
export function itemName(flat: FlatProduct, key: string): string {
  let names = itemNames.get(flat);
  if (!names) {
    // Once per flat product: a diff of 500 options asks for each option's name many times.
    names = new Map();
    const counts = new Map<string, number>();
    for (const item of flat.items.values()) {
      const siblings = `${item.scope}:${item.parent ?? ''}`;
      const position = (counts.get(siblings) ?? 0) + 1;
      counts.set(siblings, position);
      const noun = item.scope === 'attribute' ? 'Attribute' : 'Option';
      const name = typeof item.wire.name === 'string' ? item.wire.name.trim() : '';
      const own = name !== '' ? `${noun} “${name}”` : `${noun} ${position}`;
      names.set(item.key, item.parent === undefined ? own : `${names.get(item.parent) ?? ''} › ${own}`);
    }
    itemNames.set(flat, names);
  }
  return names.get(key) ?? '';
}

/** A field key: the product's `name`, an item's `a:31|name`. */
export const fieldKey = (itemKey: string | undefined, wire: string) => (itemKey === undefined ? wire : `${itemKey}|${wire}`);

/** The value to send for a field: the value, or what clears it ("" for text, an empty list for references). */
export function sentValue(def: FieldDef, value: unknown): string | WireReference[] {
  if (def.kind === 'references') return Array.isArray(value) ? (value as WireReference[]) : [];
  if (def.kind === 'boolean') return comparable(def, value);
  return typeof value === 'string' ? value : '';
}
